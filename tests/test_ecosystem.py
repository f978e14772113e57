"""forest_envs in the wider ecosystem: gymnasium ids for every registered game, PettingZoo's
Parallel API through ``turn_based_aec_to_parallel``, the RLlib action-masking module and its
export to the numpy policy format, packaging metadata, and (slow) RLlib training on a real
two-node Ray cluster on this machine.

Nothing here names a game: every case runs on every registered game (the toy game of
tests/toy_game.py included).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from config_cases import config_cases
from gymnasium.utils.env_checker import check_env
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from ray_cluster import two_node_cluster

import forest_envs
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.envs.registration import gymnasium_id, register, unregister

ROOT = Path(__file__).resolve().parents[1]
GAMES = list(env_ids())
CASES = config_cases()  # the pairwise cover by default, the rest slow


# --- gymnasium --------------------------------------------------------------------------------
def test_single_agent_adapter_is_exported():
    assert forest_envs.SingleAgentEnv is forest_envs.envs.gym_env.SingleAgentEnv
    assert "SingleAgentEnv" in forest_envs.__all__


@pytest.mark.parametrize("env_id", GAMES)
def test_every_registered_game_has_a_gymnasium_id(env_id):
    gid = gymnasium_id(env_id)
    assert gid == f"forest_envs/{env_id}" and gid in gymnasium.registry
    env = gymnasium.make(gid, learner_seat=0)
    assert isinstance(env.unwrapped, forest_envs.SingleAgentEnv)
    assert env.unwrapped.aec.game.env_id == env_id
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs) and info["action_mask"].any()


@pytest.mark.parametrize("env_id", GAMES)
def test_gymnasium_make_passes_check_env(env_id, capsys):
    # check_env steps action_space.sample(), which ignores the legal-action mask; with
    # illegal_action="penalize" an illegal action ends the game with a penalty instead of raising.
    # Opponents named: Roundforest's default ones make the learning-signal warning.
    env = gymnasium.make(gymnasium_id(env_id), illegal_action="penalize", opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Expected notes: check_env prefers the unwrapped env (we test what users make), and
        # the adapter declares no render fps (text rendering has none).
        warnings.filterwarnings("ignore", message=".*is different from the unwrapped version")
        warnings.filterwarnings("ignore", message=".*No render fps was declared")
        check_env(env)
    # check_env also makes an env in every declared render mode, "human" included, resets it
    # and calls render(): the human mode prints only the moves step() plays, so nothing here.
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("env_id", GAMES)
def test_human_render_mode_prints_each_move_as_step_plays_it(env_id, capsys):
    env = forest_envs.make(env_id, render_mode="human")
    env.reset(seed=3)
    assert env.render() is None and capsys.readouterr().out == ""  # asked for moves, none played
    board = env.unwrapped.render_text()
    state = env.unwrapped.engine_state
    mover, action = state.current_player, state.legal_actions()[0]
    before = state.clone()
    env.step(action)
    said = f"P{mover}: {state.narrate(before, action, None)}"
    assert capsys.readouterr().out == f"{board}\n{said}\n{env.unwrapped.render_text()}\n"
    mover, action = state.current_player, state.legal_actions()[0]
    before = state.clone()
    env.step(action)  # no starting table again
    assert capsys.readouterr().out == (f"P{mover}: {state.narrate(before, action, None)}\n"
                                       f"{env.unwrapped.render_text()}\n")
    assert env.render() is None and capsys.readouterr().out == ""


@pytest.mark.parametrize("env_id", GAMES)
def test_single_agent_human_mode_prints_at_each_learner_step(env_id, capsys):
    env = forest_envs.SingleAgentEnv(env_id, opponents="random", learner_seat=1, render_mode="human")
    _, info = env.reset(seed=3)
    assert env.render() is None and capsys.readouterr().out == ""  # reset and render: quiet
    aec = env.unwrapped.aec
    start = forest_envs.make(env_id)
    start.reset(seed=aec.record()["seed"])
    opening = len(aec.record()["actions"])  # the opponents' moves before the learner's first
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    out = capsys.readouterr().out.splitlines()
    board, table = start.unwrapped.render_text().splitlines(), aec.render_text().splitlines()
    moves = len(aec.record()["actions"])
    assert out[:len(board)] == board and out[-len(table):] == table
    said = [line for line in out[len(board):-len(table)] if re.match(r"P\d: ", line)]
    assert len(said) == moves and said[opening].startswith("P1: ")
    assert env.render() is None and capsys.readouterr().out == ""


def test_gymnasium_make_forwards_game_and_env_options():
    env_id = GAMES[0]
    spec = game_spec(env_id).game_class
    n = max(spec.options["num_players"].choices)
    env = gymnasium.make(gymnasium_id(env_id), num_players=n, reward="rank", render_mode="ansi")
    assert len(env.unwrapped.aec.possible_agents) == n
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*No render fps was declared")
        assert isinstance(env.render(), str)
    with pytest.raises(forest_envs.ConfigError, match="num_players"):
        gymnasium.make(gymnasium_id(env_id), num_players=99)


def test_a_game_registered_later_gets_a_gymnasium_id_and_loses_it_on_unregister():
    from toy_game import ToyEnv, ToyGame

    game = type("EcoToyGame", (ToyGame,), {"env_id": "ecotoy_v0"})
    env_class = type("EcoToyEnv", (ToyEnv,), {"game_class": game})
    register("ecotoy_v0", game, env_class)
    try:
        register("ecotoy_v0", game, env_class)  # registering again is allowed, and quiet
        env = gymnasium.make("forest_envs/ecotoy_v0")
        env.reset(seed=0)
        assert env.unwrapped.aec.game.env_id == "ecotoy_v0"
    finally:
        unregister("ecotoy_v0")
    assert "forest_envs/ecotoy_v0" not in gymnasium.registry


# --- gymnasium vector envs and masks -----------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_info_mask_and_action_masks_have_one_dtype(env_id):
    env = forest_envs.SingleAgentEnv(env_id)
    _, info = env.reset(seed=0)
    assert info["action_mask"].dtype == env.action_masks().dtype == np.bool_
    _, _, _, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert info["action_mask"].dtype == np.bool_


def _masked_sampling_loop(mode, steps: int, all_zero_means_any: bool) -> dict:
    """A CleanRL-style loop over a gymnasium vector env: logits masked with -inf where the
    info mask says illegal, softmax, sample. Counts all-zero masks, NaN rows, episode ends."""
    from gymnasium.vector import SyncVectorEnv

    gid = gymnasium_id(GAMES[0])
    envs = SyncVectorEnv([lambda: gymnasium.make(gid)] * 2, autoreset_mode=mode)
    _, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    counts = {"all_zero": 0, "nan_rows": 0, "ends": 0}
    for _ in range(steps):
        mask = info["action_mask"]
        counts["all_zero"] += int((~mask.any(axis=1)).sum())
        if all_zero_means_any:
            # next-step autoreset: this step only resets that env and ignores its action
            mask = np.where(mask.any(axis=1, keepdims=True), mask, True)
        with np.errstate(invalid="ignore"):
            logits = np.where(mask, rng.normal(size=mask.shape), -np.inf)
            probs = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs /= probs.sum(axis=1, keepdims=True)
        nan = np.isnan(probs).any(axis=1)
        counts["nan_rows"] += int(nan.sum())
        actions = np.array([0 if bad else rng.choice(p.size, p=p) for p, bad in zip(probs, nan)])
        _, _, term, trunc, info = envs.step(actions)
        counts["ends"] += int((term | trunc).sum())
    envs.close()
    return counts


def test_next_step_autoreset_gives_an_all_zero_mask_after_the_last_step_and_the_remedies_work():
    from gymnasium.vector import AutoresetMode

    steps = 150
    naive = _masked_sampling_loop(AutoresetMode.NEXT_STEP, steps, all_zero_means_any=False)
    # the step after an episode's end: the env is over, its mask is all zero, the softmax NaN
    assert naive["ends"] >= 2 and naive["all_zero"] >= 2 and naive["nan_rows"] == naive["all_zero"]
    # remedy 1: an all-zero mask means "any action" (the autoreset step ignores it)
    fixed = _masked_sampling_loop(AutoresetMode.NEXT_STEP, steps, all_zero_means_any=True)
    assert fixed["nan_rows"] == 0 and fixed["ends"] >= naive["ends"]
    # remedy 2: same-step autoreset returns the new episode's mask with the last step
    same = _masked_sampling_loop(AutoresetMode.SAME_STEP, steps, all_zero_means_any=False)
    assert same["all_zero"] == 0 and same["nan_rows"] == 0 and same["ends"] >= naive["ends"]


# --- info keys every dict-like container can hold -------------------------------------------------
# Tianshou's Batch keeps keys as attributes, so a key named after one of its methods hides the
# method ({"items": 2} made Batch.stack call an array); attribute-style dicts do the same. No
# info key of any game, at any depth, may be such a name: dict's own methods and Batch's.
CONTAINER_METHOD_NAMES = frozenset(n for n in dir(dict) if not n.startswith("_")) | {
    "apply_values_transform", "cat", "cat_", "dropnull", "empty", "empty_", "get_keys", "hasnull",
    "isnull", "replace_empty_batches_by_none", "set_array_at_key", "shape", "split", "stack",
    "stack_", "to_at_least_2d", "to_dict", "to_list_of_dicts", "to_numpy", "to_numpy_", "to_torch",
    "to_torch_", "dtype", "device", "size"}


def _nested_keys(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield (*path, k)
            yield from _nested_keys(v, (*path, k))


def _played_infos(env_id: str, cfg: dict, seed: int = 0) -> list[dict]:
    """Every info of every seat of a random game (its end infos last), the infos of the
    single-agent adapter's episode, and the infos of a game ended by an illegal action."""
    from random_play import play

    env = forest_envs.make(env_id, **cfg)
    infos = []
    env.reset(seed=seed)
    bot = forest_envs.agents.base.RandomAgent(seed)
    for agent in env.agent_iter():
        *_, term, trunc, info = env.last()
        infos.append(info)
        env.step(None if term or trunc else bot.act(env, agent))
    single = forest_envs.SingleAgentEnv(env_id, **cfg)
    _, info = single.reset(seed=seed)
    infos.append(info)
    # (the toy game can end before the learner's first turn: reset then returns the end)
    done = not single.action_masks().any()
    while not done:
        _, _, term, trunc, info = single.step(int(np.flatnonzero(single.action_masks())[0]))
        infos.append(info)
        done = term or trunc
    penalized = forest_envs.make(env_id, illegal_action="penalize", **cfg)
    play(penalized, seed=seed, limit=0)
    illegal = np.flatnonzero(penalized.unwrapped.action_mask(penalized.agent_selection) == 0)
    if illegal.size:  # (in the toy game every action is legal at the start)
        penalized.step(int(illegal[0]))
        infos.extend(penalized.infos.values())
        assert "illegal_action" in infos[-1]
    return infos


