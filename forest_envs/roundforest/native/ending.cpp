// Roundforest, "Goal", "Meeting the Forest Spirit" (its appearance) and "End of the Game", and
// the ranks (the Python rules' ending module).
#include "state.hpp"

#include <tuple>

#include "../../core/native/results.hpp"

namespace forest::roundforest {

using native::Decision;

// "they must no longer be in debt to any character, and they must have collected 3 golden
// apples".
bool State::qualified(int p) const {
  if (get(b().apples, p) < APPLES_TO_WIN) return false;
  for (int c = 0; c < NUM_CHARACTERS; ++c)
    if (get(b().debts, p, c)) return false;
  return true;
}

bool State::spirit_on_forest() const {
  for (int cell = 0; cell < NUM_CELLS; ++cell)
    if (get(b().cell_char, cell) == SPIRIT) return true;
  return false;
}

// Tiles the Forest Spirit may be placed on: a red chip's, else a blue chip's, else any chip's,
// else any tile without a piece, token or well (the project's reading: rules/ending.py).
Cells State::spirit_cells() const {
  const Blocks &B = b();
  for (int c : {RED, BLUE}) {
    Cells ok = 0;
    for (int cell = 0; cell < NUM_CELLS; ++cell)
      if (get(B.cell_chip, cell, c)) ok |= Cells{1} << cell;
    if (ok) return ok;
  }
  Cells ok = 0;
  for (int cell = 0; cell < NUM_CELLS; ++cell)
    if (get(B.cell_chip, cell, NO_CHIP) == 0 && tab().is_tile[static_cast<size_t>(cell)]) ok |= Cells{1} << cell;
  if (ok) return ok;
  Cells free = 0;
  for (int cell = 0; cell < NUM_CELLS; ++cell)
    if (tab().is_tile[static_cast<size_t>(cell)] && get(B.cell_item, cell) < 0 && get(B.cell_char, cell) < 0 &&
        get(B.cell_well, cell) == 0)
      free |= Cells{1} << cell;
  for (int8_t c : pos) free &= ~(Cells{1} << c);
  return free;
}

// "That colour chip is placed on the side beside the playing area".
void State::apply_spirit_place(const Decision &, int a) {
  const int cell = a - acts().tile.start;
  use_chip(cell);
  at(b().cell_char, cell) = SPIRIT;
  end_action();
}

// The Emerald Ring for 3 golden apples: the game ends.
void State::win(int p) {
  const Blocks &B = b();
  at(B.apples, p) -= APPLES_TO_WIN;
  at(B.supply, APPLES) += APPLES_TO_WIN;
  at(B.winner, p) = 1;
  end_game();
}

// competition ranks over (winner, apples, -debts, coins, items): EndingRules.ranks
std::vector<int> State::ranks() const {
  const Blocks &B = b();
  const int n = num_players();
  std::vector<std::tuple<int, int, int, int, int>> keys;
  for (int p = 0; p < n; ++p) {
    int debts = 0;
    for (int c = 0; c < NUM_CHARACTERS; ++c) debts += get(B.debts, p, c);
    keys.emplace_back(get(B.winner, p) != 0, get(B.apples, p), -debts,
                      get(B.copper, p) + SILVER_IN_COPPER * get(B.silver, p), items_of(p));
  }
  return native::competition_ranks(keys);
}

}  // namespace forest::roundforest
