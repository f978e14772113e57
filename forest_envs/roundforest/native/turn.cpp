// Roundforest, "Playing the Game": "a. Moving the playing piece" (the compass too), "b.
// Pausing", "1. Rotate the forest tile", "2. Fill the vacated forest tile", "3. Carry out the
// action", and the order of a turn (the Python rules' turn module).
#include "state.hpp"

namespace forest::roundforest {

using native::Decision;

// --- the pieces ---------------------------------------------------------------------------
void State::show_pieces() {
  fill(b().piece_at, 0);
  for (int p = 0; p < num_players(); ++p) at(b().piece_at, p, pos[static_cast<size_t>(p)]) = 1;
}

// p's piece goes to ``cell``; returns the cell it left.
int State::move_piece(int p, int cell) {
  const int src = pos[static_cast<size_t>(p)];
  at(b().piece_at, p, src) = 0;
  at(b().piece_at, p, cell) = 1;
  pos[static_cast<size_t>(p)] = static_cast<int8_t>(cell);
  return src;
}

// "Only one playing piece may stand on each forest tile".
bool State::occupied(int cell) const {
  for (int8_t c : pos)
    if (c == cell) return true;
  return false;
}

// --- the tiles ------------------------------------------------------------------------------
void State::show_tiles() {
  const Blocks &B = b();
  for (int cell : cfg().tile_cells) {
    const int t = get(B.cell_tile, cell);
    if (t < 0 || t >= NUM_TILES) throw native::BadInput("cell_tile: a tile cell without a tile");
    at(B.cell_turn, cell) = static_cast<int16_t>(cfg().tile_turn[static_cast<size_t>(t)]);
    show_open(cell);
  }
}

void State::show_open(int cell) {
  const Blocks &B = b();
  const int t = get(B.cell_tile, cell), o = get(B.cell_orient, cell);
  const unsigned bits = tab().open_bits[static_cast<size_t>(t)][static_cast<size_t>(o & 3)];
  int16_t *out = row(B.cell_open) + cell * 8;
  for (unsigned i = 0; i < 8; ++i) out[i] = static_cast<int16_t>(bits >> i & 1u);
}

// "1. Rotate the forest tile", unless a blockade holds it.
void State::rotate(int cell) {
  const Blocks &B = b();
  if (tab().is_tile[static_cast<size_t>(cell)] && !get(B.cell_blocked, cell)) {
    at(B.cell_orient, cell) = static_cast<int16_t>(((get(B.cell_orient, cell) + get(B.cell_turn, cell)) % 4 + 4) % 4);
    show_open(cell);
  }
}

// "2. Fill the vacated forest tile", unless a well, a token or a chip is there.
void State::refill(int cell) {
  const Blocks &B = b();
  if (tab().is_tile[static_cast<size_t>(cell)] && !get(B.cell_well, cell) && get(B.cell_item, cell) < 0 &&
      get(B.cell_char, cell) < 0 && chip(cell) == NO_CHIP)
    set_chip(cell, draw_chip());
}

// --- where a piece may go ----------------------------------------------------------------------
bool State::can_enter(int p, int cell) const {
  const Blocks &B = b();
  if (!tab().is_tile[static_cast<size_t>(cell)] || occupied(cell)) return false;
  if (get(B.cell_item, cell) >= 0 && items_of(p) >= BACKPACK_ITEMS) return false;
  const int c = get(B.cell_char, cell);
  if (c >= 0) return can_meet(p, c);
  return true;
}

// (normal moves, moves that need a compass) for p now.
void State::move_targets(int p, Cells &normal, Cells &wider) const {
  const Blocks &B = b();
  const int cell = pos[static_cast<size_t>(p)];
  Cells base = 0, more = 0;
  if (!tab().is_tile[static_cast<size_t>(cell)]) {
    for (int t : cfg().starts[static_cast<size_t>(p)]) base |= Cells{1} << t;
  } else {
    const int t = get(B.cell_tile, cell), o = get(B.cell_orient, cell);
    base = tab().targets(cell, tab().open_bits[static_cast<size_t>(t)][static_cast<size_t>(o & 3)]);
    if (get(B.compasses, p) > 0) more = tab().compass_cells[static_cast<size_t>(cell)] & ~base;
  }
  const bool full = items_of(p) >= BACKPACK_ITEMS;
  auto ok = [&](int t) {
    if (occupied(t) || (full && get(B.cell_item, t) >= 0)) return false;
    const int c = get(B.cell_char, t);
    return c < 0 || can_meet(p, c);
  };
  normal = wider = 0;
  for (Cells f = base; f; f &= f - 1)
    if (ok(std::countr_zero(f))) normal |= f & -f;
  for (Cells f = more; f; f &= f - 1)
    if (ok(std::countr_zero(f))) wider |= f & -f;
}

// --- the order of a turn ----------------------------------------------------------------------
void State::start_turn(int p) {
  at(b().blockade_used, 0) = 0;
  if (can_open_chest(p))
    next_turn(kind::CHEST, p, {0});
  else
    next_turn(blockade_options(p) ? kind::BLOCKADE_START : kind::TURN, p);
}

void State::end_action() {
  const int p = turn;
  if (can_open_chest(p)) {
    replace(kind::CHEST, p, {1});
    return;
  }
  after_chest();
}

void State::after_chest() {
  const Blocks &B = b();
  const int n = num_players();
  int most = 0;
  for (int p = 0; p < n; ++p) most = std::max(most, static_cast<int>(get(B.apples, p)));
  if (most >= APPLES_TO_WIN && !spirit_on_forest() && spirit_cells() != 0) {
    for (int i = 0; i < n; ++i) {
      const int q = (turn + i) % n;
      if (qualified(q)) {
        replace(kind::SPIRIT_PLACE, (q + 1) % n, {q});
        return;
      }
    }
  }
  if (blockade_options(turn)) {
    replace(kind::BLOCKADE_END, turn);
    return;
  }
  next_player();
}

void State::next_player() {
  const int q = (turn + 1) % num_players();
  if (q == 0 && get(b().round_no, 0) < ROUND_CAP) at(b().round_no, 0) += 1;
  start_turn(q);
}

// --- the turn decision: move, compass or pause -----------------------------------------------
void State::mask_turn(const Decision &d, int8_t *mask) const {
  const int p = d.player;
  Cells moves, compass;
  move_targets(p, moves, compass);
  const Actions &A = acts();
  write_cells(moves, mask + A.move.start);
  write_cells(compass, mask + A.compass.start);
  mask[A.pause.start] = tab().is_tile[static_cast<size_t>(pos[static_cast<size_t>(p)])] || moves == 0 ? 1 : 0;
}

std::string State::why_turn(const Decision &d, int a) const {
  const Actions &A = acts();
  const Blocks &B = b();
  if (A.move.contains(a) || A.compass.contains(a)) {
    const int t = a - (A.move.contains(a) ? A.move.start : A.compass.start);
    const std::string &name = cfg().cell_names[static_cast<size_t>(t)];
    if (!tab().is_tile[static_cast<size_t>(t)]) return name + " is not a forest tile";
    if (occupied(t)) return "another piece stands on " + name;
    if (get(B.cell_item, t) >= 0 && items_of(d.player) >= BACKPACK_ITEMS)
      return name + " holds an item token and the backpack is full";
    const int c = get(B.cell_char, t);
    if (c >= 0 && !can_meet(d.player, c))
      return "the " + cfg().character_names[static_cast<size_t>(c)] + " on " + name +
             " can be met only to use its ability or fulfil its task";
    if (A.compass.contains(a) && get(B.compasses, d.player) == 0) return "no compass token is left";
    return "the octagons of the current tile do not lead to " + name;
  }
  if (a == A.pause.start)
    return "a piece still in its backpack stands on no forest tile to remain on: it must move onto an adjacent "
           "tile (it waits only when both are barred)";
  return "";
}

void State::apply_turn(const Decision &d, int a) {
  const Actions &A = acts();
  const int p = d.player;
  if (a == A.pause.start) {
    rotate(pos[static_cast<size_t>(p)]);
    end_action();
    return;
  }
  int target;
  if (A.compass.contains(a)) {
    at(b().compasses, p) -= 1;
    target = a - A.compass.start;
  } else {
    target = a - A.move.start;
  }
  const int src = move_piece(p, target);
  rotate(target);
  refill(src);
  arrive(p, target);
}

// --- "3. Carry out the action" ------------------------------------------------------------------
void State::arrive(int p, int cell) {
  const Blocks &B = b();
  if (get(B.cell_well, cell)) {
    const auto options = well_options(p);
    if (options[0] || options[1] || options[2])
      replace(kind::WELL, p);
    else
      end_action();
    return;
  }
  if (get(B.cell_item, cell) >= 0) {
    replace(kind::TOKEN_ITEM, p, {cell});
    return;
  }
  const int c = get(B.cell_char, cell);
  if (c >= 0) {
    meet(p, c, cell);
    return;
  }
  chip_action(p, cell);
}

void State::chip_action(int p, int cell) {
  const int c = chip(cell);
  if (c == NO_CHIP) {
    end_action();
    return;
  }
  use_chip(cell);
  if (c == RED) {
    if (pile.empty()) {
      end_action();
      return;
    }
    resolve_card(p, draw_card(), 0);
    return;
  }
  const int k = draw_item();
  if (k < 0) {  // an empty blue bag: the chip is used up and gives nothing
    end_action();
    return;
  }
  if (c == BLUE) {
    hold(kind::DRAWN, p, k);
    return;
  }
  if (yellow_targets(p) == 0) {  // nowhere to place it: back into the bag
    at(b().bag_items, k) += 1;
    end_action();
    return;
  }
  hold(kind::YELLOW, p, k);
}

}  // namespace forest::roundforest