@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_no_info_key_is_named_after_a_dict_like_containers_method(env_id, cfg):
    infos = _played_infos(env_id, cfg)
    assert any("breakdown" in info for info in infos)
    clashes = {".".join(map(str, path)) for info in infos for path in _nested_keys(info)
               if path[-1] in CONTAINER_METHOD_NAMES}
    assert not clashes, f"info keys named after a container method: {sorted(clashes)}"
    assert all(isinstance(k, str) for info in infos for path in _nested_keys(info) for k in path)


def test_container_method_names_cover_tianshous_batch():
    batch = pytest.importorskip("tianshou.data").Batch
    assert {n for n in dir(batch) if not n.startswith("_")} <= CONTAINER_METHOD_NAMES


# --- Tianshou (the ecosystem extra) ------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_every_games_end_infos_go_into_a_tianshou_batch(env_id, cfg):
    batch_class = pytest.importorskip("tianshou.data").Batch
    env = forest_envs.make(env_id, **cfg)
    from random_play import play

    play(env, seed=0)
    ends = list(play.infos.values())
    assert all("breakdown" in info for info in ends)
    for info in ends:  # every value comes back as it went in
        assert json.loads(json.dumps(batch_class(info).to_dict(), default=_plain)) == json.loads(
            json.dumps(info, default=_plain))
    # as a Collector stacks the seats' infos (keys one seat lacks are padded with zeros)
    stacked = batch_class.stack([batch_class(info) for info in ends])
    assert len(stacked) == len(ends)
    assert stacked.rank.tolist() == [info["rank"] for info in ends]
    assert set(stacked.breakdown.get_keys()) == {k for info in ends for k in info["breakdown"]}


