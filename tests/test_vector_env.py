"""The batched API (forest_envs.make_vec) against N AEC envs, action for action, and the
gymnasium and SB3 vector envs on top of it.

Env i of a batch seeded with s plays the games of an AEC env after ``reset(seed=s + i)`` and
unseeded resets; every step's observations, masks, seats, rewards, terminations, truncations
and auto-resets (the finished game's final observations, ranks and scores) are compared, for
several configurations and reward modes and 1, 2 and 3 threads. Where a native engine is not
built the tests skip, except under FOREST_ENVS_REQUIRE_NATIVE=1 (test_native_engines.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from test_native_engines import NATIVE_GAMES, native_or_skip

import forest_envs
from forest_envs.core.errors import ConfigError, IllegalActionError
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.envs.vector import BatchedEnv, SelfPlayVectorEnv, make_vec

ENV = "chickwood_v0"
# (game options, batch options): player counts, a variant, every reward mode, truncation
CASES = [
    ({"num_players": 2}, {}),
    ({"num_players": 3, "legendary": True}, {"reward": "rank"}),
    ({"num_players": 5}, {"reward": "score", "max_steps": 60}),
    ({"num_players": 4}, {"max_steps": 37}),
]


@pytest.fixture(autouse=True)
def _native():
    native_or_skip(ENV)


class AecMirror:
    """N AEC envs played as the batch is: env i reset with seed + i, then unseeded resets."""

    def __init__(self, num_envs: int, seed: int, engine: str = "native", env_id: str = ENV, **config):
        self.envs = [forest_envs.make(env_id, engine=engine, **config) for _ in range(num_envs)]
        for i, env in enumerate(self.envs):
            env.reset(seed=seed + i)

    def seat(self, i: int) -> int:
        env = self.envs[i]
        return env.unwrapped._seat_of[env.agent_selection]

    def check_current(self, batch: BatchedEnv, where: str) -> None:
        for i, env in enumerate(self.envs):
            agent = env.agent_selection
            obs = env.observe(agent)
            assert batch.seat[i] == self.seat(i), f"{where}: env {i} seat"
            assert np.array_equal(batch.observation[i], obs["observation"]), f"{where}: env {i} observation"
            assert np.array_equal(batch.action_mask[i], obs["action_mask"]), f"{where}: env {i} mask"
            assert batch.observation[i].dtype == np.float32 and batch.action_mask.dtype == np.int8

    def step(self, batch: BatchedEnv, actions: np.ndarray, where: str) -> int:
        """Step every env with the batch's actions (-1: not moving) and compare the step's
        rewards, flags and final outputs; an ended game is reset (unseeded). Returns the
        games that ended."""
        ended = 0
        for i, env in enumerate(self.envs):
            if actions[i] == -1:
                assert not batch.rewards[i].any() and not batch.terminated[i] and not batch.truncated[i]
                continue
            env.step(int(actions[i]))
            agents = env.possible_agents
            terminated = all(env.terminations[a] for a in agents)
            truncated = all(env.truncations[a] for a in agents)
            assert batch.terminated[i] == terminated, f"{where}: env {i} terminated"
            assert batch.truncated[i] == truncated, f"{where}: env {i} truncated"
            if not (terminated or truncated):
                assert not batch.rewards[i].any(), f"{where}: env {i} reward before the end"
                continue
            ended += 1
            rewards = np.array([env.rewards[a] for a in agents], np.float32)
            assert np.array_equal(batch.rewards[i], rewards), f"{where}: env {i} rewards"
            for p, a in enumerate(agents):
                assert np.array_equal(batch.final_observation[i, p], env.observe(a)["observation"]), \
                    f"{where}: env {i} final observation of seat {p}"
                info = env.infos[a]
                assert batch.final_ranks[i, p] == info["rank"], f"{where}: env {i} rank"
                if batch.final_scores is not None:  # games with points
                    assert batch.final_scores[i, p] == info["score"], f"{where}: env {i} score"
            env.reset()  # unseeded: the next game from the env's seeder
        return ended


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("config,options", CASES, ids=[str(i) for i in range(len(CASES))])
def test_batch_plays_the_games_of_n_aec_envs(config, options, threads):
    num_envs, seed = 5, 1234
    batch = make_vec(ENV, num_envs, seed=seed, threads=threads, **config, **options)
    mirror = AecMirror(num_envs, seed, **config, **options)
    batch.reset()
    mirror.check_current(batch, "reset")
    ended = truncated = 0
    for t in range(260):
        actions = batch.sample_actions().copy()
        batch.step(actions)
        ended += mirror.step(batch, actions, f"step {t}")
        truncated += int(batch.truncated.sum())
        mirror.check_current(batch, f"step {t}")
    assert ended >= num_envs  # every env went through an auto-reset
    assert (truncated > 0) == bool(options.get("max_steps"))


@pytest.mark.parametrize("config", [{"num_players": 2}, {"num_players": 4, "no_silver": True, "blockade": True}])
def test_roundforest_batch_plays_the_games_of_n_aec_envs(config):
    """Roundforest's batch writes its near_* blocks before every observation, as its env does."""
    env_id = "roundforest_v0"
    native_or_skip(env_id)
    num_envs, seed = 3, 77
    batch = make_vec(env_id, num_envs, seed=seed, threads=2, max_steps=150, **config)
    mirror = AecMirror(num_envs, seed, env_id=env_id, max_steps=150, **config)
    batch.reset()
    mirror.check_current(batch, "reset")
    ended = 0
    for t in range(400):
        actions = batch.sample_actions().copy()
        batch.step(actions)
        ended += mirror.step(batch, actions, f"step {t}")
        mirror.check_current(batch, f"step {t}")
    assert ended >= num_envs


