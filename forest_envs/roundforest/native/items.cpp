// Roundforest, "Blue colour chip: draw an item, then keep, trade or drop it", "Yellow colour
// chip", "Item tokens", and the treasure chest of "Meeting the Forest Spirit" (the Python
// rules' items module). The item in hand is the pending decision's; drawn_item shows it.
#include "state.hpp"

namespace forest::roundforest {

using native::Decision;

void State::hold(int kind_, int p, int k) {
  at(b().drawn_item, 0) = static_cast<int16_t>(k);
  replace(kind_, p, {k});
}

void State::put_down() { at(b().drawn_item, 0) = NO_ITEM; }

// --- the fairy board ------------------------------------------------------------------------
void State::fill_fairy_row(int r) {
  for (int s = 0; s < FAIRY_SLOTS; ++s) at(b().fairy, r, s) = static_cast<int16_t>(draw_item());
}

bool State::can_pay_fairy(int p, int r) const {
  const int cost = FAIRY_COST[static_cast<size_t>(r)];
  const int copper = get(b().copper, p);
  return cost == 0 || copper >= cost || (copper == 0 && get(b().silver, p) > 0);
}

void State::mask_trades(int p, int8_t *mask) const {
  for (int r = 0; r < FAIRY_ROWS; ++r) {
    if (!can_pay_fairy(p, r)) continue;
    for (int s = 0; s < FAIRY_SLOTS; ++s) {
      const int k = get(b().fairy, r, s);
      if (k >= 0 && (fits(p, k) || can_exchange(k))) mask[acts().trade.id(r, s)] = 1;
    }
  }
}

// c. Trade with the Fairy: pay, take, slide, refill, the rest of the row back in the bag.
void State::trade(int p, int a) {
  const Blocks &B = b();
  const int r = acts().trade.first(a), s = acts().trade.second(a);
  const int cost = FAIRY_COST[static_cast<size_t>(r)];
  if (cost) {
    if (get(B.copper, p) >= cost) {
      at(B.copper, p) -= static_cast<int16_t>(cost);
      at(B.supply, COPPER) += static_cast<int16_t>(cost);
    } else {  // silver from a player without copper: the fairy keeps the change
      at(B.silver, p) -= 1;
      at(B.supply, SILVER) += 1;
    }
  }
  const int k = get(B.fairy, r, s);
  at(B.fairy, r, s) = NO_ITEM;
  std::array<int, FAIRY_SLOTS> removed{};
  int count = 0;
  for (int i = 0; i < FAIRY_SLOTS; ++i)
    if (get(B.fairy, r, i) >= 0) removed[static_cast<size_t>(count++)] = get(B.fairy, r, i);
  for (int rr = r; rr > 0; --rr)
    for (int i = 0; i < FAIRY_SLOTS; ++i) at(B.fairy, rr, i) = get(B.fairy, rr - 1, i);
  fill_fairy_row(0);
  for (int i = 0; i < count; ++i) at(B.bag_items, removed[static_cast<size_t>(i)]) += 1;
  receive(p, k);
}

// A traded token or the Prince's choice; a coin token may be exchanged at once or kept.
void State::receive(int p, int k) {
  const bool keep = fits(p, k), swap = can_exchange(k);
  if (keep && swap) {
    hold(kind::COIN_TOKEN, p, k);
    return;
  }
  if (swap)
    exchange(p, k);
  else
    at(b().backpack, p, k) += 1;
  end_action();
}

void State::apply_coin_token(const Decision &d, int a) {
  const int p = d.player, k = d[0];
  put_down();
  if (a == acts().exchange.start)
    exchange(p, k);
  else
    at(b().backpack, p, k) += 1;
  end_action();
}

// --- the treasure chest ------------------------------------------------------------------------
bool State::can_open_chest(int p) const {
  const Blocks &B = b();
  return get(B.backpack, p, CHEST) && get(B.backpack, p, KEY) && get(B.supply, APPLES) > 0;
}

void State::apply_chest(const Decision &d, int a) {
  const Blocks &B = b();
  const int p = d.player;
  const bool at_end = d[0] != 0;
  if (a == acts().open_chest.start) {
    at(B.backpack, p, CHEST) -= 1;
    at(B.backpack, p, KEY) -= 1;
    at(B.bag_items, CHEST) += 1;
    at(B.bag_items, KEY) += 1;
    give_apple(p);
  }
  if (at_end)
    after_chest();
  else
    replace(blockade_options(p) ? kind::BLOCKADE_START : kind::TURN, p);
}

// --- an item in hand: keep, exchange, leave or trade ---------------------------------------------
void State::mask_item_choice(int p, int k, int8_t *mask) const {
  const Actions &A = acts();
  mask[A.keep.start] = fits(p, k) ? 1 : 0;
  mask[A.exchange.start] = can_exchange(k) ? 1 : 0;
  mask[A.drop.start] = 1;
  mask_trades(p, mask);
}

void State::apply_drawn(const Decision &d, int a) {
  const Actions &A = acts();
  const Blocks &B = b();
  const int p = d.player, k = d[0];
  put_down();
  if (A.trade.contains(a)) {
    at(B.bag_items, k) += 1;
    trade(p, a);
    return;
  }
  if (a == A.keep.start)
    at(B.backpack, p, k) += 1;
  else if (a == A.exchange.start)
    exchange(p, k);
  else
    at(B.cell_item, pos[static_cast<size_t>(p)]) = static_cast<int16_t>(k);
  end_action();
}

void State::apply_token_item(const Decision &d, int a) {
  const Actions &A = acts();
  const Blocks &B = b();
  const int cell = d[0], p = d.player;
  const int k = get(B.cell_item, cell);
  if (a != A.drop.start) {
    at(B.cell_item, cell) = NO_ITEM;
    if (a == A.keep.start) {
      at(B.backpack, p, k) += 1;
    } else if (a == A.exchange.start) {
      exchange(p, k);
    } else {
      at(B.bag_items, k) += 1;
      trade(p, a);
      return;
    }
  }
  end_action();
}

// --- yellow: a yellow chip's item goes to another tile --------------------------------------------
Cells State::yellow_targets(int p) const {
  const int here = pos[static_cast<size_t>(p)];
  for (int c : {YELLOW, BLUE}) {
    Cells ok = 0;
    for (int cell = 0; cell < NUM_CELLS; ++cell)
      if (get(b().cell_chip, cell, c) && cell != here) ok |= Cells{1} << cell;
    if (ok) return ok;
  }
  return 0;
}

void State::apply_yellow(const Decision &d, int a) {
  const int cell = a - acts().tile.start;
  use_chip(cell);
  at(b().cell_item, cell) = d[0];
  put_down();
  end_action();
}

}  // namespace forest::roundforest
