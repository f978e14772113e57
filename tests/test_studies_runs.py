"""A study end to end (forest_envs/studies/runner.py, run_one.py, the maskable_ppo adapter):
the tiny study's two runs, one stopped half way as by Ctrl-C, then the same study again:
the finished run is kept, the other continues from its checkpoint, and the results folder
gets its curves, final entries, aggregate, table and plots; a copy of the folder without the
runs' training folders still holds the finished runs; a run cut during its evaluation
evaluates only what is missing. The same through the command line,
with each run its own process, is in the slow suite."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from forest_envs.cli.main import main
from forest_envs.studies import load_study
from forest_envs.studies.algorithms import PublishedPolicy
from forest_envs.studies.algorithms.maskable_ppo import MaskablePPO
from forest_envs.studies.dispatch import InProcess
from forest_envs.studies.plan import plans, read_plan, write_plan
from forest_envs.studies.results import read_curve, read_final, write_curve
from forest_envs.studies.run_one import run, session_line
from forest_envs.studies.runner import run_study

pytest.importorskip("sb3_contrib")
pytest.importorskip("rliable")

HALF = 1024  # of the tiny tier's 2,048 learner steps


@pytest.fixture
def ctrl_c_half_way_for_seed_1(monkeypatch):
    """Seed 1's training asks to stop (as Ctrl-C does) once it passes HALF steps."""
    from forest_envs.train.sb3 import TrainingMonitor

    original = TrainingMonitor._on_step

    def on_step(self):
        if self.cfg["seed"] == 1 and self.num_timesteps >= HALF:
            self.ctrl_c.requested = True
        return original(self)

    monkeypatch.setattr(TrainingMonitor, "_on_step", on_step)
    return monkeypatch


class _NoRunStarts(InProcess):
    def start(self, plan) -> None:
        raise AssertionError(f"{plan.run_id} started again")


