"""The dqn adapter (forest_envs/studies/algorithms/dqn.py, forest_envs/train/tianshou_dqn.py):
the action mask reaches the Q-values in play, in exploration and in the bootstrap target; the
saved Q-network plays the greedy legal move through make_agent; a tiny run lists its policies
by learner step, the last at the budget; a stopped run continues from its saved state and a
finished one returns at once; the settings are checked."""

from __future__ import annotations

import json

import numpy as np
import pytest

from forest_envs.core.errors import ConfigError
from forest_envs.studies.algorithms import TrainingJob, algorithm

pytest.importorskip("tianshou")
torch = pytest.importorskip("torch")

from forest_envs.studies.algorithms import dqn  # noqa: E402
from forest_envs.train import tianshou_dqn as td  # noqa: E402

ENV, CONFIG = "chickwood_v0", {"num_players": 3, "legendary": False}
# 2 envs, a small network and buffer, learning from the 32nd step: a run of 256 steps makes
# about 60 gradient steps in a couple of seconds
FAST = {"n_envs": 2, "net_arch": [16], "batch_size": 16, "buffer_size": 1000, "learning_starts": 32,
        "target_update_every": 8, "opponents": [{"agent": "random"}, {"agent": "snapshot"}]}


def _fixed_q_network(q_values: list[float]) -> td.QNetwork:
    """A network of 2 inputs whose Q-values are ``q_values`` whatever the observation."""
    network = td.QNetwork(2, len(q_values), [], "relu")
    with torch.no_grad():
        network.net[0].weight.zero_()
        network.net[0].bias.copy_(torch.tensor(q_values))
    return network


def _policy(network: td.QNetwork):
    import gymnasium
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy

    td.use_plain_kernels()  # (else numba compiles Tianshou's kernels for a minute)
    return DiscreteQLearningPolicy(model=network, action_space=gymnasium.spaces.Discrete(
        network.net[-1].out_features))


def test_the_greedy_action_and_the_exploration_are_legal_actions_only():
    from tianshou.data import Batch

    # the best Q-value (action 1) is illegal: the greedy action is the best legal one
    policy = _policy(_fixed_q_network([0.2, 5.0, 0.7, -1.0]))
    mask = np.array([[True, False, True, True]] * 3)
    seen = Batch(obs=Batch(obs=np.zeros((3, 2), np.float32), mask=mask), info=[None] * 3)
    assert policy(seen).act.tolist() == [2, 2, 2]
    # ε = 1: every action a random draw, among the legal ones
    from tianshou.utils.torch_utils import policy_within_training_step

    policy.set_eps_training(1.0)
    np.random.seed(0)
    with policy_within_training_step(policy):
        drawn = np.concatenate([policy.add_exploration_noise(policy(seen).act.copy(), seen)
                                for _ in range(100)])
    assert set(drawn.tolist()) == {0, 2, 3}


@pytest.mark.parametrize("double", [True, False])
def test_the_target_values_the_next_state_by_its_legal_actions(double):
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Batch, ReplayBuffer

    q_values = [0.2, 5.0, 0.7, -1.0]  # the best (action 1) illegal in the next state
    network = _fixed_q_network(q_values)
    algo = td.MaskedDQN(policy=_policy(network), optim=AdamOptimizerFactory(lr=1e-3), gamma=0.5,
                        target_update_freq=1 if double else 0, is_double=double)
    legal_next = np.array([True, False, True, True])
    buffer = ReplayBuffer(4)
    for terminated in (False, True):
        buffer.add(Batch(obs=Batch(obs=np.zeros(2, np.float32), mask=np.ones(4, bool)), act=1, rew=0.0,
                         terminated=terminated, truncated=False,
                         obs_next=Batch(obs=np.zeros(2, np.float32), mask=legal_next), info={}))
    indices = np.arange(2)
    with torch.no_grad():
        assert algo._target_q(buffer, indices).tolist() == pytest.approx([0.7, 0.7])
    # the one-step return: the reward and, before the game's end, gamma times that value
    batch = algo._preprocess_batch(buffer[indices], buffer, indices)
    assert batch.returns.flatten().tolist() == pytest.approx([0.5 * 0.7, 0.0])


