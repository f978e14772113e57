// Roundforest, "Helpful characters": the Prince, the Merchant, the Goblin, the Beggar, the
// Unicorn (with the saddle) and the Forest Spirit met on its token (the Python rules'
// helpful_characters module).
#include "state.hpp"

namespace forest::roundforest {

using native::Decision;

bool State::can_use(int p, int c) const {
  const Blocks &B = b();
  switch (c) {
    case PRINCE: {
      int bag = 0;
      for (int k = 0; k < NUM_ITEMS; ++k) bag += get(B.bag_items, k);
      return items_of(p) < BACKPACK_ITEMS && bag > 0;
    }
    case MERCHANT:
      return (items_of(p) > 0 && get(B.supply, COPPER) > 0) || (get(B.silver, p) > 0 && get(B.supply, APPLES) > 0);
    case GOBLIN: return any_goblin_pair(p);
    case BEGGAR: {
      if (get(B.copper, p) < BEGGAR_FEE) return false;
      for (int8_t x : pile)
        if (x != BEGGAR) return true;
      return false;
    }
    case UNICORN: return unicorn_cells(p) != 0;
    case SPIRIT: return qualified(p);
    default: return false;
  }
}

// Helper c's ability begins (its card is already back in the pile).
void State::start_ability(int p, int c) {
  const Blocks &B = b();
  switch (c) {
    case SPIRIT: win(p); return;
    case PRINCE: {
      // The three tokens are looked at in secret; until one is chosen they count as still in
      // the bag, so the public bag count reveals nothing of them.
      const auto drawn = peek_items(rng, PRINCE_DRAWS);
      int16_t *mine = row(B.prince_items) + p * NUM_ITEMS;
      std::copy(drawn.begin(), drawn.end(), mine);
      bool any = false;
      for (int k = 0; k < NUM_ITEMS; ++k)
        if (mine[k] && fits(p, k)) any = true;
      if (any) {
        replace(kind::PRINCE, p);
      } else {
        std::fill(mine, mine + NUM_ITEMS, int16_t{0});
        end_action();
      }
      return;
    }
    case MERCHANT: replace(kind::MERCHANT, p, {0}); return;
    case GOBLIN: replace(kind::GOBLIN_GIVE, p); return;
    case BEGGAR:
      at(B.copper, p) -= BEGGAR_FEE;
      at(B.supply, COPPER) += BEGGAR_FEE;
      replace(kind::BEGGAR, p);
      return;
    case UNICORN: replace(kind::UNICORN, p); return;
    default: return;
  }
}

// --- the Prince -------------------------------------------------------------------------------
void State::mask_prince(const Decision &d, int8_t *mask) const {
  const int p = d.player;
  for (int k = 0; k < NUM_ITEMS; ++k)
    if (get(b().prince_items, p, k)) mask[acts().bag.id(k)] = fits(p, k) ? 1 : 0;
}

void State::apply_prince(const Decision &d, int a) {
  const int p = d.player, k = a - acts().bag.start;
  for (int i = 0; i < NUM_ITEMS; ++i) at(b().prince_items, p, i) = 0;
  at(b().bag_items, k) -= 1;
  receive(p, k);
}

// --- the Merchant -----------------------------------------------------------------------------
void State::mask_merchant(const Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  const Actions &A = acts();
  const int p = d.player, sold = d[0];
  if (sold < MERCHANT_MAX_SALES && get(B.supply, COPPER) > 0)
    for (int k = 0; k < NUM_ITEMS; ++k) mask[A.item.id(k)] = get(B.backpack, p, k) > 0 ? 1 : 0;
  if (sold == 0 && get(B.silver, p) > 0 && get(B.supply, APPLES) > 0) mask[A.merchant_apple.start] = 1;
  if (sold > 0) mask[A.done.start] = 1;
}

void State::apply_merchant(const Decision &d, int a) {
  const Blocks &B = b();
  const Actions &A = acts();
  const int p = d.player;
  int sold = d[0];
  if (a == A.merchant_apple.start) {
    at(B.silver, p) -= 1;
    at(B.supply, SILVER) += 1;
    give_apple(p);
  } else if (A.item.contains(a)) {
    const int k = a - A.item.start;
    at(B.backpack, p, k) -= 1;
    at(B.bag_items, k) += 1;
    at(B.supply, COPPER) -= 1;
    at(B.copper, p) += 1;
    sold += 1;
    if (sold < MERCHANT_MAX_SALES && get(B.supply, COPPER) > 0 && items_of(p) > 0) {
      replace(kind::MERCHANT, p, {sold});
      return;
    }
  }
  end_action();
}

// --- the Goblin --------------------------------------------------------------------------------
// Whether some (given, taken) swap is allowed: a backpack item for a non-coin item from the
// bag, with at most one heavy item afterwards.
bool State::any_goblin_pair(int p) const {
  const Blocks &B = b();
  const int heavy = heavy_of(p);
  for (int g = 0; g < NUM_ITEMS; ++g) {
    if (!get(B.backpack, p, g)) continue;
    for (int k = 0; k < NUM_ITEMS; ++k) {
      if (is_coin_token(k) || k == g) continue;
      if (get(B.bag_items, k) && heavy - is_heavy(g) + is_heavy(k) <= BACKPACK_HEAVY) return true;
    }
  }
  return false;
}

void State::mask_goblin_give(const Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  const int p = d.player, heavy = heavy_of(p);
  for (int g = 0; g < NUM_ITEMS; ++g) {
    if (!get(B.backpack, p, g)) continue;
    for (int k = 0; k < NUM_ITEMS; ++k) {
      if (is_coin_token(k) || k == g) continue;
      if (get(B.bag_items, k) && heavy - is_heavy(g) + is_heavy(k) <= BACKPACK_HEAVY) {
        mask[acts().item.id(g)] = 1;
        break;
      }
    }
  }
}

void State::apply_goblin_give(const Decision &d, int a) {
  const int p = d.player, g = a - acts().item.start;
  at(b().backpack, p, g) -= 1;
  at(b().bag_items, g) += 1;
  replace(kind::GOBLIN_TAKE, p, {g});
}

void State::mask_goblin_take(const Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  const int p = d.player, heavy = heavy_of(p), given = d[0];
  for (int k = 0; k < NUM_ITEMS; ++k)
    if (!is_coin_token(k) && k != given && get(B.bag_items, k) > 0 && heavy + is_heavy(k) <= BACKPACK_HEAVY)
      mask[acts().bag.id(k)] = 1;
}

void State::apply_goblin_take(const Decision &d, int a) {
  const int p = d.player, k = a - acts().bag.start;
  at(b().bag_items, k) -= 1;
  at(b().backpack, p, k) += 1;
  end_action();
}

// --- the Beggar --------------------------------------------------------------------------------
void State::mask_beggar(const Decision &, int8_t *mask) const {
  for (int8_t c : pile)
    if (c != BEGGAR) mask[acts().character.id(c)] = 1;
}

void State::apply_beggar(const Decision &d, int a) {
  const int c = a - acts().character.start;
  take_card(c);
  resolve_card(d.player, c, 1);
}

// --- the Unicorn and the saddle -----------------------------------------------------------------
// Where the Unicorn may set p's piece: a free tile p could also enter by a move; with a saddle
// also a token's tile p may enter once the saddle is back in the bag.
Cells State::unicorn_cells(int p) const {
  const Blocks &B = b();
  const bool full = items_of(p) >= BACKPACK_ITEMS;
  Cells pieces = 0;
  for (int8_t c : pos) pieces |= Cells{1} << c;
  Cells free = 0, tokens = 0;
  for (int cell = 0; cell < NUM_CELLS; ++cell) {
    if (!tab().is_tile[static_cast<size_t>(cell)]) continue;
    const int item = get(B.cell_item, cell), ch = get(B.cell_char, cell);
    if (ch < 0 && !(full && item >= 0)) free |= Cells{1} << cell;
  }
  free &= ~pieces;
  if (!get(B.backpack, p, SADDLE)) return free;
  for (int cell = 0; cell < NUM_CELLS; ++cell) {
    if (!tab().is_tile[static_cast<size_t>(cell)] || (free >> cell & 1u)) continue;
    const int item = get(B.cell_item, cell), ch = get(B.cell_char, cell);
    if ((item >= 0 || ch >= 0) && ch != UNICORN) tokens |= Cells{1} << cell;
  }
  tokens &= ~pieces;
  if (!tokens) return free;
  // judged as after the saddle's return (restored below): the buffer is this state's own
  int16_t *backpack = mut(B.backpack) + p * NUM_ITEMS + SADDLE;
  int16_t *bag = mut(B.bag_items) + SADDLE;
  *backpack -= 1;
  *bag += 1;
  for (int cell = 0; cell < NUM_CELLS; ++cell)
    if (tokens >> cell & 1u) {
      if (can_enter(p, cell))
        free |= Cells{1} << cell;
      else
        free &= ~(Cells{1} << cell);
    }
  *backpack += 1;
  *bag -= 1;
  return free;
}

void State::apply_unicorn(const Decision &d, int a) {
  const Blocks &B = b();
  const int p = d.player, cell = a - acts().tile.start;
  const int src = move_piece(p, cell);
  refill(src);
  rotate(cell);
  if (get(B.backpack, p, SADDLE) && (chip(cell) || get(B.cell_item, cell) >= 0 || get(B.cell_char, cell) >= 0))
    replace(kind::SADDLE, p, {cell});
  else
    end_action();
}

void State::mask_saddle(const Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  const int p = d.player, cell = d[0];
  mask[acts().use.start] = 1;
  // keeping the saddle is standing on the tile without its action
  mask[acts().done.start] =
      get(B.cell_char, cell) < 0 && (get(B.cell_item, cell) < 0 || items_of(p) < BACKPACK_ITEMS) ? 1 : 0;
}

void State::apply_saddle(const Decision &d, int a) {
  const int p = d.player, cell = d[0];
  if (a == acts().use.start) {
    at(b().backpack, p, SADDLE) -= 1;
    at(b().bag_items, SADDLE) += 1;
    arrive(p, cell);  // the token's action, else the chip's (never a well here)
  } else {
    end_action();
  }
}

}  // namespace forest::roundforest
