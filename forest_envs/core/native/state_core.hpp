// What every native state shares, as core/state.py's BufferState does for the Python engine:
// the flat int16 buffer (the same layout, so Python reads the same blocks), the stack of
// pending decisions with the standard decision blocks written at every change, whose turn
// it is, the state's own PCG64, the cached legal mask, and apply's validation with the
// Python engine's error texts. A game derives from GameState<itself, its Tables> and supplies
// fill_mask(decision, mask), apply_legal(decision, action) and why(decision, action).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "checked.hpp"
#include "layout.hpp"
#include "mask_scan.hpp"
#include "rng.hpp"

namespace forest::native {

constexpr int kMaxDecisionData = 6;

struct DecisionKindSpec {
  std::string name;
  int ints = 0;   // how many ints the kind carries (first in its data)
  int seats = 0;  // how many seats follow them (-1: no seat)
  std::vector<int> int_high;  // the largest value of each int
};

struct Decision {
  int16_t kind = 0;
  int16_t player = 0;
  int16_t len = 0;
  std::array<int16_t, kMaxDecisionData> data{};

  int16_t operator[](int i) const {
    check_index(i, len, "decision data");
    return data[static_cast<size_t>(i)];
  }
  bool operator==(const Decision &o) const {
    if (kind != o.kind || player != o.player || len != o.len) return false;
    for (int i = 0; i < len; ++i)
      if (data[static_cast<size_t>(i)] != o.data[static_cast<size_t>(i)]) return false;
    return true;
  }
};

// What one configuration fixes for every state of it, whatever the game.
struct CoreTables {
  Layout layout;
  int num_players = 0;
  int num_actions = 0;
  std::vector<std::string> action_names;
  std::vector<DecisionKindSpec> kinds;
  Block turn_seat, decision_kind, decision_player, decision_data, decision_seat;
  int32_t region_lo = 0, region_hi = 0;

  CoreTables(Layout layout_, std::vector<std::string> names, std::vector<DecisionKindSpec> kinds_)
      : layout(std::move(layout_)), action_names(std::move(names)), kinds(std::move(kinds_)) {
    num_players = layout.num_players();
    num_actions = static_cast<int>(action_names.size());
    const int n = num_players;
    int width = 0, seats = 0;
    for (const auto &k : kinds) {
      if (k.ints + k.seats > kMaxDecisionData) throw BadInput("decision " + k.name + " carries too much");
      if (static_cast<int>(k.int_high.size()) != k.ints) throw BadInput("decision " + k.name + ": int bounds");
      width = std::max(width, k.ints);
      seats = std::max(seats, k.seats);
    }
    turn_seat = layout.block("turn_seat", {n});
    decision_kind = layout.block("decision_kind", {static_cast<int32_t>(kinds.size())});
    decision_player = layout.block("decision_player", {n});
    decision_data = layout.block("decision_data", {width});
    decision_seat = layout.block("decision_seat", {seats, n});
    region_lo = decision_kind.offset;
    region_hi = decision_seat.offset + decision_seat.size;
    if (decision_player.offset != decision_kind.offset + decision_kind.size ||
        decision_data.offset != decision_player.offset + decision_player.size ||
        decision_seat.offset != decision_data.offset + decision_data.size)
      throw BadInput("the decision blocks are not adjacent");
  }
};

class StateCore {
 public:
  explicit StateCore(std::shared_ptr<const CoreTables> core)
      : core_(std::move(core)),
        buffer_(std::make_shared<std::vector<int16_t>>(static_cast<size_t>(core_->layout.size()), 0)),
        buf(buffer_->data()),
        mask_(static_cast<size_t>(core_->num_actions), 0) {}

  // A deep copy: the buffer is copied, nothing is shared but the configuration's tables.
  StateCore(const StateCore &o)
      : core_(o.core_),
        buffer_(std::make_shared<std::vector<int16_t>>(*o.buffer_)),
        buf(buffer_->data()),
        decisions(o.decisions),
        turn(o.turn),
        rng(o.rng),
        mask_(o.mask_),
        mask_valid_(o.mask_valid_) {}
  // Copies ``o`` into this state's own buffer, which stays where it is: numpy views of it
  // that Python holds keep showing this state.
  StateCore &operator=(const StateCore &o) {
    if (this == &o) return *this;
    if (core_ != o.core_) throw std::logic_error("a state of another configuration");
    *buffer_ = *o.buffer_;
    buf = buffer_->data();
    decisions = o.decisions;
    turn = o.turn;
    rng = o.rng;
    mask_ = o.mask_;
    mask_valid_ = o.mask_valid_;
    return *this;
  }