def _plain(value):
    return value.tolist() if isinstance(value, (np.ndarray, np.generic)) else value


@pytest.mark.parametrize("env_id", GAMES)
def test_a_whole_episode_through_tianshous_pettingzoo_env(env_id):
    tianshou_env = pytest.importorskip("tianshou.env")
    batch_class = pytest.importorskip("tianshou.data").Batch
    env = tianshou_env.PettingZooEnv(forest_envs.make(env_id, max_steps=500))
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps, done = 0, False
    while not done:
        assert obs["agent_id"] in env.agents and any(obs["mask"])
        action = int(rng.choice(np.flatnonzero(obs["mask"])))
        obs, rewards, term, trunc, info = env.step(action)
        batch_class(obs=batch_class(obs), info=batch_class(info))  # what the Collector builds per step
        steps += 1
        done = term or trunc
    assert "breakdown" in info and len(rewards) == len(env.agents)
    assert steps <= 500 and (term or info["truncated"])


# --- TorchRL (the ecosystem extra) ------------------------------------------------------------------
def _torchrl_wrapper(env, **kwargs):
    pettingzoo_lib = pytest.importorskip("torchrl.envs.libs.pettingzoo")
    with warnings.catch_warnings():  # TorchRL notes the PettingZoo version it was tested with
        warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")
        return pettingzoo_lib.PettingZooWrapper(env=env, categorical_actions=True, seed=0, **kwargs)