def test_a_tiny_study_stopped_half_way_and_continued(tmp_path, ctrl_c_half_way_for_seed_1):
    study = load_study("tiny")
    out = tmp_path / "tiny"
    first = run_study(study, out, dispatch=InProcess(), progress=False)
    seed_0, seed_1 = (out / "runs" / "maskable_ppo" / "chickwood_3p" / f"seed_{s}" for s in (0, 1))
    assert first.finished == ["maskable_ppo/chickwood_3p/seed_0"]
    assert first.interrupted == ["maskable_ppo/chickwood_3p/seed_1"] and first.report is None
    # the run left half way: a checkpoint at HALF steps, nothing evaluated
    stopped = json.loads((seed_1 / "training" / "checkpoints" / "latest.json").read_text())
    assert stopped["timesteps"] == HALF
    assert read_final(seed_1) is None and read_curve(seed_1) == []
    kept = (seed_0 / "final.json").stat().st_mtime_ns

    ctrl_c_half_way_for_seed_1.undo()
    second = run_study(study, out, dispatch=InProcess(), progress=False)
    assert second.failed == [] and second.interrupted == []
    assert (seed_0 / "final.json").stat().st_mtime_ns == kept          # not run again
    summary = json.loads((seed_1 / "training" / "summary.json").read_text())
    assert summary["resumed_from"].endswith("latest.zip")               # continued, not restarted
    assert summary["session"]["timesteps"] == 2048 - HALF and summary["timesteps"] == 2048
    # each session's first log line says where the run's training stood
    sessions = [line.split(": ", 2)[2] for line in (seed_1 / "log.txt").read_text().splitlines()
                if ": session of " in line]
    assert sessions == ["training from learner step 0", f"continuing from its checkpoint at learner step {HALF:,}"]

    for folder, seed in ((seed_0, 0), (seed_1, 1)):
        curve = read_curve(folder)
        assert [(p.point, p.nominal_steps, p.learner_steps) for p in curve] == [(1, 1024, 1024), (2, 2048, 2048)]
        assert (folder / "curve.csv").read_text().splitlines()[0].startswith("point,nominal_steps,learner_steps")
        entry = json.loads((folder / "final.json").read_text())
        assert entry["format"] == "forest_envs benchmark entry 1" and entry["games_per_lineup"] == 6
        assert [row["name"] for row in entry["lineups"]] == ["random", "heuristic", "ppo", "mixed"]
        block = entry["study"]
        assert (block["study"], block["tier"], block["seed"], block["algorithm"]) == ("tiny", "tiny", seed,
                                                                                     "maskable_ppo")
        assert block["learner_steps"] == 2048 and block["study_file"] == "forest_envs/configs/studies/tiny.yaml"
    aggregate = json.loads((out / "aggregate.json").read_text())
    assert aggregate["study_file"] == "forest_envs/configs/studies/tiny.yaml"     # not this machine's path
    assert "Study file: `forest_envs/configs/studies/tiny.yaml`." in second.report.read_text()
    assert set(aggregate["scores"]) == {"win_rate", "rating"}
    assert len(aggregate["scores"]["rating"]["runs"]["maskable_ppo"]["chickwood_3p"]) == 2
    assert (out / "plots" / "win_rate_curves.svg").is_file()
    assert second.report == out / "results.md" and "| chickwood_3p | maskable_ppo |" in second.report.read_text()
    assert (out / "study.yaml").read_text() == Path(study.source).read_text()
    assert not (out / "published").exists() and aggregate["published"] == []  # maskable_ppo publishes none

    # The folder copied without each run's training/ (its checkpoints and policies: what
    # docs/results/small keeps of the small study) still holds every finished run: the same
    # study in the copy starts none of them again and writes the same aggregate.
    kept = tmp_path / "kept"
    shutil.copytree(out, kept, ignore=lambda folder, names: [n for n in names if n == "training"])
    assert not list(kept.glob("runs/*/*/*/training"))
    again = run_study(study, kept, dispatch=_NoRunStarts(), progress=False)
    assert sorted(again.finished) == sorted(second.finished) and len(again.finished) == 2
    assert again.failed == again.interrupted == [] and again.report == kept / "results.md"
    assert json.loads((kept / "aggregate.json").read_text()) == aggregate

    # An algorithm that published a policy for the game: the study, its runs finished, evaluates
    # it as a final policy (once) and the report sets it beside the runs.
    ctrl_c_half_way_for_seed_1.setattr(MaskablePPO, "published", lambda self, env, config: PublishedPolicy(
        "heuristic", 5_000, "the heuristic, published"))
    with_published = run_study(study, kept, dispatch=_NoRunStarts(), progress=False)
    (published,) = json.loads((kept / "aggregate.json").read_text())["published"]
    assert published == json.loads((kept / "published" / "maskable_ppo" / "chickwood_3p" / "final.json")
                                   .read_text())["published"]
    assert (published["agent"], published["learner_steps"], published["games_per_lineup"]) == ("heuristic", 5_000, 6)
    assert ("| chickwood_3p | maskable_ppo | the heuristic, published | 5,000 | "
            f"{published['score_win_rate']:.3f} |") in with_published.report.read_text()

    # A session cut during seed 1's evaluation (its second point and final entry not written):
    # the run evaluates what is missing, and only that.
    curve = read_curve(seed_1)
    write_curve(seed_1, curve[:1])
    (seed_1 / "final.json").unlink()
    trained = (seed_1 / "training" / "summary.json").stat().st_mtime_ns
    assert run(read_plan(seed_1 / "plan.json"), say=lambda text: None) == 0
    assert read_curve(seed_1) == curve and read_final(seed_1) is not None
    assert (seed_1 / "training" / "summary.json").stat().st_mtime_ns == trained


def test_a_changed_study_is_refused_in_the_same_folder(tmp_path):
    from forest_envs.studies import parse_study
    from forest_envs.studies.plan import plans, write_plan

    raw = {"name": "t", "tier": "tiny", "seeds": [0],
           "algorithms": [{"name": "maskable_ppo", "settings": {"n_envs": 2, "ppo.batch_size": 256}}],
           "games": [{"env": "chickwood_v0", "config": {"num_players": 3}}],
           "evaluation": {"points": 2, "games": 3, "final_games": 6}}
    write_plan(plans(parse_study(raw), tmp_path)[0])
    raw["algorithms"][0]["settings"]["ppo.batch_size"] = 512
    with pytest.raises(Exception, match=r"holds a run of another plan \(settings: .*give the study another --out"):
        write_plan(plans(parse_study(raw), tmp_path)[0])


