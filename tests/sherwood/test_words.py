"""Sherwood Forest in words (issue 18): every decision's prompt names what it is about (the
ambush, the seats, the traveller as the observer may know it, the terms, the fight, the loot);
``consequences`` says what a move did, hiding what the observer may not know. Positions come
from tests/sherwood/positions_words.py."""

from __future__ import annotations

import re

import numpy as np
import pytest

from forest_envs.cli.move_list import SeatMoves, move_lines
from forest_envs.sherwood.agents import HeuristicAgent
from forest_envs.sherwood.observation import DECISIONS
from forest_envs.sherwood.rules import new_game
from forest_envs.sherwood.text.render import consequences
from forest_envs.sherwood.text.view import reading
from forest_envs.sherwood.text.words import WIDTH, sentence, wrap

from . import positions_words as P
from .conftest import act, attack_setup

# (position, the sentence the referee reads)
PROMPTS = {
    "prep": (P.prep, "Round 1, preparation: P0 (4 outlaws in camp, 2 gold) sends an outlaw to the "
             "church, inn, merchant or market, lies in ambush or offers a joint ambush"),
    "ask": (P.ask, "P0 offers a joint ambush at North-East Fork with 2 own outlaws: ask P1 (4 outlaws "
            "in camp, 2 cards) for outlaws and cards"),
    "answer": (P.answer, "P0 offers P1 a joint ambush at North-East Fork (P0 brings 2): send 2 outlaws "
               "and promise 1 card; accept or decline"),
    "confirm": (P.confirm, "P0's joint ambush at North-East Fork (P0 2, P1 2 outlaws; promised cards "
                "shown: P1 sword; strength 7): form it or give it up"),
    "reveal": (P.reveal, "P0's joint ambush at York Gate: tell the asked players the loot of a "
               "traveller P0 looked at in the inn (traveller 4 (B 12, Derby to York)), or tell nothing"),
    "target": (P.target, "P0 offers a joint ambush at York Gate with 2 own outlaws: mark a laid-out "
               "traveller as its target, or none"),
    "informant": (P.informant, "P0 offers a joint ambush at York Gate with 2 own outlaws on traveller 2 "
                  "(A 1, Lincoln to Derby): name the informant: P0 himself or P1, who looked at it in "
                  "the inn"),
    "terms": (P.terms, "P0's joint ambush at York Gate: P1 is asked for 2 outlaws; set P1's terms: bags "
              "and comrades of the loot promised by the informant P0, and gold P0 pays now"),
    "lead": (P.lead, "Round 1, attacks: P2 chooses a laid-out traveller to lead along its route: 1, 2 "
             "or 3"),
    "messenger": (P.messenger, "The traveller (A 4, York to Lincoln) is revealed: P1 may play the "
                  "messenger's clothes to send it to Derby or Nottingham instead, or pass"),
    "equip": (P.equip, "The traveller (A 4, York to Lincoln) at York Gate (leader P0; P0 2, P1 1 "
              "outlaws): strength 3 of 4: P1 may play a weapon card (one per outlaw) or no more"),
    "call": (P.call, "Planned attack: the traveller (A 5, York to Derby) at York Gate (leader P0; P0 2, "
             "P1 1, P2 1 outlaws): strength 4 of 5: the leader P0 calls the next ally to keep his "
             "card promise: P1 or P2"),
    "pledge": (P.pledge, "Planned attack: the traveller (A 5, York to Derby) at York Gate (leader P0; "
               "P0 2, P1 1, P2 1 outlaws): strength 4 of 5: P2 keeps his promise of 1 card (0 played) "
               "with a weapon card, or renounces and calls the attack off"),
    "shortfall": (P.shortfall, "Planned attack at York Gate: the loot and the informant P0's gold leave "
                  "2 bags of the promises unpaid: choose whose promise goes without one: P1 or P2"),
    "share": (P.share, "P1 leads the ambush at York Gate with P2 and P0: share the loot of 4 gold "
              "(shares so far: P0 1, P1 1, P2 1); choose who of P1 or P2 gets a share (1 share left "
              "this round)"),
    "comrade": (P.comrade, "P0 leads the ambush at Derby Gate with P1: 1 new comrade of the loot to "
                "hand out (one per share, to a player with a figure under the oak): choose who gets "
                "one: P0 or P1"),
    "provisions": (P.provisions, "The traveller (A 4, York to Lincoln) was robbed at York Gate: P0 may "
                   "play provisions to leave his outlaws in the ambush, or go home"),
    "cloak": (P.cloak, "The Sheriff (B 12, Lincoln to Nottingham) crushed the ambush at Lincoln Gate: "
              "P0 may play a forest cloak to stay or go home without losses; else -2 fame, -2 outlaws"),
}