@pytest.mark.slow  # ~20 s: TorchRL's import and a TensorDict per move
@pytest.mark.parametrize("env_id", GAMES)
def test_a_whole_game_through_torchrl_pettingzoo_wrapper_with_use_mask_on_the_aec_env(env_id):
    env = _torchrl_wrapper(forest_envs.make(env_id, max_steps=500), use_mask=True)
    aec = env._env.unwrapped
    rollout = env.rollout(10_000, break_when_any_done=True)  # random legal actions from the action spec
    assert rollout["next", "done"][-1].all() and not rollout["next", "done"][:-1].any()
    assert aec.engine_state.is_terminal or all(aec.truncations.values())
    moving = [rollout[group, "mask"] for group in env.group_map]  # one seat moves per step
    assert sum(m.sum(-1) for m in moving).eq(1).all()


def test_torchrl_on_the_turn_based_parallel_conversion_fails_and_why():
    """Documented in docs/ecosystem.md: through turn_based_aec_to_parallel every seat is 'live',
    the waiting seats' masks are all zero, and TorchRL samples an action for every live seat."""
    env = _torchrl_wrapper(turn_based_aec_to_parallel(forest_envs.make(GAMES[0])), use_mask=True)
    td = env.reset()
    masks = [td[group, "action_mask"].any(-1) for group in env.group_map]
    assert sum(int(m.sum()) for m in masks) == 1  # only the seat to move has a legal action
    with pytest.raises(RuntimeError, match="invalid multinomial distribution"):
        env.rollout(10, break_when_any_done=True)


