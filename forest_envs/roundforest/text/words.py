"""Roundforest in words for people: the names of things and the pending decision as a
sentence (``prompt_text``; ``render.prompt`` is the state's hook).

Everything here is written from ``view.reading(state, observer)`` alone, so a sentence names
only what that observer may know: another seat's face-down character card and the Prince's
secret draws appear only in their owner's (and the referee's) sentence. The options a
sentence lists are those the rulebook gives the decision; the legal-action list says which
of them the position allows. No decision kind's internal name reaches a person.
"""

from __future__ import annotations

import textwrap

from ..actions import ROW_NAMES, gap_name
from ..components import (
    APPLES_TO_WIN,
    CHARACTER_NAMES,
    CHARACTERS,
    COIN_TOKENS,
    COPPER_TOKEN,
    FAIRY_COST,
    HELPFUL,
    IS_HEAVY,
    ITEM_NAMES,
    MAX_GRID,
    MERCHANT_MAX_SALES,
    PRINCE_DRAWS,
    SADDLE,
    Task,
    cell_name,
)
from ..observation import Kind
from .view import CellReading, PlayerReading, SeatReading

WIDTH = 80  # columns of every line written for a terminal

# --- names -------------------------------------------------------------------------------------


def seat(p: int) -> str:
    """Players are P0, P1, ... on the board, in the log and in every sentence."""
    return f"P{p}"


def item_name(k: int) -> str:
    """An item token's name; a coin token says it is a token (it is not a coin yet)."""
    return ITEM_NAMES[k] + (" token" if k in COIN_TOKENS else "")


def an(k: int) -> str:
    name = item_name(k)
    return ("an " if name[0] in "aeiou" else "a ") + name


def the(k: int) -> str:
    return "the " + item_name(k)


def character(c: int) -> str:
    return "the " + CHARACTER_NAMES[c]


