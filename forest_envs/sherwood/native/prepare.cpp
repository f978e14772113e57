// Sherwood Forest: the preparation phase (rules: prepare; rulebook, "PREPARATION PHASE":
// "Preparation Actions" 1-5 and "5.1 Preparing a simple attack"). Each turn the player sends
// one outlaw to the church, the inn, the merchant or the market, or sends outlaws into an
// ambush alone or offers a joint ambush (negotiate.cpp). With more than five bags in his camp
// the church is his only action.
#include <algorithm>
#include <numeric>

#include "state.hpp"

namespace forest::sherwood {

bool State::equipment_available() const {
  if (!equip_deck.empty()) return true;
  for (int k = 0; k < NUM_EQUIPMENT_KINDS; ++k)
    if (get(b().equip_discard, k)) return true;
  return false;
}

void State::mask_prep(const native::Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  const Actions &X = acts();
  const int p = d.player;
  const int gold = get(B.gold, p);
  for (int k = 0; k < std::min(gold, X.church.size); ++k) mask[X.church.start + k] = 1;
  if (gold > CHURCH_FORCED_ABOVE) return;
  const int camp = std::clamp(static_cast<int>(get(B.camp, p)), 0, OUTLAWS_PER_COLOUR);
  for (int s = 0; s < MAX_SLOTS; ++s) mask[X.inn.start + s] = static_cast<int8_t>(get(B.slot_present, s));
  if (gold >= MERCHANT_COST && get(B.hand_count, p) < HAND_LIMIT && equipment_available()) mask[X.merchant.start] = 1;
  if (gold >= MARKET_COST && get(B.oak, p) > 0) mask[X.market.start] = 1;
  int camps = 0;
  for (int q = 0; q < num_players(); ++q) camps += get(B.camp, q);
  const bool joint = d[0] < MAX_OFFERS && camps > get(B.camp, p);
  for (int a = 0; a < NUM_AMBUSHES; ++a) {
    bool taken = false;
    for (int q = 0; q < num_players(); ++q) taken = taken || get(B.ambush_outlaws, a, q) != 0;
    if (taken) continue;
    for (int k = 0; k < camp; ++k) {
      mask[X.ambush.id(a, k)] = 1;
      if (joint) mask[X.joint.id(a, k)] = 1;
    }
  }
}

std::string State::why_prep(const native::Decision &d, int a) const {
  const Blocks &B = b();
  const Actions &X = acts();
  const int p = d.player;
  const std::string gold = std::to_string(get(B.gold, p));
  if (get(B.gold, p) > CHURCH_FORCED_ABOVE && !X.church.contains(a))
    return "with " + gold + " gold (more than five) the church is the only action";
  if (X.church.contains(a)) return "the player has only " + gold + " gold";
  if (X.merchant.contains(a)) return "the merchant needs 1 gold, fewer than three cards in hand and a card to sell";
  if (X.market.contains(a)) return "the market needs 2 gold and an outlaw of the player's colour under the oak";
  if (X.joint.contains(a)) {
    if (d[0] >= MAX_OFFERS)
      return "the player has made " + std::to_string(d[0]) +
             " failed joint offers this turn, the most a turn allows (a reading: docs/sherwood.md, item 7)";
    int camps = 0;
    for (int q = 0; q < num_players(); ++q) camps += get(B.camp, q);
    if (camps == get(B.camp, p)) return "no other player has outlaws in camp to ask";
  }
  if (X.ambush.contains(a) || X.joint.contains(a))
    return "the ambush must be unoccupied and the outlaws must be in the camp";
  if (X.inn.contains(a)) return "no traveller lies in that place";
  return "";
}

// Rulebook, "Preparation Actions" 1 (church), 2 (inn: the card stays in the seat's peek), 3
// (merchant), 4 (market: the recruit stands on the market), 5.1 (a simple ambush: its leader).
void State::apply_prep(const native::Decision &d, int a) {
  const Blocks &B = b();
  const Actions &X = acts();
  const int p = d.player;
  if (X.ambush.contains(a)) {
    const int amb = X.ambush.first(a), k = X.ambush.second(a);
    bump(B.camp, p, -(k + 1));
    at(B.ambush_outlaws, amb, p) = static_cast<int16_t>(k + 1);
    at(B.ambush_leader, amb, p) = 1;
  } else if (X.joint.contains(a)) {
    start_offer(p, X.joint.first(a), X.joint.second(a) + 1, d[0]);
    return;
  } else if (X.church.contains(a)) {
    const int k = a - X.church.start + 1;
    place(p, CHURCH);
    bump(B.gold, p, -k);
    bump(B.pit, 0, k);
    bump(B.fame, p, k);
  } else if (X.inn.contains(a)) {
    const int s = a - X.inn.start;
    place(p, INN);
    copy_features(B.peek, p * MAX_SLOTS + s, slots[static_cast<size_t>(s)]);
    at(B.slot_marked, s, p) = 1;
  } else if (a == X.merchant.start) {
    place(p, MERCHANT);
    bump(B.gold, p, -MERCHANT_COST);
    bump(B.pit, 0, MERCHANT_COST);
    draw_equipment(p);
  } else {
    place(p, MARKET);
    bump(B.oak, p, -1);
    bump(B.places, p, MARKET, 1);
    bump(B.gold, p, -MARKET_COST);
    bump(B.pit, 0, MARKET_COST);
  }
  note_emptied({p});
  next_prep(p);
}

void State::place(int p, int where) {
  bump(b().camp, p, -1);
  bump(b().places, p, where, 1);
}

// Rulebook, "Preparation Actions", 3: "take an equipment card blindly from the deck" (an empty
// deck is the discard pile shuffled).
void State::draw_equipment(int p) {
  const Blocks &B = b();
  if (equip_deck.empty()) {
    std::vector<int> kinds;
    for (int k = 0; k < NUM_EQUIPMENT_KINDS; ++k)
      for (int i = 0; i < get(B.equip_discard, k); ++i) kinds.push_back(k);
    equip_deck = native::permutation(rng, std::move(kinds));
    fill(B.equip_discard, 0);
  }
  if (equip_deck.empty()) throw std::logic_error("draw_equipment: no card to draw");
  const int k = equip_deck.back();
  equip_deck.pop_back();
  bump(B.hand, p, k, 1);
  bump(B.hand_count, p, 1);
  at(B.equip_left, 0) = static_cast<int16_t>(equip_deck.size());
}

}  // namespace forest::sherwood
