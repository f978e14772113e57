"""The golden playthroughs of tests/playthroughs: every file replays to itself.

Each file is one whole game (forest_envs/testing/playthrough.py writes them). Replaying its actions
must give the same text again, so a change that alters any game fails here with a diff that
names the file and the first step that differs; after an intended change, regenerate with
``make playthroughs`` (``make playthroughs ENV=<env id>`` for one game) and review the diff.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import forest_envs
from forest_envs.cli import main as cli
from forest_envs.core import engines
from forest_envs.core.registry import game_spec
from forest_envs.testing import playthrough as P
from forest_envs.testing.disclosure import disclosure_problems, told_apart

GOLDEN = Path(__file__).resolve().parent / "playthroughs"
FILES = P.golden_files(GOLDEN)


def _name(path: Path) -> str:
    return str(path.relative_to(GOLDEN))


# --- the set --------------------------------------------------------------------------------

def test_the_set_covers_every_shipped_configuration_and_nothing_else():
    expected = sorted(pt.file_name for pt in P.default_playthroughs())
    found = sorted(_name(p) for p in FILES)
    missing, stale = sorted(set(expected) - set(found)), sorted(set(found) - set(expected))
    assert not missing and not stale, (
        f"tests/playthroughs is out of date (missing {missing}, no longer made {stale}); "
        "run: make playthroughs")
    configs = {(env_id, str(config)) for env_id in forest_envs.ENV_IDS
               for config in game_spec(env_id).game_class.all_configs()}
    covered = {(pt.env_id, str(pt.config)) for pt in P.default_playthroughs()}
    assert covered == configs
    # Two games per configuration: random players, and the heuristic where the game has one.
    assert len(expected) == 2 * len(configs)


def test_the_set_stays_small():
    total = sum(p.stat().st_size for p in FILES)
    assert total < 6_000_000, f"the golden playthroughs take {total} bytes; keep them under 6 MB"


def _files_and_engines() -> list:
    """Each file with each engine its game has here: a golden game replays on every engine."""
    out = []
    for path in FILES:
        game_class = game_spec(path.relative_to(GOLDEN).parts[0]).game_class
        out += [pytest.param(path, e, id=f"{_name(path)}-{e}") for e in engines.available(game_class)]
    return out


@pytest.mark.whole_games
@pytest.mark.parametrize(("path", "engine"), _files_and_engines())
def test_playthrough_replays_to_the_same_text(path, engine, monkeypatch):
    monkeypatch.setenv(engines.ENGINE_VARIABLE, engine)
    report = P.check_file(path, GOLDEN)
    if report:
        pytest.fail(report, pytrace=False)


def test_every_file_records_a_whole_game_with_its_result():
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        pt, actions = P.parse(text)
        end = [ln for ln in text.splitlines() if ln.startswith("end after ")]
        assert len(end) == 1, f"{_name(path)} has no end line"
        assert end[0].startswith(f"end after {len(actions)} actions: ")
        truncated = "truncated (max_steps reached" in end[0]
        if truncated:  # only at the cap its header states
            assert len(actions) == pt.env_options["max_steps"], _name(path)
        assert "ranks: " in text and "breakdown P0: " in text
        assert ("winners: none" in text) == truncated, _name(path)
        assert "\n!! " not in text


# --- a changed game shows as a readable diff -------------------------------------------------

def _toy_playthrough(**changes) -> P.Playthrough:
    fields = dict(env_id="toy_v0", config={"num_players": 3, "pile": 7}, seed=5,
                  agents=("random",) * 3, agent_seeds=(1, 2, 3), env_options={})
    fields.update(changes)
    return P.Playthrough(**fields)


def test_a_game_outside_the_package_gets_a_playthrough_that_replays():
    text = P.generate(_toy_playthrough())
    assert P.replay_text(text) == text
    assert P.generate(_toy_playthrough()) == text  # the same seeds, the same game
    pt, actions = P.parse(text)
    assert pt == _toy_playthrough()
    assert actions and all(name in ("take 1", "take 2", "agree", "double") for _, _, name in actions)
    assert "referee's board at the start (the referee sees everything" in text


def test_a_changed_step_fails_naming_the_file_and_the_step():
    path = next(p for p in FILES if len(P.parse(p.read_text())[1]) > 20)
    golden = path.read_text(encoding="utf-8")
    lines = golden.splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("12 P"))
    # As if the game had changed what one seat observes at step 12.
    changed = lines[:at] + [lines[at].replace("| obs ", "| obs 00000000 ", 1)] + lines[at + 1:]
    report = P.diff_report(_name(path), "".join(changed), golden)
    assert report.startswith(f"{_name(path)}: the game differs from its golden playthrough, "
                             "first at step 12. If the change is intended, regenerate: make playthroughs")
    body = report.splitlines()[1:]
    assert body[0] == f"--- {_name(path)}" and body[1] == f"+++ {_name(path)} (replayed now)"
    assert f"-{changed[at].rstrip()}" in body and f"+{lines[at].rstrip()}" in body
    assert P.diff_report(_name(path), golden, golden) is None


def test_a_long_diff_is_cut_to_its_first_lines():
    golden = P.generate(_toy_playthrough())
    other = P.generate(_toy_playthrough(seed=6))
    report = P.diff_report("toy.txt", golden, other)
    assert "differs from its golden playthrough" in report
    body = report.splitlines()[1:]
    assert len(body) <= P.DIFF_LINES + 1 and body[-1].startswith("... (")


def test_a_recorded_action_the_game_refuses_is_shown_at_its_step():
    golden = P.generate(_toy_playthrough())
    lines = golden.splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("   P0 chose "))
    step = int(lines[at - 1].split()[0])
    renamed = lines[:at] + [lines[at].replace('"take 1"', '"take 9"').replace('"take 2"', '"take 9"')
                            ] + lines[at + 1:]
    replayed = P.replay_text("".join(renamed))
    assert f"!! step {step}: recorded action 'take 9': no action is named 'take 9'" in replayed
    report = P.diff_report("toy.txt", "".join(renamed), replayed)
    assert f"first at step {step}" in report
    # A file whose actions stop early, or go on after the end, says so too.
    cut = "".join(lines[:at])
    assert f"!! step {step}: the file's actions end here, the game goes on" in P.replay_text(cut)


def test_actions_are_replayed_by_name():
    """Renumbered action ids replay the same game; the diff then shows only the ids."""
    golden = P.generate(_toy_playthrough())
    renumbered = golden.replace(" chose 0 ", " chose 7 ").replace(" chose 1 ", " chose 7 ")
    replayed = P.replay_text(renumbered)
    assert replayed == golden


# --- determinism ---------------------------------------------------------------------------------

def test_generation_is_deterministic_across_processes():
    """One playthrough per game, generated here and in a fresh interpreter with another
    hash seed, is the same text as the file."""
    picks = [next(pt for pt in P.default_playthroughs([env_id]) if pt.agents[0] == "heuristic")
             for env_id in forest_envs.ENV_IDS]
    code = ("import sys; from forest_envs.testing import playthrough as P\n"
            "for pt in [pt for pt in P.default_playthroughs() if pt.file_name in sys.argv[1:]]:\n"
            "    sys.stdout.write(P.generate(pt))\n")
    env = dict(os.environ, PYTHONHASHSEED="4242")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code, *(pt.file_name for pt in picks)],
                         capture_output=True, text=True, check=True, env=env, cwd=root).stdout
    ordered = [pt for pt in P.default_playthroughs() if pt in picks]
    here = "".join(P.generate(pt) for pt in ordered)
    assert out == here
    assert here == "".join((GOLDEN / pt.file_name).read_text(encoding="utf-8") for pt in ordered), (
        "a fresh game differs from its golden file: the game or its heuristic changed; run: "
        "make playthroughs")


# --- hidden information ----------------------------------------------------------------------

def _problems(path: Path) -> list[str]:
    found: list[str] = []
    P.replay_text(path.read_text(encoding="utf-8"),
                  on_step=lambda env: found.extend(disclosure_problems(env)))
    return found


def _default_config_files() -> list[Path]:
    """Per game, the heuristic game of its default configuration (a quick sample)."""
    out = []
    for env_id in forest_envs.ENV_IDS:
        default = game_spec(env_id).game_class().config
        out += [GOLDEN / pt.file_name for pt in P.default_playthroughs([env_id])
                if pt.config == default and pt.seed == 2]
    return out


@pytest.mark.parametrize("path", _default_config_files(), ids=_name)
def test_each_seat_reads_only_what_it_may_see(path):
    assert _problems(path) == []


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=_name)
def test_each_seat_reads_only_what_it_may_see_in_every_playthrough(path):
    assert _problems(path) == []


class _Found(Exception):
    pass


def _hidden_choice(env) -> None:
    """Raise ``_Found`` where a seat reads two of the legal actions alike and cannot tell
    them apart by what it knows (``told_apart``), though they lead to different states:
    an action the game hides from that seat."""
    state = env.engine_state
    after = {}
    for a in state.legal_actions():
        after[a] = state.clone()
        after[a].apply(a)
    for seat, observer in enumerate(env.possible_agents):
        if seat == state.current_player:
            continue
        seen: dict[str, int] = {}
        for a, nxt in after.items():
            b = seen.setdefault(env.describe_action(a, observer), a)
            if b != a and not told_apart(nxt.clone(), after[b].clone(), seat) \
                    and nxt.to_dict() != after[b].to_dict():
                raise _Found(env.num_steps)


def _hiding_step(env_id: str, files: int = 3):
    """A step of the first ``files`` ``env_id`` playthroughs (a quick sample) where some
    seat may not fully see an action, or None when their action texts hide nothing."""
    for path in sorted((GOLDEN / env_id).glob("*.txt"))[:files]:
        try:
            P.replay_text(path.read_text(encoding="utf-8"), on_step=_hidden_choice)
        except _Found as found:
            return path, found.args[0]
    return None


@pytest.mark.parametrize("env_id", forest_envs.ENV_IDS)
def test_the_check_catches_an_action_text_that_tells_everything(monkeypatch, env_id):
    """Where a game hides an action from a seat, telling that seat its full name instead is
    caught at that step."""
    found = _hiding_step(env_id)
    if found is None:
        pytest.skip(f"the first {env_id} playthroughs hide no action from a seat up to its "
                    "next decision")
    path, step = found
    game_class = game_spec(env_id).game_class
    for state_class in filter(None, (game_class.state_class, game_class.native_state_class)):
        monkeypatch.setattr(state_class, "_describe_for_others",
                            lambda self, action: self.game.action_to_string(action))
    seen = []

    def check(env):
        if env.num_steps == step:
            seen.extend(disclosure_problems(env))

    P.replay_text(path.read_text(encoding="utf-8"), on_step=check)
    assert seen and all(p.startswith(f"step {step}: ") for p in seen), seen


def test_the_check_catches_an_action_text_that_tells_of_the_hidden_state(monkeypatch):
    """A text that carries anything of the hidden state differs in a state the seat cannot
    tell from the real one (the toy's secrets are resampled)."""
    from toy_game import ToyState

    monkeypatch.setattr(ToyState, "_describe_for_others",
                        lambda self, action: f"{self.game.action_to_string(action)} "
                                             f"(secrets {self.secret.tolist()})")
    found: list[str] = []
    P.replay_text(P.generate(_toy_playthrough()),
                  on_step=lambda env: found.extend(disclosure_problems(env)))
    assert found and "in a state it cannot tell from this one" in found[0]


def test_the_checks_pass_the_toy_game_as_it_is():
    found: list[str] = []
    P.replay_text(P.generate(_toy_playthrough()),
                  on_step=lambda env: found.extend(disclosure_problems(env)))
    assert found == []


def test_only_the_referee_lines_show_everything():
    """Per-seat lines are ``describe_action`` for that seat; the boards are the referee's
    and say so; nothing else in a file draws a board."""
    for path in FILES[:4]:
        text = path.read_text(encoding="utf-8")
        boards = [ln for ln in text.splitlines() if ln.startswith("referee's board")]
        assert len(boards) == 2 and all("the referee sees everything" in b for b in boards)


# --- commands --------------------------------------------------------------------------------------

def test_the_command_writes_checks_and_reports_a_difference(tmp_path, capsys):
    assert cli.main(["playthrough", "--write", str(tmp_path), "--env", "toy_v0"]) == 0
    files = P.golden_files(tmp_path)
    assert [f.parent.name for f in files] == ["toy_v0"] * 8  # four configurations, two games each
    stale = tmp_path / "toy_v0" / "gone.txt"
    stale.write_text("old")
    assert cli.main(["playthrough", "--write", str(tmp_path), "--env", "toy_v0"]) == 0
    assert not stale.exists() and "deleted" in capsys.readouterr().out
    assert cli.main(["playthrough", "--check", str(tmp_path)]) == 0
    assert "8 of 8 playthroughs match" in capsys.readouterr().out
    text = files[0].read_text()
    files[0].write_text(text.replace("\n0 P0 take | turn P0 |", "\n0 P0 take | turn P1 |", 1))
    assert cli.main(["playthrough", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{_name_in(files[0], tmp_path)}: the game differs" in out and "first at step 0" in out
    assert "7 of 8 playthroughs match" in out


def _name_in(path: Path, root: Path) -> str:
    return str(path.relative_to(root))


def test_the_command_refuses_an_unknown_env_id(tmp_path, capsys):
    assert cli.main(["playthrough", "--write", str(tmp_path), "--env", "nope_v0"]) == 2
    assert "unknown env id 'nope_v0'" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_the_module_names_no_game():
    text = Path(P.__file__).read_text(encoding="utf-8").lower()
    for env_id in forest_envs.ENV_IDS:
        spec = game_spec(env_id)
        assert env_id.split("_")[0] not in text and spec.game_class.traits.name.lower() not in text
