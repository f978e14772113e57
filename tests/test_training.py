"""Training pipeline: configs, the mask-carrying VecEnv, numpy policies, self-play pools,
MaskablePPO smoke training with checkpoints and resume, evaluation determinism, RLlib."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from forest_envs.core.errors import ConfigError
from forest_envs.core.registry import game_spec
from forest_envs.envs.gym_env import SingleAgentEnv
from forest_envs.envs.registration import make_raw
from forest_envs.evaluation import ratings, run_games, summarize
from forest_envs.train.config import load_config, validate_config

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "forest_envs" / "configs"


# --- configs -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(p.name for p in CONFIGS.glob("*.yaml")))
def test_shipped_configs_validate(name):
    cfg = load_config(CONFIGS / name)
    # each game's configs train its default player count (its training target)
    default = game_spec(cfg["env"]).game_class.options["num_players"].default
    assert cfg["env_config"]["num_players"] == default
    assert name.startswith(cfg["env"].removesuffix("_v0")) or cfg["env"] == "chickwood_v0"


@pytest.mark.parametrize("raw, needle", [
    ({"envv": "chickwood_v0"}, "envv"),
    ({"ppo": {"learning_rat": 0.1}}, "ppo.learning_rat"),
    ({"n_envs": 0}, "n_envs"),
    ({"env_workers": 0}, "env_workers=0 is invalid; expected null or a positive integer"),
    ({"env": "nope_v0"}, "env"),
    ({"reward": "money"}, "reward"),
    ({"env_config": {"num_players": 7}}, "num_players"),
    ({"opponents": {"pool": [{"agent": "alien"}]}}, "pool"),
    ({"ppo": {"batch_size": 4096, "n_steps": 16}, "n_envs": 2}, "batch_size"),
    ({"env": None}, "env=None is invalid; expected a registered env id"),
])
def test_bad_configs_name_the_problem(raw, needle):
    with pytest.raises(ConfigError, match=needle):
        validate_config({"env": "chickwood_v0", **raw})


def test_missing_config_file_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.yaml")


def test_overrides_use_dotted_keys():
    cfg = load_config(CONFIGS / "smoke.yaml", {"ppo.n_steps": 64, "seed": 3})
    assert cfg["ppo"]["n_steps"] == 64 and cfg["seed"] == 3


# --- masks ride along with each step ----------------------------------------------------------

def test_mask_info_vec_env_matches_the_envs_own_masks():
    from stable_baselines3.common.vec_env import DummyVecEnv

    from forest_envs.train.vec import MaskInfoVecEnv

    venv = MaskInfoVecEnv(DummyVecEnv([lambda: SingleAgentEnv("chickwood_v0", num_players=2)
                                       for _ in range(2)]))
    venv.seed(5)
    venv.reset()
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(400):
        masks = venv.env_method("action_masks")
        truth = [e.action_masks() for e in venv.venv.envs]
        for m, t in zip(masks, truth):
            assert np.array_equal(m, t)
            assert m.any()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        _, _, dones, _ = venv.step(np.array(actions))
        episodes += int(dones.sum())
    assert episodes >= 2  # auto-resets happened and their first masks were right


# --- numpy policies ----------------------------------------------------------------------------

def test_exported_policy_matches_the_torch_policy(tmp_path):
    import torch
    from sb3_contrib import MaskablePPO

    from forest_envs.agents.policy import NumpyPolicy
    from forest_envs.train.export import export_policy

    env = SingleAgentEnv("chickwood_v0", num_players=3)
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [16, 8]}, n_steps=64,
                        batch_size=64, device="cpu", seed=1)
    policy = NumpyPolicy.load(export_policy(model.policy, tmp_path / "p.npz"))
    obs, info = env.reset(seed=3)
    mask = env.action_masks()
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask[None])
        expected = dist.distribution.probs.numpy()[0]
    got = policy.probabilities(obs, mask)
    assert np.allclose(got, expected, atol=1e-5)
    assert got[~mask].sum() == 0.0
    # The SB3 .zip loads to the same numpy policy.
    model.save(tmp_path / "m.zip")
    assert np.allclose(NumpyPolicy.load(tmp_path / "m.zip").probabilities(obs, mask), expected, atol=1e-5)


# --- self-play pool -----------------------------------------------------------------------------

def test_pool_draws_by_weight_and_uses_snapshots(tmp_path):
    from forest_envs.agents.base import RandomAgent
    from forest_envs.agents.policy import PolicyAgent
    from forest_envs.train.selfplay import OpponentPool

    entries = [{"agent": "random", "weight": 3.0}, {"agent": "snapshot", "weight": 1.0}]
    pool = OpponentPool("chickwood_v0", entries, 2, tmp_path, max_snapshots=2)
    rng = np.random.default_rng(0)
    with pytest.raises(FileNotFoundError, match="snapshot"):
        for _ in range(20):
            pool(rng)
    for i in range(3):
        np.savez(tmp_path / f"snapshot_{i:012d}.npz", w0=np.zeros((1197, 4), np.float32),
                 b0=np.zeros(4, np.float32), w_out=np.zeros((4, 280), np.float32),
                 b_out=np.zeros(280, np.float32), activation=np.array("Tanh"))
    assert [p.name for p in pool.snapshots()] == ["snapshot_000000000001.npz", "snapshot_000000000002.npz"]
    rng = np.random.default_rng(1)
    drawn = [a for _ in range(500) for a in pool(rng)]
    share_random = np.mean([isinstance(a, RandomAgent) for a in drawn])
    assert 0.70 < share_random < 0.80  # weight 3 of 4
    assert all(isinstance(a, (RandomAgent, PolicyAgent)) for a in drawn)
    assert {Path(a.path).name for a in drawn if isinstance(a, PolicyAgent)} == {
        "snapshot_000000000001.npz", "snapshot_000000000002.npz"}


# --- MaskablePPO end to end ------------------------------------------------------------------------

def test_smoke_training_checkpoints_resumes_and_evaluates(tmp_path):
    from forest_envs.train.sb3 import train

    out = tmp_path / "run"
    cfg = load_config(CONFIGS / "smoke.yaml", {"output_dir": str(out)})
    summary = train(cfg, progress=False)
    assert summary["timesteps"] >= cfg["total_timesteps"]
    for name in ("final.zip", "final.npz", "summary.json", "config.yaml", "eval.csv",
                 "checkpoints/latest.zip"):
        assert (out / name).is_file(), name
    snapshots = sorted((out / "snapshots").glob("snapshot_*.npz"))
    assert len(snapshots) >= 2  # the initial one and at least one taken during training
    with (out / "eval.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {r["opponent"] for r in rows} == {"random", "heuristic"}
    assert set(summary["evaluation"]) == {"random", "heuristic"}
    assert summary["evaluation"]["random"]["games"] == cfg["eval"]["final_games"]
    assert json.loads((out / "summary.json").read_text())["timesteps"] == summary["timesteps"]
    # Resume: the step counter carries on from the checkpoint.
    cfg2 = load_config(CONFIGS / "smoke.yaml", {"output_dir": str(out), "total_timesteps": 1024,
                                                 "eval.final_games": 0})
    resumed = train(cfg2, resume=str(out / "checkpoints" / "latest.zip"), progress=False)
    assert resumed["timesteps"] >= 1024 > summary["timesteps"]
    assert (out / "tb").is_dir()


def test_trained_policy_is_an_agent_for_evaluation(tmp_path):
    from sb3_contrib import MaskablePPO

    from forest_envs.train.export import export_policy

    env = SingleAgentEnv("chickwood_v0", num_players=3)
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [8]}, n_steps=32,
                        batch_size=32, device="cpu")
    path = export_policy(model.policy, tmp_path / "pol.npz")
    results = run_games("chickwood_v0", [str(path), "random", "random"], 6, seed=1)
    rows = summarize([str(path), "random", "random"], results)
    assert sum(r["win_rate"] for r in rows) == pytest.approx(1.0)


def test_ppo_learns_with_torch_s_distribution_checks_off_and_restores_them():
    """``unchecked_distributions`` (around ``model.learn``): the checks are off inside, back
    as they were after, an error included; what they would catch still fails."""
    import torch as th
    from sb3_contrib.common.maskable.distributions import MaskableCategorical
    from torch.distributions import Distribution

    from forest_envs.train.sb3 import unchecked_distributions

    before = Distribution._validate_args
    with pytest.raises(KeyError), unchecked_distributions():
        assert Distribution._validate_args is False
        with pytest.raises(RuntimeError, match="probability tensor contains"):
            MaskableCategorical(logits=th.tensor([[float("nan"), 0.0]])).sample()
        with pytest.raises((RuntimeError, IndexError), match="out of bounds"):
            MaskableCategorical(logits=th.tensor([[0.0, 1.0]])).log_prob(th.tensor([5]))
        raise KeyError("an error inside")
    assert Distribution._validate_args == before


# --- evaluation ----------------------------------------------------------------------------------

def test_evaluation_is_identical_whatever_the_number_of_workers():
    specs = ["heuristic", "random", "random"]
    one = run_games("chickwood_v0", specs, 12, seed=7, workers=1)
    two = run_games("chickwood_v0", specs, 12, seed=7, workers=2)
    assert [r.scores for r in one] == [r.scores for r in two]
    assert summarize(specs, one) == summarize(specs, two)
    assert ratings(specs, one) == ratings(specs, two)
    other = run_games("chickwood_v0", specs, 12, seed=8, workers=1)
    assert [r.scores for r in other] != [r.scores for r in one]


def test_evaluation_rotates_seats():
    results = run_games("chickwood_v0", ["heuristic", "random", "random"], 6, seed=0)
    assert [r.seats.index(0) for r in results] == [0, 2, 1, 0, 2, 1]


def test_ratings_rank_the_stronger_agent_first():
    specs = ["heuristic", "random", "random"]
    rated = ratings(specs, run_games("chickwood_v0", specs, 30, seed=2))
    assert rated[0]["mu"] > max(rated[1]["mu"], rated[2]["mu"])


def test_plots_are_written(tmp_path):
    from forest_envs.evaluation import plot_learning_curve, plot_ratings

    log = tmp_path / "eval.csv"
    log.write_text("timesteps,wall_s,opponent,games,win_rate,ci_low,ci_high,mean_score\n"
                   "100,1,random,10,0.4,0.2,0.6,50\n200,2,random,10,0.6,0.4,0.8,55\n"
                   "100,1,heuristic,10,0.1,0.0,0.3,40\n")
    plot_learning_curve(log, tmp_path / "curve.png")
    plot_ratings([{"agent": "a", "mu": 30.0, "sigma": 2.0}, {"agent": "b", "mu": 20.0, "sigma": 3.0}],
                 tmp_path / "ratings.png")
    for name in ("curve.png", "ratings.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- RLlib ---------------------------------------------------------------------------------------

def test_rllib_env_gives_each_agent_its_own_terminal_reward():
    from forest_envs.train.rllib import TurnBasedMultiAgentEnv

    env = TurnBasedMultiAgentEnv({"env": "chickwood_v0", "num_players": 3, "reward": "score"})
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    while True:
        (agent, o), = obs.items()
        assert o["action_mask"].dtype == np.float32 and o["action_mask"].any()
        obs, rewards, term, trunc, _ = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        if term["__all__"]:
            break
        assert set(rewards) == set(obs)  # a zero reward comes with every observation
    state = env.aec.engine_state
    expected = state.returns("score")
    assert set(obs) == set(env.possible_agents)
    assert [rewards[a] for a in env.possible_agents] == pytest.approx(expected)


@pytest.mark.slow  # a whole-process run: make test-all
def test_rllib_runs_one_training_iteration(tmp_path):
    from forest_envs.train.rllib import fixed_hash_seed, train_rllib

    cfg = load_config(CONFIGS / "smoke_rllib.yaml", {"output_dir": str(tmp_path)})
    result = train_rllib(cfg, iterations=1)
    assert len(result["iterations"]) == 1
    assert json.loads((tmp_path / "summary.json").read_text())["python_hash_seed"] == fixed_hash_seed()
    assert result["iterations"][0]["env_steps"] >= cfg["rllib"]["train_batch_size"]
    assert Path(result["checkpoint"]).exists()


@pytest.mark.parametrize("value, fixed", [(None, None), ("random", None), ("", None),
                                          ("0", "0"), ("4242", "4242")])
def test_an_rllib_run_knows_whether_its_hash_seed_is_fixed(monkeypatch, value, fixed):
    pytest.importorskip("ray")
    from forest_envs.train.rllib import fixed_hash_seed

    if value is None:
        monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    else:
        monkeypatch.setenv("PYTHONHASHSEED", value)
    assert fixed_hash_seed() == fixed


@pytest.mark.parametrize("value", [None, "0"])
def test_train_rllib_says_when_its_run_will_not_repeat(monkeypatch, capsys, tmp_path, value):
    pytest.importorskip("ray")
    from forest_envs.cli.main import main
    from forest_envs.train import rllib

    if value is None:
        monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    else:
        monkeypatch.setenv("PYTHONHASHSEED", value)
    monkeypatch.setattr(rllib, "train_rllib", lambda cfg, **kwargs: {
        "iterations": [], "checkpoint": str(tmp_path / "checkpoint"), "policies": {}})
    assert main(["train-rllib", "smoke_rllib", "--set", f"output_dir={tmp_path}"]) == 0
    notice = "PYTHONHASHSEED is not set to a number, so this run will not repeat"
    assert (notice in capsys.readouterr().err) == (value is None)


# --- warm start ------------------------------------------------------------------------------------

def test_demonstrations_hold_every_decision_with_the_deciders_return():
    from forest_envs.train.pretrain import collect_demonstrations

    data = collect_demonstrations("chickwood_v0", {"num_players": 3}, "score", "heuristic", 3, seed=1)
    n = len(data["actions"])
    game = make_raw("chickwood_v0", num_players=3).game
    assert data["obs"].shape == (n, game.observation_size) and data["masks"].shape == (n, game.num_actions)
    assert data["masks"][np.arange(n), data["actions"]].all()  # the teacher only played legal moves
    # Every seat's samples carry that seat's final return: three distinct values per game.
    assert len(np.unique(np.round(data["returns"], 5))) >= 3


def test_a_teacher_game_the_env_truncates_ends_at_its_limit_and_is_worth_nothing():
    """The env's step limit ends a game unfinished (nobody wins, every reward 0): its samples
    stop at the limit with return 0, the games after it are played as before. (A heuristic
    Roundforest game of the shipped recipe's warm start reached the default limit: the
    teacher was asked to move after it and refused.)"""
    from forest_envs.train.pretrain import collect_demonstrations

    config = {"num_players": 3}
    full = collect_demonstrations("chickwood_v0", config, "score", "heuristic", 2, seed=1)
    per_game = len(collect_demonstrations("chickwood_v0", config, "score", "heuristic", 1, seed=1)["actions"])
    cut = collect_demonstrations("chickwood_v0", {**config, "max_steps": 20}, "score", "heuristic", 2, seed=1)
    assert len(cut["actions"]) == 40 and (cut["returns"] == 0).all()      # 20 decisions a game
    assert (cut["actions"][:20] == full["actions"][:20]).all()
    assert (cut["actions"][20:] == full["actions"][per_game:per_game + 20]).all()  # game 1 as before
    assert len(np.unique(np.round(full["returns"], 5))) >= 3             # finished games: real returns


def test_the_parts_are_stacked_in_order_and_each_dropped_once_copied():
    from forest_envs.train.pretrain import _stack

    parts = [(np.arange(6.0).reshape(3, 2), np.array([1, 2, 3])), (np.ones((2, 2)), np.array([4, 5]))]
    stacked = _stack(parts, 0)
    assert stacked.tolist() == [[0, 1], [2, 3], [4, 5], [1, 1], [1, 1]] and stacked.dtype == np.float64
    assert [p[0] for p in parts] == [None, None] and parts[1][1].tolist() == [4, 5]  # the other arrays kept
    assert _stack(parts, 1).tolist() == [1, 2, 3, 4, 5]


def test_behaviour_cloning_makes_the_teacher_move_likely():
    import torch
    from sb3_contrib import MaskablePPO

    from forest_envs.train.pretrain import behaviour_clone, collect_demonstrations

    data = collect_demonstrations("chickwood_v0", {"num_players": 2}, "win", "heuristic", 6, seed=2)
    model = MaskablePPO("MlpPolicy", SingleAgentEnv("chickwood_v0", num_players=2),
                        policy_kwargs={"net_arch": [64]}, n_steps=32, batch_size=32, device="cpu", seed=0)

    def teacher_log_prob() -> float:
        with torch.no_grad():
            _, logp, _ = model.policy.evaluate_actions(
                torch.as_tensor(data["obs"]), torch.as_tensor(data["actions"]),
                action_masks=torch.as_tensor(data["masks"]))
        return float(logp.mean())

    before = teacher_log_prob()
    report = behaviour_clone(model.policy, data, epochs=20, batch_size=256, learning_rate=3e-3)
    assert teacher_log_prob() > before + 0.5
    assert report["accuracy"] > 0.6 and report["samples"] == len(data["actions"])