def test_every_decision_kind_has_a_prompt_test():
    assert set(PROMPTS) == {k.name for k in DECISIONS}


@pytest.mark.parametrize("kind", sorted(PROMPTS))
def test_each_decision_kind_is_a_sentence_naming_what_it_is_about(kind):
    build, text = PROMPTS[kind]
    s = build()
    assert s.decision_name() == kind
    assert sentence(reading(s, None)) == text
    assert s.prompt(None) == wrap(text)
    assert all(len(line) <= WIDTH for line in s.prompt(None).splitlines())


def test_more_than_five_gold_the_prompt_says_the_church_is_the_only_action():
    assert sentence(reading(P.prep_forced_church(), None)) == (
        "Round 1, preparation: P0 has 6 gold in camp, more than 5: give gold to the poor at the church")


def test_a_traveller_face_down_is_named_only_to_a_seat_that_looked_at_it():
    s = P.reveal()                                   # P0 looked at traveller 4 (the example card)
    assert "traveller 4 (B 12, Derby to York)" in sentence(reading(s, 0))
    for other in (1, 2):
        assert "traveller 4 (face down, B)" in sentence(reading(s, other)) and "12" not in sentence(reading(s, other))
    s = P.informant()                                # P1 looked at traveller 2
    assert "traveller 2 (A 1, Lincoln to Derby)" in sentence(reading(s, 1))
    assert "traveller 2 (face down, A)" in sentence(reading(s, 0)) and "Lincoln" not in sentence(reading(s, 0))
    s = P.answer_with_terms()
    assert sentence(reading(s, 2)) == (
        "P0 offers P1 a joint ambush at York Gate (P0 brings 2): send 2 outlaws (target traveller 2 "
        "(face down, A), informant P0; promised 3 bags of the loot; 1 gold paid now); accept or decline")
    s = P.answer_told()                              # the told loot is public, the card is not
    assert sentence(reading(s, 2)) == (
        "P0 offers P1 a joint ambush at York Gate (P0 brings 1): send 1 outlaw (loot of traveller 4 "
        "told: 1 fame, 9 gold, 1 comrade; also asked: P2 1 outlaw); accept or decline")


def test_the_view_and_the_board_carry_the_prompt():
    s = P.equip()
    assert s.view(2)["prompt"] == sentence(reading(s, 2))
    lines = s.render(None).splitlines()
    assert lines[-3:] == [  # last, right above a list of moves
        "Now: The traveller (A 4, York to Lincoln) at York Gate (leader P0; P0 2, P1 1",
        "    outlaws): strength 3 of 4: P1 may play a weapon card (one per outlaw) or no",
        "    more"]


def moved(s, *moves, observer=None):
    """The consequences of the last of ``moves`` as ``observer`` reads them."""
    for m in moves[:-1]:
        act(s, m)
    before = s.clone()
    action = s.game.string_to_action(moves[-1])
    s.apply(action)
    return consequences(before, action, s, observer)


def test_a_robbery_after_a_card_is_played_names_the_ambush_its_band_the_strengths_and_the_gains():
    assert moved(P.equip(), "play bow") == [
        "robbed at York Gate by P0 and P1 (strength 5 against 4)", "discarded: bow",
        "P0 +2 fame", "P1 +2 fame, +1 gold"]
    assert moved(P.equip(), "play no more cards") == [
        "the ambush at York Gate falls short, 3 of 4", "it reaches Lincoln unrobbed"]


