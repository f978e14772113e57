// One play of Roundforest in C++: the same buffer blocks, fields and decision stack as the
// Python RoundforestState, and the same rules, one file per module of the Python rules:
//   state.cpp               setup, the dispatch by decision kind, the derived blocks, checks
//   bags.cpp                chips, bags, backpacks and the supply          (rules: bags)
//   turn.cpp                moving, pausing, rotating, refilling, turn order (rules: turn)
//   items.cpp               items in hand, tokens, the fairy, the chest    (rules: items)
//   wells.cpp               the magic wells                                (rules: wells)
//   characters.cpp          character cards, tasks, debts, tokens         (rules: characters)
//   helpful_characters.cpp  the six helpers' abilities        (rules: helpful_characters)
//   blockade.cpp            the optional blockade rule                     (rules: blockade)
//   ending.cpp              the Forest Spirit's appearance, the end, ranks  (rules: ending)
//   distances.cpp           the near_* blocks                             (rules: distances)
//   hidden.cpp              resample_hidden, a determinization for search
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tables.hpp"

namespace forest::roundforest {

class State : public native::GameState<State, Tables> {
 public:
  explicit State(std::shared_ptr<const Tables> tables);
  State(const State &) = default;
  State &operator=(const State &) = default;

  // A new game from a seeded generator: every draw in the Python engine's order.
  static State new_game(std::shared_ptr<const Tables> tables, const native::Pcg64 &rng);

  // --- the fields (rules: FIELDS) --------------------------------------------------------
  std::vector<int8_t> pos;   // each piece's cell (a corner: still in the backpack)
  std::vector<int8_t> pile;  // the character cards in the pile, in the Python list's order

  // --- EngineState's hooks -----------------------------------------------------------------
  void fill_mask(const native::Decision &d, int8_t *mask) const;
  void apply_legal(const native::Decision &d, int action);
  std::string why(const native::Decision &d, int action) const;

  // --- results -------------------------------------------------------------------------
  std::vector<int> ranks() const;

  // --- hidden information ------------------------------------------------------------
  State resample_hidden(int seat, native::Pcg64 &rng) const;

  // --- the derived blocks (written from their sources, as the Python state's) -------------
  void show_derived_blocks() const;  // near_*: before the buffer is read whole
  void edited();                     // after a change by hand: every derived block, the decision
  void check_fields() const;         // every field and block within the ranges the rules index by

 private:
  const Tables &tab() const { return tables(); }
  int16_t *mut(const Block &blk) const { return buf + blk.offset; }

  // state.cpp
  void show_derived();
  // bags.cpp
  int chip(int cell) const;
  void set_chip(int cell, int chip);
  void use_chip(int cell);
  int draw_counted(int16_t *bag, int kinds, native::Pcg64 &g);
  int draw_chip();
  int draw_item();
  std::array<int16_t, NUM_ITEMS> peek_items(native::Pcg64 &g, int count) const;
  int items_of(int p) const;
  int heavy_of(int p) const;
  bool fits(int p, int k) const;
  bool can_exchange(int k) const;
  void exchange(int p, int k);
  void give_apple(int p);
  // turn.cpp
  void show_pieces();
  void show_tiles();
  void show_open(int cell);
  int move_piece(int p, int cell);
  bool occupied(int cell) const;
  void rotate(int cell);
  void refill(int cell);
  bool can_enter(int p, int cell) const;
  void move_targets(int p, Cells &normal, Cells &wider) const;
  void start_turn(int p);
  void end_action();
  void after_chest();
  void next_player();
  void mask_turn(const native::Decision &d, int8_t *mask) const;
  std::string why_turn(const native::Decision &d, int a) const;
  void apply_turn(const native::Decision &d, int a);
  void arrive(int p, int cell);
  void chip_action(int p, int cell);
  // items.cpp
  void hold(int kind, int p, int k);
  void put_down();
  void fill_fairy_row(int r);
  bool can_pay_fairy(int p, int row) const;
  void mask_trades(int p, int8_t *mask) const;
  void trade(int p, int a);
  void receive(int p, int k);
  void apply_coin_token(const native::Decision &d, int a);
  bool can_open_chest(int p) const;
  void apply_chest(const native::Decision &d, int a);
  void mask_item_choice(int p, int k, int8_t *mask) const;
  void apply_drawn(const native::Decision &d, int a);
  void apply_token_item(const native::Decision &d, int a);
  Cells yellow_targets(int p) const;
  void apply_yellow(const native::Decision &d, int a);
  // wells.cpp
  std::array<bool, 3> well_options(int p) const;
  void mask_well(const native::Decision &d, int8_t *mask) const;
  void apply_well(const native::Decision &d, int a);
  void mask_well_give(const native::Decision &d, int8_t *mask) const;
  void apply_well_give(const native::Decision &d, int a);
  // characters.cpp
  void show_pile();
  int draw_card();
  void take_card(int c);
  void return_card(int c);
  bool can_do(int p, const Task &task) const;
  void fulfil(int p, const Task &task);
  int debtor_of(int c) const;
  void resolve_card(int p, int c, int beggar);
  int drawn_of(int p) const;
  void mask_character(const native::Decision &d, int8_t *mask) const;
  void apply_character(const native::Decision &d, int a);
  bool can_meet(int p, int c) const;
  void meet(int p, int c, int cell);
  void mask_meet(const native::Decision &d, int8_t *mask) const;
  void apply_meet(const native::Decision &d, int a);
  // helpful_characters.cpp
  bool can_use(int p, int c) const;
  void start_ability(int p, int c);
  void mask_prince(const native::Decision &d, int8_t *mask) const;
  void apply_prince(const native::Decision &d, int a);
  void mask_merchant(const native::Decision &d, int8_t *mask) const;
  void apply_merchant(const native::Decision &d, int a);
  bool any_goblin_pair(int p) const;
  void mask_goblin_give(const native::Decision &d, int8_t *mask) const;
  void apply_goblin_give(const native::Decision &d, int a);
  void mask_goblin_take(const native::Decision &d, int8_t *mask) const;
  void apply_goblin_take(const native::Decision &d, int a);
  void mask_beggar(const native::Decision &d, int8_t *mask) const;
  void apply_beggar(const native::Decision &d, int a);
  Cells unicorn_cells(int p) const;
  void apply_unicorn(const native::Decision &d, int a);
  void mask_saddle(const native::Decision &d, int8_t *mask) const;
  void apply_saddle(const native::Decision &d, int a);
  // blockade.cpp
  bool blockade_options(int p) const;
  void blockade_gaps(int p, std::array<bool, NUM_GAPS> &setting, std::array<bool, NUM_GAPS> &taking) const;
  void set_gap(int g, int k);
  void mask_blockade(const native::Decision &d, int8_t *mask) const;
  void blockade_act(int p, int a);
  // ending.cpp
  bool qualified(int p) const;
  bool spirit_on_forest() const;
  Cells spirit_cells() const;
  void apply_spirit_place(const native::Decision &d, int a);
  void win(int p);
  // distances.cpp
  void write_near(int16_t *out) const;

  // distances.cpp: the near_* values of the last sources seen (the Python game's near_memo)
  mutable std::vector<int16_t> near_key_, near_values_;

  friend struct StateAccess;
};

// A set of cells into a mask block's entries (cell c -> out[c]), on a mask of zeros.
inline void write_cells(Cells cells, int8_t *out) {
  for (; cells; cells &= cells - 1) out[std::countr_zero(cells)] = 1;
}

}  // namespace forest::roundforest
