"""Writing trained policies as ``.npz`` (``w0, b0, ..., w_out, b_out, activation``), the files
``forest_envs.agents.policy`` plays with numpy alone. (Training writes a policy here; the
agents layer, below evaluation and training, plays it.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..agents.policy import sb3_policy_arrays

__all__ = ["export_policy", "save_policy_arrays"]


def export_policy(policy, path: str | Path) -> Path:
    """Write a MaskableActorCriticPolicy's actor (features are the flat observation) as .npz."""
    return save_policy_arrays(sb3_policy_arrays(policy), path)


def save_policy_arrays(arrays: dict[str, np.ndarray], path: str | Path) -> Path:
    """Write a policy's arrays (``w0, b0, ..., w_out, b_out, activation``) as ``.npz``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Atomic, under a name that "snapshot_*.npz" does not match: workers may be listing and
    # loading the snapshot folder right now, and must never see a half-written file.
    tmp = path.with_name(f".{path.stem}.tmp.npz")
    named: dict[str, Any] = arrays  # numpy's stubs read ** as its allow_pickle keyword too
    np.savez(tmp, **named)
    tmp.replace(path)
    return path