def test_batch_plays_the_python_engines_games_too():
    """The reference: the batch against AEC envs on the Python engine."""
    num_envs, seed = 3, 77
    batch = make_vec(ENV, num_envs, seed=seed, threads=2, num_players=3, max_steps=45)
    mirror = AecMirror(num_envs, seed, engine="python", num_players=3, max_steps=45)
    batch.reset()
    for t in range(120):
        actions = batch.sample_actions().copy()
        batch.step(actions)
        mirror.step(batch, actions, f"step {t}")
        mirror.check_current(batch, f"step {t}")


def test_step_some_moves_only_the_envs_given_an_action():
    num_envs, seed = 6, 5
    batch = make_vec(ENV, num_envs, seed=seed, threads=2, num_players=3)
    mirror = AecMirror(num_envs, seed, num_players=3)
    batch.reset()
    rng = np.random.default_rng(0)
    for t in range(150):
        actions = batch.sample_actions().copy()
        actions[rng.random(num_envs) < 0.4] = -1
        batch.step_some(actions)
        mirror.step(batch, actions, f"step {t}")
        mirror.check_current(batch, f"step {t}")


def test_results_are_the_same_for_any_number_of_threads():
    outs = []
    for threads in (1, 2, 3, 8):
        batch = make_vec(ENV, 7, seed=3, threads=threads, num_players=4, max_steps=50)
        assert batch.threads == min(threads, 7)
        batch.reset()
        trace = []
        for _ in range(120):
            batch.step(batch.sample_actions())
            trace.append([a.copy() for a in (batch.observation, batch.action_mask, batch.seat, batch.rewards,
                                             batch.terminated, batch.truncated)])
        outs.append(trace)
    for other in outs[1:]:
        for a, b in zip(outs[0], other):
            for x, y in zip(a, b):
                assert np.array_equal(x, y)


def test_reset_with_and_without_a_seed_follows_the_aec_env():
    num_envs = 4
    batch = make_vec(ENV, num_envs, threads=2, num_players=3)
    batch.reset(seed=40)
    mirror = AecMirror(num_envs, 40, num_players=3)
    mirror.check_current(batch, "reset(40)")
    for _ in range(30):
        actions = batch.sample_actions().copy()
        batch.step(actions)
        mirror.step(batch, actions, "before the reset")
    batch.reset()  # every env's next game, as the AEC env's unseeded reset
    for env in mirror.envs:
        env.reset()
    mirror.check_current(batch, "unseeded reset")
    batch.reset(seed=9)
    mirror = AecMirror(num_envs, 9, num_players=3)
    mirror.check_current(batch, "reset(9)")