def test_a_moved_results_folder_plans_its_runs_where_they_are_now(tmp_path):
    """Its process reads the run's folder from plan.json: a study moved (or carried to another
    machine) and continued must train and evaluate in the new folder, not the old one."""
    study = load_study("tiny")
    old = plans(study, tmp_path / "before")[0]
    write_plan(old)
    shutil.copytree(tmp_path / "before", tmp_path / "after")
    moved = plans(study, tmp_path / "after")[0]
    assert read_plan(moved.path / "plan.json") == old                       # the copy names the old folder
    write_plan(moved)
    assert read_plan(moved.path / "plan.json") == moved                     # the new folder and references
    assert read_plan(moved.path / "plan.json").path == tmp_path / "after" / "runs/maskable_ppo/chickwood_3p/seed_0"
    assert read_plan(old.path / "plan.json") == old
    kept = (moved.path / "plan.json").stat().st_mtime_ns
    write_plan(moved)                                                        # the same plan: not written again
    assert (moved.path / "plan.json").stat().st_mtime_ns == kept


class _StoppedOnly:
    """A dispatch whose wait() ends the study with ``error``; it records its stop() calls."""

    slots = 1

    def __init__(self, error: BaseException):
        self.error, self.started, self.stops = error, [], 0

    def start(self, plan):
        self.started.append(plan.run_id)

    def wait(self, timeout):
        raise self.error

    def stop(self):
        self.stops += 1
        return []


@pytest.mark.parametrize("error", [KeyboardInterrupt(), BrokenPipeError(), RuntimeError("a bug")])
def test_whatever_ends_a_study_stops_its_runs_first(tmp_path, monkeypatch, error):
    """Ctrl-C with the output gone (the same Ctrl-C ended `| tee`), a closed output, a bug:
    the runs get their stop (a SIGINT each: they save a checkpoint) before the study ends.
    Found when Ctrl-C of `forest-envs study ... | tee` left the small study's runs training."""
    from forest_envs.train.progress import Progress

    def line(self, text):
        if self.enabled and text.startswith("Ctrl-C"):
            raise BrokenPipeError
    monkeypatch.setattr(Progress, "line", line)
    dispatch = _StoppedOnly(error)
    with pytest.raises(type(error)):
        run_study(load_study("tiny"), tmp_path / "tiny", dispatch=dispatch)
    assert dispatch.started == ["maskable_ppo/chickwood_3p/seed_0"] and dispatch.stops == 1


def test_runs_start_seed_by_seed_so_a_part_run_study_compares_on_equal_seeds(tmp_path):
    from forest_envs.studies.plan import plans

    order = [(p.seed, p.game, p.algorithm) for p in plans(load_study("small"), tmp_path)]
    assert len(order) == 60
    assert order[:4] == [(0, "chickwood_3p", a) for a in ("maskable_ppo", "rllib_ppo", "expert_iteration", "dqn")]
    assert {s for s, _, _ in order[:12]} == {0} and len(set(order[:12])) == 12
    assert [s for s, _, _ in order] == sorted(s for s, _, _ in order)


def test_a_cut_of_a_study_runs_the_studys_own_runs(tmp_path):
    from forest_envs.core.errors import ConfigError
    from forest_envs.studies.plan import plans

    small = load_study("small")
    cut = small.selected(games=["chickwood_3p"], algorithms=["maskable_ppo"], seeds=[1, 0])
    assert cut.selection == "games chickwood_3p; algorithms maskable_ppo; seeds 0, 1"
    whole = {p.run_id: p for p in plans(small, tmp_path)}
    assert [(p.run_id, p == whole[p.run_id]) for p in plans(cut, tmp_path)] == [
        ("maskable_ppo/chickwood_3p/seed_0", True), ("maskable_ppo/chickwood_3p/seed_1", True)]
    assert small.selected() is small
    with pytest.raises(ConfigError, match=r"^study small has no game chickwood_5p; its games are "
                                          r"chickwood_3p, roundforest_3p, sherwood_4p$"):
        small.selected(games=["chickwood_5p"])
    with pytest.raises(ConfigError, match=r"^study small has no seed 9; its seeds are 0, 1, 2, 3, 4$"):
        small.selected(seeds=[9])


def test_each_local_run_evaluates_over_its_share_of_the_cores(monkeypatch, capsys):
    from forest_envs.evaluation import workers
    from forest_envs.studies.dispatch import LocalProcesses
    from forest_envs.studies.run_one import main as run_one

    monkeypatch.setattr(workers, "cpu_cores", lambda: 4)
    assert [LocalProcesses(jobs).eval_workers for jobs in (1, 2, 3, 4, 8)] == [4, 2, 1, 1, 1]
    with pytest.raises(SystemExit):
        run_one(["plan.json", "--workers", "0"])
    assert "--workers must be at least 1, got 0" in capsys.readouterr().err


