// Roundforest, "Setting and removing a blockade (optional!)": a heavy item set in a gap between
// tiles stops the tiles around it from turning (the Python rules' blockade module).
#include "state.hpp"

namespace forest::roundforest {

using native::Decision;

bool State::blockade_options(int p) const {
  if (!cfg().blockade || get(b().blockade_used, 0)) return false;
  // blockade_gaps without its arrays: a usable gap to set (p carries a heavy item: an empty
  // one) or to take (room and no heavy item: a blockaded one)
  const int heavy = heavy_of(p);
  const bool room = heavy < BACKPACK_HEAVY && items_of(p) < BACKPACK_ITEMS;
  if (heavy == 0 && !room) return false;
  for (int g = 0; g < NUM_GAPS; ++g) {
    if (!tab().gap_usable[static_cast<size_t>(g)]) continue;
    const bool empty = get(b().gap_item, g) < 0;
    if ((heavy > 0 && empty) || (room && !empty)) return true;
  }
  return false;
}

// Gaps where p may set a blockade (p carries a heavy item: an empty gap) and gaps whose
// blockade p may take (room in the backpack and no heavy item yet).
void State::blockade_gaps(int p, std::array<bool, NUM_GAPS> &setting, std::array<bool, NUM_GAPS> &taking) const {
  const int heavy = heavy_of(p);
  const bool room = heavy < BACKPACK_HEAVY && items_of(p) < BACKPACK_ITEMS;
  for (int g = 0; g < NUM_GAPS; ++g) {
    const bool usable = tab().gap_usable[static_cast<size_t>(g)], empty = get(b().gap_item, g) < 0;
    setting[static_cast<size_t>(g)] = heavy > 0 && usable && empty;
    taking[static_cast<size_t>(g)] = room && usable && !empty;
  }
}

// Gap g now holds item k (NO_ITEM: none); the tiles around it show the change.
void State::set_gap(int g, int k) {
  const int step = static_cast<int>(k >= 0) - static_cast<int>(get(b().gap_item, g) >= 0);
  at(b().gap_item, g) = static_cast<int16_t>(k);
  for (int cell : cfg().gap_cells[static_cast<size_t>(g)]) at(b().cell_blocked, cell) += static_cast<int16_t>(step);
}

void State::mask_blockade(const Decision &d, int8_t *mask) const {
  std::array<bool, NUM_GAPS> setting{}, taking{};
  blockade_gaps(d.player, setting, taking);
  const Actions &A = acts();
  for (int g = 0; g < NUM_GAPS; ++g) {
    mask[A.gap_set.start + g] = setting[static_cast<size_t>(g)] ? 1 : 0;
    mask[A.gap_take.start + g] = taking[static_cast<size_t>(g)] ? 1 : 0;
  }
  mask[A.done.start] = 1;
}

void State::blockade_act(int p, int a) {
  const Actions &A = acts();
  const Blocks &B = b();
  if (A.gap_set.contains(a)) {
    int k = 0;
    while (k < NUM_HEAVY && !get(B.backpack, p, k)) ++k;
    if (k == NUM_HEAVY) throw std::logic_error("a blockade set without a heavy item");
    at(B.backpack, p, k) -= 1;
    set_gap(a - A.gap_set.start, k);
    at(B.blockade_used, 0) = 1;
  } else if (A.gap_take.contains(a)) {
    const int g = a - A.gap_take.start;
    at(B.backpack, p, get(B.gap_item, g)) += 1;
    set_gap(g, NO_ITEM);
    at(B.blockade_used, 0) = 1;
  }
}

}  // namespace forest::roundforest