  const CoreTables &core() const { return *core_; }
  const std::shared_ptr<const CoreTables> &core_ptr() const { return core_; }
  const std::shared_ptr<std::vector<int16_t>> &buffer() const { return buffer_; }
  int num_players() const { return core_->num_players; }

  int current_player() const { return decisions.empty() ? -1 : decisions.back().player; }
  bool is_terminal() const { return decisions.empty(); }

  // --- block access ---------------------------------------------------------------------
  int16_t &at(const Block &b, int i) { return buf[b.index(i)]; }
  int16_t &at(const Block &b, int i, int j) { return buf[b.index(i, j)]; }
  int16_t &at(const Block &b, int i, int j, int k) { return buf[b.index(i, j, k)]; }
  int16_t get(const Block &b, int i) const { return buf[b.index(i)]; }
  int16_t get(const Block &b, int i, int j) const { return buf[b.index(i, j)]; }
  int16_t get(const Block &b, int i, int j, int k) const { return buf[b.index(i, j, k)]; }
  int16_t *row(const Block &b) { return buf + b.offset; }
  const int16_t *row(const Block &b) const { return buf + b.offset; }
  void fill(const Block &b, int16_t v) { std::fill(buf + b.offset, buf + b.offset + b.size, v); }

  // --- the pending decisions (BufferState.push / pop / replace / set_turn / next_turn) ----
  Decision make(int kind, int player, std::initializer_list<int> data) const {
    check_index(kind, static_cast<int>(core_->kinds.size()), "decision kind");
    const auto &spec = core_->kinds[static_cast<size_t>(kind)];
    if (static_cast<int>(data.size()) != spec.ints + spec.seats)
      throw std::logic_error("decision " + spec.name + " carries another number of values");
    Decision d;
    d.kind = static_cast<int16_t>(kind);
    d.player = static_cast<int16_t>(player);
    d.len = static_cast<int16_t>(data.size());
    size_t i = 0;
    for (int v : data) d.data[i++] = static_cast<int16_t>(v);
    return d;
  }

  void push(int kind, int player, std::initializer_list<int> data = {}) {
    decisions.push_back(make(kind, player, data));
    show();
  }
  void replace(int kind, int player, std::initializer_list<int> data = {}) {
    decisions.back() = make(kind, player, data);
    show();
  }
  Decision pop() {
    Decision d = decisions.back();
    decisions.pop_back();
    show();
    return d;
  }
  void set_turn(int player) {
    at(core_->turn_seat, turn) = 0;
    turn = player;
    at(core_->turn_seat, player) = 1;
  }
  void next_turn(int kind, int player, std::initializer_list<int> data = {}) {
    set_turn(player);
    replace(kind, player, data);
  }
  void end_game() {
    decisions.clear();
    fill(core_->turn_seat, 0);
    show();
  }

  // The decision blocks show the top decision (all zeros once the game is over); the mask
  // is forgotten. BufferState._show.
  void show() {
    mask_valid_ = false;
    const auto &c = *core_;
    std::fill(buf + c.region_lo, buf + c.region_hi, int16_t{0});
    if (decisions.empty()) return;
    const Decision &d = decisions.back();
    const auto &spec = c.kinds[static_cast<size_t>(d.kind)];
    at(c.decision_kind, d.kind) = 1;
    at(c.decision_player, d.player) = 1;
    for (int i = 0; i < spec.ints; ++i) at(c.decision_data, i) = d.data[static_cast<size_t>(i)];
    for (int s = 0; s < spec.seats; ++s) {
      const int seat = d.data[static_cast<size_t>(spec.ints + s)];
      if (seat >= 0) at(c.decision_seat, s, seat) = 1;
    }
  }

  // After a change made other than by apply (test positions): BufferState.edited.
  void edited() { show(); }

  // Every pending decision's kind, player and values within what its kind declares, before
  // the rules index by them (a state from Python). A seat value is a seat, or -1 ("none")
  // where the game's kinds allow it (`lowest_seat` -1); the game then checks what its own
  // rules read of a decision.
  void check_decisions(int lowest_seat) const {
    for (const auto &d : decisions) check_declared(d, lowest_seat);
  }

