// One play of Chickwood Forest in C++: the same buffer blocks, fields and decision stack as
// the Python ChickwoodState, and the same rules, one file per rulebook phase as in Python:
//   state.cpp     setup, rounds, the secret discards, holders (rules: the state and game)
//   scouting.cpp  "1. Scout the Castles" and the spy glass          (rules: scouting)
//   raiding.cpp   "2. Steal the Loot", "3. Give Alms" and the key    (rules: raiding)
//   endgame.cpp   "End of Game": the Legendary end cards             (rules: endgame)
//   scoring.cpp   the final scoring, as pure functions of counts     (rules: scoring)
//   hidden.cpp    resample_hidden, a determinization for search
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tables.hpp"

namespace forest::chickwood {

// rules: SecretDiscard, a face-down card set aside at a round's end.
struct SecretDiscard {
  int8_t kind = 0;
  int8_t owner = 0;
  int8_t spied_by = -1;
  bool known_to(int seat) const { return seat == owner || seat == spied_by; }
  bool operator==(const SecretDiscard &o) const {
    return kind == o.kind && owner == o.owner && spied_by == o.spied_by;
  }
};

struct Score {
  int busts = 0, chests = 0, garments = 0, jewelry = 0, maid = 0, henchmen = 0, castles = 0, villages = 0;
  std::array<int, MAX_CELLS> village_glory{};  // per cell (0 where no village)
  int total() const { return chests + garments + jewelry + maid + henchmen + castles + villages; }
};

class State : public native::GameState<State, Tables> {
 public:
  explicit State(std::shared_ptr<const Tables> tables);
  State(const State &) = default;
  State &operator=(const State &) = default;

  // A new game from a seeded generator: every shuffle in the Python engine's order.
  static State new_game(std::shared_ptr<const Tables> tables, const native::Pcg64 &rng);

  // --- the fields (rules: FIELDS) --------------------------------------------------------
  std::vector<int8_t> deck;            // undealt cards, next first
  std::vector<int8_t> order;           // this round's turn order (seats)
  int step = 0;                        // plays made while scouting, raids made while raiding
  std::vector<int8_t> end_stages;      // Legendary end stages still to resolve (decision kinds)
  std::vector<SecretDiscard> discard_fd;
  std::array<int8_t, MAX_CELLS> grid{};  // village card of each cell (FOREST, NO_CARD)
  std::vector<std::vector<int8_t>> raids;  // castle values each seat raided, in order

  // --- EngineState's hooks -----------------------------------------------------------------
  void fill_mask(const native::Decision &d, int8_t *mask) const;
  void apply_legal(const native::Decision &d, int action);
  std::string why(const native::Decision &d, int action) const;

  // --- results -------------------------------------------------------------------------
  std::vector<Score> scores() const;
  std::vector<int> ranks() const;
  std::vector<int> totals() const;  // each seat's glory (the batched API's score reward)

  // --- hidden information ------------------------------------------------------------
  State resample_hidden(int seat, native::Pcg64 &rng) const;

  // --- what follows from the state (rules: the read-only helpers) -------------------------
  int holder(int card) const;  // the seat holding a Legendary card, -1 for none
  int spier() const;           // the seat that used the spy glass this round, -1 for none
  int cell_spaces(int cell) const;
  int space_owner(int cell, int space) const;  // -1: empty
  void show_discards();
  void check_fields() const;   // every field within the ranges the rules index by

  // --- rules steps that tests call to build positions (as they call the Python ones) -----
  void start_round();
  void put_alms(int cell, int p);

 private:

  // state.cpp
  void lay_grid();
  void end_round();
  void discard_castle(int c);
  void clear_castle(int c);
  // scouting.cpp
  void set_scout_turn();
  bool spy_target(int p, int c) const;
  bool any_spy_target(int p) const;
  void mask_scout(const native::Decision &d, int8_t *mask) const;
  void apply_scout(const native::Decision &d, int a);
  void mask_spy(const native::Decision &d, int8_t *mask) const;
  void apply_spy(const native::Decision &d, int a);
  // raiding.cpp
  void begin_raids();
  bool raidable(int c) const;
  void mask_raid(const native::Decision &d, int8_t *mask) const;
  void apply_raid(const native::Decision &d, int a);
  void apply_key(const native::Decision &d, int a);
  void raid(int p, int c);
  void next_raider();
  bool alms_target(int last, int cell) const;
  bool any_alms_target(int last) const;
  void mask_alms(const native::Decision &d, int8_t *mask) const;
  void apply_alms(const native::Decision &d, int a);
  // endgame.cpp
  void end_stage_game();
  void next_end_stage();
  void mask_entertainers_first(const native::Decision &d, int8_t *mask) const;
  void apply_entertainers_first(const native::Decision &d, int a);
  void mask_entertainers_second(const native::Decision &d, int8_t *mask) const;
  void apply_entertainers_second(const native::Decision &d, int a);
  void swap_alms(int ca, int sa, int cb, int sb);
  void mask_arrow_give(const native::Decision &d, int8_t *mask) const;
  void apply_arrow_give(const native::Decision &d, int a);
  void mask_arrow_take(const native::Decision &d, int8_t *mask) const;
  void apply_arrow_take(const native::Decision &d, int a);
  void mask_fake_beard(const native::Decision &d, int8_t *mask) const;
  void apply_fake_beard(const native::Decision &d, int a);


  friend struct StateAccess;
};

}  // namespace forest::chickwood
