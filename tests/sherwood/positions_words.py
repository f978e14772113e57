"""Positions for the words tests (tests/sherwood/test_words.py): one per decision kind,
built with the rules tests' helpers; each function returns the state with that decision
pending."""

from __future__ import annotations

from .conftest import act, amb, attack_setup, new_state, set_player, set_slots

EXAMPLE_CARD = 40      # B, strength 12: 1 fame, 9 gold, 1 comrade; Derby -> York
SHERIFF_B12 = 53       # B, strength 12: 4 fame; crushes: -2 fame, -2 outlaws; Lincoln -> Nottingham


def prep():
    s = new_state(3)
    set_slots(s, [0, 1, 2, EXAMPLE_CARD])
    return s


def prep_forced_church():
    s = prep()
    set_player(s, 0, gold=6)
    return s


def ask():
    s = prep()
    set_player(s, 1, hand={"sword": 1, "bow": 1})
    act(s, "offer a joint ambush at North-East Fork with 2 own")
    return s


def answer():
    s = ask()
    act(s, "ask for 2 outlaws and 1 cards", "ask for 0 outlaws and 0 cards")
    return s


def confirm():
    s = answer()
    act(s, "accept promising 1 sword")
    return s


def reveal():
    s = prep()
    act(s, "inn: look at traveller 4", "ambush at Derby Gate with 1", "ambush at Derby Wood with 1")
    act(s, "offer a joint ambush at York Gate with 1 own", "ask for 1 outlaws and 0 cards",
        "ask for 1 outlaws and 0 cards")
    return s


def answer_told():
    s = reveal()
    act(s, "tell the loot of traveller 4")
    return s


def target():
    s = new_state(3, additions=True)
    set_slots(s, [7, 0, 1, 2])
    s.slot_marked[1, 1] = 1           # P1 looked at traveller 2 (face down)
    s.peek[1, 1] = 1
    s.edited()
    act(s, "offer a joint ambush at York Gate with 2 own")
    return s


def informant():
    s = target()
    act(s, "mark traveller 2 as the target")
    return s


def terms():
    s = informant()
    act(s, "name self as the informant", "ask for 2 outlaws and 0 cards")
    return s


def answer_with_terms():
    s = terms()
    act(s, "promise 3 bags of loot and pay 1 gold now", "ask for 0 outlaws and 0 cards")
    return s


def lead():
    return attack_setup(7, {"York Gate": {0: 2, 1: 1}}, hands={1: {"bow": 1}}, leads=(2, 0),
                        more_cards=(0, 1))


def equip():
    s = lead()
    act(s, "lead traveller 1")
    return s


def share():
    # Card 9 (A, strength 5: 1 fame, 4 gold): 2 + 2 + 1 outlaws, 5 shares for 4 bags.
    s = attack_setup(9, {"York Gate": {1: 2, 2: 2, 0: 1}}, leads=(0, 1), more_cards=(0,))
    act(s, "lead traveller 1")
    return s


def own_share():
    # Card 34 (B, strength 9: 1 fame, 4 gold, 2 comrades), 5 players: the leader P0 brings 1
    # outlaw and keeps 2 figures under the oak, P1 and P2 bring 4 and 3 and have none there;
    # round 1 gave each a share, P0 decides what his is.
    s = attack_setup(34, {"Nottingham Gate": {0: 1, 1: 4, 2: 3}}, n=5, hands={0: {"cudgel": 1}},
                     leads=(0, 1), more_cards=(0,))
    for q, oak in ((0, 2), (1, 0), (2, 0)):
        set_player(s, q, camp=int(s.camp[q]) + int(s.oak[q]) - oak, oak=oak)
    act(s, "lead traveller 1", "play cudgel")
    return s


def comrade():
    # Card 8 (A, strength 4: 1 fame, 1 gold, 1 comrade) for P0 and P1, two outlaws each.
    s = attack_setup(8, {"Derby Gate": {0: 2, 1: 2}}, gold={0: 0, 1: 0, 2: 0}, leads=(0, 1),
                     more_cards=(0,))
    act(s, "lead traveller 1")
    return s


def messenger():
    s = attack_setup(7, {"Lincoln Gate": {0: 4}}, additions=True,
                     hands={1: {"messenger's clothes": 1}, 2: {"cudgel": 1}})
    act(s, "lead traveller 1")
    return s


def cloak():
    s = attack_setup(SHERIFF_B12, {"Lincoln Gate": {0: 3, 1: 2}}, additions=True,
                     hands={1: {"forest cloak": 1}}, leads=(0, 1), more_cards=(0,))
    s.oak[0], s.camp[0] = 2, 3        # P0's band has six figures: he can lose two
    s.fame[:] = 5
    s.edited()
    act(s, "lead traveller 1", "no messenger's clothes")
    return s


def provisions():
    s = attack_setup(7, {"York Gate": {0: 4}}, additions=True, hands={0: {"provisions": 1}},
                     leads=(0, 1), more_cards=(3,))
    act(s, "lead traveller 1", "no messenger's clothes")
    return s


def planned(s, name: str, card: int, advance: dict, informant: int = 0, pledges=None) -> None:
    a = amb(name)
    for q, g in advance.items():
        s.advance[a, q] = g
        s.pit[0] -= g
    s.targets = {**s.targets, a: card}   # set whole: a native state's field is a copy
    s.tokens = {**s.tokens, (a, -1): 5}
    s.ambush_target[a, s.slots.index(card)] = 1
    s.informant[a, informant] = 1
    for q, e in (pledges or {}).items():
        s.pledged[a, q] = e
    s.edited()


def call():
    # Card 9 (strength 5) at York Gate: 4 outlaws; P1 and P2 each promised a card.
    s = attack_setup(9, {"York Gate": {0: 2, 1: 1, 2: 1}}, additions=True,
                     hands={1: {"cudgel": 1}, 2: {"cudgel": 1}}, leads=(0, 1), more_cards=(0,))
    planned(s, "York Gate", 9, {}, pledges={1: 1, 2: 1})
    act(s, "lead traveller 1", "no messenger's clothes", "no messenger's clothes")
    return s


def pledge():
    s = call()
    act(s, "call on +2 to keep his promise")
    return s


def shortfall():
    # Card 7 (1 bag) at York Gate; informant P0 with 1 bag promised P1 and P2 2 bags each.
    s = attack_setup(7, {"York Gate": {0: 2, 1: 1, 2: 1}}, additions=True,
                     gold={0: 1, 1: 0, 2: 0})
    planned(s, "York Gate", 7, {1: 2, 2: 2})
    act(s, "lead traveller 1")
    return s