  // One decision, as check_decisions checks each (a game whose rules read the pending
  // decision before every mask checks that one alone there).
  void check_declared(const Decision &d, int lowest_seat) const {
    const auto &c = *core_;
    if (d.kind < 0 || d.kind >= static_cast<int>(c.kinds.size())) throw BadInput("decisions: unknown kind");
    if (d.player < 0 || d.player >= c.num_players) throw BadInput("decisions: the player is not a seat");
    const auto &spec = c.kinds[static_cast<size_t>(d.kind)];
    if (d.len != spec.ints + spec.seats) throw BadInput("decisions: " + spec.name + " carries another number of values");
    for (int i = 0; i < spec.ints; ++i)
      if (d.data[static_cast<size_t>(i)] < 0 || d.data[static_cast<size_t>(i)] > spec.int_high[static_cast<size_t>(i)])
        throw BadInput("decisions: " + spec.name + " carries a value out of range");
    for (int k = 0; k < spec.seats; ++k) {
      const int seat = d.data[static_cast<size_t>(spec.ints + k)];
      if (seat < lowest_seat || seat >= c.num_players) throw BadInput("decisions: " + spec.name + " names no seat");
    }
  }

  std::shared_ptr<const CoreTables> core_;
  std::shared_ptr<std::vector<int16_t>> buffer_;
  int16_t *buf;
  std::vector<Decision> decisions;
  int turn = 0;
  Pcg64 rng;

 protected:
  std::vector<int8_t> mask_;
  bool mask_valid_ = false;
};

// The validated apply and the cached mask, for a game state class S deriving from
// EngineState<S> with fill_mask(const Decision&, int8_t*), apply_legal(const Decision&, int)
// and why(const Decision&, int) -> std::string ("" for the default reason).
template <class S>
class EngineState : public StateCore {
 public:
  using StateCore::StateCore;

  const std::vector<int8_t> &legal_mask() {
    if (!mask_valid_) {
      std::fill(mask_.begin(), mask_.end(), int8_t{0});
      if (!decisions.empty()) self().fill_mask(decisions.back(), mask_.data());
      mask_valid_ = true;
    }
    return mask_;
  }

  // BufferState.apply: nothing changes when the action is refused, and the error names the
  // action, the player and why.
  void apply(int64_t action) {
    if (decisions.empty()) throw IllegalAction("the game is over; no action can be applied");
    const int64_t n = core_->num_actions;
    if (action < 0 || action >= n)
      throw IllegalAction("action " + std::to_string(action) + " is out of range 0.." + std::to_string(n - 1));
    const auto &mask = legal_mask();
    if (!mask[static_cast<size_t>(action)]) {
      const Decision &d = decisions.back();
      std::string reason = self().why(d, static_cast<int>(action));
      if (reason.empty())
        reason = "the pending decision is '" + core_->kinds[static_cast<size_t>(d.kind)].name + "' of player " +
                 std::to_string(d.player);
      throw IllegalAction("action " + std::to_string(action) + " (" + core_->action_names[static_cast<size_t>(action)] +
                          ") is illegal for player " + std::to_string(d.player) + ": " + reason);
    }
    mask_valid_ = false;
    const Decision d = decisions.back();
    self().apply_legal(d, static_cast<int>(action));
  }

  // A uniformly random legal action drawn from ``g`` (random play driven from C++).
  int random_legal(Pcg64 &g) {
    const auto &mask = legal_mask();
    const int count = count_legal(mask.data(), mask.size());
    if (count == 0) return -1;
    return nth_legal(mask.data(), mask.size(), static_cast<int>(draw_integer(g, static_cast<uint64_t>(count))));
  }

 private:
  S &self() { return static_cast<S &>(*this); }
};

// A game's state over its configuration's tables T (T holds ``core``, the game's ``config``,
// its buffer ``blocks`` and its ``actions``, looked up once by name): built from them, and
// copied with them shared. A game's State derives from GameState<State, Tables>.
template <class S, class T>
class GameState : public EngineState<S> {
 public:
  using Tables = T;

  explicit GameState(std::shared_ptr<const T> tables) : EngineState<S>(tables->core), tables_(std::move(tables)) {}

  const T &tables() const { return *tables_; }
  const std::shared_ptr<const T> &tables_ptr() const { return tables_; }

 protected:
  const auto &b() const { return tables_->blocks; }
  const auto &acts() const { return tables_->actions; }
  const auto &cfg() const { return tables_->config; }

 private:
  std::shared_ptr<const T> tables_;
};

// Blocks a game derives from others and writes only when the buffer is read whole (an
// observation, the global state, a state dict), such as distances found by a search, as its
// Python state writes them. A state class with show_derived_blocks() const has them written
// here before every such read; the buffer is the state's own, shared with nothing.
template <class S>
void show_derived_blocks(const S &s) {
  if constexpr (requires { s.show_derived_blocks(); }) s.show_derived_blocks();
}

}  // namespace forest::native