def listing(words: list[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c" (``last``: "or")."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def count(n: int, what: str) -> str:
    """"1 copper", "2 golden apples", "1 compass"."""
    plural = {"golden apple": "golden apples", "compass": "compasses", "item": "items"}
    return f"{n} {plural.get(what, what) if n != 1 else what}"


def fairy_price(r: int) -> str:
    """What a trade from fairy row r costs: "2 copper", "free"."""
    return count(FAIRY_COST[r], "copper") if FAIRY_COST[r] else "free"


def fairy_row(r: int) -> str:
    """A fairy row as the trade actions name it, with its price: "bottom row (free)"."""
    return f"{ROW_NAMES[r]} row ({fairy_price(r)})"


# The fairy's rows, cheapest first, as a trade offer names them.
FAIRY_OFFER = "trade it with the fairy (" + ", ".join(
    f"{ROW_NAMES[r]} row {fairy_price(r)}" for r in reversed(range(len(FAIRY_COST)))) + ")"


def gap_label(g: int) -> str:
    """A blockade gap by its upper-left and lower-right tiles, as the actions name it."""
    return gap_name(*divmod(g, MAX_GRID - 1))


def task_text(task: Task) -> str:
    """What a task asks and pays: "give an anvil while holding a sword: 1 golden apple"."""
    asks = [an(k) for k in task.give]
    if task.copper:
        asks.append(count(task.copper, "copper"))
    if task.silver:
        asks.append(count(task.silver, "silver"))
    text = "give " + listing(asks)
    if task.need:
        text += " while holding " + listing([an(k) for k in task.need])
    pays = []
    if task.reward_item >= 0:
        pays.append(an(task.reward_item))
    if task.apples:
        pays.append(count(task.apples, "golden apple"))
    return text + (": " + listing(pays) if pays else "")


def task_options(c: int) -> list[str]:
    ch = CHARACTERS[c]
    if ch.upper is None or ch.lower is None:
        raise ValueError(f"{ch.name} is a helpful character: it sets no tasks")
    return [f"fulfil the upper task ({task_text(ch.upper)})",
            f"the lower task ({task_text(ch.lower)})"]


# What each helper's ability does, for the sentence that offers it.
ABILITIES = {
    "Prince": f"draw {PRINCE_DRAWS} items from the blue bag in secret and keep one",
    "Merchant": "sell him up to 3 items for 1 copper each, or buy a golden apple for 1 silver",
    "Goblin": "swap an item from the backpack for any item in the blue bag",
    "Beggar": "pay 1 copper and choose any character card from the pile",
    "Unicorn": "be carried to any free tile",
    "Forest Spirit": "meet the Forest Spirit",
}


def held_items(player: PlayerReading) -> list[str]:
    return [item_name(k) for k, n in enumerate(player.backpack) for _ in range(n)]


def thing_on(info: CellReading) -> str:
    """What lies on a tile, for the saddle's sentence and move."""
    if info.character >= 0:
        return character(info.character)
    if info.item >= 0:
        return an(info.item)
    return {1: "a blue chip", 2: "a yellow chip", 3: "a red chip"}.get(info.chip, "nothing")


# --- the pending decision as a sentence --------------------------------------------------------


def wrap(text: str) -> str:
    return textwrap.fill(text, WIDTH, subsequent_indent="  ", break_on_hyphens=False)


def prompt_text(v: SeatReading) -> str:
    """The pending decision of the view ``v`` as a sentence (the game's end once it is over):
    who decides, about what (every object named as the view shows it), and the choices."""
    d = v.decision
    if d is None:
        winners = [p for p, pl in enumerate(v.players) if pl.winner]
        return won_text(v, winners[0]) if winners else "The game is over"
    p = d.player
    return _SENTENCES[d.kind](v, p, seat(p), d.data)


def won_text(v: SeatReading, p: int) -> str:
    """How the game ended, from the last view alone. The winner met the Forest Spirit on its
    token or by its card (drawn from a red chip, or chosen with the Beggar: a qualified player
    meets the Spirit at once); either way both are gone from the table, so the view names the
    ways and the narration of the last move says which one it was."""
    return (f"{seat(p)} met the Forest Spirit (on its token, or by its card drawn from a red "
            f"chip or chosen with the Beggar) with {APPLES_TO_WIN} golden apples and no debts "
            "and won the Emerald Ring")


def _turn(v, p, who, data) -> str:
    pl = v.players[p]
    if pl.in_backpack:
        return f"{who} to move out of the backpack onto one of its two adjacent tiles"
    here = cell_name(pl.cell)
    info = v.cell(pl.cell)
    turn = ("cannot turn: blockaded" if info.blocked else
            "turns " + ("clockwise" if info.turn > 0 else "counter-clockwise"))
    compass = (f", or with a compass ({pl.compasses} left) one or two tiles any way"
               if pl.compasses else "")
    return f"{who} on {here}: move where the octagons lead{compass}, or pause ({here} {turn})"


def _blockade(when: str):
    def sentence(v, p, who, data) -> str:
        pl = v.players[p]
        heavy = [k for k, n in enumerate(pl.backpack) if n and IS_HEAVY[k]]
        options = []
        if heavy:
            options.append(f"set {the(heavy[0])} in a free gap between tiles (they stop turning)")
        if v.gaps:
            held = ", ".join(f"{item_name(k)} at {gap_label(g)}" for g, k in v.gaps)
            options.append(f"take a blockade back ({held})")
        options.append("leave the blockades as they are")
        return f"{who}, {when}: " + listing(options, "or")
    return sentence


def _item_choice(drawn: bool):
    def sentence(v, p, who, data) -> str:
        where = cell_name(v.players[p].cell)
        if drawn:
            k, found = data.item, f"drew {an(data.item)} from the blue chip on {where}"
        else:
            k = v.cell(data.cell).item
            found = f"found {an(k)} on {where}"
        options = ["keep it"]
        if k in COIN_TOKENS:
            options.append(f"exchange it for {'a copper' if k == COPPER_TOKEN else 'a silver'} coin")
        options += [f"leave it on {where}", FAIRY_OFFER]
        return f"{who} {found}: " + listing(options, "or")
    return sentence


def _yellow(v, p, who, data) -> str:
    here = v.players[p].cell
    chips = [c for c, info in v.cells().items() if info.chip == 2 and c != here]
    target = "another tile with a yellow chip" if chips else "a tile with a blue chip (no other yellow is left)"
    return f"{who} drew {an(data.item)} from a yellow chip: place it on {target}"


def _character(v, p, who, data) -> str:
    how = "chose" if data.beggar else "drew"
    card = v.players[p].drawn_card
    where = cell_name(v.players[p].cell)
    if card is None:  # another seat's card, face down
        what = "with the Beggar" if data.beggar else "face down"
        return (f"{who} {how} a character card {what}: a task to fulfil, a debt to take or an "
                "ability to use")
    name = character(card) + (" with the Beggar" if data.beggar else "")
    if CHARACTERS[card].kind == HELPFUL:
        return (f"{who} {how} {name}: use the ability now ({ABILITIES[CHARACTER_NAMES[card]]}) "
                f"or lay the card out (its token stays on {where})")
    apple = ", pay a golden apple" if v.players[p].apples else ""
    return (f"{who} {how} {name}: " + ", ".join(task_options(card))
            + f"{apple}, or take the debt (its token stays on {where})")


def _meet(v, p, who, data) -> str:
    c, where = data.character, cell_name(data.cell)
    debtors = [seat(q) for q, pl in enumerate(v.players) if c in pl.debts]
    text = f"{who} meets {character(c)} on {where}: " + " or ".join(task_options(c))
    if seat(p) in debtors:
        if v.players[p].apples:
            text += ", or settle the debt with a golden apple"
    elif debtors:
        text += f" (this settles {debtors[0]}'s debt)"
    return text


def _well(v, p, who, data) -> str:
    where = cell_name(v.players[p].cell)
    return (f"{who} at the well on {where}: exchange 2 items for 2 copper, 3 copper for 1 "
            "silver, or 1 silver for a golden apple, or none")


def _well_give(v, p, who, data) -> str:
    which = "first" if data.left == 2 else "second"
    held = listing(held_items(v.players[p]), "or")
    return f"{who} gives the well 2 items for 2 copper: choose the {which} ({held})"


def _merchant(v, p, who, data) -> str:
    held = listing(held_items(v.players[p]), "or") or "nothing to sell"
    if data.sold:
        return (f"{who} has sold the Merchant {count(data.sold, 'item')}: sell another "
                f"(up to {MERCHANT_MAX_SALES}: {held}) for 1 copper, or stop")
    return (f"{who} meets the Merchant: sell him up to {MERCHANT_MAX_SALES} items for 1 copper "
            f"each ({held}), or buy a golden apple for 1 silver")


def _prince(v, p, who, data) -> str:
    draws = v.players[p].prince_items
    if draws is None:
        return f"{who} keeps one of the {PRINCE_DRAWS} items the Prince drew in secret"
    names = [an(k) for k, n in enumerate(draws) for _ in range(n)]
    return f"The Prince drew {listing(names)} for {who}: keep one, the others go back"


def _goblin_give(v, p, who, data) -> str:
    held = listing(held_items(v.players[p]), "or")
    return (f"{who} meets the Goblin: give him an item from the backpack ({held}), then take "
            "any other item but a coin token from the blue bag")


def _goblin_take(v, p, who, data) -> str:
    return (f"{who} gave the Goblin {an(data.given)}: take any other item but a coin token "
            "from the blue bag")


def _beggar(v, p, who, data) -> str:
    return (f"{who} paid the Beggar 1 copper: choose a character card from the pile "
            f"({v.pile_size} cards) to meet at once")


def _unicorn(v, p, who, data) -> str:
    saddle = v.players[p].backpack[SADDLE] > 0
    return (f"The Unicorn carries {who}: choose a free tile to stand on (it then turns)"
            + ("; with the saddle, that tile's action may follow" if saddle else ""))


def _saddle(v, p, who, data) -> str:
    where = cell_name(data.cell)
    return (f"{who} on {where} with the saddle: give the saddle back to deal with "
            f"{thing_on(v.cell(data.cell))} there, or keep the saddle")


def _spirit_place(v, p, who, data) -> str:
    cells = v.cells().values()
    target = ("a tile with a red chip" if any(i.chip == 3 for i in cells) else
              "a tile with a blue chip" if any(i.chip == 1 for i in cells) else "a free tile")
    return (f"{who} places the Forest Spirit ({seat(data.qualified)} has 3 golden apples and "
            f"no debts): choose {target}")


def _coin_token(v, p, who, data) -> str:
    k = data.item
    coin = "a copper" if k == COPPER_TOKEN else "a silver"
    return f"{who} got {an(k)}: keep it as an item or exchange it for {coin} coin from the supply"


def _chest(v, p, who, data) -> str:
    when = "at the end of the turn" if data.at_end else "before moving"
    return (f"{who} holds the treasure chest and the key, {when}: open the chest for a golden "
            "apple (both go back into the bag) or keep it closed")


_SENTENCES = {
    Kind.TURN: _turn,
    Kind.BLOCKADE_START: _blockade("before moving"),
    Kind.BLOCKADE_END: _blockade("at the end of the turn"),
    Kind.DRAWN: _item_choice(drawn=True),
    Kind.TOKEN_ITEM: _item_choice(drawn=False),
    Kind.YELLOW: _yellow,
    Kind.CHARACTER: _character,
    Kind.MEET: _meet,
    Kind.WELL: _well,
    Kind.WELL_GIVE: _well_give,
    Kind.MERCHANT: _merchant,
    Kind.PRINCE: _prince,
    Kind.GOBLIN_GIVE: _goblin_give,
    Kind.GOBLIN_TAKE: _goblin_take,
    Kind.BEGGAR: _beggar,
    Kind.UNICORN: _unicorn,
    Kind.SADDLE: _saddle,
    Kind.SPIRIT_PLACE: _spirit_place,
    Kind.COIN_TOKEN: _coin_token,
    Kind.CHEST: _chest,
}

assert set(_SENTENCES) == set(Kind), "a decision kind has no sentence"
