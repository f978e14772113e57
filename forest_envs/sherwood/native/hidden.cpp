// Sherwood Forest: what a seat cannot see (rules: hidden), the determinization for search,
// draw for draw as the Python state's resample_hidden. Hidden are the traveller cards the seat
// has not seen (the pile, the box, face-down laid-out cards it did not look at), redealt within
// their deck letter, and the equipment it cannot see (the deck, the others' hands), redealt into
// the same places.
#include <algorithm>

#include "state.hpp"

namespace forest::sherwood {

State State::resample_hidden(int seat, native::Pcg64 &g) const {
  if (seat < 0 || seat >= num_players()) throw native::BadInput("resample_hidden: not a seat");
  State fresh(*this);
  const Blocks &B = b();
  const int n = num_players();
  auto looked = [&](const State &s, int o, int slot) {
    for (int f = 0; f < FEATURES; ++f)
      if (s.get(B.peek, o, slot, f)) return true;
    return false;
  };
  std::vector<int> hidden_slots;
  for (int s = 0; s < MAX_SLOTS; ++s)
    if (fresh.slots[static_cast<size_t>(s)] >= 0 && !fresh.get(B.slot_face_up, s) && !looked(fresh, seat, s))
      hidden_slots.push_back(s);
  for (bool deck_b : {false, true}) {
    // every hidden card of this deck letter, as a pointer to where it lies
    std::vector<int *> places;
    for (int &c : fresh.pile)
      if (tab().card(c).deck_b == deck_b) places.push_back(&c);
    for (int &c : fresh.box)
      if (tab().card(c).deck_b == deck_b && (cfg().additions || !tab().card(c).sheriff)) places.push_back(&c);
    for (int s : hidden_slots) {
      int &c = fresh.slots[static_cast<size_t>(s)];
      if (tab().card(c).deck_b == deck_b) places.push_back(&c);
    }
    // sorted first, so that the redeal depends only on what the seat knows
    std::vector<int64_t> cards;
    for (int *p : places) cards.push_back(*p);
    std::sort(cards.begin(), cards.end());
    cards = native::permutation(g, std::move(cards));
    for (size_t i = 0; i < places.size(); ++i) *places[i] = static_cast<int>(cards[i]);
  }
  std::sort(fresh.box.begin(), fresh.box.end());
  for (int o = 0; o < n; ++o)
    for (int s = 0; s < MAX_SLOTS; ++s)
      if (o != seat && looked(fresh, o, s)) fresh.copy_features(B.peek, o * MAX_SLOTS + s, fresh.slots[static_cast<size_t>(s)]);
  std::vector<int64_t> pool(fresh.equip_deck.begin(), fresh.equip_deck.end());
  for (int o = 0; o < n; ++o) {
    if (o == seat) continue;
    for (int k = 0; k < NUM_EQUIPMENT_KINDS; ++k)
      for (int i = 0; i < fresh.get(B.hand, o, k); ++i) pool.push_back(k);
  }
  std::sort(pool.begin(), pool.end());
  pool = native::permutation(g, std::move(pool));
  const size_t deck = fresh.equip_deck.size();
  for (size_t i = 0; i < deck; ++i) fresh.equip_deck[i] = static_cast<int>(pool[i]);
  size_t pos = deck;
  for (int o = 0; o < n; ++o) {
    if (o == seat) continue;
    const int count = fresh.row_sum(B.hand, o);
    for (int k = 0; k < NUM_EQUIPMENT_KINDS; ++k) fresh.at(B.hand, o, k) = 0;
    for (int i = 0; i < count; ++i) {
      if (pos >= pool.size()) throw std::logic_error("resample_hidden: the equipment does not add up");
      fresh.bump(B.hand, o, static_cast<int>(pool[pos++]), 1);
    }
  }
  // The determinization gets its own chance: future draws are hidden too (_resampled).
  fresh.rng = native::Pcg64::from_seed(static_cast<uint64_t>(native::draw_integer(g, uint64_t{1} << 63)));
  fresh.edited();
  return fresh;
}

}  // namespace forest::sherwood
