"""Random play through the env APIs, shared by the env test suites."""

from __future__ import annotations

import numpy as np

from forest_envs.agents.base import RandomAgent


def play(env, seed: int | None = 0, agent_seed: int = 0, limit: int | None = None, agents=None):
    """Play with random agents (or ``agents``, one per seat) through agent_iter/last/step,
    as a trainer would. Returns the summed rewards per agent and the actions taken;
    ``play.infos`` keeps each agent's last info (the env drops them with the dead agents)."""
    if seed is not None:
        env.reset(seed=seed)
    random_agent = RandomAgent(agent_seed)
    seat_of = {a: i for i, a in enumerate(env.possible_agents)}
    totals = {a: 0.0 for a in env.possible_agents}
    actions = []
    play.infos = {}
    for name in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[name] += reward
        play.infos[name] = info
        if term or trunc:
            action = None
        else:
            if limit is not None and len(actions) >= limit:
                break
            assert obs["action_mask"].any()
            agent = random_agent if agents is None else agents[seat_of[name]]
            action = agent.act(env, name)
            actions.append(action)
        env.step(action)
    return totals, actions


def advance(env, steps: int, agent_seed: int = 0) -> list[int]:
    """Up to ``steps`` random legal actions (fewer if the game ends)."""
    agent = RandomAgent(agent_seed)
    done = []
    while len(done) < steps and not env.unwrapped.engine_state.is_terminal \
            and not any(env.unwrapped.truncations.values()):
        a = agent.act(env, env.agent_selection)
        env.step(a)
        done.append(a)
    return done


def episode_trace(env, seed):
    """A single-agent episode taking the k-th legal action at step k: the trace of
    observations and rewards, to compare runs."""
    obs, _ = env.reset(seed=seed)
    trace = [obs.tobytes()]
    done = trunc = False
    k = 0
    while not (done or trunc):
        legal = np.flatnonzero(env.action_masks())
        obs, r, done, trunc, _ = env.step(int(legal[k % legal.size]))
        trace.append((obs.tobytes(), r))
        k += 1
    return trace
