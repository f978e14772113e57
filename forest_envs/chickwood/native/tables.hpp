// Chickwood Forest's native tables: the ids components.py and observation.py fix for every
// configuration (checked against Python by tests/chickwood/test_native.py), and what one
// configuration fixes (Config, filled from the Python ChickwoodGame: one source for every
// number), with the buffer blocks and action blocks looked up once by name.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../../core/native/actions.hpp"
#include "../../core/native/state_core.hpp"

namespace forest::chickwood {

using native::ActionBlock;
using native::Block;

// components.py: loot card kinds
constexpr int NUM_KINDS = 22;
constexpr int CHEST0 = 0, GARMENT0 = 4, JEWEL0 = 8, NUM_TREASURE_KINDS = 11;
constexpr int BUST = 11, MAID = 12, HENCHMAN = 13, BENEFACTOR0 = 14;
constexpr int SPY_GLASS = 17, KEY = 18, ENTERTAINERS = 19, GOLDEN_ARROW = 20, FAKE_BEARD = 21;
constexpr std::array<int, 3> JEWELRY_VALUE{2, 3, 4};
constexpr std::array<int, 3> BENEFACTOR_VALUE{1, 2, 3};  // BENEFACTOR_ALMS, kinds 14..16
// components.py: castles and the village grid
constexpr int MAX_CASTLE = 6, MAX_CELLS = 9, MAX_SPACES = 7, GRID_COLS = 3, ALMS_PER_PLAYER = 15;
constexpr int FOREST = -1, NO_CARD = -2;
constexpr int NO_LAST_CELL = MAX_CELLS;  // raiding.py: the alms snake has not started
constexpr int MAX_OPPONENTS = 4;         // actions.py

// observation.py: the decision kinds, in DECISIONS order
namespace kind {
constexpr int SCOUT = 0, SPY = 1, RAID = 2, KEY = 3, ALMS = 4, ENTERTAINERS_FIRST = 5,
              ENTERTAINERS_SECOND = 6, ARROW_GIVE = 7, ARROW_TAKE = 8, FAKE_BEARD = 9, COUNT = 10;
}

// What one configuration fixes, as the Python ChickwoodGame computed it.
struct Config {
  int num_players = 0;
  bool legendary = false;
  int hand_size = 0;
  std::vector<int> composition;                   // cards of each kind in play
  std::vector<int> castle_values;                 // castle piles on the table (1-based)
  std::vector<int> capacity;                      // loot cards each castle may hold
  std::vector<std::vector<int>> banner;           // [castle value - 1]: 1 = that play face down
  std::vector<int> pile_cards;                    // CASTLE_CARDS[value] for values 1..6
  std::vector<int> village_cards;                 // village ids (and FOREST) in play
  std::vector<std::vector<int>> village_spaces;   // [village][row]: alms spaces
  std::vector<std::vector<int>> village_glory;    // [village][row]: printed glory (-1: none)
  std::vector<std::vector<int>> adjacent;         // [cell or NO_LAST_CELL][cell]: 0/1
  std::vector<std::string> kind_names;
  int forest_cell = 0, absent_cell = 0;           // cell_card's classes of a forest, no card
};

struct Blocks {
  Block players_onehot, legendary, round_no, deck_left, banner_pos, castle_in_play, pile_left,
      castle_cards, castle_faceup, spy_castle, key_blocked, box, discard_public, cell_card,
      cell_filled, snake_visited, castle_raided_by, castle_faceup_by, castle_fd_count, alms_owner,
      alms_count, player_castle, castles_held, order_pos, has_raided, banner, collection,
      alms_left, hand_count, hand, fd_own, spy_view, discard_known;
};

struct Actions {
  ActionBlock play, spy, raid, key_use, key_pass, alms, ent_pick, ent_pass, arrow_give, arrow_take,
      arrow_pass, beard_give, beard_pass;
};

struct Tables {
  std::shared_ptr<const native::CoreTables> core;
  Config config;
  Blocks blocks;
  Actions actions;
  std::vector<int> village_total_spaces;  // Village.spaces

  Tables(std::shared_ptr<const native::CoreTables> core_, Config config_, const native::NameTable &action_blocks);
};

}  // namespace forest::chickwood
