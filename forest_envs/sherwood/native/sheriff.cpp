// Sherwood Forest (additions): the Sheriff crushes an ambush too weak for him (rules: sheriff;
// rulebook, "Defeat by the Sheriff"; "Special item cards: Forest Cloak"). Each participant in
// turn is asked whether he plays a forest cloak (cloak); everyone else loses fame and outlaws;
// then the outlaws go home and the Sheriff drives on.
#include <algorithm>

#include "state.hpp"

namespace forest::sherwood {

void State::crush_ambush(int amb) {
  return_promised({amb});
  void_agreement(amb);
  const std::vector<int> order = participants(amb);
  if (order.empty()) throw std::logic_error("crush: an ambush without participants");
  crush = CloakQuestions{amb, order, 0, {}};
  push(kind::CLOAK, order[0], {amb});
}

void State::mask_cloak(const native::Decision &d, int8_t *mask) const {
  mask[acts().cloak_none.start] = 1;
  if (get(b().hand, d.player, FOREST_CLOAK) > 0) {
    mask[acts().cloak.start] = 1;
    mask[acts().cloak.start + 1] = 1;
  }
}

void State::apply_cloak(const native::Decision &d, int a) {
  const Blocks &B = b();
  CloakQuestions &c = *crush;
  const int q = d.player;
  if (acts().cloak.contains(a)) {
    bump(B.hand, q, FOREST_CLOAK, -1);
    bump(B.hand_count, q, -1);
    bump(B.equip_discard, FOREST_CLOAK, 1);
    put_in(c.cloaks, q, a - acts().cloak.start == CLOAK_STAY);
  }
  ++c.asking;
  if (c.asking < static_cast<int>(c.order.size())) {
    replace(kind::CLOAK, c.order[static_cast<size_t>(c.asking)], {c.ambush});
    return;
  }
  pop();
  crush_losses();
}

// Figures of q's colour in camp or on assignments ("but not under the oak").
int State::band(int q) const {
  int total = get(b().camp, q) + row_sum(b().places, q);
  for (int a = 0; a < NUM_AMBUSHES; ++a) total += get(b().ambush_outlaws, a, q);
  return total;
}

// "Loss of fame points ... One cannot fall back further than zero"; "Loss of outlaws: ... at
// least four outlaws" in a band (lost outlaws go under the oak); then the return to camp,
// except those a forest cloak keeps there.
void State::crush_losses() {
  const Blocks &B = b();
  const CloakQuestions c = *crush;
  const int amb = c.ambush;
  const Card &card = tab().card(coach->card);
  std::vector<int> stays;
  for (int q : c.order) {
    const bool *stay = find_in(c.cloaks, q);
    if (stay && *stay) stays.push_back(q);
  }
  for (int q : c.order) {
    if (find_in(c.cloaks, q)) continue;
    at(B.fame, q) = static_cast<int16_t>(std::max(0, get(B.fame, q) - card.fame_loss));
    const int lost = std::max(0, std::min({card.outlaw_loss, static_cast<int>(get(B.ambush_outlaws, amb, q)),
                                           band(q) - MIN_BAND}));
    bump(B.ambush_outlaws, amb, q, -lost);
    bump(B.oak, q, lost);
  }
  leave_ambush(amb, c.order, stays);
  crush.reset();
  drive_on();
}

}  // namespace forest::sherwood
