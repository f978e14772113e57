// Roundforest: the setup, the dispatch by decision kind, the derived blocks and the checks of
// a state handed over from Python (the Python rules' state and game modules).
#include "state.hpp"

#include <algorithm>
#include <numeric>

namespace forest::roundforest {

using native::BadInput;
using native::Decision;

namespace {

void check_cells(const std::vector<int> &cells, const char *what) {
  for (int c : cells)
    if (c < 0 || c >= NUM_CELLS) throw BadInput(std::string(what) + ": a cell outside the frame");
}

void check_items(const std::vector<int> &items) {
  for (int k : items)
    if (k < 0 || k >= NUM_ITEMS) throw BadInput("a task names no item kind");
}

}  // namespace

Tables::Tables(std::shared_ptr<const native::CoreTables> core_, Config config_, const native::NameTable &a)
    : core(std::move(core_)), config(std::move(config_)) {
  const int n = core->num_players;
  const auto &c = config;
  if (c.num_players != n) throw BadInput("config and layout disagree on the number of players");
  if (c.grid < 3 || c.grid > MAX_GRID) throw BadInput("grid: the forest's side outside 3..6");
  check_cells(c.tile_cells, "tile_cells");
  check_cells(c.well_cells, "well_cells");
  check_cells(c.plain_cells, "plain_cells");
  check_cells(c.corner, "corner");
  if (static_cast<int>(c.corner.size()) != n || static_cast<int>(c.starts.size()) != n)
    throw BadInput("corner and starts need one entry per seat");
  for (const auto &s : c.starts) check_cells(s, "starts");
  if (static_cast<int>(c.gap_cells.size()) != NUM_GAPS) throw BadInput("gap_cells needs one entry per gap");
  for (const auto &g : c.gap_cells) check_cells(g, "gap_cells");
  if (static_cast<int>(c.items.size()) != NUM_ITEMS) throw BadInput("items needs one count per item kind");
  if (static_cast<int>(c.chips.size()) != NUM_CHIP_COLOURS) throw BadInput("chips needs one count per colour");
  if (static_cast<int>(c.tile_turn.size()) != NUM_TILES || static_cast<int>(c.tile_inner.size()) != NUM_TILES ||
      static_cast<int>(c.tile_outer.size()) != NUM_TILES)
    throw BadInput("the tiles need one entry each");
  for (int t = 0; t < NUM_TILES; ++t) {
    const auto &inner = c.tile_inner[static_cast<size_t>(t)], &outer = c.tile_outer[static_cast<size_t>(t)];
    if (inner.size() != 4 || outer.size() != 4) throw BadInput("a tile needs 4 sides");
    // open_sides: turned o quarters clockwise, side d shows printed side d - o
    for (int o = 0; o < 4; ++o) {
      unsigned bits = 0;
      for (int d = 0; d < 4; ++d) {
        const size_t printed = static_cast<size_t>((d - o + 4) % 4);
        if (inner[printed]) bits |= 1u << (2 * d);
        if (outer[printed]) bits |= 1u << (2 * d + 1);
      }
      open_bits[static_cast<size_t>(t)][static_cast<size_t>(o)] = static_cast<uint8_t>(bits);
    }
  }
  if (static_cast<int>(c.characters.size()) != NUM_CHARACTERS) throw BadInput("characters: one per card");
  for (const auto &ch : c.characters)
    for (const Task *t : {&ch.upper, &ch.lower}) {
      check_items(t->give);
      check_items(t->need);
      check_items(t->without);
      if (t->reward_item < -1 || t->reward_item >= NUM_ITEMS) throw BadInput("a task rewards no item kind");
    }
  if (static_cast<int>(c.near.size()) != MOVES_CAP) throw BadInput("near: one value per route length");
  for (size_t d = 0; d < near_value.size(); ++d) {
    if (c.near[d] < INT16_MIN || c.near[d] > INT16_MAX) throw BadInput("near: a value outside int16");
    near_value[d] = static_cast<int16_t>(c.near[d]);
  }
  for (int cell : c.well_cells) well_cells |= Cells{1} << cell;
  for (const auto &s : c.starts) {
    Cells cells = 0;
    for (int t : s) cells |= Cells{1} << t;
    start_cells.push_back(cells);
  }
  if (static_cast<int>(c.cell_names.size()) != NUM_CELLS ||
      static_cast<int>(c.character_names.size()) != NUM_CHARACTERS)
    throw BadInput("cell and character names needed");
  for (int cell : c.tile_cells) is_tile[static_cast<size_t>(cell)] = true;
  for (int g = 0; g < NUM_GAPS; ++g) gap_usable[static_cast<size_t>(g)] = !c.gap_cells[static_cast<size_t>(g)].empty();
  // components.in_forest and pattern_targets: each side's inner and outer octagon
  constexpr int STEP[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
  for (int cell = 0; cell < NUM_CELLS; ++cell) {
    const int r = cell / MAX_GRID, col = cell % MAX_GRID;
    Cells all = 0;
    for (int d = 0; d < 4; ++d)
      for (int reach = 1; reach <= 2; ++reach) {
        const int rr = r + reach * STEP[d][0], cc = col + reach * STEP[d][1];
        int8_t target = -1;
        if (rr >= 0 && rr < c.grid && cc >= 0 && cc < c.grid && is_tile[static_cast<size_t>(rr * MAX_GRID + cc)])
          target = static_cast<int8_t>(rr * MAX_GRID + cc);
        candidate[static_cast<size_t>(cell)][static_cast<size_t>(2 * d + reach - 1)] = target;
        if (target >= 0) {
          if (target - cell != OCTAGON_STEP[static_cast<size_t>(2 * d + reach - 1)])
            throw std::logic_error("OCTAGON_STEP does not match the grid");
          all |= Cells{1} << target;
          octagon_lands[static_cast<size_t>(cell)] |= static_cast<uint8_t>(1u << (2 * d + reach - 1));
        }
      }
    compass_cells[static_cast<size_t>(cell)] = all;
    for (size_t h = 0; h < 2; ++h)
      for (unsigned pattern = 0; pattern < 16; ++pattern) {
        Cells out = 0;
        for (unsigned i = 0; i < 4; ++i) {
          const int target = candidate[static_cast<size_t>(cell)][4 * h + i];
          if ((pattern >> i & 1u) && target >= 0) out |= Cells{1} << target;
        }
        half_targets[static_cast<size_t>(cell)][h][pattern] = out;
      }
  }

  const auto &L = core->layout;
  auto &B = blocks;
  const int C = NUM_CELLS, K = NUM_ITEMS, H = NUM_CHARACTERS;
  B.players_onehot = L.block("players_onehot", {3});
  B.no_silver = L.block("no_silver", {1});
  B.blockade_rule = L.block("blockade_rule", {1});
  B.cell_tile = L.block("cell_tile", {C});
  B.cell_well = L.block("cell_well", {C});
  B.cell_turn = L.block("cell_turn", {C});
  B.cell_orient = L.block("cell_orient", {C});
  B.cell_open = L.block("cell_open", {C, 4, 2});
  B.cell_blocked = L.block("cell_blocked", {C});
  B.cell_chip = L.block("cell_chip", {C, 4});
  B.cell_item = L.block("cell_item", {C});
  B.cell_char = L.block("cell_char", {C});
  B.gap_item = L.block("gap_item", {NUM_GAPS});
  B.piece_at = L.block("piece_at", {n, C});
  B.near_well = L.block("near_well", {C});
  B.near_spirit = L.block("near_spirit", {C});
  B.near_debt = L.block("near_debt", {n, C});
  B.near_piece = L.block("near_piece", {n, C});
  B.fairy = L.block("fairy", {FAIRY_ROWS, FAIRY_SLOTS});
  B.bag_items = L.block("bag_items", {K});
  B.drawn_item = L.block("drawn_item", {1});
  B.black_bag = L.block("black_bag", {3});
  B.used_chips = L.block("used_chips", {3});
  B.supply = L.block("supply", {3});
  B.pile_size = L.block("pile_size", {1});
  B.laid_out = L.block("laid_out", {H});
  B.blockade_used = L.block("blockade_used", {1});
  B.round_no = L.block("round_no", {1});
  B.backpack = L.block("backpack", {n, K});
  B.copper = L.block("copper", {n});
  B.silver = L.block("silver", {n});
  B.apples = L.block("apples", {n});
  B.compasses = L.block("compasses", {n});
  B.debts = L.block("debts", {n, H});
  B.winner = L.block("winner", {n});
  B.drawn_card = L.block("drawn_card", {n, H});
  B.prince_items = L.block("prince_items", {n, K});
  // distances.near_span and near_sources: one run each
  if (B.near_spirit.offset != B.near_well.offset + B.near_well.size ||
      B.near_debt.offset != B.near_spirit.offset + B.near_spirit.size ||
      B.near_piece.offset != B.near_debt.offset + B.near_debt.size)
    throw BadInput("the near_* blocks are not one run of the buffer");
  near_lo = B.near_well.offset;
  near_hi = B.near_piece.offset + B.near_piece.size;
  near_sources_lo = B.cell_tile.offset;
  near_sources_hi = B.piece_at.offset + B.piece_at.size;
  for (const Block *blk : {&B.cell_tile, &B.cell_turn, &B.cell_orient, &B.cell_blocked, &B.cell_well, &B.cell_char,
                           &B.piece_at})
    if (blk->offset < near_sources_lo || blk->offset + blk->size > near_sources_hi)
      throw BadInput("the near_* blocks' sources are not one run from cell_tile to piece_at");

  auto &A = actions;
  A.move = native::action_block(a, "move", {C});
  A.compass = native::action_block(a, "compass", {C});
  A.pause = native::action_block(a, "pause", {});
  A.keep = native::action_block(a, "keep", {});
  A.drop = native::action_block(a, "drop", {});
  A.trade = native::action_block(a, "trade", {FAIRY_ROWS, FAIRY_SLOTS});
  A.tile = native::action_block(a, "tile", {C});
  A.upper = native::action_block(a, "upper", {});
  A.lower = native::action_block(a, "lower", {});
  A.apple = native::action_block(a, "apple", {});
  A.debt = native::action_block(a, "debt", {});
  A.use = native::action_block(a, "use", {});
  A.defer = native::action_block(a, "defer", {});
  A.well_items = native::action_block(a, "well_items", {});
  A.well_copper = native::action_block(a, "well_copper", {});
  A.well_silver = native::action_block(a, "well_silver", {});
  A.well_none = native::action_block(a, "well_none", {});
  A.item = native::action_block(a, "item", {K});
  A.bag = native::action_block(a, "bag", {K});
  A.done = native::action_block(a, "done", {});
  A.merchant_apple = native::action_block(a, "merchant_apple", {});
  A.character = native::action_block(a, "character", {H});
  A.gap_set = native::action_block(a, "gap_set", {MAX_GRID - 1, MAX_GRID - 1});
  A.gap_take = native::action_block(a, "gap_take", {MAX_GRID - 1, MAX_GRID - 1});
  A.exchange = native::action_block(a, "exchange", {});
  A.open_chest = native::action_block(a, "open_chest", {});
  if (core->kinds.size() != static_cast<size_t>(kind::COUNT)) throw BadInput("Roundforest has 20 decision kinds");
}

State::State(std::shared_ptr<const Tables> tables)
    : GameState(tables), pos(static_cast<size_t>(tables->core->num_players), 0) {}

// rules: RoundforestState.new
State State::new_game(std::shared_ptr<const Tables> tables, const native::Pcg64 &rng) {
  State s(std::move(tables));
  s.rng = rng;
  const Config &c = s.cfg();
  const Blocks &B = s.b();
  const int n = s.num_players();
  s.at(B.players_onehot, n - 2) = 1;
  s.at(B.no_silver, 0) = c.no_silver ? 1 : 0;
  s.at(B.blockade_rule, 0) = c.blockade ? 1 : 0;
  s.fill(B.cell_tile, -1);
  s.fill(B.cell_item, NO_ITEM);
  s.fill(B.cell_char, NO_CHAR);
  s.fill(B.gap_item, NO_ITEM);
  s.put_down();
  s.fill(B.fairy, NO_ITEM);
  // Tiles face up in random order and orientation; the four well tiles on the wells.
  std::vector<int> wells(4), plain(NUM_TILES - 4);
  std::iota(wells.begin(), wells.end(), NUM_TILES - 4);
  std::iota(plain.begin(), plain.end(), 0);
  wells = native::permutation(s.rng, std::move(wells));
  plain = native::permutation(s.rng, std::move(plain));
  for (size_t i = 0; i < c.well_cells.size() && i < wells.size(); ++i) {
    s.at(B.cell_tile, c.well_cells[i]) = static_cast<int16_t>(wells[i]);
    s.at(B.cell_well, c.well_cells[i]) = 1;
  }
  for (size_t i = 0; i < c.plain_cells.size() && i < plain.size(); ++i)
    s.at(B.cell_tile, c.plain_cells[i]) = static_cast<int16_t>(plain[i]);
  for (int cell : c.tile_cells) s.at(B.cell_orient, cell) = static_cast<int16_t>(native::draw_integer(s.rng, 4));
  s.show_tiles();
  // One chip on each tile without a well, from the black bag.
  for (int i = 0; i < NUM_CHIP_COLOURS; ++i) s.at(B.black_bag, i) = static_cast<int16_t>(c.chips[static_cast<size_t>(i)]);
  for (int cell = 0; cell < NUM_CELLS; ++cell) s.at(B.cell_chip, cell, NO_CHIP) = 1;
  for (int cell : c.plain_cells) s.set_chip(cell, s.draw_chip());
  for (int k = 0; k < NUM_ITEMS; ++k) s.at(B.bag_items, k) = static_cast<int16_t>(c.items[static_cast<size_t>(k)]);
  for (int r = 0; r < FAIRY_ROWS; ++r) s.fill_fairy_row(r);
  s.pile.resize(NUM_CHARACTERS);
  std::iota(s.pile.begin(), s.pile.end(), 0);
  s.show_pile();
  s.at(B.supply, COPPER) = COPPER_SUPPLY;
  s.at(B.supply, SILVER) = SILVER_SUPPLY;
  s.at(B.supply, APPLES) = APPLE_SUPPLY;
  s.fill(B.compasses, COMPASSES_EACH);
  for (int p = 0; p < n; ++p) s.pos[static_cast<size_t>(p)] = static_cast<int8_t>(c.corner[static_cast<size_t>(p)]);
  s.show_pieces();
  s.at(B.round_no, 0) = 1;
  s.push(kind::TURN, 0);
  s.start_turn(0);
  return s;
}

// rules: _show_derived, every block that shows another fact from its one source
void State::show_derived() {
  show_pieces();
  show_pile();
  show_tiles();
  show_derived_blocks();
}

// rules: RoundforestState.edited (the derived blocks, then the core's)
void State::edited() {
  check_fields();
  show_derived();
  native::StateCore::edited();
}

// --- dispatch by decision kind (the Python engine's table of handlers) ------------------------
void State::fill_mask(const Decision &d, int8_t *mask) const {
  const Actions &A = acts();
  switch (d.kind) {
    case kind::TURN: return mask_turn(d, mask);
    case kind::BLOCKADE_START:
    case kind::BLOCKADE_END: return mask_blockade(d, mask);
    case kind::DRAWN: return mask_item_choice(d.player, d[0], mask);
    case kind::TOKEN_ITEM: return mask_item_choice(d.player, get(b().cell_item, d[0]), mask);
    case kind::YELLOW: return write_cells(yellow_targets(d.player), mask + A.tile.start);
    case kind::CHARACTER: return mask_character(d, mask);
    case kind::MEET: return mask_meet(d, mask);
    case kind::WELL: return mask_well(d, mask);
    case kind::WELL_GIVE: return mask_well_give(d, mask);
    case kind::MERCHANT: return mask_merchant(d, mask);
    case kind::PRINCE: return mask_prince(d, mask);
    case kind::GOBLIN_GIVE: return mask_goblin_give(d, mask);
    case kind::GOBLIN_TAKE: return mask_goblin_take(d, mask);
    case kind::BEGGAR: return mask_beggar(d, mask);
    case kind::UNICORN: return write_cells(unicorn_cells(d.player), mask + A.tile.start);
    case kind::SADDLE: return mask_saddle(d, mask);
    case kind::SPIRIT_PLACE: return write_cells(spirit_cells(), mask + A.tile.start);
    case kind::COIN_TOKEN:
      mask[A.keep.start] = 1;  // offered only when both are possible (receive)
      mask[A.exchange.start] = 1;
      return;
    case kind::CHEST:
      mask[A.open_chest.start] = 1;
      mask[A.done.start] = 1;
      return;
    default: throw std::logic_error("unknown decision kind");
  }
}

void State::apply_legal(const Decision &d, int a) {
  switch (d.kind) {
    case kind::TURN: return apply_turn(d, a);
    case kind::BLOCKADE_START:
      blockade_act(d.player, a);
      return replace(kind::TURN, d.player);
    case kind::BLOCKADE_END:
      blockade_act(d.player, a);
      return next_player();
    case kind::DRAWN: return apply_drawn(d, a);
    case kind::TOKEN_ITEM: return apply_token_item(d, a);
    case kind::YELLOW: return apply_yellow(d, a);
    case kind::CHARACTER: return apply_character(d, a);
    case kind::MEET: return apply_meet(d, a);
    case kind::WELL: return apply_well(d, a);
    case kind::WELL_GIVE: return apply_well_give(d, a);
    case kind::MERCHANT: return apply_merchant(d, a);
    case kind::PRINCE: return apply_prince(d, a);
    case kind::GOBLIN_GIVE: return apply_goblin_give(d, a);
    case kind::GOBLIN_TAKE: return apply_goblin_take(d, a);
    case kind::BEGGAR: return apply_beggar(d, a);
    case kind::UNICORN: return apply_unicorn(d, a);
    case kind::SADDLE: return apply_saddle(d, a);
    case kind::SPIRIT_PLACE: return apply_spirit_place(d, a);
    case kind::COIN_TOKEN: return apply_coin_token(d, a);
    case kind::CHEST: return apply_chest(d, a);
    default: throw std::logic_error("unknown decision kind");
  }
}

std::string State::why(const Decision &d, int a) const {
  return d.kind == kind::TURN ? why_turn(d, a) : "";
}

// Every field and block the rules index by within its range, so that no state handed over
// from Python can make the rules read or write outside an array.
void State::check_fields() const {
  const Blocks &B = b();
  const int n = num_players();
  if (static_cast<int>(pos.size()) != n) throw BadInput("pos: one cell per piece");
  for (int8_t c : pos)
    if (c < 0 || c >= NUM_CELLS) throw BadInput("pos: a cell outside the frame");
  for (int8_t c : pile)
    if (c < 0 || c >= NUM_CHARACTERS) throw BadInput("pile: not a character card");
  if (turn < 0 || turn >= n) throw BadInput("turn: not a seat");
  for (int cell : cfg().tile_cells) {
    const int t = get(B.cell_tile, cell);
    if (t < 0 || t >= NUM_TILES) throw BadInput("cell_tile: a tile cell without a tile");
  }
  for (int cell = 0; cell < NUM_CELLS; ++cell) {
    if (get(B.cell_item, cell) < NO_ITEM || get(B.cell_item, cell) >= NUM_ITEMS) throw BadInput("cell_item out of range");
    if (get(B.cell_char, cell) < NO_CHAR || get(B.cell_char, cell) >= NUM_CHARACTERS)
      throw BadInput("cell_char out of range");
    if (get(B.cell_orient, cell) < 0 || get(B.cell_orient, cell) > 3) throw BadInput("cell_orient out of range");
  }
  for (int g = 0; g < NUM_GAPS; ++g)
    if (get(B.gap_item, g) < NO_ITEM || get(B.gap_item, g) >= NUM_ITEMS) throw BadInput("gap_item out of range");
  for (int i = 0; i < FAIRY_ROWS * FAIRY_SLOTS; ++i)
    if (row(B.fairy)[i] < NO_ITEM || row(B.fairy)[i] >= NUM_ITEMS) throw BadInput("fairy out of range");
  check_decisions(-1);
  for (const auto &d : decisions) {
    // what a pending decision's rules read as an index
    if (d.kind == kind::TOKEN_ITEM && get(B.cell_item, d.data[0]) < 0)
      throw BadInput("decisions: token_item on a cell without an item token");
    if (d.kind == kind::MEET && d.data[0] >= NUM_CHARACTERS) throw BadInput("decisions: meet names no character");
  }
}

}  // namespace forest::roundforest