# --- RLlib module and export (no Ray cluster needed) ------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_masked_module_never_picks_an_illegal_action_and_exports_to_numpy_policy(env_id, tmp_path):
    pytest.importorskip("ray.rllib")
    import torch
    from ray.rllib.core.columns import Columns

    from forest_envs.agents.policy import NumpyPolicy, PolicyAgent
    from forest_envs.train.rllib import TurnBasedMultiAgentEnv
    from forest_envs.train.rllib_masking import MaskedActorCritic, export_npz

    env = TurnBasedMultiAgentEnv({"env": env_id})
    agent0 = env.possible_agents[0]
    module = MaskedActorCritic(observation_space=env.observation_spaces[agent0],
                               action_space=env.action_spaces[agent0],
                               model_config={"hidden": [16, 8], "activation": "relu"})
    obs, _ = env.reset(seed=3)
    (agent, o), = obs.items()
    batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in o.items()}}
    with torch.no_grad():
        logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
        values = module.compute_values(batch)
    assert values.shape == (1,)
    legal = o["action_mask"] > 0
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    assert probs[~legal].sum() == 0.0 and probs[legal].sum() == pytest.approx(1.0)

    policy = NumpyPolicy.load(export_npz(module, tmp_path / "p.npz"))
    assert (policy.observation_size, policy.num_actions) == (o["observations"].size, o["action_mask"].size)
    assert np.allclose(policy.logits(o["observations"])[legal], logits[legal], atol=1e-5)
    assert np.allclose(policy.probabilities(o["observations"], o["action_mask"]), probs, atol=1e-6)
    # ... and it plays the AEC game as any trained policy does.
    aec = forest_envs.make(env_id)
    aec.reset(seed=0)
    player = PolicyAgent(tmp_path / "p.npz", seed=0, env=aec)
    assert aec.unwrapped.action_mask(aec.agent_selection)[player.act(aec, aec.agent_selection)]


@pytest.mark.parametrize("policies", ["shared", "per_seat"])
def test_rllib_config_maps_seats_to_policies_of_our_masked_module(policies):
    pytest.importorskip("ray.rllib")
    from forest_envs.train.config import load_config
    from forest_envs.train.rllib import build_algorithm_config
    from forest_envs.train.rllib_masking import MaskedActorCritic

    cfg = load_config("smoke_rllib", {"rllib.policies": policies})
    algo_config = build_algorithm_config(cfg)
    seats = forest_envs.make_raw(cfg["env"], **cfg["env_config"]).possible_agents
    expected = {"shared"} if policies == "shared" else set(seats)
    assert set(algo_config.policies) == expected
    assert {algo_config.policy_mapping_fn(seat, None) for seat in seats} == expected
    specs = algo_config.rl_module_spec.rl_module_specs
    assert set(specs) == expected and all(s.module_class is MaskedActorCritic for s in specs.values())


def test_rllib_code_uses_nothing_from_rays_examples():
    for path in (ROOT / "forest_envs").rglob("*.py"):
        assert "rllib.examples" not in path.read_text(), path


# --- packaging ---------------------------------------------------------------------------------------
def test_pyproject_license_and_ray_bound():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["license"] == "MIT"  # an SPDX expression, not the deprecated table
    # scikit-build-core reads SPDX license strings from 0.10 (and builds the native engines)
    assert meta["build-system"]["build-backend"] == "scikit_build_core.build"
    assert "scikit-build-core>=0.10" in meta["build-system"]["requires"]
    ray = [r for r in meta["project"]["optional-dependencies"]["rllib"] if r.startswith("ray")]
    assert ray == ["ray[rllib]>=2.41"]  # AlgorithmConfig.build_algo() first ships in 2.41.0


def test_packaging_metadata_ships_the_type_marker_changelog_and_ecosystem_extra():
    tomllib = pytest.importorskip("tomllib")
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert (ROOT / "forest_envs" / "py.typed").is_file()
    build = meta["tool"]["scikit-build"]
    # the wheel ships every file of the package (py.typed, the shipped baselines, the
    # benchmark's frozen ratings) but the C++ sources, which only the build reads
    assert build["wheel"]["packages"] == ["forest_envs"]
    assert build["wheel"]["exclude"] == ["**.cpp", "**.hpp"]
    readme = meta["tool"]["hatch"]["metadata"]["hooks"]["fancy-pypi-readme"]["fragments"]
    assert [f.get("path") for f in readme] == ["README.md", None, "CHANGELOG.md"]  # None: the note on docs/
    extra = {re.split(r"[<>=\[]", r)[0] for r in meta["project"]["optional-dependencies"]["ecosystem"]}
    assert {"tianshou", "torchrl", "supersuit"} <= extra


