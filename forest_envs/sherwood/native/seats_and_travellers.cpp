// Sherwood Forest: what every phase does at the table (rules: seats_and_travellers): seats
// named in actions (counted from the deciding player, 0 = himself, as the observation's seat
// axes are), the laid-out travellers laid out and cleared, outlaws leaving an ambush.
#include "state.hpp"

namespace forest::sherwood {

void State::mark_seats(int8_t *mask, const ActionBlock &block, int player, const std::vector<int> &seats) const {
  const int n = num_players();
  for (int q : seats) mask[block.start + ((q - player) % n + n) % n] = 1;
}

int State::seat_named(const ActionBlock &block, int player, int a) const {
  const int n = num_players();
  return ((player + a - block.start) % n + n) % n;
}

// Rulebook, "Setup", 8, and "END OF THE ROUND", 2: one card face up (the pile is shuffled:
// any one will do).
void State::lay_out() {
  const Blocks &B = b();
  for (int s = 0; s < cfg().laid_out; ++s) {
    if (pile.empty()) throw std::logic_error("lay_out: the pile ran out");
    const int card = pile.front();
    pile.erase(pile.begin());
    slots[static_cast<size_t>(s)] = card;
    at(B.slot_present, s) = 1;
  }
  at(B.slot_face_up, 0) = 1;
  copy_features(B.slot_card, 0, slots[0]);
  at(B.pile_left, 0) = static_cast<int16_t>(pile.size());
}

void State::clear_slot(int s) {
  const Blocks &B = b();
  slots[static_cast<size_t>(s)] = -1;
  at(B.slot_present, s) = 0;
  at(B.slot_face_up, s) = 0;
  for (int j = 0; j < FEATURES; ++j) at(B.slot_card, s, j) = 0;
  for (int j = 0; j < 4; ++j) at(B.slot_told, s, j) = 0;
  for (int q = 0; q < num_players(); ++q) {
    at(B.slot_marked, s, q) = 0;
    for (int j = 0; j < FEATURES; ++j) at(B.peek, q, s, j) = 0;
  }
}

// Everyone in ``order`` but ``stays`` leads his outlaws back to his camp; the leader's place
// goes to one who stays (the leader himself if he does).
void State::leave_ambush(int amb, const std::vector<int> &order, const std::vector<int> &stays) {
  const Blocks &B = b();
  for (int q : order)
    if (!contains(stays, q)) {
      at(B.camp, q) = static_cast<int16_t>(get(B.camp, q) + get(B.ambush_outlaws, amb, q));
      at(B.ambush_outlaws, amb, q) = 0;
      at(B.provisioned, amb, q) = 0;
    }
  for (int q = 0; q < num_players(); ++q) at(B.ambush_leader, amb, q) = 0;
  if (!stays.empty()) at(B.ambush_leader, amb, contains(stays, order[0]) ? order[0] : stays[0]) = 1;
}

}  // namespace forest::sherwood
