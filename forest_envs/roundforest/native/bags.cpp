// Roundforest: the table's components in play, colour chips from the black bag, item tokens
// from the blue bag, the backpacks, coins and golden apples from the supply (the Python rules'
// bags module). Every draw is made at the moment of drawing, from the state's generator.
#include "state.hpp"

namespace forest::roundforest {

// The colour chip on ``cell`` (NO_CHIP, BLUE, YELLOW or RED): the argmax of its one-hot row.
int State::chip(int cell) const {
  const int16_t *r = row(b().cell_chip) + cell * 4;
  int best = 0;
  for (int i = 1; i < 4; ++i)
    if (r[i] > r[best]) best = i;
  return best;
}

void State::set_chip(int cell, int c) {
  int16_t *r = row(b().cell_chip) + cell * 4;
  std::fill(r, r + 4, int16_t{0});
  r[c] = 1;
}

// A chip leaves its tile for the pile beside the playing area.
void State::use_chip(int cell) {
  const int c = chip(cell);
  if (c) {
    at(b().used_chips, c - 1) += 1;
    set_chip(cell, NO_CHIP);
  }
}

// One token at random from a bag held as counts by kind, taken out; its kind, or -1 when the
// bag is empty (no draw made).
int State::draw_counted(int16_t *bag, int kinds, native::Pcg64 &g) {
  int64_t total = 0;
  for (int k = 0; k < kinds; ++k) total += bag[k];
  if (total == 0) return -1;
  int64_t r = native::draw_integer(g, static_cast<uint64_t>(total));
  int k = 0;
  while (r >= bag[k]) {
    r -= bag[k];
    ++k;
  }
  bag[k] -= 1;
  return k;
}

// A random chip from the black bag; the used chips go back in only when it is empty.
int State::draw_chip() {
  const Blocks &B = b();
  int total = 0;
  for (int i = 0; i < NUM_CHIP_COLOURS; ++i) total += get(B.black_bag, i);
  if (total == 0)
    for (int i = 0; i < NUM_CHIP_COLOURS; ++i) {
      at(B.black_bag, i) += get(B.used_chips, i);
      at(B.used_chips, i) = 0;
    }
  const int i = draw_counted(row(B.black_bag), NUM_CHIP_COLOURS, rng);
  return i < 0 ? NO_CHIP : i + 1;
}

int State::draw_item() { return draw_counted(row(b().bag_items), NUM_ITEMS, rng); }

// Counts by kind of up to ``count`` tokens drawn at random from the bag, left in the bag.
std::array<int16_t, NUM_ITEMS> State::peek_items(native::Pcg64 &g, int count) const {
  std::array<int16_t, NUM_ITEMS> bag{}, out{};
  std::copy(row(b().bag_items), row(b().bag_items) + NUM_ITEMS, bag.begin());
  int total = 0;
  for (int16_t x : bag) total += x;
  const int draws = std::min(count, total);
  for (int i = 0; i < draws; ++i) {
    int64_t sum = 0;
    for (int16_t x : bag) sum += x;
    int64_t r = native::draw_integer(g, static_cast<uint64_t>(sum));
    int k = 0;
    while (r >= bag[static_cast<size_t>(k)]) {
      r -= bag[static_cast<size_t>(k)];
      ++k;
    }
    bag[static_cast<size_t>(k)] -= 1;
    out[static_cast<size_t>(k)] += 1;
  }
  return out;
}

int State::items_of(int p) const {
  const int16_t *bp = row(b().backpack) + p * NUM_ITEMS;
  int total = 0;
  for (int k = 0; k < NUM_ITEMS; ++k) total += bp[k];
  return total;
}

int State::heavy_of(int p) const {
  const int16_t *bp = row(b().backpack) + p * NUM_ITEMS;
  int total = 0;
  for (int k = 0; k < NUM_HEAVY; ++k) total += bp[k];
  return total;
}

// "A backpack has room for at most 3 items, of which at most one may be heavy".
bool State::fits(int p, int k) const {
  return items_of(p) < BACKPACK_ITEMS && !(is_heavy(k) && heavy_of(p) >= BACKPACK_HEAVY);
}

// Token k shows a coin that the supply still has.
bool State::can_exchange(int k) const {
  return is_coin_token(k) && get(b().supply, k == COPPER_TOKEN ? COPPER : SILVER) > 0;
}

// Coin token k for its coin from the supply; the token goes back into the bag.
void State::exchange(int p, int k) {
  const Blocks &B = b();
  const int which = k == COPPER_TOKEN ? COPPER : SILVER;
  at(B.supply, which) -= 1;
  at(which == COPPER ? B.copper : B.silver, p) += 1;
  at(B.bag_items, k) += 1;
}

// A golden apple from the supply, if one is left.
void State::give_apple(int p) {
  const Blocks &B = b();
  if (get(B.supply, APPLES) > 0) {
    at(B.supply, APPLES) -= 1;
    at(B.apples, p) += 1;
  }
}

}  // namespace forest::roundforest
