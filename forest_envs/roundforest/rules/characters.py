"""Characters: the pile of character cards, a card drawn face down, tasks, debts and
meeting a character token.

Roundforest rulebook, "Red colour chip: draw a character card" (the drawn card, "fulfil the
upper or the lower task", a debt laid out with its token, "3 options for settling their
debts", a helper used at once or laid out), "Character tokens" (a token's tile is entered
only to meet the character; whoever fulfils another player's debt takes the reward),
"Friendly characters" and "Hostile characters" (the tasks: ``components.CHARACTERS``).
The helpers' abilities are in ``helpful_characters``.

The pile is ``pile`` (a list: cards are drawn from it at random, so its order means nothing
to the players); the ``pile_size`` block is its observation, written only by ``_show_pile``.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import CHARACTERS, HELPFUL, NUM_ITEMS, SPIRIT, Task
from ..observation import APPLES, COPPER, SILVER, Kind
from .bags import NO_CHAR
from .phase_base import PhaseBase


class CharacterRules(PhaseBase):
    """Character cards, tasks and debts (a mixin of ``RoundforestState``)."""

    __slots__ = ()

    # --- the pile --------------------------------------------------------------------------------
    def _show_pile(self) -> None:
        """Write the ``pile_size`` block from ``pile``."""
        self.pile_size[0] = len(self.pile)

    def _draw_card(self) -> int:
        """"draws any character card face down from the pile": one at random."""
        c = self.pile.pop(int(self.rng.integers(len(self.pile))))
        self._show_pile()
        return c

    def _take_card(self, c: int) -> None:
        """Card c leaves the pile by choice (the Beggar)."""
        self.pile.remove(c)
        self._show_pile()

    def _return_card(self, c: int) -> None:
        """A character card is shuffled back into the pile (draws are uniform, so the pile
        keeps no order)."""
        self.pile.append(c)
        self._show_pile()

    # --- tasks -------------------------------------------------------------------------------------
    def can_do(self, p: int, task: Task | None) -> bool:
        """Whether p holds what ``task`` asks (items to give and to hold, coins) and none of
        what it forbids (a friendly character's reward item, for its upper task)."""
        if task is None:
            return False
        bp = self.backpack[p]
        need = np.zeros(NUM_ITEMS, np.int64)
        for k in task.give + task.need:
            need[k] += 1
        if (bp < need).any():
            return False
        if any(bp[k] > 0 for k in task.without):
            return False
        return self.copper[p] >= task.copper and self.silver[p] >= task.silver

    def _fulfil(self, p: int, task: Task) -> None:
        """"The items used to fulfil the task go back into the blue bag; coins go back into
        the general supply"; the reward item comes from the bag if one is left ("If there is
        no sword left in the bag, the player is unlucky"), apples from the supply."""
        for k in task.give:
            self.backpack[p, k] -= 1
            self.bag_items[k] += 1
        self.copper[p] -= task.copper
        self.silver[p] -= task.silver
        self.supply[COPPER] += task.copper
        self.supply[SILVER] += task.silver
        if task.reward_item >= 0 and self.bag_items[task.reward_item] > 0:
            self.bag_items[task.reward_item] -= 1
            self._add_item(p, task.reward_item)
        for _ in range(task.apples):
            self._give_apple(p)

    # --- character: the card drawn face down (red chip) or chosen with the Beggar -------------------------
    def _resolve_card(self, p: int, c: int, beggar: int) -> None:
        """A card drawn face down (red chip) or chosen with the Beggar. The Forest Spirit's
        card meets a qualified player at once; otherwise it is laid out, and its token goes
        on the tile only if none is on the forest (the project's reading of the card and the
        token)."""
        if c == SPIRIT:
            if self.qualified(p):
                self._return_card(c)
                self._win(p)
                return
            self.laid_out[c] = 1
            if not self.spirit_on_forest():
                self.cell_char[self.pos[p]] = c
            self._end_action()
            return
        self.drawn_card[p, c] = 1
        self.replace(Kind.CHARACTER, p, beggar)

    def _mask_character(self, d, mask) -> None:
        """A helper: "use" its ability or "defer" (lay it out). A task character: the upper
        or the lower task, a golden apple, or the debt ("If a player cannot or does not want
        to fulfil a task immediately")."""
        p = d.player
        c = self.drawn_of(p)
        ch = CHARACTERS[c]
        if ch.kind == HELPFUL:
            mask[A.USE.start] = self._can_use(p, c)
            mask[A.DEFER.start] = 1
        else:
            mask[A.UPPER.start] = self.can_do(p, ch.upper)
            mask[A.LOWER.start] = self.can_do(p, ch.lower)
            mask[A.APPLE.start] = self.apples[p] > 0
            mask[A.DEBT.start] = 1

    def _apply_character(self, d, a: int) -> None:
        p = d.player
        c = self.drawn_of(p)
        self.drawn_card[p, c] = 0
        ch = CHARACTERS[c]
        if a == A.UPPER.start or a == A.LOWER.start:
            task = ch.upper if a == A.UPPER.start else ch.lower
            assert task is not None  # the mask offers only a task the card has
            self._fulfil(p, task)
            self._return_card(c)
        elif a == A.APPLE.start:
            self.apples[p] -= 1
            self.supply[APPLES] += 1
            self._return_card(c)
        elif a == A.DEBT.start:
            self.debts[p, c] = 1
            self.cell_char[self.pos[p]] = c
        elif a == A.DEFER.start:
            self.laid_out[c] = 1
            self.cell_char[self.pos[p]] = c
        else:  # USE
            self._return_card(c)
            self._start_ability(p, c)
            return
        self._end_action()

    # --- meet: a character token entered ("Character tokens") -----------------------------------------------
    def _can_meet(self, p: int, c: int) -> bool:
        """"that tile may be entered only if the character's ability is used or the task set
        is fulfilled" (or a debt to it settled with a golden apple)."""
        ch = CHARACTERS[c]
        if ch.kind == HELPFUL:
            return self._can_use(p, c)
        if self.can_do(p, ch.upper) or self.can_do(p, ch.lower):
            return True
        return bool(self.debts[p, c] and self.apples[p] > 0)

    def _meet(self, p: int, c: int, cell: int) -> None:
        """A helper's token: its ability at once (its laid-out card goes back to the pile);
        a task character's: the ``meet`` decision."""
        if CHARACTERS[c].kind == HELPFUL:
            self.cell_char[cell] = NO_CHAR
            if self.laid_out[c]:
                self.laid_out[c] = 0
                self._return_card(c)
            self._start_ability(p, c)
        else:
            self.replace(Kind.MEET, p, c, cell)

    def _mask_meet(self, d, mask) -> None:
        """The upper or the lower task; a golden apple only from the one in debt ("The
        player sacrifices a golden apple and so buys their freedom from the debt")."""
        character, _ = d.data
        p, c = d.player, character
        ch = CHARACTERS[c]
        mask[A.UPPER.start] = self.can_do(p, ch.upper)
        mask[A.LOWER.start] = self.can_do(p, ch.lower)
        mask[A.APPLE.start] = bool(self.debts[p, c]) and self.apples[p] > 0

    def _apply_meet(self, d, a: int) -> None:
        """The debt is settled whoever fulfils the task; "The reward goes to the player who
        fulfilled the task"; the card returns to the pile, the token leaves the forest."""
        character, cell = d.data
        p, c = d.player, character
        ch = CHARACTERS[c]
        if a == A.APPLE.start:
            self.apples[p] -= 1
            self.supply[APPLES] += 1
        else:
            task = ch.upper if a == A.UPPER.start else ch.lower
            assert task is not None  # the mask offers only a task the card has
            self._fulfil(p, task)
        debtor = self.debtor_of(c)
        if debtor >= 0:
            self.debts[debtor, c] = 0
        self._return_card(c)
        self.cell_char[cell] = NO_CHAR
        self._end_action()
