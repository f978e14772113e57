"""What a Sherwood Forest state dict must hold in its fields, checked by every engine's
``from_dict`` (core/state_checks.py reads the buffer, the generator, the decisions and the
turn): every list of cards, equipment and seats within its range, each record of the
expected class with its seats, ambushes and places in range, the alliance tokens and the
agreements' targets; and, once loaded, the conservation totals (``check_consistent``: 42
bags, 8 figures of each colour, the equipment cards and the 55 travellers all accounted for).
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import (
    ALLIANCE_LETTERS,
    CARDS,
    GOLD_BAGS,
    NUM_AMBUSHES,
    NUM_CARDS,
    OUTLAWS_PER_COLOUR,
    ROUNDS,
    ROUTE_LEN,
    equipment_deck,
)
from .records import CloakQuestions, Coach, Fight, Loot, Offer, ProvisionsQuestions

_RECORDS = {"coach": Coach, "fight": Fight, "loot": Loot, "offer": Offer, "crush": CloakQuestions,
            "provisioning": ProvisionsQuestions}


def _refuse(field: str, why: str) -> ValueError:
    return ValueError(f"state dict: '{field}' {why}")


def _is_int(v) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, np.integer))


def _int(value, field: str, lo: int, hi: int) -> int:
    if not _is_int(value) or not lo <= value <= hi:
        raise _refuse(field, f"must be an int in {lo}..{hi}, not {value!r}")
    return int(value)


def _ints(value, field: str, lo: int, hi: int, size: int | None = None) -> list[int]:
    if not isinstance(value, list) or any(not _is_int(v) or not lo <= v <= hi for v in value):
        raise _refuse(field, f"must be a list of ints in {lo}..{hi}, not {value!r}")
    if size is not None and len(value) != size:
        raise _refuse(field, f"must hold {size} entries, not {value!r}")
    return [int(v) for v in value]


def _triples(value, field: str, highs: tuple[int, int, int]) -> None:
    if not isinstance(value, tuple) or len(value) != 3 or any(
            not _is_int(v) or not 0 <= v <= h for v, h in zip(value, highs)):
        raise _refuse(field, f"must be three ints within {highs}, not {value!r}")


def _check_record(name: str, r, n: int) -> None:
    seats = (0, n - 1)
    if name == "coach":
        _int(r.card, "coach", 0, NUM_CARDS - 1)
        if not _is_int(r.destination) or r.destination == CARDS[r.card].origin or not 0 <= r.destination < 4:
            raise _refuse("coach", f"drives to no town other than its origin: {r!r}")
        _int(r.step, "coach", 0, ROUTE_LEN)
        return
    _int(r.ambush, name, 0, NUM_AMBUSHES - 1)
    order = _ints(r.order if name != "offer" else r.allies, name, *seats)
    if name != "offer" and not order:
        raise _refuse(name, "names no participant")
    if name == "fight":
        _int(r.asking, name, 0, len(order))
        _int(r.strength, name, 0, 99)
        _int(r.total, name, 0, 99)
        _ints(r.pledgers, name, *seats)
    elif name == "loot":
        for f in ("informant", "leader"):
            _int(getattr(r, f), name, -1, n - 1)
        for f in ("outlaws", "oak", "shares", "comrades_got"):
            _ints(getattr(r, f), name, 0, GOLD_BAGS, None if r.leader < 0 else n)
        _ints(r.tier, name, *seats)
        if not isinstance(r.tiers, list):
            raise _refuse(name, f"tiers must be a list of seat lists, not {r.tiers!r}")
        for t in r.tiers:
            _ints(t, name, *seats)
        for f in ("gold", "comrades", "short_bags", "short_comrades", "round", "own_bags", "leader_before",
                  "own_round"):
            _int(getattr(r, f), name, 0, GOLD_BAGS * OUTLAWS_PER_COLOUR)
    elif name == "offer":
        _int(r.performer, name, *seats)
        _int(r.informant, name, *seats)
        _int(r.own, name, 0, OUTLAWS_PER_COLOUR)
        _int(r.offers, name, 0, 3)
        _int(r.next_ally, name, 0, len(order))
        _int(r.told, name, -1, A.MAX_SLOTS - 1)
        _int(r.target, name, -1, A.MAX_SLOTS - 1)
        if not isinstance(r.asked, list):
            raise _refuse(name, f"asked must be a list, not {r.asked!r}")
        for t in r.asked:
            _triples(t, name, (n - 1, OUTLAWS_PER_COLOUR, A.MAX_ASK_CARDS))
        for f, highs in (("terms", (A.MAX_PROMISED_LOOT, A.MAX_PAYMENT, A.MAX_PROMISED_COMRADES)),
                         ("promise", (A.MAX_ASK_CARDS,) * 3)):
            d = getattr(r, f)
            if not isinstance(d, dict) or any(not _is_int(q) or not 0 <= q < n for q in d):
                raise _refuse(name, f"{f} must map seats to numbers, not {d!r}")
            for t in d.values():
                _triples(t, name, highs)
    else:
        _int(r.asking, name, 0, len(order))
        if name == "crush":
            if not isinstance(r.cloaks, dict) or any(not _is_int(q) or not 0 <= q < n or not isinstance(v, bool)
                                                     for q, v in r.cloaks.items()):
                raise _refuse(name, f"cloaks must map seats to bools, not {r.cloaks!r}")
        else:
            _ints(r.stay, name, *seats)


def check_fields(game, loaded) -> None:
    """Every field within what the rules can hold for ``game``'s configuration (``loaded``:
    core/state_checks.LoadedState)."""
    f = loaded.fields
    n = game.num_players
    kinds = max(equipment_deck(game.additions)) + 1
    cards = []
    for name in ("pile", "box", "removed"):
        cards += _ints(f[name], name, 0, NUM_CARDS - 1)
    slots = _ints(f["slots"], "slots", -1, NUM_CARDS - 1, A.MAX_SLOTS)
    cards += [c for c in slots if c >= 0]
    _ints(f["equip_deck"], "equip_deck", 0, kinds - 1)
    _ints(f["leads"], "leads", 0, n - 1)
    _ints(f["window"], "window", 0, n - 1)
    _int(f["round_index"], "round_index", 0, ROUNDS)
    for name, cls in _RECORDS.items():
        r = f[name]
        if r is None:
            continue
        if type(r) is not cls:
            raise _refuse(name, f"must be a {cls.__name__} record or None, not {r!r}")
        _check_record(name, r, n)
    if f["coach"] is not None:
        cards.append(f["coach"].card)
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise ValueError(f"state dict: 'pile', 'box', 'removed', 'slots' and 'coach' hold traveller card "
                         f"{twice} twice")
    tokens = f["tokens"]
    if not isinstance(tokens, dict) or len(tokens) > len(ALLIANCE_LETTERS) or any(
            not isinstance(k, tuple) or len(k) != 2 or not _is_int(k[0]) or not 0 <= k[0] < NUM_AMBUSHES
            or not _is_int(k[1]) or not -1 <= k[1] < n for k in tokens):
        raise _refuse("tokens", f"must map (ambush, seat or -1) to at most six letters, not {tokens!r}")
    letters = [_int(v, "tokens", 0, len(ALLIANCE_LETTERS) - 1) for v in tokens.values()]
    if len(set(letters)) != len(letters):
        raise _refuse("tokens", f"uses a letter twice: {tokens!r}")
    targets = f["targets"]
    if not isinstance(targets, dict) or any(not _is_int(a) or not 0 <= a < NUM_AMBUSHES for a in targets):
        raise _refuse("targets", f"must map ambushes to cards, not {targets!r}")
    for c in targets.values():
        _int(c, "targets", 0, NUM_CARDS - 1)


def check_consistent(state) -> None:
    """Everything adds up: 42 bags, 8 figures of each colour, the equipment cards of this
    configuration and the 55 travellers, each counted everywhere it can be."""
    totals = state.outlaw_totals()
    if not (totals == OUTLAWS_PER_COLOUR).all():
        raise ValueError(f"state dict: the outlaws do not add up: {totals.tolist()} figures by colour, "
                         f"where each colour has {OUTLAWS_PER_COLOUR}")
    checks = (("gold bags", state.gold_total(), GOLD_BAGS),
              ("equipment cards", state.equipment_total(), len(equipment_deck(state.game.additions))),
              ("traveller cards", state.traveller_total(), NUM_CARDS))
    for what, have, want in checks:
        if have != want:
            raise ValueError(f"state dict: the {what} do not add up: {have} where the game has {want}")
