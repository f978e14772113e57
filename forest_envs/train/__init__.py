"""Training and self-play on top of the envs (needs the ``train`` extra: torch, SB3, sb3-contrib).

Import the submodules: ``config`` (YAML schema), ``sb3`` (MaskablePPO: the model and its learn
loop), ``runs`` (output folder, run clock, resume command), ``checkpoints`` (reading, checking
and writing them), ``ctrl_c`` (stopping between two steps), ``progress`` (bars and lines),
``csvlog`` (eval.csv), ``vec`` (mask-carrying VecEnv), ``selfplay`` (opponent pools),
``pretrain`` (behaviour-cloning warm start), ``policy`` (writing ``.npz`` policies; playing them
is ``forest_envs.agents.policy``), ``rllib`` (RLlib PPO with action masking).
"""