def test_the_saved_network_plays_the_greedy_legal_move_through_make_agent(tmp_path):
    from forest_envs.agents import make_agent
    from forest_envs.envs.registration import make_raw
    from forest_envs.train.export import save_policy_arrays

    env = make_raw(ENV, **CONFIG)
    game = env.game
    torch.manual_seed(3)
    network = td.QNetwork(game.observation_size, game.num_actions, [32, 16], "relu")
    path = save_policy_arrays(td.q_network_arrays(network), tmp_path / "q.npz")
    agent = make_agent(ENV, f"{path}:greedy", seed=0)
    env.reset(seed=11)
    checked = 0
    while env.agents and checked < 40:
        name = env.agent_selection
        seen = env.observe(name)
        with torch.no_grad():
            q = network(seen["observation"][None])[0][0].numpy()
        # the file's outputs are the network's Q-values
        np.testing.assert_allclose(agent.policy.logits(seen["observation"]), q, rtol=1e-4, atol=1e-5)
        legal = np.flatnonzero(seen["action_mask"])
        action = agent.act(env, name)
        assert action == legal[np.argmax(q[legal])]
        if len(legal) > 1 and np.argmax(q) not in legal:
            checked += 100  # (counted below: a state whose best Q-value is illegal was met)
        env.step(action)
        checked += 1
    assert checked >= 100, "no state met whose best Q-value was on an illegal action"


def test_past_selves_in_the_pool_play_greedily(tmp_path):
    from forest_envs.envs.registration import make_raw
    from forest_envs.train.export import save_policy_arrays
    from forest_envs.train.selfplay import OpponentPool

    game = make_raw(ENV, **CONFIG).game
    network = td.QNetwork(game.observation_size, game.num_actions, [8], "relu")
    save_policy_arrays(td.q_network_arrays(network), tmp_path / "snapshot_000000000000.npz")
    rng = np.random.default_rng(0)
    for greedy in (True, False):
        pool = OpponentPool(ENV, [{"agent": "snapshot"}], 2, tmp_path, greedy=greedy)
        assert [agent.deterministic for agent in pool(rng)] == [greedy, greedy]


def test_settings_are_checked(monkeypatch):
    dqn_ = algorithm("dqn")
    dqn_.check(FAST, ENV, CONFIG, "algorithms[0].settings")
    with pytest.raises(ConfigError, match=r"algorithms\[0\].settings: unknown dqn setting\(s\) \['lr'\]"):
        dqn_.check({"lr": 1e-3}, ENV, CONFIG, "algorithms[0].settings")
    with pytest.raises(ConfigError, match=r"s.n_step: 0 must be a positive int"):
        dqn_.check({"n_step": 0}, ENV, CONFIG, "s")
    with pytest.raises(ConfigError, match=r"s.eps_end: 1.5 must be a number in \[0, 1\]"):
        dqn_.check({"eps_end": 1.5}, ENV, CONFIG, "s")
    with pytest.raises(ConfigError, match=r"s.double: 'yes' must be one of true, false"):
        dqn_.check({"double": "yes"}, ENV, CONFIG, "s")
    with pytest.raises(ConfigError, match=r"s.opponents: \[\{'agent': 'ppo'\}\] must be a list of"):
        dqn_.check({"opponents": [{"agent": "ppo"}]}, ENV, CONFIG, "s")
    with pytest.raises(ConfigError, match=r"s.batch_size: 64 exceeds buffer_size=32"):
        dqn_.check({"batch_size": 64, "buffer_size": 32}, ENV, CONFIG, "s")
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: None if name == "tianshou" else found(name, *rest))
    with pytest.raises(ConfigError, match=r"^s: dqn trains with Tianshou, which is not installed: "
                                          r"pip install 'forest_envs\[study\]'$"):
        dqn_.check({}, ENV, CONFIG, "s")


def test_epsilon_decays_over_its_fraction_of_the_budget():
    settings = dqn.parse_settings({"eps_start": 1.0, "eps_end": 0.1, "eps_fraction": 0.5})
    assert [settings.epsilon(s, 1000) for s in (0, 250, 500, 900)] == pytest.approx([1.0, 0.55, 0.1, 0.1])