def test_each_run_process_has_a_fixed_hash_seed_whatever_the_shells(tmp_path, monkeypatch):
    import subprocess

    from forest_envs.studies import dispatch

    monkeypatch.setenv("PYTHONHASHSEED", "random")
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    env = dispatch.run_environment()
    assert (env["PYTHONHASHSEED"], env["OMP_WAIT_POLICY"]) == ("0", "PASSIVE")
    started = {}

    class Started:
        pid = 1

        def __init__(self, argv, **kwargs):
            started.update(kwargs)

    monkeypatch.setattr(subprocess, "Popen", Started)
    plan = next(iter(plans(load_study("tiny"), tmp_path)))
    plan.path.mkdir(parents=True)
    dispatch.LocalProcesses(1).start(plan)
    assert started["env"]["PYTHONHASHSEED"] == "0"


# A run's training in a process of its own, as run_one's; prints its policy's digest.
TRAIN_RLLIB_PPO = """
import hashlib, sys
from pathlib import Path
import numpy as np
from forest_envs.studies.algorithms import TrainingJob, algorithm
settings = {"policy.net_arch": [16], "ppo.n_epochs": 1, "rllib.train_batch_size": 512,
            "rllib.minibatch_size": 128, "rllib.num_env_runners": 0, "rllib.num_cpus": 1}
job = TrainingJob("chickwood_v0", {"num_players": 3}, 0, 1024, 1024, Path(sys.argv[1]), settings)
algorithm("rllib_ppo").train(job)
policy = np.load(Path(sys.argv[1]) / "policies" / "step_000000001024.npz")
print(hashlib.sha256(b"".join(policy[k].tobytes() for k in sorted(policy.files))).hexdigest())
"""


@pytest.mark.slow  # two RLlib trainings, each its own process and Ray instance (about 20 s)
def test_rllib_ppo_trains_the_same_policy_whatever_the_shells_hash_seed(tmp_path, monkeypatch):
    # Under hash seeds 1 and 2 themselves these two policies differ (RLlib's training follows
    # its process's string-hash seed; which part of it was not traced): the run's environment
    # is what makes them the same.
    import subprocess
    import sys

    from forest_envs.studies.dispatch import run_environment

    pytest.importorskip("ray")
    digests = []
    for shell_seed in ("1", "2"):
        monkeypatch.setenv("PYTHONHASHSEED", shell_seed)
        out = subprocess.run([sys.executable, "-c", TRAIN_RLLIB_PPO, str(tmp_path / shell_seed)],
                             env=run_environment(), capture_output=True, text=True, check=True)
        digests.append(out.stdout.split()[-1])
    assert digests[0] == digests[1]


def test_the_command_refuses_bad_input_in_one_line(tmp_path, capsys):
    assert main(["study", "nope"]) == 2
    assert capsys.readouterr().err.startswith("forest-envs: study file 'nope' does not exist; give a "
                                              "YAML file or the name of a shipped study: baselines, small, tiny")
    assert main(["study", "tiny", "--jobs", "0"]) == 2
    assert capsys.readouterr().err == "forest-envs: --jobs must be at least 1, got 0\n"
    assert main(["study", "tiny", "--seeds", "0;1"]) == 2
    assert capsys.readouterr().err == ("forest-envs: --seeds takes seeds separated by commas, such as "
                                       "0,1; got '0;1'\n")
    assert main(["study", "tiny", "--algorithm", "dqn"]) == 2
    assert capsys.readouterr().err == ("forest-envs: study tiny has no algorithm dqn; its algorithms "
                                       "are maskable_ppo\n")


@pytest.mark.slow
def test_the_command_runs_each_run_in_its_own_process(tmp_path, capsys):
    out = tmp_path / "tiny"
    assert main(["study", "tiny", "--out", str(out), "--jobs", "2"]) == 0
    text = capsys.readouterr().out
    assert "runs: 2/2 done, 0 running, 0 left" in text and f"wrote {out / 'results.md'}" in text
    assert "final evaluation written" in (out / "runs/maskable_ppo/chickwood_3p/seed_1/log.txt").read_text()
    # a second time: everything is kept, only the report is written again
    assert main(["study", "tiny", "--out", str(out), "--jobs", "2"]) == 0
    assert "2 already finished" in capsys.readouterr().out


def test_sigterm_stops_the_study_as_ctrl_c_does():
    import os
    import signal
    import time

    from forest_envs.cli.study import sigterm_as_ctrl_c

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), sigterm_as_ctrl_c():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler's KeyboardInterrupt ends the sleep at once
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_run_takes_the_studys_sigint_even_when_it_came_ignored():
    import signal

    from forest_envs.studies.run_one import take_sigint

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a shell's background job has it
    try:
        take_sigint()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.slow