def test_a_lead_names_the_card_and_where_it_was_robbed():
    # Card 9 (A 5, York to Derby) into York Gate with 5 outlaws: robbed at once, a choice of shares.
    s = attack_setup(9, {"Lincoln Gate": {2: 1}, "York Gate": {1: 2, 2: 2, 0: 1}}, leads=(0, 1),
                     more_cards=(0,))
    assert moved(s, "lead traveller 1") == [
        "traveller 1 is A, strength 5 (1 fame, 4 gold, 0 comrades), York to Derby",
        "robbed at York Gate by P1, P2 and P0 (strength 5 against 5)", "P0, P1 and P2 +1 fame each"]


def test_a_loot_share_names_the_seat_who_got_it_and_the_gold_each_seat_got():
    assert moved(P.share(), "give a share to +1", observer=2) == [
        "P2 gets a share", "the loot is handed out; the outlaws at York Gate go home",
        "P0 and P1 +1 gold each", "P2 +2 gold"]
    assert moved(P.comrade(), "give a comrade to +1") == [
        "P1 gets a comrade", "the loot is handed out; the outlaws at Derby Gate go home",
        "P0 +1 gold", "P1 +1 comrade"]


def test_the_leaders_own_share_is_put_as_a_bag_or_a_comrade_and_told():
    s = P.own_share()
    assert (s.decision_name(), s.decision.data) == ("share", (0, 1))
    assert sentence(reading(s, None)) == (
        "P0 leads the ambush at Nottingham Gate with P1 and P2: share the loot of 4 gold and 2 "
        "comrades (shares so far: P0 1, P1 1, P2 1); P0 takes his own share of round 1 as a bag of "
        "gold (fewer bags left for the allies' later shares) or as a new comrade")
    assert moved(P.own_share(), "give a share to self", observer=1) == [
        "P0 takes a bag as his own share"]
    assert moved(P.own_share(), "give a comrade to self", observer=1) == [
        "P0 takes a comrade as his own share",
        "the loot is handed out; the outlaws at Nottingham Gate go home",
        "P0 +2 comrades", "P1 and P2 +2 gold each"]


def test_church_market_inn_and_merchant():
    assert moved(P.prep(), "church: donate 2 gold") == ["P0 +2 fame, -2 gold"]
    assert moved(P.prep(), "market: recruit an outlaw") == [
        "P0 recruited an outlaw from under the oak (at the market this round)", "P0 -2 gold, +1 outlaw"]
    looked = "traveller 2 is A, strength 2 (1 fame, 1 gold, 0 comrades), Nottingham to Derby"
    assert moved(P.prep(), "inn: look at traveller 2", observer=0) == [looked]
    assert moved(P.prep(), "inn: look at traveller 2", observer=None) == [looked]
    assert moved(P.prep(), "inn: look at traveller 2", observer=1) == []
    s = P.prep()
    drawn = s.equip_deck[-1]
    assert moved(s, "merchant: buy equipment", observer=0) == [
        f"P0 drew a {['cudgel', 'bow', 'sword'][drawn]}", "P0 -1 gold"]
    assert moved(P.prep(), "merchant: buy equipment", observer=1) == [
        "P0 drew an equipment card", "P0 -1 gold"]


def test_the_sheriff_crushing_an_ambush_and_the_losses():
    s = P.cloak()
    assert moved(s, "no forest cloak") == []             # P1 is asked next
    assert moved(s, "forest cloak: go home") == [
        "the Sheriff crushed the ambush at Lincoln Gate: its outlaws go home",
        "it reaches Nottingham unrobbed", "discarded: forest cloak", "P0 -2 fame, -2 outlaws"]


def _the_same_table(a, b) -> bool:
    return np.array_equal(a.buf, b.buf) and a.decisions == b.decisions


def test_a_messenger_is_told_by_the_town_chosen_where_either_town_leaves_the_same_table():
    """The last traveller of the round reaches either town unrobbed and the round ends: both
    answers leave the same state, so only the action says where it went."""
    after = {}
    for town in ("Derby", "Nottingham"):
        s = P.messenger()
        assert moved(s, f"messenger's clothes: send to {town}") == [
            f"it reaches {town} unrobbed", "discarded: messenger's clothes",
            "round 1 ends: every outlaw goes home", "round 2 begins: P1 holds the starting player figure",
            "traveller 1 lies face up: A 5, Nottingham to Lincoln"]
        after[town] = s
    assert _the_same_table(after["Derby"], after["Nottingham"])


