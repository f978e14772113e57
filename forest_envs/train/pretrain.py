"""Warm start: behaviour cloning of a teacher agent before MaskablePPO.

The teacher (by default the game's heuristic agent) plays seeded games against itself; every
decision of every seat becomes a sample (observation, mask, action, that seat's final
return). The policy head is fitted by masked cross-entropy and the value head by regression
on the returns, so PPO starts from a policy that plays like the teacher and a critic that
already knows what positions are worth.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from ..core.registry import make_agent, make_raw


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
        returns[g] = state.returns(reward)
    ret = np.array([returns[g][s] for g, s in zip(game_ids, seats)], np.float32)
    return (np.asarray(obs, np.float32), np.asarray(masks, bool),
            np.asarray(actions, np.int64), ret)


def collect_demonstrations(env_id: str, env_config: dict, reward: str, teacher: str,
                           games: int, seed: int, workers: int = 1) -> dict[str, np.ndarray]:
    chunk = max(1, games // max(1, workers * 4))
    jobs = [(env_id, env_config, reward, teacher, list(range(i, min(games, i + chunk))), seed)
            for i in range(0, games, chunk)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_play_teacher_games, jobs))
    else:
        parts = [_play_teacher_games(job) for job in jobs]
    keys = ("obs", "masks", "actions", "returns")
    return {k: np.concatenate([p[i] for p in parts]) for i, k in enumerate(keys)}


def behaviour_clone(policy, data: dict[str, np.ndarray], epochs: int, batch_size: int,
                    learning_rate: float, seed: int = 0) -> dict[str, float]:
    """Fit a MaskableActorCriticPolicy to the samples; returns the final accuracy and losses."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    returns = torch.as_tensor(data["returns"])
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    n = len(actions)
    policy.set_training_mode(True)
    for _ in range(epochs):
        order = torch.as_tensor(rng.permutation(n))
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            values, log_prob, _ = policy.evaluate_actions(obs[idx], actions[idx], action_masks=masks[idx])
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), returns[idx])
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        sample = torch.as_tensor(rng.choice(n, size=min(n, 20_000), replace=False))
        dist = policy.get_distribution(obs[sample], action_masks=masks[sample])
        predicted = dist.distribution.probs.argmax(dim=1)
        accuracy = float((predicted == actions[sample]).float().mean())
        values = policy.predict_values(obs[sample]).flatten()
        value_mse = float(torch.nn.functional.mse_loss(values, returns[sample]))
    return {"samples": int(n), "accuracy": accuracy, "value_mse": value_mse}


def warm_start(model, cfg: dict) -> dict:
    """Run the config's ``pretrain`` section on ``model.policy``; returns its report."""
    p = cfg["pretrain"]
    started = time.time()
    data = collect_demonstrations(cfg["env"], cfg["env_config"], cfg["reward"], p["teacher"],
                                  p["games"], cfg["seed"], workers=p["workers"])
    collected = time.time() - started
    report = behaviour_clone(model.policy, data, p["epochs"], p["batch_size"], p["learning_rate"],
                             seed=cfg["seed"])
    report.update(games=p["games"], collect_seconds=round(collected, 1),
                  total_seconds=round(time.time() - started, 1))
    return report