def test_a_study_in_the_background_stops_on_kill_with_its_checkpoints(tmp_path):
    """Started as `nohup forest-envs study ... &` starts it (SIGINT ignored), the study stops on
    `kill` (SIGTERM): its run saves a checkpoint and the next session continues from it."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "tiny"
    proc = subprocess.Popen([sys.executable, "-m", "forest_envs.cli", "study", "tiny", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    checkpoints = out / "runs/maskable_ppo/chickwood_3p/seed_0/training/checkpoints"
    deadline = time.time() + 240
    while not list(checkpoints.glob("model_*.zip")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()[0]
    proc.send_signal(signal.SIGTERM)
    text = proc.communicate(timeout=180)[0]
    assert proc.returncode == 130, text
    assert "study interrupted: finished runs are kept" in text
    log = (out / "runs/maskable_ppo/chickwood_3p/seed_0/log.txt").read_text()
    assert "training stopped at" in log or "interrupted: the next session continues" in log, log
    assert read_final(out / "runs/maskable_ppo/chickwood_3p/seed_0") is None


@pytest.mark.slow  # two RLlib sessions, each its own Ray instance
def test_rllib_ppo_continues_from_its_checkpoint(tmp_path):
    from dataclasses import replace

    from forest_envs.studies.algorithms import TrainingJob, algorithm

    pytest.importorskip("ray")
    settings = {"policy.net_arch": [16], "ppo.n_epochs": 1, "rllib.train_batch_size": 512,
                "rllib.minibatch_size": 128, "rllib.num_env_runners": 0, "rllib.num_cpus": 1}
    job = TrainingJob("chickwood_v0", {"num_players": 3}, 0, 2048, 1024, tmp_path / "training", settings)
    rllib_ppo = algorithm("rllib_ppo")
    # a first session that stopped half way (as a budget of 1,024 steps makes it)
    half = rllib_ppo.train(replace(job, learner_steps=1024))
    assert (half.finished, half.learner_steps) == (True, 1024)
    done = rllib_ppo.train(job)
    assert (done.finished, done.learner_steps) == (True, 2048)            # counted on, not from 0
    assert [c.learner_steps for c in rllib_ppo.checkpoints(job)] == [1024, 2048]
    assert rllib_ppo.train(job).learner_steps == 2048                     # at the budget: nothing to do


def test_the_time_left_before_any_run_ends_is_the_running_runs_training_pace(tmp_path):
    """Two runs of the tiny study (2,048 learner steps) under way for 100 s, one from 0 to 512
    saved steps, one from 0 to 1,024: a mean pace of 7.68 steps/s on each of 2 slots, and
    1,536 + 1,024 steps left: 166.7 s. Once a run has finished, its duration is the pace."""
    import time

    from forest_envs.studies.plan import plans
    from forest_envs.studies.runner import Running, StudyProgress
    from forest_envs.train.progress import Progress

    first, second = plans(load_study("tiny"), tmp_path)
    for plan, steps in ((first, 512), (second, 1024)):
        saved = plan.job().folder / "checkpoints"
        saved.mkdir(parents=True)
        (saved / "latest.json").write_text(json.dumps({"timesteps": steps, "wall_seconds": 100.0}))
    meter = StudyProgress(Progress(False), total=2, done_before=0, slots=2, budget=2048)
    started = time.time() - 100
    running = [Running(first, started, 0), Running(second, started, 0)]
    assert meter.training_left(running) == pytest.approx(2560 / (7.68 * 2), rel=0.01)
    assert meter.status(running).endswith(" of training left at the pace of the runs under way "
                                          "(evaluations not counted)")
    assert meter.training_left([Running(first, started, 512)]) is None  # nothing gained yet
    meter.took(first, 300.0)
    assert meter.time_left(running) == pytest.approx(200.0, abs=2.0)  # (300 - 100) x 2 runs / 2 slots
    assert meter.status(running).endswith((", about 0:03:19 left", ", about 0:03:20 left"))


def test_the_time_left_goes_by_what_runs_of_the_same_algorithm_and_game_took(tmp_path):
    """The small study's runs differ several-fold by algorithm: a run not yet finished is
    expected to take what finished runs of its algorithm on its game took, else of its
    algorithm, else on its game, else all of them."""
    import time

    from forest_envs.studies.plan import plans
    from forest_envs.studies.runner import Running, StudyProgress
    from forest_envs.train.progress import Progress

    by_id = {p.run_id: p for p in plans(load_study("small"), tmp_path)}
    ppo_cw, ei_cw, ei_rf, ppo_rf, dqn_cw, dqn_sw = (by_id[i] for i in (
        "maskable_ppo/chickwood_3p/seed_0", "expert_iteration/chickwood_3p/seed_0",
        "expert_iteration/roundforest_3p/seed_0", "maskable_ppo/roundforest_3p/seed_0",
        "dqn/chickwood_3p/seed_0", "dqn/sherwood_4p/seed_0"))
    waiting = [ppo_rf, dqn_cw, dqn_sw]
    meter = StudyProgress(Progress(False), total=60, done_before=0, slots=2, budget=200_000,
                          waiting=waiting)
    assert meter.time_left([]) is None and meter.expected(ppo_cw) is None
    meter.took(ppo_cw, 600.0)
    meter.took(ei_cw, 2400.0)
    meter.took(ei_cw, 2600.0)
    assert meter.expected(ei_cw) == 2500.0       # its algorithm on its game
    assert meter.expected(ppo_rf) == 600.0       # its algorithm
    assert meter.expected(dqn_cw) == pytest.approx(5600 / 3)  # its game: (600 + 2,400 + 2,600) / 3
    assert meter.expected(ppo_cw) == 600.0
    meter.took(dqn_cw, 100.0)
    assert meter.expected(dqn_sw) == 100.0       # its algorithm, on another game
    meter.durations.pop(("dqn", "chickwood_3p"))
    assert meter.expected(dqn_sw) == pytest.approx(5600 / 3)  # all of them
    running = [Running(ei_rf, time.time() - 500.0, 0)]
    # (2,500 - 500) + 600 + 5,600 / 3 + 5,600 / 3 seconds on 2 slots
    assert meter.time_left(running) == pytest.approx((2000 + 600 + 2 * 5600 / 3) / 2, abs=2.0)
    waiting.pop(0)                                # the runner started it: the list is the runner's
    assert meter.time_left([]) == pytest.approx(5600 / 3)


def test_a_run_continued_from_a_checkpoint_counts_at_its_pace(tmp_path):
    """A run that started this session at 1,024 of the tiny tier's 2,048 steps and took 150 s
    stands for a whole run of 300 s; one under way from 1,536 steps is expected to take a
    quarter of that; one that only evaluated (at its budget) says nothing of a whole run."""
    import time

    from forest_envs.studies.dispatch import Ended
    from forest_envs.studies.plan import plans
    from forest_envs.studies.results import FinalScores, write_final
    from forest_envs.studies.runner import Running, StudyProgress
    from forest_envs.train.progress import Progress

    first, second = plans(load_study("tiny"), tmp_path)
    first.path.mkdir(parents=True)
    write_final(first.path, {}, FinalScores(
        study="tiny", study_file="tiny.yaml", tier="tiny", algorithm="maskable_ppo", game="chickwood_3p", seed=0,
        learner_steps=2048, training_seconds=200.0, games_per_lineup=6, win_rate_vs_heuristic=0.3, rating_mu=None,
        score_win_rate=0.5, score_rating=None))
    meter = StudyProgress(Progress(False), total=2, done_before=0, slots=1, budget=2048)
    meter.ended(Ended(first, 0, 150.0), [], steps_at_start=1024)
    assert meter.expected(second) == pytest.approx(300.0)
    under_way = Running(second, time.time() - 30, 1536)
    assert meter.time_left([under_way]) == pytest.approx(300 / 4 - 30, abs=1.0)
    meter.ended(Ended(first, 0, 40.0), [], steps_at_start=2048)      # evaluated only
    assert meter.durations == {("maskable_ppo", "chickwood_3p"): [300.0]} and meter.done == 2


def test_a_sessions_log_line_says_when_it_started_and_where_the_run_stood(tmp_path):
    plan = plans(load_study("tiny"), tmp_path)[0]
    at = 1_765_000_000.0  # 2025-12-06 05:46:40 UTC
    head = f"{plan.run_id}: session of 2025-12-06 05:46:40 UTC: "
    assert session_line(plan, 0, at) == head + "training from learner step 0"
    assert session_line(plan, 1024, at) == head + "continuing from its checkpoint at learner step 1,024"
    assert session_line(plan, 2048, at) == head + "trained (2,048 learner steps): evaluating what is not yet evaluated"