def test_a_forest_cloak_answer_is_told_as_given_where_the_round_ends_either_way():
    """P1 stays under a forest cloak or goes home; the traveller then leaves the forest, the
    round ends and every outlaw goes home: the states agree, the narrations do not."""
    def crushed():
        s = attack_setup(P.SHERIFF_B12, {"Lincoln Gate": {0: 3, 1: 2}}, additions=True,
                         hands={1: {"forest cloak": 1}}, leads=(0,))
        s.oak[0], s.camp[0] = 2, 3
        s.fame[:] = 5
        s.edited()
        act(s, "lead traveller 1", "no messenger's clothes", "no forest cloak")
        return s

    rest = ["it reaches Nottingham unrobbed", "discarded: forest cloak",
            "round 1 ends: every outlaw goes home", "round 2 begins: P1 holds the starting player figure",
            "traveller 1 lies face up: A 5, Nottingham to Lincoln", "P0 -2 fame, -2 outlaws"]
    stay, home = crushed(), crushed()
    assert moved(stay, "forest cloak: stay in the ambush") == [
        "the Sheriff crushed the ambush at Lincoln Gate: its outlaws go home, but P1 stays under a "
        "forest cloak", *rest]
    assert moved(home, "forest cloak: go home") == [
        "the Sheriff crushed the ambush at Lincoln Gate: its outlaws go home", *rest]
    assert _the_same_table(stay, home)


def test_offers_accepted_declined_and_binding_agreements():
    assert moved(P.answer(), "decline") == ["P1 declines: the offer fails"]
    assert moved(P.answer(), "accept promising 1 sword", observer=2) == [
        "P1 accepts; every asked player accepted: the promised cards are shown: P1 sword"]
    assert moved(P.confirm(), "form the joint ambush") == [
        "the joint ambush at North-East Fork is formed: P0 2, P1 2 outlaws; promised: P1 sword"]
    assert moved(P.answer_with_terms(), "accept") == [
        "P1 accepts", "the joint ambush at York Gate is formed: P0 2, P1 2 outlaws",
        "binding agreement at York Gate: target traveller 2, informant P0", "laid out for P1: 3 bags",
        "P0 -1 gold", "P1 +1 gold"]
    assert moved(P.pledge(), "play cudgel") == [
        "robbed at York Gate by P0, P1 and P2 (strength 5 against 5)",
        "the binding agreement at York Gate is kept: the promises are collected",
        "discarded: cudgel", "P0 +1 fame, +2 gold", "P1 and P2 +1 fame, +1 gold each"]
    assert moved(P.call(), "call on +1 to keep his promise", "renounce the promised cards") == [
        "P1 renounces his promise: the planned attack at York Gate is called off"]
    assert moved(P.shortfall(), "withhold a promised bag from +1") == ["P1's promise goes without a bag"]


def test_an_accepting_allys_cards_are_not_named_before_the_alliance_forms():
    """An ally's acceptance of an offer another ally may still decline shows no cards."""
    s = P.ask()
    act(s, "ask for 1 outlaws and 1 cards", "ask for 1 outlaws and 0 cards")
    before = s.clone()
    act(s, "accept promising 1 sword")
    narration = s.narrate(before, s.game.string_to_action("accept promising 1 sword"), 2)
    assert narration == "accept: P1 accepts" and "sword" not in narration


# --- no internal names, no long lines, nothing hidden, over many steps --------------------------
INTERNAL = re.compile(r"\b(prep|equip|pledge|shortfall|confirm|offers_made|to decide)\b|_|\{|\}|"
                      r"\bP\d+ to (" + "|".join(k.name for k in DECISIONS) + r")\b")


