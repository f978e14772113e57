"""A study's runs on a Ray cluster (forest_envs/studies/ray_runs.py): a run's folder travels to
its node and back as an archive (only files inside the folder are written back), the actor runs
the plan on its node with the node's own paths and refuses another forest_envs version, and
(slow) the tiny study on a real two-node cluster gives the results of a local run."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from forest_envs import __version__
from forest_envs.cli.main import main
from forest_envs.studies import load_study
from forest_envs.studies.plan import plans, write_plan
from forest_envs.studies.ray_runs import PLAN, RunHost, pack_folder, replace_folder, unpack_folder
from forest_envs.studies.results import FinalScores, read_curve, read_final, write_final

ROOT = Path(__file__).resolve().parents[1]


def test_a_folder_travels_as_an_archive_and_replaces_what_was_there(tmp_path):
    src = tmp_path / "node"
    (src / "training" / "checkpoints").mkdir(parents=True)
    (src / "training" / "checkpoints" / "step_1024.zip").write_bytes(b"\x00\x01weights")
    (src / "log.txt").write_text(f"line {src}\n")
    (src / "final.json").write_text(json.dumps({"agent": f"{src}/training/policies/step_1024.npz"}))
    (src / PLAN).write_text("{}")
    archive = pack_folder(src, leave_out=(PLAN,))

    driver = tmp_path / "driver"
    (driver / "training").mkdir(parents=True)
    (driver / "training" / "pruned.zip").write_bytes(b"old")  # deleted on the node
    (driver / PLAN).write_text('{"driver": true}')
    replace_folder(archive, driver, str(src))
    assert sorted(str(p.relative_to(driver)) for p in driver.rglob("*")) == [
        "final.json", "log.txt", PLAN, "training", "training/checkpoints", "training/checkpoints/step_1024.zip"]
    assert (driver / PLAN).read_text() == '{"driver": true}'  # the driver's own plan is kept
    assert (driver / "training" / "checkpoints" / "step_1024.zip").read_bytes() == b"\x00\x01weights"
    # the paths the run wrote on its node name the folder here; its log says where it ran
    assert json.loads((driver / "final.json").read_text()) == {"agent": f"{driver}/training/policies/step_1024.npz"}
    assert (driver / "log.txt").read_text() == f"line {src}\n"


def test_an_archive_cannot_write_outside_its_folder(tmp_path):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        data = b"escaped"
        info = tarfile.TarInfo("../outside.txt")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(tarfile.OutsideDestinationError):
        unpack_folder(buffer.getvalue(), tmp_path / "run")
    assert not (tmp_path / "outside.txt").exists()


@pytest.fixture
def finished_plan(tmp_path):
    """A run of the tiny study whose final.json is written: run_one ends it at once."""
    out = tmp_path / "study"
    plan = plans(load_study("tiny"), out)[0]
    write_plan(plan)
    (out / "references.json").write_text('{"refs": 1}')
    write_final(plan.path, {"overall": {}}, FinalScores(
        study="tiny", study_file="tiny.yaml", tier="tiny", algorithm="maskable_ppo", game="chickwood_3p", seed=0,
        learner_steps=2048, training_seconds=1.5, games_per_lineup=6, win_rate_vs_heuristic=0.5, rating_mu=None,
        score_win_rate=0.4, score_rating=None))
    return plan


def test_the_actor_runs_the_plan_in_a_folder_of_its_node_and_sends_it_back(finished_plan, monkeypatch):
    import subprocess

    from forest_envs.studies import ray_runs

    started = []

    class Recorded(subprocess.Popen):  # a class still: other code subclasses Popen
        def __init__(self, argv, **kwargs):
            started.append(argv)
            super().__init__(argv, **kwargs)
    monkeypatch.setattr(ray_runs.subprocess, "Popen", Recorded)
    plan = finished_plan
    status, archive, node, _ = RunHost().run(plan.as_json(), pack_folder(plan.path, leave_out=(PLAN,)),
                                          Path(plan.references).read_bytes(), __version__, False, 2)
    assert (status, node) == (0, "local")
    assert started[0][-2:] == ["--workers", "2"]  # the run evaluates over the CPUs it declared
    back = plan.path.parent / "back"
    unpack_folder(archive, back)
    assert not (back / PLAN).exists()  # the node's plan, with the node's paths, stays there
    assert read_final(back) == read_final(plan.path)
    assert (back / "log.txt").read_text().splitlines()[0] == "running on node local"


def test_a_node_with_another_forest_envs_version_refuses_the_run(finished_plan):
    plan = finished_plan
    status, archive, _, _ = RunHost().run(plan.as_json(), pack_folder(plan.path, leave_out=(PLAN,)),
                                       b"{}", "0.0.1", False)
    assert status == 1
    back = plan.path.parent / "back"
    unpack_folder(archive, back)
    assert (back / "log.txt").read_text() == (
        f"node local: forest_envs {__version__} is installed, the study's driver has 0.0.1: "
        "install the same version on every node\n")


def test_a_run_stopped_before_it_started_returns_its_folder_unchanged(finished_plan):
    host = RunHost()
    host.interrupt()
    status, archive, _, _ = host.run(finished_plan.as_json(), pack_folder(finished_plan.path, leave_out=(PLAN,)),
                                  b"{}", __version__, False)
    assert status == 130 and host.proc is None


def test_cpus_per_run_needs_an_address(capsys):
    assert main(["study", "tiny", "--cpus-per-run", "2"]) == 2
    assert "--cpus-per-run is for runs on a Ray cluster: give --address too" in capsys.readouterr().err


@pytest.mark.slow
def test_the_tiny_study_on_a_two_node_cluster_gives_the_local_results(tmp_path):
    pytest.importorskip("ray")
    from ray_cluster import two_node_cluster

    study = [sys.executable, "-m", "forest_envs.cli", "study", "tiny", "--quiet"]
    with two_node_cluster(tmp_path) as cluster:
        on_cluster = subprocess.run(study + ["--out", str(tmp_path / "cluster"), "--address", cluster.address],
                                    cwd=ROOT, env=cluster.env, capture_output=True, text=True, timeout=900)
    assert not cluster.leftovers, cluster.leftovers
    assert on_cluster.returncode == 0, on_cluster.stdout[-3000:] + on_cluster.stderr[-3000:]
    local = subprocess.run(study + ["--out", str(tmp_path / "local"), "--jobs", "2"], cwd=ROOT,
                           capture_output=True, text=True, timeout=900)
    assert local.returncode == 0, local.stdout[-3000:] + local.stderr[-3000:]
    nodes = set()
    for seed in (0, 1):
        run = Path("runs", "maskable_ppo", "chickwood_3p", f"seed_{seed}")
        there, here = tmp_path / "cluster" / run, tmp_path / "local" / run
        nodes.add((there / "log.txt").read_text().splitlines()[0])
        assert read_curve(there) == read_curve(here)
        # the same entries but for where the study's folder is and how long things took
        a, b = (json.loads((d / "final.json").read_text().replace(str(d), "RUN")) for d in (there, here))
        for entry in (a, b):
            entry["study"].pop("training_seconds")
            entry.pop("measured")
        assert a == b
        assert not (there / PLAN).read_text().count("/tmp/forest-envs-run-")  # the driver's plan
    # one run on each node (one CPU each): the same address, two node ids
    assert len(nodes) == 2 and all(n.startswith("running on node 127.0.0.2 (") for n in nodes), nodes
    assert (tmp_path / "cluster" / "results.md").is_file()