def test_packaging_metadata_for_a_public_index():
    tomllib = pytest.importorskip("tomllib")
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = meta["project"]
    classifiers = project["classifiers"]
    python = sorted(c.rsplit(" ", 1)[1] for c in classifiers
                    if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert python == ["3.10", "3.11", "3.12", "3.13"]
    assert project["requires-python"] == ">=3.10"
    assert {"Typing :: Typed", "Development Status :: 4 - Beta",
            "Topic :: Scientific/Engineering :: Artificial Intelligence",
            "Topic :: Games/Entertainment :: Board Games"} <= set(classifiers)
    assert not any(c.startswith("License ::") for c in classifiers)  # the SPDX expression says it
    assert {"reinforcement-learning", "multi-agent", "pettingzoo", "gymnasium"} <= set(project["keywords"])
    # no public address exists yet: no [project.urls], and pyproject.toml says why (none invented)
    assert "urls" not in project and "# No [project.urls]:" in (ROOT / "pyproject.toml").read_text()
    bounds = {re.split(r"[<>=\[]", r)[0]: r for r in project["dependencies"]}
    # threadpoolctl 3.0 brought ThreadpoolController; gymnasium 1.1 AutoresetMode (the CleanRL loop)
    assert bounds["threadpoolctl"] == "threadpoolctl>=3.0"
    assert bounds["gymnasium"] == "gymnasium>=1.1"
    assert "from gymnasium.vector import AutoresetMode" in (ROOT / "docs" / "ecosystem.md").read_text()
    # the sdist leaves the tests out (they need a checkout's tools and layout)
    assert "tests" in meta["tool"]["scikit-build"]["sdist"]["exclude"]


def index_readme() -> str:
    """README.md as the package index shows it: pyproject's substitutions applied."""
    tomllib = pytest.importorskip("tomllib")
    hook = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["metadata"]["hooks"]
    text = (ROOT / "README.md").read_text()
    for sub in hook["fancy-pypi-readme"]["substitutions"]:
        text = re.sub(sub["pattern"], sub["replacement"], text)
    return text


def test_the_index_readme_has_no_link_or_picture_that_needs_the_repository():
    text = index_readme()
    relative = re.findall(r"\]\((?!https?://|#)([^)]*)\)", text)
    assert relative == []
    assert "*Picture: Chickwood Forest, 3 players, seen by player 0 (docs/images/chickwood.png).*" in text
    assert "docs/ecosystem.md has a runnable example per client" in text


def _readme_first_python_snippet() -> str:
    return re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S).group(1)


