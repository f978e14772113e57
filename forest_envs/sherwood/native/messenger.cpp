// Sherwood Forest (additions): the messenger's clothes (rules: messenger; rulebook, "Special
// item cards: Messenger's Clothes"). An interrupt window when a traveller is revealed and each
// time it has passed an occupied ambush without being robbed: every seat that could hold the
// card is asked in turn, clockwise from the leading player (messenger).
#include "state.hpp"

namespace forest::sherwood {

// Towns the coach may be sent to now (the new route must start with the ambushes passed).
const std::vector<int> &State::reroute_towns() const {
  const Coach &c = *coach;
  if (c.step < 0 || c.step > ROUTE_LEN) throw std::logic_error("coach.step out of range");
  return cfg()
      .reroute[static_cast<size_t>(tab().card(c.card).origin)][static_cast<size_t>(c.destination)]
              [static_cast<size_t>(c.step)];
}

bool State::open_window() {
  const Blocks &B = b();
  if (!cfg().additions || get(B.messenger_used, 0) || get(B.equip_discard, MESSENGER) >= EQUIPMENT_COUNTS[MESSENGER] ||
      reroute_towns().empty())
    return false;
  std::vector<int> seats;
  for (int q : seats_from(turn))
    if (get(B.hand_count, q) > 0) seats.push_back(q);
  if (seats.empty()) return false;
  window = seats;
  push(kind::MESSENGER, seats[0]);
  return true;
}

void State::mask_messenger(const native::Decision &d, int8_t *mask) const {
  mask[acts().messenger_pass.start] = 1;
  if (get(b().hand, d.player, MESSENGER) > 0)
    for (int t : reroute_towns()) mask[acts().messenger.start + t] = 1;
}

void State::apply_messenger(const native::Decision &d, int a) {
  const Blocks &B = b();
  const int q = d.player;
  if (acts().messenger.contains(a)) {
    const int t = a - acts().messenger.start;
    bump(B.hand, q, MESSENGER, -1);
    bump(B.hand_count, q, -1);
    bump(B.equip_discard, MESSENGER, 1);
    coach->destination = t;
    for (int i = 0; i < NUM_TOWNS; ++i) at(B.coach_card, F_DEST + i) = 0;
    at(B.coach_card, F_DEST + t) = 1;
    at(B.messenger_used, 0) = 1;
    window.clear();  // only one messenger's clothes per traveller
  } else {
    window.erase(window.begin());
  }
  if (!window.empty()) {
    replace(kind::MESSENGER, window[0]);
    return;
  }
  pop();
  drive();
}

}  // namespace forest::sherwood
