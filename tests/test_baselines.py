"""The shipped baselines (the agent ``ppo``): loaded by name from forest_envs/baselines/ for
the configuration their run trained, refused for any other, and a clear error while none
ships. The policies here are untrained MaskablePPO networks exported by the trainer's own
``export_policy`` (a few KB), shipped into a temporary baselines folder."""

from __future__ import annotations

import json

import numpy as np
import pytest

from forest_envs.agents import baselines, make_agent
from forest_envs.agents.policy import PolicyAgent, check_agent_fits
from forest_envs.agents.search.ismcts import ISMCTSAgent
from forest_envs.cli import main as cli
from forest_envs.core.errors import ConfigError
from forest_envs.envs.registration import make_raw
from forest_envs.evaluation import run_games


@pytest.fixture(scope="module")
def untrained_chickwood_policy(tmp_path_factory):
    """An untrained 3-player Chickwood policy as the trainer exports it."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from forest_envs.envs.gym_env import SingleAgentEnv
    from forest_envs.train.export import export_policy

    model = MaskablePPO("MlpPolicy", SingleAgentEnv("chickwood_v0", num_players=3),
                        policy_kwargs={"net_arch": [16, 8]}, n_steps=64, batch_size=64,
                        device="cpu", seed=1)
    return export_policy(model.policy, tmp_path_factory.mktemp("run") / "final.npz")


@pytest.fixture
def shipped(tmp_path, monkeypatch, untrained_chickwood_policy):
    """A baselines folder holding chickwood_v0.npz and the summary.json of its run."""
    monkeypatch.setattr(baselines, "FOLDER", tmp_path)
    (tmp_path / "chickwood_v0.npz").write_bytes(untrained_chickwood_policy.read_bytes())
    summary = {"env": "chickwood_v0", "env_config": {"num_players": 3}, "stopped": "step_budget",
               "timesteps": 64}  # as forest_envs.train.sb3 writes it (fewer keys)
    (tmp_path / "chickwood_v0.json").write_text(json.dumps(summary))
    return tmp_path


def test_no_baseline_shipped_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(baselines, "FOLDER", tmp_path)  # an empty folder, whatever ships later
    for spec in ("ppo", "ismcts:prior=ppo", "ismcts:rollout=ppo"):
        with pytest.raises(ConfigError) as err:
            make_agent("roundforest_v0", spec)
        assert str(err.value) == (
            "no ppo baseline ships for roundforest_v0 yet (forest_envs/baselines/ holds none); "
            "pass a trained policy file instead (an agent named by its path, e.g. --agents "
            "runs/<run>/final.npz,heuristic,... or make_agent('roundforest_v0', "
            "'runs/<run>/final.npz')); `forest-envs train <config>` writes one")


def test_ppo_plays_the_shipped_policy_by_name(shipped, capsys):
    agent = make_agent("chickwood_v0", "ppo", seed=3)
    assert isinstance(agent, PolicyAgent) and agent.name == "ppo"
    assert agent.trained_for == ("chickwood_v0", {"num_players": 3, "legendary": False})
    env = make_raw("chickwood_v0", num_players=3)
    check_agent_fits(agent, env)
    results = run_games("chickwood_v0", ["ppo", "heuristic", "heuristic"], 3, seed=1)
    assert len(results) == 3 and all(r.steps > 0 for r in results)
    assert cli.main(["evaluate", "--env", "chickwood_v0", "--agents", "ppo,heuristic,heuristic",
                     "--games", "2", "--quiet"]) == 0
    assert "0:ppo" in capsys.readouterr().out
    # the search names it too, and plays the very same loaded policy
    search = make_agent("chickwood_v0", "ismcts:sims=5,depth=2,prior=ppo,rollout=ppo")
    assert isinstance(search, ISMCTSAgent) and search.prior_policy.policy is agent.policy


def test_a_shipped_policy_of_another_configuration_is_refused(shipped, capsys):
    agent = make_agent("chickwood_v0", "ppo")
    for config, now in (({"num_players": 4}, "num_players=4, legendary=False"),
                        ({"num_players": 3, "legendary": True}, "num_players=3, legendary=True")):
        with pytest.raises(ConfigError) as err:
            check_agent_fits(agent, make_raw("chickwood_v0", **config))
        assert str(err.value).startswith(
            f"policy ppo ({shipped / 'chickwood_v0.npz'}) was trained for chickwood_v0 with "
            f"num_players=3, legendary=False; this game is chickwood_v0 with {now}, and no ppo "
            "ships for it yet: pass a trained policy file instead")
    # the same-sized legendary game too: the sizes alone would not have told
    assert make_raw("chickwood_v0", legendary=True).game.observation_size == \
        make_raw("chickwood_v0").game.observation_size
    with pytest.raises(ConfigError, match="trained for chickwood_v0 with num_players=3"):
        run_games("chickwood_v0", ["ppo"] + ["random"] * 3, 1)
    search = make_agent("chickwood_v0", "ismcts:sims=5,prior=ppo")
    with pytest.raises(ConfigError, match="no ppo ships for it yet"):
        check_agent_fits(search, make_raw("chickwood_v0", num_players=2))
    env = make_raw("chickwood_v0", num_players=2)
    env.reset(seed=0)
    with pytest.raises(ConfigError, match="num_players=2"):  # at its first move when unchecked
        make_agent("chickwood_v0", "ppo").act(env, env.agent_selection)
    assert cli.main(["evaluate", "--env", "chickwood_v0", "--agents", "ppo,random", "--games", "1",
                     "--quiet"]) == 2
    assert "was trained for chickwood_v0 with num_players=3" in capsys.readouterr().err


def test_a_shipped_policy_needs_its_run_summary(shipped):
    (shipped / "chickwood_v0.json").unlink()
    with pytest.raises(ConfigError, match="chickwood_v0.npz has no chickwood_v0.json beside it"):
        make_agent("chickwood_v0", "ppo")
    (shipped / "chickwood_v0.json").write_text(json.dumps({"env": "sherwood_v0", "env_config": {}}))
    with pytest.raises(ConfigError, match="trained on sherwood_v0, not chickwood_v0"):
        make_agent("chickwood_v0", "ppo")
    (shipped / "chickwood_v0.json").write_text("{}")
    with pytest.raises(ConfigError, match="needs 'env' and 'env_config'"):
        make_agent("chickwood_v0", "ppo")


@pytest.mark.parametrize("env_id", baselines.shipped_env_ids())
def test_every_shipped_baseline_loads_is_small_and_fits_its_configuration(env_id):
    weights, summary = baselines.baseline_files(env_id)
    assert weights.stat().st_size < 4 * 2**20
    agent = make_agent(env_id, "ppo", seed=0)
    trained_env, config = agent.trained_for
    env = make_raw(trained_env, **config)
    check_agent_fits(agent, env)
    env.reset(seed=0)
    assert env.action_mask(env.agent_selection)[agent.act(env, env.agent_selection)] == 1
    assert np.isfinite(agent.policy.logits(env.observe(env.agent_selection)["observation"])).all()


def test_greedy_plays_the_most_likely_move_of_the_baseline_and_of_a_file(shipped, untrained_chickwood_policy):
    """``ppo:greedy`` and ``<file>:greedy`` play the policy's most likely legal move (sampling
    otherwise); the suffix on anything that is not a policy is an unknown agent."""
    env = make_raw("chickwood_v0", num_players=3)
    env.reset(seed=2)
    seat = env.agent_selection
    obs = env.observe(seat)
    for spec in ("ppo:greedy", f"{untrained_chickwood_policy}:greedy"):
        agent = make_agent("chickwood_v0", spec, seed=0)
        assert agent.deterministic
        p = agent.policy.probabilities(obs["observation"], obs["action_mask"])
        assert agent.act(env, seat) == int(np.argmax(p)) and obs["action_mask"][int(np.argmax(p))]
    assert not make_agent("chickwood_v0", "ppo", seed=0).deterministic
    with pytest.raises(ConfigError, match="unknown agent 'heuristic:greedy'"):
        make_agent("chickwood_v0", "heuristic:greedy")
