"""Training and self-play on top of the envs (needs the ``train`` extra: torch, SB3, sb3-contrib).

Import the submodules: ``config`` (YAML schema), ``sb3`` (MaskablePPO training), ``policy``
(numpy policies and ``PolicyAgent``), ``selfplay`` (opponent pools), ``vec`` (mask-carrying
VecEnv), ``rllib`` (RLlib PPO with action masking).
"""