@pytest.mark.slow
def test_the_wheel_installs_in_a_clean_venv_with_a_working_cli_and_readme_snippet(tmp_path):
    pytest.importorskip("build")
    dist = tmp_path / "dist"
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    wheel, = dist.glob("forest_envs-*.whl")
    sdist, = dist.glob("forest_envs-*.tar.gz")
    import tarfile
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    assert "forest_envs/py.typed" in names and "forest_envs/chickwood/agents/__init__.py" in names
    assert "forest_envs/benchmark/reference_ratings.json" in names
    assert "forest_envs/configs/chickwood.yaml" in names and "forest_envs/configs/demo.yaml" in names
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("/METADATA"))).decode()
    assert "# Changelog" in metadata and "License-Expression: MIT" in metadata
    assert any(n.endswith("/CHANGELOG.md") for n in tarfile.open(sdist).getnames())
    assert not any("/tests/" in n for n in tarfile.open(sdist).getnames())
    assert re.findall(r"\]\((?!https?://|#)([^)]*)\)", metadata) == []  # no link needs the repository

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(wheel)],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    listed = subprocess.run([str(venv / "bin" / "forest-envs"), "list"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert listed.returncode == 0, listed.stderr[-3000:]
    assert all(env_id in listed.stdout for env_id in ("chickwood_v0", "roundforest_v0", "sherwood_v0"))
    # without a clone: the shipped configs are there, and training without its extra says which
    configs = subprocess.run([str(venv / "bin" / "forest-envs"), "configs"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)
    assert configs.returncode == 0 and configs.stdout.startswith("chickwood ")
    train = subprocess.run([str(venv / "bin" / "forest-envs"), "train", "smoke"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
    assert (train.returncode, train.stdout) == (2, "")
    assert re.fullmatch(r"forest-envs: train needs the 'train' extra, which is not installed \(missing: "
                        r"[^)]*\): pip install 'forest_envs\[train\]'\n", train.stderr)
    snippet = tmp_path / "readme_snippet.py"
    # the installed package, not this worktree's
    check = f"import forest_envs\nassert forest_envs.__file__.startswith({str(venv)!r})\n"
    snippet.write_text(check + _readme_first_python_snippet())
    ran = subprocess.run([str(venv / "bin" / "python"), str(snippet)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert ran.stdout.strip()  # the snippet prints the end info's score, rank and breakdown


# --- docs/ecosystem.md: each client's example, shown verbatim and run --------------------------------
ECOSYSTEM_MD = ROOT / "docs" / "ecosystem.md"
EXAMPLES = ROOT / "docs" / "examples"
# example -> (the modules it needs, whether it is slow)
EXAMPLE_NEEDS = {
    "supersuit_wrappers": (["supersuit"], False),
    "tianshou_random": (["tianshou"], True),
    "torchrl_masked_policy": (["torchrl"], True),
    "sb3_maskable_ppo": (["sb3_contrib"], True),
    "rllib_ppo": (["ray.rllib"], True),
    "cleanrl_ppo": (["torch"], True),
}


def test_ecosystem_doc_shows_every_example_verbatim():
    text = ECOSYSTEM_MD.read_text(encoding="utf-8")
    assert [line for line in text.splitlines() if line.startswith("## ")][0] == "## PettingZoo"
    shown = dict(re.findall(r"<!-- example: docs/examples/(\w+)\.py -->\n```python\n(.*?)```", text, re.S))
    files = {p.stem: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.py")}
    assert set(shown) == set(files) == set(EXAMPLE_NEEDS)
    for name, code in files.items():
        assert shown[name] == code, f"docs/ecosystem.md shows an old docs/examples/{name}.py"
        # every gymnasium id an example names is the "module:id" form that works in any process
        assert not re.search(r"[\"']forest_envs/\w+_v\d", code), name


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] if slow else [])
                                  for n, (_, slow) in EXAMPLE_NEEDS.items()])
def test_ecosystem_example_runs(name, tmp_path):
    for module in EXAMPLE_NEEDS[name][0]:
        pytest.importorskip(module)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONWARNINGS="ignore", RAY_USAGE_STATS_ENABLED="0")
    ran = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert ran.stdout.strip(), "the example printed nothing"


def test_the_plain_gymnasium_id_needs_an_import_and_the_module_form_does_not(tmp_path):
    """What a SubprocVecEnv worker sees: a fresh interpreter that did not import forest_envs."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    code = "import gymnasium\nenv = gymnasium.make(%r)\nprint(type(env.unwrapped).__name__)"
    plain = subprocess.run([sys.executable, "-c", code % f"forest_envs/{GAMES[0]}"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode != 0 and "NamespaceNotFound: Namespace forest_envs not found" in plain.stderr
    module_form = subprocess.run([sys.executable, "-c", code % f"forest_envs:forest_envs/{GAMES[0]}"],
                                 cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert module_form.returncode == 0, module_form.stderr[-3000:]
    assert module_form.stdout.strip() == "SingleAgentEnv"


# --- a real two-node Ray cluster (slow, tests/ray_cluster.py) -----------------------------
# Deprecation notices Ray emits by itself whatever the caller does (RLModule.__init__ builds the
# deprecated RLModuleConfig for every module, Ray's own default modules included).
RAY_INTERNAL_DEPRECATIONS = ("`RLModule(config=[RLModuleConfig object])` has been deprecated",)


@pytest.mark.slow
def test_rllib_trains_on_a_two_node_ray_cluster(tmp_path):
    pytest.importorskip("ray.rllib")
    from forest_envs.evaluation import run_games

    with two_node_cluster(tmp_path) as cluster:
        env = cluster.env
        out = tmp_path / "run"
        # Two env runners of one CPU each: one on each node.
        train = subprocess.run(
            [sys.executable, "-W", "error::DeprecationWarning", "-m", "forest_envs.cli", "train-rllib",
             "smoke_rllib", "--address", cluster.address,
             "--set", f"output_dir={out}", "--set", "rllib.num_env_runners=2"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert train.returncode == 0, train.stdout[-3000:] + train.stderr[-3000:]
        # The same cluster plays evaluation games as Ray tasks (one per game here, so both
        # nodes get some): their records must be those of the same games played locally.
        evaluate = [sys.executable, "-m", "forest_envs.cli", "evaluate", "--env", "chickwood_v0",
                    "--agents", "heuristic,random,random", "--games", "8", "--seed", "7", "--quiet"]
        on_cluster = subprocess.run(
            evaluate + ["--address", cluster.address, "--records", str(tmp_path / "cluster.jsonl")],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert not cluster.leftovers, f"processes of the test cluster outlived its nodes: {cluster.leftovers}"
    assert cluster.worker_logs, "no env runner logs found to check for deprecation warnings"
    logs = cluster.worker_logs

    assert on_cluster.returncode == 0, on_cluster.stdout[-3000:] + on_cluster.stderr[-3000:]
    local = subprocess.run(evaluate + ["--records", str(tmp_path / "local.jsonl")], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=600)
    assert local.returncode == 0, local.stderr[-3000:]
    assert on_cluster.stdout == local.stdout  # the same table
    assert (tmp_path / "cluster.jsonl").read_text() == (tmp_path / "local.jsonl").read_text()

    summary = json.loads((out / "summary.json").read_text())
    assert summary["cluster"] == {"nodes": 2, "cpus": 2, "env_runner_nodes": 2}
    assert summary["iterations"] == 1 and summary["env_steps"] >= 256
    # No deprecation warning from our use of Ray, in the driver or in the env runners' logs.
    notices = re.findall(r"DeprecationWarning:? .*", train.stdout + train.stderr + logs)
    ours = [n for n in notices if not any(known in n for known in RAY_INTERNAL_DEPRECATIONS)]
    assert not ours, ours
    # The exported policy plays as an agent in evaluation.
    results = run_games(summary["env"], [summary["policies"]["shared"], "random", "random"], games=3,
                        config=summary["env_config"])
    assert len(results) == 3


def test_a_game_random_play_rarely_ends_warns_with_default_opponents_only():
    """Roundforest's random games mostly reach the step limit with reward 0: made with its
    default (random) opponents the single-agent view warns and says what gives a signal;
    with opponents given, or in a game random play ends, it is quiet."""
    rf = gymnasium_id("roundforest_v0")
    with pytest.warns(UserWarning, match=r"roundforest_v0: random opponents rarely end a game.*"
                                         r"opponents='heuristic'.*reward='rank'"):
        gymnasium.make(rf)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gymnasium.make(rf, opponents="heuristic", reward="rank")
        gymnasium.make(rf, opponents=["random", "random"])
        gymnasium.make(gymnasium_id("chickwood_v0"))
        gymnasium.make(gymnasium_id("sherwood_v0"))
    assert game_spec("roundforest_v0").game_class.traits.random_play_ends is False
    assert all(game_spec(e).game_class.traits.random_play_ends for e in ("chickwood_v0", "sherwood_v0"))
