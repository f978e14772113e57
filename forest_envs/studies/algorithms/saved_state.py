"""A run's saved state, for the adapters that keep their own (dqn, expert_iteration): the
torch modules' state as ``state/latest.pt`` and the counts as ``state/latest.json``, each
written whole under a temporary name and renamed, the JSON last: it names a whole state."""

from __future__ import annotations

import json
from pathlib import Path

FOLDER, TENSORS, RECORD = "state", "latest.pt", "latest.json"


def read_record(folder: Path) -> dict | None:
    """The counts the run saved last, None before its first save."""
    path = folder / FOLDER / RECORD
    return json.loads(path.read_text()) if path.is_file() else None


def tensors_path(folder: Path) -> Path:
    """Where the torch state dict is saved (``torch.load`` it after ``read_record``)."""
    return folder / FOLDER / TENSORS


def write_state(folder: Path, tensors: dict, record: dict) -> None:
    """Save ``tensors`` (a torch state dict), then ``record``."""
    import torch

    (folder / FOLDER).mkdir(parents=True, exist_ok=True)
    tmp = folder / FOLDER / ".latest.tmp.pt"
    torch.save(tensors, tmp)
    tmp.replace(folder / FOLDER / TENSORS)
    text = folder / FOLDER / ".latest.tmp.json"
    text.write_text(json.dumps(record) + "\n")
    text.replace(folder / FOLDER / RECORD)


def saved_learner_steps(folder: Path) -> int:
    """The learner steps of the last saved state (0 before the first, or while a save is
    being written): what a study's time estimate reads while the run goes on."""
    try:
        record = read_record(folder)
    except (OSError, ValueError):
        return 0
    return int(record.get("learner_steps", 0)) if record else 0