def _play(config, seed, steps, check, heuristic=False):
    s = new_game(config, seed=seed)
    rng = np.random.default_rng(seed)
    agent = HeuristicAgent(seed=seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        p = s.current_player
        a = (agent.choose(s.reading(p), s.legal_action_mask()) if heuristic
             else int(rng.choice(s.legal_actions())))
        before = s.clone()
        s.apply(a)
        check(before, a, s, rng)


@pytest.mark.parametrize("config, heuristic", [({"num_players": 4, "additions": False}, False),
                                               ({"num_players": 5, "additions": True}, False),
                                               ({"num_players": 4, "additions": True}, True)])
@pytest.mark.whole_games
def test_random_and_heuristic_play_prompts_and_narrations_are_plain_and_short(config, heuristic):
    seen = set()

    def check(before, a, after, rng):
        actor = before.current_player
        for o in (None, actor, (actor + 1) % after.num_players):
            text = after.prompt(o) or ""
            assert not INTERNAL.search(text), text
            assert all(len(line) <= WIDTH for line in text.splitlines()), text
            line = after.narrate(before, a, o)
            assert not INTERNAL.search(line), line
            for phrase in consequences(before, a, after, o):
                # a clause of the log, short; play breaks the whole log line at WIDTH
                assert len(phrase) <= 96, phrase
        seen.add(before.decision_name())

    for seed in range(2):
        _play(config, seed, 300, check, heuristic)
    assert {"prep", "lead"} <= seen


@pytest.mark.whole_games
def test_a_prompt_is_the_same_for_every_hidden_card_the_observer_has_not_seen():
    def check(before, a, after, rng):
        if after.is_terminal:
            return
        for o in range(after.num_players):
            other = after.resample_hidden(o, rng)
            assert other.prompt(o) == after.prompt(o)
            assert other.view(o) == after.view(o)

    for config in ({"num_players": 3, "additions": False}, {"num_players": 4, "additions": True}):
        _play(config, 3, 150, check)


# --- the moves as forest-envs play lists them (move_label) -------------------------------------------
def labels(s) -> list[str]:
    return [s.move_label(a, s.current_player) for a in s.legal_actions()]


def test_the_terms_menu_reads_as_sentences():
    """Who gets what, one line each: bags and comrades of the loot (promised by the informant,
    as the prompt says), gold now (paid by the performer)."""
    s = P.terms()
    assert "promised by the informant P0, and gold P0 pays now" in " ".join(s.prompt(0).split())
    said = labels(s)
    assert said[:4] == ["P1 gets nothing", "P1 gets 1 comrade of the loot",
                        "P1 gets 2 comrades of the loot", "P1 gets 1 gold now"]
    assert "P1 gets 1 bag and 2 comrades of the loot" in said
    assert "P1 gets 3 bags of the loot, and 2 gold now" in said
    assert len(set(said)) == len(said) == 90  # each can be typed
    assert not any(re.search(r"\b0 (bags|comrades|gold)|comrades of loot|\+\d|self", t) for t in said)
    lines = move_lines(SeatMoves(s, 0), s.legal_actions())
    assert len(lines) <= 92 and all(len(line) <= 80 for line in lines)


@pytest.mark.parametrize(("build", "expected"), [
    (P.ask, ["ask P1 for nothing", "ask P1 for 1 outlaw", "ask P1 for 1 outlaw and to promise 1 card"]),
    (P.share, ["give a share of the loot to P1", "give a share of the loot to P2"]),
    (P.comrade, ["give a comrade to P0", "give a comrade to P1"]),
    (P.informant, ["name P0 as the informant", "name P1 as the informant"]),
    (P.call, ["call on P1 to keep the promise", "call on P2 to keep the promise"]),
    (P.shortfall, ["withhold a promised bag from P1", "withhold a promised bag from P2"]),
    (P.lead, ["lead traveller 1 (A 4, York to Lincoln)", "lead traveller 2 (face down, A)",
              "lead traveller 3 (face down, A)"]),
    (P.reveal, ["tell the loot of traveller 4 (B 12, Derby to York)", "tell nothing"]),
])
def test_seats_are_named_as_the_board_names_them_and_travellers_as_the_mover_knows_them(build, expected):
    assert labels(build())[:len(expected)] == expected


def test_another_seat_reads_a_move_as_describe_action_gives_it():
    s = P.reveal()
    other = (s.current_player + 1) % s.num_players
    assert [s.move_label(a, other) for a in s.legal_actions()] == \
        [s.describe_action(a, other) for a in s.legal_actions()]
