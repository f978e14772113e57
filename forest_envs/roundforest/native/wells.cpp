// Roundforest, "Magic well": 2 items for 2 copper, 3 copper for 1 silver, 1 silver for 1
// golden apple, or nothing (the Python rules' wells module).
#include "state.hpp"

namespace forest::roundforest {

using native::Decision;

std::array<bool, 3> State::well_options(int p) const {
  const Blocks &B = b();
  return {items_of(p) >= WELL_ITEMS_IN && get(B.supply, COPPER) >= WELL_COPPER_OUT,
          get(B.copper, p) >= WELL_COPPER_IN && get(B.supply, SILVER) > 0,
          get(B.silver, p) >= 1 && get(B.supply, APPLES) > 0};
}

void State::mask_well(const Decision &d, int8_t *mask) const {
  const auto options = well_options(d.player);
  const Actions &A = acts();
  mask[A.well_items.start] = options[0] ? 1 : 0;
  mask[A.well_copper.start] = options[1] ? 1 : 0;
  mask[A.well_silver.start] = options[2] ? 1 : 0;
  mask[A.well_none.start] = 1;
}

void State::apply_well(const Decision &d, int a) {
  const Actions &A = acts();
  const Blocks &B = b();
  const int p = d.player;
  if (a == A.well_items.start) {
    replace(kind::WELL_GIVE, p, {WELL_ITEMS_IN});
    return;
  }
  if (a == A.well_copper.start) {
    at(B.copper, p) -= WELL_COPPER_IN;
    at(B.supply, COPPER) += WELL_COPPER_IN;
    at(B.supply, SILVER) -= 1;
    at(B.silver, p) += 1;
  } else if (a == A.well_silver.start) {
    at(B.silver, p) -= 1;
    at(B.supply, SILVER) += 1;
    give_apple(p);
  }
  end_action();
}

void State::mask_well_give(const Decision &d, int8_t *mask) const {
  const int16_t *bp = row(b().backpack) + d.player * NUM_ITEMS;
  for (int k = 0; k < NUM_ITEMS; ++k) mask[acts().item.id(k)] = bp[k] > 0 ? 1 : 0;
}

void State::apply_well_give(const Decision &d, int a) {
  const Blocks &B = b();
  const int p = d.player, left = d[0] - 1;
  const int k = a - acts().item.start;
  at(B.backpack, p, k) -= 1;
  at(B.bag_items, k) += 1;
  if (left) {
    replace(kind::WELL_GIVE, p, {left});
    return;
  }
  at(B.supply, COPPER) -= WELL_COPPER_OUT;
  at(B.copper, p) += WELL_COPPER_OUT;
  end_action();
}

}  // namespace forest::roundforest