def test_a_tiny_run_saves_greedy_policies_stops_and_continues(tmp_path, monkeypatch):
    from tianshou.data import Collector

    from forest_envs.agents import make_agent
    from forest_envs.envs.registration import make_raw
    from forest_envs.train import ctrl_c

    dqn_ = algorithm("dqn")
    job = TrainingJob(ENV, CONFIG, 0, 256, 128, tmp_path / "training", FAST)
    # a Ctrl-C once the run has passed 160 learner steps, between its two points
    installed: list = []

    class RecordedCtrlC(ctrl_c.CtrlC):
        def __enter__(self):
            installed.append(self)
            return super().__enter__()

    collected = {"steps": 0}
    original_collect = Collector.collect

    def collect(self, *args, **kwargs):
        stats = original_collect(self, *args, **kwargs)
        collected["steps"] += stats.n_collected_steps
        if collected["steps"] >= 160:
            installed[-1].requested = True
        return stats

    monkeypatch.setattr(ctrl_c, "CtrlC", RecordedCtrlC)
    monkeypatch.setattr(Collector, "collect", collect)
    stopped = dqn_.train(job)
    assert (stopped.finished, stopped.learner_steps) == (False, 160)
    assert installed[0].graceful  # a first Ctrl-C asks to stop and save, a second stops at once
    state = dqn.RunState.read(job.folder)
    assert state.learner_steps == 160 and state.gradient_steps > 0
    assert dqn_.learner_steps_done(job) == 160  # what the study's time estimate reads
    assert [c.learner_steps for c in dqn_.checkpoints(job)] == [128]

    monkeypatch.undo()
    done = dqn_.train(job)
    assert (done.finished, done.learner_steps) == (True, 256)
    state_after = dqn.RunState.read(job.folder)
    # counted on from the stop; the emptied buffer refills to 32 transitions before the updates
    # resume, with the collection of 2 steps that reaches them (a quarter of a gradient step a
    # step, the half step owed at the stop carried over)
    assert state_after.gradient_steps == state.gradient_steps + int(state.updates_due + (256 - 160 - 30) / 4)
    assert done.wall_seconds > stopped.wall_seconds
    saved = dqn_.checkpoints(job)
    assert [c.learner_steps for c in saved] == [128, 256]
    assert all(c.agent.endswith(".npz:greedy") for c in saved)
    snapshots = sorted(p.name for p in (job.folder / "snapshots").glob("snapshot_*.npz"))
    assert snapshots[0] == "snapshot_000000000000.npz" and len(snapshots) >= 5  # every 25 steps

    # a finished run returns at once and writes nothing
    written = (job.folder / "state" / "latest.json").stat().st_mtime_ns
    assert dqn_.train(job) == done
    assert (job.folder / "state" / "latest.json").stat().st_mtime_ns == written

    # the last policy plays legal moves as an agent
    env = make_raw(ENV, **CONFIG)
    agents = [make_agent(ENV, saved[-1].agent, seed=0), make_agent(ENV, "random", seed=1),
              make_agent(ENV, "random", seed=2)]
    env.reset(seed=4)
    for _ in range(60):
        if not env.agents:
            break
        name = env.agent_selection
        action = agents[env.possible_agents.index(name)].act(env, name)
        assert env.observe(name)["action_mask"][action]
        env.step(action)
    assert json.loads((job.folder / "state" / "latest.json").read_text())["learner_steps"] == 256


@pytest.mark.slow  # a study's evaluations and statistics around one tiny dqn run
def test_a_tiny_study_of_dqn_evaluates_its_greedy_policies(tmp_path):
    import yaml

    from forest_envs.studies import load_study
    from forest_envs.studies.dispatch import InProcess
    from forest_envs.studies.results import read_curve, read_final
    from forest_envs.studies.runner import run_study

    pytest.importorskip("rliable")
    source = tmp_path / "dqn_tiny.yaml"
    source.write_text(yaml.safe_dump({
        "name": "dqn_tiny", "tier": "tiny", "seeds": [0],
        "algorithms": [{"name": "dqn", "settings": {**FAST, "learning_starts": 256}}],
        "games": [{"label": "chickwood_3p", "env": ENV, "config": CONFIG}],
        "evaluation": {"points": 2, "games": 3, "final_games": 6},
        "statistics": {"reps": 200, "curve_reps": 100, "seed": 0}}))
    out = tmp_path / "out"
    outcome = run_study(load_study(source), out, dispatch=InProcess(), progress=False)
    assert outcome.finished == ["dqn/chickwood_3p/seed_0"] and outcome.report is not None
    run = out / "runs" / "dqn" / "chickwood_3p" / "seed_0"
    assert [(p.nominal_steps, p.learner_steps) for p in read_curve(run)] == [(1024, 1024), (2048, 2048)]
    final = read_final(run)
    assert final is not None and final.learner_steps == 2048
    entry = json.loads((run / "final.json").read_text())
    assert entry["study"]["algorithm"] == "dqn" and entry["agent"].endswith("step_000000002048.npz:greedy")
