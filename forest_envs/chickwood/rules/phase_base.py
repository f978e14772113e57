"""What the phase mixins of ``state.ChickwoodState`` are typed against, for a type checker only:
the declared attributes and the facts (``facts.ChickwoodFacts``), the engine's ``BufferState``,
and the methods one phase calls of another, each declared below with the signature of its
definition (mypy checks that the two agree: a definition that changes its signature fails
the check until its line here follows).

At run time ``PhaseBase`` is ``object``: the state class combines the mixins with the facts
and the ``BufferState`` itself, so its bases and method order are the same with this module
as without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...core.state import BufferState
    from .facts import ChickwoodFacts
    from .game import ChickwoodGame

    class PhaseBase(ChickwoodFacts, BufferState):
        """A phase mixin's ``self``: the state's declared attributes and engine, and the
        methods of the other phases it calls."""

        # Declared without a value: the state class gives the slots (the blocks and
        # ``FIELDS``), which a mixin assigns.
        __slots__: tuple[str, ...]

        game: ChickwoodGame

        # state.py (ChickwoodState)
        def _end_round(self) -> None: ...
        def _clear_castle(self, c: int) -> None: ...
        # raiding.py (Raiding)
        def _begin_raids(self) -> None: ...
else:
    PhaseBase = object