def test_first_reset_without_a_seed_uses_the_constructors_or_a_fresh_one():
    a, b = make_vec(ENV, 2, seed=11, threads=1), make_vec(ENV, 2, threads=1)
    a.reset()
    mirror = AecMirror(2, 11)
    mirror.check_current(a, "constructor seed")
    b.reset()  # a seed from the OS: a game is on, whatever it is
    assert b.action_mask.any(axis=1).all()


def test_sample_actions_draw_from_numpys_generator_of_each_env():
    seed, num_envs = 21, 4
    batch = make_vec(ENV, num_envs, seed=seed, threads=2)
    batch.reset()
    masks = batch.action_mask.copy()
    drawn = batch.sample_actions().copy()
    for i in range(num_envs):
        legal = np.flatnonzero(masks[i])
        k = np.random.default_rng([seed + i, 0x5A3B1E]).integers(legal.size)
        assert drawn[i] == legal[k]


def test_state_copies_an_env_and_changes_nothing_in_the_batch():
    batch = make_vec(ENV, 3, seed=8, threads=2, num_players=3)
    mirror = AecMirror(3, 8, num_players=3)
    batch.reset()
    for _ in range(20):
        actions = batch.sample_actions().copy()
        batch.step(actions)
        mirror.step(batch, actions, "play")
    state = batch.state(1)
    assert state.to_dict() == mirror.envs[1].unwrapped.engine_state.to_dict()
    before = batch.observation.copy()
    state.apply(int(np.flatnonzero(state.legal_action_mask())[0]))
    assert np.array_equal(batch.state(1).observation(batch.seat[1]), before[1])
    assert "P1" in state.render(None) or state.render(None)
    with pytest.raises(IndexError, match="env 3 is not in this batch"):
        batch.state(3)


def test_an_illegal_action_names_the_env_and_moves_no_env():
    batch = make_vec(ENV, 4, seed=2, threads=2, num_players=3)
    batch.reset()
    before = [batch.state(i).to_dict() for i in range(4)]
    outputs = [a.copy() for a in (batch.observation, batch.action_mask, batch.seat)]
    actions = batch.sample_actions().copy()
    bad = int(np.flatnonzero(batch.action_mask[2] == 0)[0])
    actions[2] = bad
    player = int(batch.seat[2])
    with pytest.raises(IllegalActionError) as err:
        batch.step(actions)
    message = str(err.value)
    assert message.startswith(f"env 2: action {bad} (")
    assert f"is illegal for player {player}: " in message
    assert (err.value.env_index, err.value.action, err.value.player) == (2, bad, player)
    assert [batch.state(i).to_dict() for i in range(4)] == before
    for kept, now in zip(outputs, (batch.observation, batch.action_mask, batch.seat)):
        assert np.array_equal(kept, now)
    actions[2] = 280
    with pytest.raises(IllegalActionError, match=r"env 2: action 280 is out of range 0\.\.279"):
        batch.step(actions)
    actions[2] = -1
    with pytest.raises(IllegalActionError, match=r"env 2: action -1 is out of range"):
        batch.step(actions)  # -1 leaves an env alone in step_some only
    # the lowest env is named when several are wrong
    actions = batch.sample_actions().copy()
    actions[1] = actions[3] = 500
    with pytest.raises(IllegalActionError, match="^env 1: "):
        batch.step(actions)
    assert [batch.state(i).to_dict() for i in range(4)] == before


@pytest.mark.parametrize("actions,problem", [
    (np.zeros(4, np.float64), "dtype float64"),
    (np.zeros(4, bool), "dtype bool"),
    (np.zeros((2, 2), np.int64), r"shape \(4,\), one per env; got shape \(2,2,\)"),
    (np.zeros(5, np.int64), r"got shape \(5,\)"),
    ([0.5, 1, 2, 3], "dtype float64"),
    (np.zeros(4, np.uint64), "dtype uint64"),
])
def test_actions_that_are_not_one_integer_per_env_are_refused(actions, problem):
    batch = make_vec(ENV, 4, seed=2, threads=1)
    batch.reset()
    with pytest.raises(IllegalActionError, match=problem):
        batch.step(actions)


