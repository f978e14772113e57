"""Warm start: behaviour cloning of a teacher agent before MaskablePPO.

The teacher (by default the game's heuristic agent) plays seeded games against itself; every
decision of every seat becomes a sample (observation, mask, action, that seat's final
return). The policy head is fitted by masked cross-entropy and the value head by regression
on the returns, so PPO starts from a policy that plays like the teacher and a critic that
already knows what positions are worth.

Both stages report their progress through optional callbacks (``on_games``, ``on_batch``,
``on_epoch``); ``warm_start`` feeds them to the trainer's progress display.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from ..agents import make_agent
from ..core.state import GameState
from ..envs.registration import make_raw
from ..evaluation.workers import map_in_workers
from .progress import Progress


def game_returns(state: GameState, reward: str, seats: int) -> list[float]:
    """Each seat's return of a game where its env left it: the rules' returns (``reward``)
    once it finished; 0 to every seat when the env truncated it at its step limit (nobody
    wins a truncated game, as the env's rewards say)."""
    return state.returns(reward) if state.is_terminal else [0.0] * seats


def _play_teacher_games(args) -> tuple[np.ndarray, ...]:
    env_id, env_config, reward, teacher, indices, seed = args
    env = make_raw(env_id, reward=reward, **env_config)
    obs, masks, actions, seats, game_ids, returns = [], [], [], [], [], {}
    for g in indices:
        agents = [make_agent(env_id, teacher, seed=seed * 100_003 + g * 10 + i)
                  for i in range(len(env.possible_agents))]
        env.reset(seed=seed * 1_000_003 + g)
        state = env.engine_state
        while not state.is_terminal:
            p = state.current_player
            name = env.possible_agents[p]
            o = env.observe(name)
            a = agents[p].act(env, name)
            obs.append(o["observation"])
            masks.append(o["action_mask"].astype(bool))
            actions.append(a)
            seats.append(p)
            game_ids.append(g)
            env.step(a)
            if env.truncations[name]:  # the env's step limit: the game ends unfinished
                break
        returns[g] = game_returns(state, reward, len(env.possible_agents))
    ret = np.array([returns[g][s] for g, s in zip(game_ids, seats)], np.float32)
    return (np.asarray(obs, np.float32), np.asarray(masks, bool),
            np.asarray(actions, np.int64), ret)


def collect_demonstrations(env_id: str, env_config: dict, reward: str, teacher: str,
                           games: int, seed: int, workers: int = 1,
                           on_games: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
    """Every decision of ``games`` teacher games; ``on_games(k)`` after each k more games.
    The samples do not depend on the chunking or the number of workers."""
    # Small chunks: progress moves often and a Ctrl-C waits for little running work.
    chunk = max(1, min(8, games // max(1, workers * 4)))
    jobs = [(env_id, env_config, reward, teacher, list(range(i, min(games, i + chunk))), seed)
            for i in range(0, games, chunk)]
    results = (map_in_workers(_play_teacher_games, jobs, workers) if workers > 1
               else map(_play_teacher_games, jobs))
    parts = _gather(results, jobs, on_games)
    keys = ("obs", "masks", "actions", "returns")
    return {k: _stack(parts, i) for i, k in enumerate(keys)}


def _stack(parts: list[tuple], i: int) -> np.ndarray:
    """Array ``i`` of every job's part in one array, each part's dropped once copied: the
    memory this takes at its peak is the result's and one part's, not twice the result's as
    with ``np.concatenate`` (a shipped recipe's warm start collects 10 GB of observations)."""
    first = parts[0][i]
    out = np.empty((sum(len(p[i]) for p in parts), *first.shape[1:]), first.dtype)
    at = 0
    for k, part in enumerate(parts):
        n = len(part[i])
        out[at:at + n] = part[i]
        at += n
        parts[k] = part[:i] + (None,) + part[i + 1:]
    return out


def _gather(results, jobs, on_games) -> list:
    """The jobs' results in order, telling ``on_games`` as each job's games are done."""
    parts = []
    for job, part in zip(jobs, results):
        parts.append(part)
        if on_games:
            on_games(len(job[4]))
    return parts


def _policy_loss(policy, obs, masks, returns, actions=None, targets=None):
    """Masked cross-entropy of the policy to the taken ``actions`` or, given ``targets`` (one
    distribution over actions per sample, zero on illegal ones), to those distributions,
    plus half the value head's squared error to the returns."""
    import torch

    if targets is None:
        values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
        cross_entropy = -log_prob.mean()
    else:
        log_probs = torch.log_softmax(policy.get_distribution(obs, action_masks=masks).distribution.logits, dim=1)
        # an illegal action's log-probability is huge and negative, its target exactly 0
        cross_entropy = -(targets * torch.where(masks, log_probs, 0.0)).sum(dim=1).mean()
        values = policy.predict_values(obs)
    return cross_entropy + 0.5 * torch.nn.functional.mse_loss(values.flatten(), returns)


def behaviour_clone(policy, data: dict[str, np.ndarray], epochs: int, batch_size: int,
                    learning_rate: float, seed: int = 0,
                    on_batch: Callable[[], None] | None = None,
                    on_epoch: Callable[[int, float], None] | None = None) -> dict[str, float]:
    """Fit a MaskableActorCriticPolicy to the samples; returns the final accuracy and losses.
    The samples' ``actions`` are the moves to imitate or, instead, ``targets`` the
    distributions to fit (expert iteration's search visits, forest_envs/studies/algorithms/
    expert_iteration.py); accuracy then counts the most likely target action.
    ``on_batch()`` follows every gradient step, ``on_epoch(k, mean loss)`` every epoch."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["masks"])
    targets = torch.as_tensor(data["targets"]) if "targets" in data else None
    actions = torch.as_tensor(data["actions"]) if targets is None else targets.argmax(dim=1)
    returns = torch.as_tensor(data["returns"])
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    n = len(actions)
    policy.set_training_mode(True)
    for epoch in range(1, epochs + 1):
        order = torch.as_tensor(rng.permutation(n))
        losses = []
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            loss = _policy_loss(policy, obs[idx], masks[idx], returns[idx], actions=actions[idx],
                                targets=None if targets is None else targets[idx])
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            losses.append(float(loss.detach()))
            if on_batch:
                on_batch()
        if on_epoch:
            on_epoch(epoch, float(np.mean(losses)))
    policy.set_training_mode(False)
    with torch.no_grad():
        sample = torch.as_tensor(rng.choice(n, size=min(n, 20_000), replace=False))
        dist = policy.get_distribution(obs[sample], action_masks=masks[sample])
        predicted = dist.distribution.probs.argmax(dim=1)
        accuracy = float((predicted == actions[sample]).float().mean())
        values = policy.predict_values(obs[sample]).flatten()
        value_mse = float(torch.nn.functional.mse_loss(values, returns[sample]))
    return {"samples": int(n), "accuracy": accuracy, "value_mse": value_mse}


def warm_start(model, cfg: dict, progress=None) -> dict:
    """Run the config's ``pretrain`` section on ``model.policy``; returns its report.
    ``progress`` (a ``progress.Progress``) shows both stages; by default they run silently."""
    progress = progress or Progress(enabled=False)
    p = cfg["pretrain"]
    started = time.time()
    progress.line(f"pretrain: playing {p['games']} {p['teacher']} games on {p['workers']} worker(s)")
    with progress.bar(p["games"], "pretrain: teacher games", "game") as bar:
        data = collect_demonstrations(cfg["env"], cfg["env_config"], cfg["reward"], p["teacher"],
                                      p["games"], cfg["seed"], workers=p["workers"], on_games=bar.update)
    collected = time.time() - started
    n = len(data["actions"])
    progress.line(f"pretrain: collected {n} samples from {p['games']} games in {collected:.0f} s")

    def epoch_done(k: int, loss: float) -> None:
        progress.line(f"pretrain: epoch {k}/{p['epochs']} loss {loss:.4f} "
                      f"({time.time() - started:.0f} s)")

    with progress.bar(p["epochs"] * math.ceil(n / p["batch_size"]), "pretrain: cloning", "batch") as bar:
        report = behaviour_clone(model.policy, data, p["epochs"], p["batch_size"], p["learning_rate"],
                                 seed=cfg["seed"], on_batch=bar.update, on_epoch=epoch_done)
    report.update(games=p["games"], collect_seconds=round(collected, 1),
                  total_seconds=round(time.time() - started, 1))
    progress.line(f"pretrain: done in {report['total_seconds']:.0f} s, cloning accuracy "
                  f"{report['accuracy']:.3f}, value mse {report['value_mse']:.4f}")
    return report
