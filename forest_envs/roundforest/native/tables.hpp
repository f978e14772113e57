// Roundforest's native tables: the ids components.py and observation.py fix for every
// configuration (checked against Python by tests/roundforest/test_native.py), and what one
// configuration fixes (Config, filled from the Python RoundforestGame: one source for every
// number), with the buffer blocks and action blocks looked up once by name.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../../core/native/actions.hpp"
#include "../../core/native/state_core.hpp"

namespace forest::roundforest {

using native::ActionBlock;
using native::Block;

// components.py: the forest
constexpr int MAX_GRID = 6, NUM_CELLS = 36, NUM_GAPS = 25, NUM_TILES = 32;
constexpr int MOVES_CAP = 12;
// components.py: chips (cell_chip's columns; black_bag and used_chips hold chip - 1)
constexpr int NO_CHIP = 0, BLUE = 1, YELLOW = 2, RED = 3, NUM_CHIP_COLOURS = 3;
// components.py: item tokens (the heavy kinds first)
constexpr int NUM_ITEMS = 22, NUM_HEAVY = 5;
constexpr int ANVIL = 0, BARREL = 1, SADDLE = 2, CHEST = 3, STONE = 4, CROSS = 5, KEY = 6, SWORD = 7, POTION = 8;
constexpr int COPPER_TOKEN = 20, SILVER_TOKEN = 21;
constexpr int BACKPACK_ITEMS = 3, BACKPACK_HEAVY = 1;
constexpr int FAIRY_ROWS = 3, FAIRY_SLOTS = 3;
constexpr std::array<int, FAIRY_ROWS> FAIRY_COST{2, 1, 0};
// components.py: characters
constexpr int NUM_CHARACTERS = 12;
constexpr int PRINCE = 6, MERCHANT = 7, GOBLIN = 8, BEGGAR = 9, UNICORN = 10, SPIRIT = 11;
constexpr int MERCHANT_MAX_SALES = 3, BEGGAR_FEE = 1, PRINCE_DRAWS = 3;
// components.py: supply, wells, the goal
constexpr int COPPER_SUPPLY = 24, SILVER_SUPPLY = 12, APPLE_SUPPLY = 12, COMPASSES_EACH = 2;
constexpr int APPLES_TO_WIN = 3, ROUND_CAP = 10000;
constexpr int WELL_ITEMS_IN = 2, WELL_COPPER_OUT = 2, WELL_COPPER_IN = 3;
constexpr int SILVER_IN_COPPER = WELL_COPPER_IN;  // ending.py: the ranking's coin count
// observation.py: the supply block's entries
constexpr int COPPER = 0, SILVER = 1, APPLES = 2;
// bags.py (table.py): no token
constexpr int NO_ITEM = -1, NO_CHAR = -1;
// state.py: redraws of the Prince's secret tokens in resample_hidden
constexpr int PRINCE_REDRAWS = 50;

inline bool is_coin_token(int k) { return k == COPPER_TOKEN || k == SILVER_TOKEN; }
inline bool is_heavy(int k) { return k >= ANVIL && k < ANVIL + NUM_HEAVY; }

// observation.py: the decision kinds, in DECISIONS order
namespace kind {
constexpr int TURN = 0, BLOCKADE_START = 1, BLOCKADE_END = 2, DRAWN = 3, TOKEN_ITEM = 4, YELLOW = 5,
              CHARACTER = 6, MEET = 7, WELL = 8, WELL_GIVE = 9, MERCHANT = 10, PRINCE = 11, GOBLIN_GIVE = 12,
              GOBLIN_TAKE = 13, BEGGAR = 14, UNICORN = 15, SADDLE = 16, SPIRIT_PLACE = 17, COIN_TOKEN = 18,
              CHEST = 19, COUNT = 20;
}

// components.Task: hand over ``give`` and coins while holding ``need`` and none of ``without``.
struct Task {
  bool present = false;
  std::vector<int> give, need, without;
  int copper = 0, silver = 0, reward_item = -1, apples = 0;
};

struct Character {
  bool helpful = false;
  Task upper, lower;
};

// What one configuration fixes, as the Python RoundforestGame computed it.
struct Config {
  int num_players = 0;
  bool no_silver = false;
  bool blockade = false;
  int grid = 0;                              // the forest's side (5 or 6)
  std::vector<int> tile_cells, well_cells, plain_cells;
  std::vector<int> corner;                   // each seat's backpack cell
  std::vector<std::vector<int>> starts;      // each seat's first-move tiles
  std::vector<std::vector<int>> gap_cells;   // the tiles around each gap
  std::vector<int> items;                    // item tokens of each kind in the game
  std::vector<int> chips;                    // chips of each colour (BLUE, YELLOW, RED)
  std::vector<int> tile_turn;                // each tile's printed direction (+1 / -1)
  std::vector<std::vector<int>> tile_inner, tile_outer;  // printed octagons, N E S W
  std::vector<Character> characters;
  std::vector<int> near;                     // distances.NEAR: a route of d moves stored as near[d]
  std::vector<std::string> cell_names, character_names;
};

struct Blocks {
  Block players_onehot, no_silver, blockade_rule, cell_tile, cell_well, cell_turn, cell_orient, cell_open,
      cell_blocked, cell_chip, cell_item, cell_char, gap_item, piece_at, near_well, near_spirit, near_debt,
      near_piece, fairy, bag_items, drawn_item, black_bag, used_chips, supply, pile_size, laid_out, blockade_used,
      round_no, backpack, copper, silver, apples, compasses, debts, winner, drawn_card, prince_items;
};

struct Actions {
  ActionBlock move, compass, pause, keep, drop, trade, tile, upper, lower, apple, debt, use, defer, well_items,
      well_copper, well_silver, well_none, item, bag, done, merchant_apple, character, gap_set, gap_take, exchange,
      open_chest;
};

// A cell's moves as bits: bit 2d is the inner octagon of side d (N E S W), bit 2d + 1 the
// outer one, as components.pattern_targets lists them.
using Cells = uint64_t;  // a set of cells, bit c for cell c

// How far each octagon moves a piece in cell ids (bit 2d + reach - 1: side d, N E S W, one
// or two tiles away), so a set of cells moved by one octagon is the set shifted.
constexpr std::array<int, 8> OCTAGON_STEP = {-MAX_GRID, -2 * MAX_GRID, 1, 2, MAX_GRID, 2 * MAX_GRID, -1, -2};

// distances.NEAR as stored: a route of d moves is near[d]
using NearValues = std::array<int16_t, MOVES_CAP>;

struct Tables {
  std::shared_ptr<const native::CoreTables> core;
  Config config;
  Blocks blocks;
  Actions actions;
  std::array<bool, NUM_CELLS> is_tile{};
  std::array<bool, NUM_GAPS> gap_usable{};
  std::array<std::array<int8_t, 8>, NUM_CELLS> candidate{};     // the cell each octagon leads to, -1: none
  // [cell][half][pattern]: the tiles the open octagons ``pattern`` of one half of a cell's
  // octagons (half 0: bits 0-3, the north and east sides; half 1: bits 4-7) lead to
  std::array<std::array<std::array<Cells, 16>, 2>, NUM_CELLS> half_targets{};
  std::array<std::array<uint8_t, 4>, NUM_TILES> open_bits{};     // [tile][orientation]: octagons open now
  std::array<Cells, NUM_CELLS> compass_cells{};                   // every octagon open
  std::array<uint8_t, NUM_CELLS> octagon_lands{};  // bit 2d + reach - 1: that octagon leads onto a tile
  Cells well_cells = 0;                                           // config.well_cells
  std::vector<Cells> start_cells;                                 // config.starts, per seat
  NearValues near_value{};                                        // config.near
  int near_sources_lo = 0, near_sources_hi = 0;                   // cell_tile .. piece_at
  int near_lo = 0, near_hi = 0;                                   // near_well .. near_piece

  Tables(std::shared_ptr<const native::CoreTables> core_, Config config_, const native::NameTable &action_blocks);

  // components.pattern_targets: the tiles tile ``bits`` (octagons open) lets a piece on
  // ``cell`` reach.
  Cells targets(int cell, unsigned bits) const {
    const auto &half = half_targets[static_cast<size_t>(cell)];
    return half[0][bits & 15u] | half[1][bits >> 4 & 15u];
  }
};

}  // namespace forest::roundforest
