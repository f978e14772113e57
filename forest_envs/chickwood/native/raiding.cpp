// Chickwood Forest, "Sequence of Play: 2. Steal the Loot" and "3. Give Alms", with the key
// (Legendary variant) (the Python rules' raiding module).
#include "state.hpp"

namespace forest::chickwood {

using native::Decision;

void State::begin_raids() {
  step = 0;
  next_turn(kind::RAID, order[0]);
}

bool State::raidable(int c) const {
  const Blocks &B = b();
  if (!get(B.castle_in_play, c) || get(B.key_blocked, c)) return false;
  for (int p = 0; p < num_players(); ++p)
    if (get(B.castle_raided_by, c, p)) return false;
  return true;
}

void State::mask_raid(const Decision &, int8_t *mask) const {
  for (int c = 0; c < MAX_CASTLE; ++c) mask[acts().raid.id(c)] = raidable(c) ? 1 : 0;
}

void State::apply_raid(const Decision &d, int a) {
  const int raider = d.player, c = acts().raid.first(a);
  const int key_holder = holder(KEY);
  if (key_holder >= 0 && key_holder != raider)
    push(kind::KEY, key_holder, {c, raider});
  else
    raid(raider, c);
}

// --- the key -------------------------------------------------------------------------------
void State::apply_key(const Decision &d, int a) {
  const int castle = d[0], raider = d[1];
  pop();
  if (a == acts().key_use.start) {
    at(b().collection, d.player, KEY) -= 1;
    at(b().box, KEY) += 1;
    at(b().key_blocked, castle) = 1;
  } else {
    raid(raider, castle);
  }
}

void State::raid(int p, int c) {
  const Blocks &B = b();
  const int n = num_players();
  if (get(B.pile_left, c) > 0) {
    at(B.pile_left, c) -= 1;
    at(B.castles_held, p, c) += 1;
  }
  // An exhausted pile leaves its place on the table: its raider takes the loot and that
  // place's value for turn order and banner, but no castle card (docs/chickwood.md).
  for (int v = 0; v < MAX_CASTLE; ++v) at(B.player_castle, p, v) = 0;
  at(B.player_castle, p, c) = 1;
  at(B.castle_raided_by, c, p) = 1;
  at(B.has_raided, p) = 1;
  raids[static_cast<size_t>(p)].push_back(static_cast<int8_t>(c + 1));
  fill(B.key_blocked, 0);
  std::array<int, NUM_KINDS> loot{};
  for (int k = 0; k < NUM_KINDS; ++k) {
    int total = get(B.castle_faceup, c, k);
    for (int o = 0; o < n; ++o) total += get(B.fd_own, o, c, k);
    loot[static_cast<size_t>(k)] = total;
  }
  clear_castle(c);
  int alms = 0;
  for (int i = 0; i < 3; ++i) {
    const int k = BENEFACTOR0 + i;
    alms += loot[static_cast<size_t>(k)] * BENEFACTOR_VALUE[static_cast<size_t>(i)];
    at(B.discard_public, k) += static_cast<int16_t>(loot[static_cast<size_t>(k)]);
    loot[static_cast<size_t>(k)] = 0;
  }
  for (int k = 0; k < NUM_KINDS; ++k) at(B.collection, p, k) += static_cast<int16_t>(loot[static_cast<size_t>(k)]);
  const int gives = std::min(alms, static_cast<int>(get(B.alms_left, p)));
  bool free_space = false;
  for (int cell = 0; cell < MAX_CELLS; ++cell) free_space = free_space || get(B.cell_filled, cell) < cell_spaces(cell);
  if (gives > 0 && free_space)
    replace(kind::ALMS, p, {gives, NO_LAST_CELL});
  else
    next_raider();
}

void State::next_raider() {
  step += 1;
  if (step < num_players())
    next_turn(kind::RAID, order[static_cast<size_t>(step)]);
  else
    end_round();
}

// --- the alms snake --------------------------------------------------------------------------
// A village with a free space, not given to by this snake, next to the last one (any
// village before the first alms: NO_LAST_CELL).
bool State::alms_target(int last, int cell) const {
  const Blocks &B = b();
  return get(B.cell_filled, cell) < cell_spaces(cell) && get(B.snake_visited, cell) == 0 &&
         cfg().adjacent[static_cast<size_t>(last)][static_cast<size_t>(cell)];
}

bool State::any_alms_target(int last) const {
  for (int cell = 0; cell < MAX_CELLS; ++cell)
    if (alms_target(last, cell)) return true;
  return false;
}

void State::mask_alms(const Decision &d, int8_t *mask) const {
  const int last_cell = d[1];
  for (int cell = 0; cell < MAX_CELLS; ++cell) mask[acts().alms.id(cell)] = alms_target(last_cell, cell) ? 1 : 0;
}

// One alms of player p into the cell's first free space.
void State::put_alms(int cell, int p) {
  const Blocks &B = b();
  const int space = get(B.cell_filled, cell);
  at(B.alms_owner, cell, space, p) = 1;
  at(B.cell_filled, cell) += 1;
  at(B.alms_count, cell, p) += 1;
  at(B.alms_left, p) -= 1;
}

void State::apply_alms(const Decision &d, int a) {
  const int alms_left = d[0];
  const int cell = acts().alms.first(a), p = d.player, left = alms_left - 1;
  put_alms(cell, p);
  at(b().snake_visited, cell) = 1;
  if (left > 0 && any_alms_target(cell)) {
    replace(kind::ALMS, p, {left, cell});
  } else {
    fill(b().snake_visited, 0);
    next_raider();
  }
}

}  // namespace forest::chickwood
