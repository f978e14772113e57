"""Stable-Baselines3 / sb3-contrib: MaskablePPO on the single-agent view, in subprocess workers."""

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv

# "module:id": gymnasium imports forest_envs (which registers the ids) in every worker
# process before it makes the env, so the workers need no import of their own.
ENV_ID = "forest_envs:forest_envs/chickwood_v0"

if __name__ == "__main__":
    venv = make_vec_env(ENV_ID, n_envs=2, seed=0, vec_env_cls=SubprocVecEnv,
                        env_kwargs={"num_players": 3})
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=128)  # masks come from each worker's env.action_masks()
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=np.stack(venv.env_method("action_masks")))
    print("trained", model.num_timesteps, "steps; next actions", actions.tolist())
    venv.close()