def test_actions_of_any_integer_type_and_lists_are_taken():
    batch = make_vec(ENV, 3, seed=2, threads=1)
    batch.reset()
    actions = batch.sample_actions().copy()
    twin = make_vec(ENV, 3, seed=2, threads=1)
    twin.reset()
    batch.step(actions.astype(np.int16))
    twin.step([int(a) for a in actions])
    assert np.array_equal(batch.observation, twin.observation)


@pytest.mark.parametrize("kwargs,problem", [
    ({"engine": "python"}, r"engine='python' cannot be batched: the batched API steps chickwood_v0's native"),
    ({"engine": "gpu"}, r"engine='gpu' is invalid; expected one of None, 'native'"),
    ({"render_mode": "ansi"}, "render_mode is not an option of the batched API"),
    ({"illegal_action": "penalize"}, "an illegal action always raises"),
    ({"colour": 1}, r"unknown option\(s\) \['colour'\]"),
    ({"reward": "money"}, "reward='money' is invalid"),
    ({"max_steps": 0}, "max_steps=0 is invalid"),
    ({"num_players": 9}, "num_players"),
    ({"threads": 0}, r"threads must be an int in 1\.\.1024"),
    ({"threads": 1025}, r"threads must be an int in 1\.\.1024, got 1025"),
    ({"max_steps": 2**63}, "max_steps=9223372036854775808 is too large"),
    ({"seed": -1}, "seed must be None or a non-negative int"),
    ({"seed": 2**64 - 2}, r"seed \+ num_envs must be at most 2\*\*64"),
])
def test_bad_options_are_refused_by_name(kwargs, problem):
    with pytest.raises(ConfigError, match=problem):
        make_vec(ENV, 4, **kwargs)


def test_bad_counts_and_calls_out_of_order():
    with pytest.raises(ConfigError, match=r"num_envs must be an int in 1\.\.16777216, got 0"):
        make_vec(ENV, 0)
    with pytest.raises(ConfigError, match="num_envs"):
        make_vec(ENV, 2.5)
    batch = make_vec(ENV, 2, seed=2**64 - 2, threads=1)  # the largest seed two envs can take
    with pytest.raises(ValueError, match=r"step\(\) before reset\(\)"):
        batch.step([0, 0])
    with pytest.raises(ValueError, match="the batch has no games before reset"):
        batch.state(0)
    batch.reset()
    batch.close()
    with pytest.raises(RuntimeError, match="closed"):
        batch.step([0, 0])


@pytest.mark.parametrize("env_id", [e for e in env_ids() if e not in NATIVE_GAMES])
def test_a_game_without_a_native_engine_says_why(env_id):
    game_class = game_spec(env_id).game_class
    with pytest.raises(ConfigError, match=f"{env_id} has no native engine here") as err:
        make_vec(env_id, 2)
    assert game_class.native_unavailable in str(err.value)
    assert "the batched API steps native engines only" in str(err.value)


def test_steps_release_the_gil_and_a_second_thread_is_refused():
    """While one thread steps a batch (in C++, the GIL released), another Python thread runs,
    and its call on the same batch is refused instead of racing the first."""
    import threading
    import time

    batch = make_vec(ENV, 512, seed=1, threads=2)
    batch.reset()
    actions = batch.sample_actions().copy()
    stop = threading.Event()
    refused: list[str] = []

    def other():
        while not stop.is_set() and not refused:
            try:
                batch.state(0)
            except RuntimeError as err:
                refused.append(str(err))

    thread = threading.Thread(target=other)
    thread.start()
    deadline = time.monotonic() + 20
    try:
        while not refused and time.monotonic() < deadline:
            batch.step(actions)
            actions = batch.sample_actions().copy()
    finally:
        stop.set()
        thread.join()
    assert refused and "this batch is being stepped by another thread" in refused[0]


def test_the_facade_exports_the_batched_api():
    assert forest_envs.make_vec is make_vec
    assert forest_envs.BatchedEnv is BatchedEnv and forest_envs.SelfPlayVectorEnv is SelfPlayVectorEnv


# --- the gymnasium VectorEnv (self-play) --------------------------------------------------------

