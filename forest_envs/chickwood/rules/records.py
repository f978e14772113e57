"""Chickwood Forest's records: typed sub-states held in the state's plain-data fields
(``core/plain.py``: deep-copied by ``clone``, written to JSON by name)."""

from __future__ import annotations

from ...core.plain import record


# Its JSON name was "forest_envs.chickwood.rules.SecretDiscard" before the rules became a
# package: state dicts written then still load (docs/chickwood.md, "State dicts").
@record(formerly=("forest_envs.chickwood.rules.SecretDiscard",))
class SecretDiscard:
    """A face-down card set aside at the end of a round: its kind stays known to its owner
    and to the other seat that looked at its castle with the spy glass that round (-1: no
    other seat looked)."""

    kind: int
    owner: int
    spied_by: int = -1

    def known_to(self, seat: int) -> bool:
        return seat == self.owner or seat == self.spied_by
