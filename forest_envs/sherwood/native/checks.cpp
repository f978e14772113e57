// Sherwood Forest: the checks of a state handed over from Python (rules: checks, which the
// Python side runs first with the words both engines give): every field the rules index by
// within its range, the buffer's laid-out places against the slots, and the pending decision
// against what its rules read, so that no state from Python makes the rules read or write
// outside an array.
#include "state.hpp"

namespace forest::sherwood {

using native::BadInput;
using native::Decision;

void check_ids(const std::vector<int> &ids, int hi, const char *what) {
  for (int c : ids)
    if (c < 0 || c >= hi) throw BadInput(std::string(what) + ": an id out of range");
}

namespace {

void seats_ok(const std::vector<int> &v, int n, const char *what) {
  for (int q : v)
    if (q < 0 || q >= n) throw BadInput(std::string(what) + ": not a seat");
}

void seat_ok(int q, int n, const char *what) {
  if (q < 0 || q >= n) throw BadInput(std::string(what) + ": not a seat");
}

void in_range(int v, int lo, int hi, const char *what) {
  if (v < lo || v > hi) throw BadInput(std::string(what) + ": out of range");
}

}  // namespace

// Every field within the range the rules index it by (the fields alone: a field set from
// Python is checked at once, before anything reads it).
void State::check_values() const {
  const int n = num_players();
  check_ids(pile, NUM_CARDS, "pile");
  check_ids(box, NUM_CARDS, "box");
  check_ids(removed, NUM_CARDS, "removed");
  check_ids(equip_deck, NUM_EQUIPMENT_KINDS, "equip_deck");
  if (!slots.empty() && static_cast<int>(slots.size()) != MAX_SLOTS) throw BadInput("slots: one entry per place");
  for (int c : slots) in_range(c, -1, NUM_CARDS - 1, "slots");
  seats_ok(leads, n, "leads");
  seats_ok(window, n, "window");
  in_range(round_index, 0, ROUNDS, "round_index");
  if (coach) {
    in_range(coach->card, 0, NUM_CARDS - 1, "coach.card");
    in_range(coach->destination, 0, NUM_TOWNS - 1, "coach.destination");
    if (coach->destination == tab().card(coach->card).origin) throw BadInput("coach.destination: the origin");
    in_range(coach->step, 0, ROUTE_LEN, "coach.step");
  }
  if (fight) {
    in_range(fight->ambush, 0, NUM_AMBUSHES - 1, "fight.ambush");
    seats_ok(fight->order, n, "fight.order");
    seats_ok(fight->pledgers, n, "fight.pledgers");
    if (fight->order.empty()) throw BadInput("fight.order: empty");
    in_range(fight->asking, 0, static_cast<int>(fight->order.size()), "fight.asking");
    in_range(fight->total, 0, 99, "fight.total");
    in_range(fight->strength, 0, MAX_STRENGTH, "fight.strength");
  }
  if (loot) {
    const Loot &L = *loot;
    in_range(L.ambush, 0, NUM_AMBUSHES - 1, "loot.ambush");
    seats_ok(L.order, n, "loot.order");
    seats_ok(L.tier, n, "loot.tier");
    for (const auto &t : L.tiers) seats_ok(t, n, "loot.tiers");
    in_range(L.informant, -1, n - 1, "loot.informant");
    in_range(L.leader, -1, n - 1, "loot.leader");
    for (const auto *v : {&L.outlaws, &L.oak, &L.shares, &L.comrades_got})
      if (!v->empty() && static_cast<int>(v->size()) != n) throw BadInput("loot: one count per seat");
    if (L.leader >= 0 && (L.shares.empty() || L.oak.empty() || L.outlaws.empty() || L.comrades_got.empty()))
      throw BadInput("loot: the counts of a share-out under way");
    if (L.order.empty()) throw BadInput("loot.order: empty");
  }
  if (offer) {
    const Offer &o = *offer;
    seat_ok(o.performer, n, "offer.performer");
    seat_ok(o.informant, n, "offer.informant");
    in_range(o.ambush, 0, NUM_AMBUSHES - 1, "offer.ambush");
    in_range(o.own, 0, OUTLAWS_PER_COLOUR, "offer.own");
    in_range(o.offers, 0, MAX_OFFERS, "offer.offers");
    seats_ok(o.allies, n, "offer.allies");
    in_range(o.next_ally, 0, static_cast<int>(o.allies.size()), "offer.next_ally");
    in_range(o.told, -1, MAX_SLOTS - 1, "offer.told");
    in_range(o.target, -1, MAX_SLOTS - 1, "offer.target");
    for (const auto &t : o.asked) {
      seat_ok(t[0], n, "offer.asked");
      in_range(t[1], 0, OUTLAWS_PER_COLOUR, "offer.asked");
      in_range(t[2], 0, MAX_ASK_CARDS, "offer.asked");
    }
    for (const auto &[q, t] : o.terms) {
      seat_ok(q, n, "offer.terms");
      in_range(t[0], 0, MAX_PROMISED_LOOT, "offer.terms");
      in_range(t[1], 0, MAX_PAYMENT, "offer.terms");
      in_range(t[2], 0, MAX_PROMISED_COMRADES, "offer.terms");
    }
    for (const auto &[q, t] : o.promise) {
      seat_ok(q, n, "offer.promise");
      for (int w : t) in_range(w, 0, MAX_ASK_CARDS, "offer.promise");
    }
  }
  for (const auto &[k, letter] : tokens) {
    in_range(k.first, 0, NUM_AMBUSHES - 1, "tokens");
    in_range(k.second, NO_SEAT, n - 1, "tokens");
    in_range(letter, 0, NUM_LETTERS - 1, "tokens");
  }
  if (static_cast<int>(tokens.size()) > NUM_LETTERS) throw BadInput("tokens: more pairs than the box holds");
  for (const auto &[amb, card] : targets) {
    in_range(amb, 0, NUM_AMBUSHES - 1, "targets");
    in_range(card, 0, NUM_CARDS - 1, "targets");
  }
  if (crush) {
    in_range(crush->ambush, 0, NUM_AMBUSHES - 1, "crush.ambush");
    seats_ok(crush->order, n, "crush.order");
    in_range(crush->asking, 0, static_cast<int>(crush->order.size()), "crush.asking");
    for (const auto &e : crush->cloaks) seat_ok(e.first, n, "crush.cloaks");
  }
  if (provisioning) {
    in_range(provisioning->ambush, 0, NUM_AMBUSHES - 1, "provisioning.ambush");
    seats_ok(provisioning->order, n, "provisioning.order");
    seats_ok(provisioning->stay, n, "provisioning.stay");
    in_range(provisioning->asking, 0, static_cast<int>(provisioning->order.size()), "provisioning.asking");
  }
}

// Every field and block the rules index by within its range, so that no state handed over
// from Python can make the rules read or write outside an array.
void State::check_fields() const {
  const int n = num_players();
  check_values();
  if (turn < 0 || turn >= n) throw BadInput("turn: not a seat");
  if (static_cast<int>(slots.size()) != MAX_SLOTS) throw BadInput("slots: one entry per place");
  for (int s = 0; s < MAX_SLOTS; ++s)
    if ((get(b().slot_present, s) != 0) != (slots[static_cast<size_t>(s)] >= 0))
      throw BadInput("slots: a laid-out traveller where slot_present says none, or none where it says one");
  check_decisions(0);
  check_top();
}

// The pending decision against what its rules read (its data's ranges, its record): run before
// every mask, so that a stack set from Python without edited() cannot make the rules read
// outside an array.
void State::check_top() const {
  if (decisions.empty()) return;
  const Decision &d = decisions.back();
  if (static_cast<int>(slots.size()) != MAX_SLOTS) throw BadInput("slots: one entry per place");
  {
    check_declared(d, 0);
    switch (d.kind) {
      case kind::ASK:
      case kind::REVEAL:
      case kind::TARGET:
      case kind::INFORMANT:
      case kind::TERMS:
        if (!offer) throw BadInput("decisions: " + core().kinds[static_cast<size_t>(d.kind)].name + " without an offer");
        if (d.kind == kind::ASK && offer->next_ally >= static_cast<int>(offer->allies.size()))
          throw BadInput("decisions: ask without an ally to ask");
        if (d.kind == kind::INFORMANT && offer->target < 0) throw BadInput("decisions: informant without a target");
        break;
      case kind::ANSWER:
      case kind::CONFIRM:
        if (!offer) throw BadInput("decisions: an answer without an offer");
        break;
      case kind::EQUIP:
      case kind::PLEDGE:
      case kind::CALL:
        if (!fight || !coach) throw BadInput("decisions: an equipment decision without a fight");
        break;
      case kind::SHARE:
      case kind::COMRADE:
        if (!loot || loot->leader < 0 || !coach) throw BadInput("decisions: a share-out without its loot");
        break;
      case kind::SHORTFALL:  // before the share-out: the loot's counts are not set yet
        if (!loot || !coach) throw BadInput("decisions: a shortfall without its loot");
        break;
      case kind::CLOAK:
        if (!crush || crush->order.empty() || !coach) throw BadInput("decisions: a cloak question without a crush");
        break;
      case kind::PROVISIONS:
        if (!provisioning || provisioning->order.empty() || !coach)
          throw BadInput("decisions: a provisions question without its record");
        break;
      case kind::MESSENGER:
        if (!coach || window.empty()) throw BadInput("decisions: a messenger window without a coach");
        break;
      case kind::LEAD:
        if (leads.empty()) throw BadInput("decisions: lead with nobody to lead");
        break;
      default: break;
    }
  }
}

}  // namespace forest::sherwood