def test_self_play_vector_env_follows_gymnasiums_conventions():
    env = SelfPlayVectorEnv(ENV, 4, seed=3, threads=2, num_players=3, max_steps=40)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert obs["observation"].shape == (4, env.batch.observation_size)
    twin = SelfPlayVectorEnv(ENV, 4, threads=1, num_players=3, max_steps=40)
    obs_twin, _ = twin.reset(seed=[3, 4, 5, 6])
    assert np.array_equal(obs["observation"], obs_twin["observation"])
    ends = 0
    for _ in range(90):
        actions = env.batch.sample_actions().copy()
        actor = info["seat"]
        obs, rewards, terminated, truncated, info = env.step(actions)
        obs2, rewards2, terminated2, truncated2, info2 = twin.step(actions)
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["observation"], obs2["observation"]) and np.array_equal(rewards, rewards2)
        assert rewards.dtype == np.float32 and rewards.shape == (4,)
        assert terminated.dtype == bool and truncated.dtype == bool
        assert np.array_equal(info["actor"], actor)
        assert np.array_equal(rewards, info["rewards"][np.arange(4), actor])
        done = terminated | truncated
        if done.any():
            ends += int(done.sum())
            assert np.array_equal(info["_final_obs"], done)
            for i in np.flatnonzero(done):
                final = info["final_obs"][i]
                assert env.single_observation_space.contains(final)
                assert info["final_info"]["seat"][i] == actor[i]
                assert info["final_info"]["truncated"][i] == truncated[i]
        else:
            assert "final_obs" not in info
    assert ends > 0
    with pytest.raises(ConfigError, match=r"seed as a list must be \[s, s \+ 1"):
        env.reset(seed=[1, 5, 2, 3])
    env.close()


def test_self_play_vector_env_runs_under_gymnasiums_vector_wrappers():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(SelfPlayVectorEnv(ENV, 3, seed=1, threads=2, num_players=2))
    env.reset(seed=1)
    episodes = 0
    for _ in range(200):
        _, _, terminated, truncated, info = env.step(env.unwrapped.batch.sample_actions().copy())
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 0


def test_copy_false_hands_out_the_batchs_own_arrays():
    env = SelfPlayVectorEnv(ENV, 2, seed=1, threads=1, copy=False)
    obs, _ = env.reset()
    assert obs["observation"] is env.batch.observation


# --- the SB3 VecEnv (a learner seat against batched opponents) ------------------------------------

sb3 = pytest.importorskip("stable_baselines3")


