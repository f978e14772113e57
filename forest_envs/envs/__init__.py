"""The adapters every game gets by registering: the PettingZoo AEC env (``aec.py``) and its
order-enforcing wrapper, the generated ``forest_envs.<env_id>`` modules, registration with
``make`` / ``replay``, the gymnasium single-agent env and the OpenSpiel games (imported on
their own: ``forest_envs.envs.openspiel`` needs ``pyspiel``)."""