def _first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A deterministic opponent: the last legal action."""
    return masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)


def test_learner_vec_env_matches_aec_envs_with_the_same_opponents():
    """Seat 1 learns among opponents playing their last legal action: rewards, dones,
    terminal observations and truncation as N AEC envs played the same way give them."""
    from forest_envs.train.native_vec import NativeBatchVecEnv

    n, seed = 4, 60
    venv = NativeBatchVecEnv(ENV, n, opponents=_first_legal, learner_seat=1, threads=2, num_players=3,
                             max_steps=70)
    venv.seed(seed)
    obs = venv.reset()
    envs = [forest_envs.make(ENV, num_players=3, max_steps=70) for _ in range(n)]
    learner = "player_1"

    def play_opponents(env):
        while env.agent_selection != learner:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.reset()
                continue
            mask = env.observe(agent)["action_mask"]
            env.step(int(_first_legal(None, mask[None])[0]))

    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
        play_opponents(env)
        assert np.array_equal(obs[i], env.observe(learner)["observation"])
    rng = np.random.default_rng(0)
    episodes = 0
    for t in range(150):
        masks = venv.env_method("action_masks")
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        assert obs.dtype == np.float32 and rewards.dtype == np.float32 and dones.dtype == bool
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            play_to_learner_or_end = True
            while play_to_learner_or_end:
                agent = env.agent_selection
                if env.terminations[learner] or env.truncations[learner]:
                    break
                if agent == learner:
                    play_to_learner_or_end = False
                    break
                env.step(int(_first_legal(None, env.observe(agent)["action_mask"][None])[0]))
            ended = env.terminations[learner] or env.truncations[learner]
            assert dones[i] == ended, f"step {t} env {i}"
            if ended:
                episodes += 1
                assert rewards[i] == np.float32(env.rewards[learner])
                assert np.array_equal(infos[i]["terminal_observation"], env.observe(learner)["observation"])
                assert infos[i]["TimeLimit.truncated"] == env.truncations[learner]
                assert infos[i]["rank"] == env.infos[learner]["rank"]
                env.reset()
                play_opponents(env)
            else:
                assert rewards[i] == 0.0 and infos[i] == {}
            assert np.array_equal(obs[i], env.observe(learner)["observation"]), f"step {t} env {i}"
            assert np.array_equal(venv.action_masks()[i], env.observe(learner)["action_mask"].astype(bool))
    assert episodes >= n


def test_learner_vec_env_draws_every_seat_and_answers_sb3s_questions():
    from forest_envs.train.native_vec import NativeBatchVecEnv

    venv = NativeBatchVecEnv(ENV, 6, threads=2, num_players=3)
    venv.seed(1)
    obs = venv.reset()
    assert venv.observation_space.contains(obs[0]) and obs.shape == (6, venv.batch.observation_size)
    assert venv.has_attr("action_masks") and not venv.has_attr("no_such_thing")
    assert venv.env_is_wrapped(object) == [False] * 6
    assert venv.get_attr("learner_seat", indices=[0, 2]) == [None, None]
    with pytest.raises(AttributeError, match="action_masks"):
        venv.env_method("render")
    seats = set()
    for _ in range(300):
        masks = np.stack(venv.env_method("action_masks"))
        assert np.array_equal(venv.batch.seat, venv._learner)  # the learner is to move everywhere
        _, _, dones, infos = venv.step(np.argmax(masks, axis=1))
        seats.update(info["seat"] for info in infos if "seat" in info)
        for i in np.flatnonzero(dones):
            assert venv.observation_space.contains(infos[i]["terminal_observation"])
    assert seats == {0, 1, 2}
    with pytest.raises(ConfigError, match="learner_seat=3 is invalid"):
        NativeBatchVecEnv(ENV, 2, learner_seat=3, num_players=3)
    with pytest.raises(ConfigError, match="opponents must be"):
        NativeBatchVecEnv(ENV, 2, opponents=42)


def test_learner_vec_env_is_reproducible_from_its_seed():
    from forest_envs.train.native_vec import NativeBatchVecEnv

    def trace(threads):
        venv = NativeBatchVecEnv(ENV, 5, threads=threads, num_players=4)
        venv.seed(7)
        out = [venv.reset()]
        for _ in range(60):
            masks = venv.action_masks()
            o, r, d, _ = venv.step(np.argmax(masks, axis=1))
            out += [o, r, d]
        return out

    for a, b in zip(trace(1), trace(3)):
        assert np.array_equal(a, b)


def test_a_policy_file_plays_the_opponents():
    from forest_envs.train.native_vec import NativeBatchVecEnv

    path = Path(forest_envs.__file__).parent / "baselines" / f"{ENV}.npz"  # 3 players
    venv = NativeBatchVecEnv(ENV, 3, opponents=str(path), seed=1, threads=1)
    venv.seed(1)
    venv.reset()
    for _ in range(40):
        venv.step(np.argmax(venv.action_masks(), axis=1))
    with pytest.raises(ConfigError, match="expects observations of"):
        NativeBatchVecEnv(ENV, 2, opponents=str(path), num_players=5)


def test_maskable_ppo_learns_on_the_learner_vec_env_with_self_play():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.vec_env import VecMonitor

    from forest_envs.train.native_vec import NativeBatchVecEnv, model_opponent

    venv = NativeBatchVecEnv(ENV, 4, seed=0, threads=2, num_players=3)
    model = sb3_contrib.MaskablePPO("MlpPolicy", VecMonitor(venv), n_steps=32, batch_size=64, n_epochs=1,
                                    seed=0, device="cpu", policy_kwargs={"net_arch": [32]})
    model.learn(128)
    venv.opponents = model_opponent(model)  # self-play: the learner's policy in the other seats
    model.learn(128, reset_num_timesteps=False)
    assert model.num_timesteps >= 256
