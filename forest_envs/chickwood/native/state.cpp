// Chickwood Forest: setup, the round cycle, the secret discards and what follows from the
// state (the Python rules' state and game modules).
#include "state.hpp"

#include <algorithm>
#include <numeric>

namespace forest::chickwood {

using native::BadInput;
using native::Decision;

Tables::Tables(std::shared_ptr<const native::CoreTables> core_, Config config_, const native::NameTable &a)
    : core(std::move(core_)), config(std::move(config_)) {
  const int n = core->num_players;
  const auto &c = config;
  if (c.num_players != n) throw BadInput("config and layout disagree on the number of players");
  if (static_cast<int>(c.composition.size()) != NUM_KINDS || static_cast<int>(c.kind_names.size()) != NUM_KINDS)
    throw BadInput("composition and kind names need one entry per card kind");
  if (static_cast<int>(c.capacity.size()) != MAX_CASTLE || static_cast<int>(c.banner.size()) != MAX_CASTLE ||
      static_cast<int>(c.pile_cards.size()) != MAX_CASTLE)
    throw BadInput("capacity, banners and piles need one entry per castle value");
  for (int v : c.castle_values)
    if (v < 1 || v > MAX_CASTLE || c.banner[static_cast<size_t>(v - 1)].empty() ||
        c.banner[static_cast<size_t>(v - 1)].size() > 4)
      throw BadInput("a castle value in play has no banner of at most 4 plays");
  if (static_cast<int>(c.castle_values.size()) < n) throw BadInput("fewer castles than players");
  if (c.village_cards.size() > static_cast<size_t>(MAX_CELLS)) throw BadInput("more village cards than cells");
  if (c.village_spaces.size() != c.village_glory.size()) throw BadInput("village rows and glory disagree");
  for (int g : c.village_cards)
    if (g != FOREST && (g < 0 || g >= static_cast<int>(c.village_spaces.size())))
      throw BadInput("a village card that is no village");
  for (size_t v = 0; v < c.village_spaces.size(); ++v) {
    if (c.village_spaces[v].size() != c.village_glory[v].size()) throw BadInput("village rows and glory disagree");
    int total = 0;
    for (int s : c.village_spaces[v]) total += s;
    if (total < 0 || total > MAX_SPACES) throw BadInput("a village with more spaces than the layout holds");
    village_total_spaces.push_back(total);
  }
  if (c.adjacent.size() != static_cast<size_t>(MAX_CELLS + 1)) throw BadInput("adjacency needs 10 rows");
  for (const auto &row : c.adjacent)
    if (row.size() != static_cast<size_t>(MAX_CELLS)) throw BadInput("adjacency rows need 9 cells");
  if (c.hand_size < 1 || c.hand_size > 4) throw BadInput("hand size outside 1..4");

  const auto &L = core->layout;
  auto &B = blocks;
  const int K = NUM_KINDS, C = MAX_CASTLE, V = MAX_CELLS, S = MAX_SPACES;
  B.players_onehot = L.block("players_onehot", {4});
  B.legendary = L.block("legendary", {1});
  B.round_no = L.block("round_no", {1});
  B.deck_left = L.block("deck_left", {1});
  B.banner_pos = L.block("banner_pos", {4});
  B.castle_in_play = L.block("castle_in_play", {C});
  B.pile_left = L.block("pile_left", {C});
  B.castle_cards = L.block("castle_cards", {C});
  B.castle_faceup = L.block("castle_faceup", {C, K});
  B.spy_castle = L.block("spy_castle", {C});
  B.key_blocked = L.block("key_blocked", {C});
  B.box = L.block("box", {K});
  B.discard_public = L.block("discard_public", {K});
  B.cell_card = L.block("cell_card", {V, static_cast<int32_t>(c.village_spaces.size()) + 2});
  B.cell_filled = L.block("cell_filled", {V});
  B.snake_visited = L.block("snake_visited", {V});
  B.castle_raided_by = L.block("castle_raided_by", {C, n});
  B.castle_faceup_by = L.block("castle_faceup_by", {C, K, n});
  B.castle_fd_count = L.block("castle_fd_count", {C, n});
  B.alms_owner = L.block("alms_owner", {V, S, n});
  B.alms_count = L.block("alms_count", {V, n});
  B.player_castle = L.block("player_castle", {n, C});
  B.castles_held = L.block("castles_held", {n, C});
  B.order_pos = L.block("order_pos", {n, n});
  B.has_raided = L.block("has_raided", {n});
  B.banner = L.block("banner", {n, 4});
  B.collection = L.block("collection", {n, K});
  B.alms_left = L.block("alms_left", {n});
  B.hand_count = L.block("hand_count", {n});
  B.hand = L.block("hand", {n, K});
  B.fd_own = L.block("fd_own", {n, C, K});
  B.spy_view = L.block("spy_view", {n, C, K});
  B.discard_known = L.block("discard_known", {n, K});
  if (c.forest_cell < 0 || c.absent_cell < 0 || c.forest_cell >= B.cell_card.dims[1] ||
      c.absent_cell >= B.cell_card.dims[1])
    throw BadInput("cell_card classes out of range");

  auto &A = actions;
  A.play = native::action_block(a, "play", {K, C});
  A.spy = native::action_block(a, "spy", {C});
  A.raid = native::action_block(a, "raid", {C});
  A.key_use = native::action_block(a, "key_use", {});
  A.key_pass = native::action_block(a, "key_pass", {});
  A.alms = native::action_block(a, "alms", {V});
  A.ent_pick = native::action_block(a, "entertainers_pick", {V, S});
  A.ent_pass = native::action_block(a, "entertainers_pass", {});
  A.arrow_give = native::action_block(a, "arrow_give", {NUM_TREASURE_KINDS});
  A.arrow_take = native::action_block(a, "arrow_take", {MAX_OPPONENTS, NUM_TREASURE_KINDS});
  A.arrow_pass = native::action_block(a, "arrow_pass", {});
  A.beard_give = native::action_block(a, "beard_give", {MAX_OPPONENTS});
  A.beard_pass = native::action_block(a, "beard_pass", {});
  if (core->kinds.size() != static_cast<size_t>(kind::COUNT)) throw BadInput("Chickwood has 10 decision kinds");
}

State::State(std::shared_ptr<const Tables> tables)
    : GameState(tables), raids(static_cast<size_t>(tables->core->num_players)) {
  grid.fill(NO_CARD);
}

// rules: ChickwoodState.new
State State::new_game(std::shared_ptr<const Tables> tables, const native::Pcg64 &rng) {
  State s(std::move(tables));
  s.rng = rng;
  const Config &c = s.cfg();
  const Blocks &B = s.b();
  const int n = s.num_players();
  std::vector<int8_t> kinds;
  for (int k = 0; k < NUM_KINDS; ++k)
    for (int i = 0; i < c.composition[static_cast<size_t>(k)]; ++i) kinds.push_back(static_cast<int8_t>(k));
  s.deck = native::permutation(s.rng, std::move(kinds));
  std::vector<int> cells(c.village_cards.size());
  std::iota(cells.begin(), cells.end(), 0);
  cells = native::permutation(s.rng, std::move(cells));
  s.grid.fill(NO_CARD);
  for (size_t cell = 0; cell < cells.size(); ++cell)
    s.grid[cell] = static_cast<int8_t>(c.village_cards[static_cast<size_t>(cells[cell])]);
  s.lay_grid();
  s.at(B.players_onehot, n - 2) = 1;
  s.at(B.legendary, 0) = c.legendary ? 1 : 0;
  for (int v : c.castle_values) {
    s.at(B.castle_in_play, v - 1) = 1;
    s.at(B.pile_left, v - 1) = static_cast<int16_t>(c.pile_cards[static_cast<size_t>(v - 1)]);
  }
  // One castle of each value, shuffled; one to each player, the spare goes back.
  std::vector<int> starts = native::permutation(s.rng, c.castle_values);
  for (int p = 0; p < n; ++p) {
    const int v = starts[static_cast<size_t>(p)];
    s.at(B.pile_left, v - 1) -= 1;
    s.at(B.castles_held, p, v - 1) = 1;
    s.at(B.player_castle, p, v - 1) = 1;
  }
  s.fill(B.alms_left, ALMS_PER_PLAYER);
  s.order.clear();
  s.step = 0;
  s.end_stages.clear();
  s.discard_fd.clear();
  s.raids.assign(static_cast<size_t>(n), {});
  s.at(B.round_no, 0) = 1;
  s.push(kind::SCOUT, 0);
  s.start_round();
  return s;
}

// rules: lay_grid, the cell_card block written from the grid
void State::lay_grid() {
  const Blocks &B = b();
  fill(B.cell_card, 0);
  for (int cell = 0; cell < MAX_CELLS; ++cell) {
    const int g = grid[static_cast<size_t>(cell)];
    at(B.cell_card, cell, g >= 0 ? g : (g == FOREST ? cfg().forest_cell : cfg().absent_cell)) = 1;
  }
}

// rules: _start_round. Deal the hands; the turn order and banners follow the castles held.
void State::start_round() {
  const Blocks &B = b();
  const int n = num_players(), h = cfg().hand_size;
  if (static_cast<int>(deck.size()) < n * h) throw std::logic_error("a round starts without a full deal");
  for (int p = 0; p < n; ++p)
    for (int i = 0; i < h; ++i) at(B.hand, p, deck[static_cast<size_t>(p * h + i)]) += 1;
  deck.erase(deck.begin(), deck.begin() + n * h);
  fill(B.hand_count, static_cast<int16_t>(h));
  at(B.deck_left, 0) = static_cast<int16_t>(deck.size());
  std::vector<int> values(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) {
    const int16_t *held = row(B.player_castle) + p * MAX_CASTLE;
    values[static_cast<size_t>(p)] = static_cast<int>(std::max_element(held, held + MAX_CASTLE) - held);  // argmax
  }
  order.resize(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int8_t x, int8_t y) { return values[static_cast<size_t>(x)] < values[static_cast<size_t>(y)]; });
  fill(B.order_pos, 0);
  for (int pos = 0; pos < n; ++pos) {
    const int p = order[static_cast<size_t>(pos)];
    at(B.order_pos, p, pos) = 1;
    for (int i = 0; i < 4; ++i) at(B.banner, p, i) = 0;
    const auto &banner = cfg().banner[static_cast<size_t>(values[static_cast<size_t>(p)])];
    if (banner.empty()) throw BadInput("a player holds a castle that is not in this game");
    for (size_t i = 0; i < banner.size(); ++i) at(B.banner, p, static_cast<int>(i)) = static_cast<int16_t>(banner[i]);
  }
  step = 0;
  set_scout_turn();
}

// rules: _end_round
void State::end_round() {
  const Blocks &B = b();
  for (int c = 0; c < MAX_CASTLE; ++c)
    if (get(B.castle_cards, c)) discard_castle(c);
  fill(B.castle_raided_by, 0);
  fill(B.has_raided, 0);
  fill(B.spy_castle, 0);
  fill(B.spy_view, 0);
  if (static_cast<int>(deck.size()) >= num_players() * cfg().hand_size) {
    at(B.round_no, 0) += 1;
    start_round();
  } else {
    end_stage_game();
  }
}

// rules: _discard_castle. Face-up leftovers go public; face-down ones stay secret from all
// but their owner (and the spy who looked at that castle).
void State::discard_castle(int c) {
  const Blocks &B = b();
  for (int k = 0; k < NUM_KINDS; ++k) at(B.discard_public, k) += get(B.castle_faceup, c, k);
  const int spy = get(B.spy_castle, c) ? spier() : -1;
  for (int o = 0; o < num_players(); ++o) {
    const int spied_by = spy != o ? spy : -1;
    for (int k = 0; k < NUM_KINDS; ++k)
      for (int i = 0; i < get(B.fd_own, o, c, k); ++i)
        discard_fd.push_back({static_cast<int8_t>(k), static_cast<int8_t>(o), static_cast<int8_t>(spied_by)});
  }
  show_discards();
  clear_castle(c);
}

// rules: _show_discards, the discard_known block's only writer
void State::show_discards() {
  const Blocks &B = b();
  fill(B.discard_known, 0);
  for (const auto &card : discard_fd) {
    at(B.discard_known, card.owner, card.kind) += 1;
    if (card.spied_by >= 0) at(B.discard_known, card.spied_by, card.kind) += 1;
  }
}

void State::clear_castle(int c) {
  const Blocks &B = b();
  for (int k = 0; k < NUM_KINDS; ++k) {
    at(B.castle_faceup, c, k) = 0;
    for (int p = 0; p < num_players(); ++p) at(B.castle_faceup_by, c, k, p) = 0;
  }
  for (int p = 0; p < num_players(); ++p) {
    for (int k = 0; k < NUM_KINDS; ++k) {
      at(B.fd_own, p, c, k) = 0;
      at(B.spy_view, p, c, k) = 0;
    }
    at(B.castle_fd_count, c, p) = 0;
  }
  at(B.castle_cards, c) = 0;
}

int State::holder(int card) const {
  if (!cfg().legendary) return -1;
  for (int p = 0; p < num_players(); ++p)
    if (get(b().collection, p, card)) return p;
  return -1;
}

int State::spier() const {
  for (int c = 0; c < MAX_CASTLE; ++c)
    if (get(b().spy_castle, c)) return holder(SPY_GLASS);
  return -1;
}

int State::cell_spaces(int cell) const {
  const int g = grid[static_cast<size_t>(cell)];
  return g >= 0 ? tables().village_total_spaces[static_cast<size_t>(g)] : 0;
}

int State::space_owner(int cell, int space) const {
  for (int p = 0; p < num_players(); ++p)
    if (get(b().alms_owner, cell, space, p)) return p;
  return -1;
}

// --- dispatch by decision kind (the Python engine's table of handlers) ------------------------
void State::fill_mask(const Decision &d, int8_t *mask) const {
  switch (d.kind) {
    case kind::SCOUT: return mask_scout(d, mask);
    case kind::SPY: return mask_spy(d, mask);
    case kind::RAID: return mask_raid(d, mask);
    case kind::KEY:
      mask[acts().key_use.start] = 1;
      mask[acts().key_pass.start] = 1;
      return;
    case kind::ALMS: return mask_alms(d, mask);
    case kind::ENTERTAINERS_FIRST: return mask_entertainers_first(d, mask);
    case kind::ENTERTAINERS_SECOND: return mask_entertainers_second(d, mask);
    case kind::ARROW_GIVE: return mask_arrow_give(d, mask);
    case kind::ARROW_TAKE: return mask_arrow_take(d, mask);
    case kind::FAKE_BEARD: return mask_fake_beard(d, mask);
    default: throw std::logic_error("unknown decision kind");
  }
}

void State::apply_legal(const Decision &d, int a) {
  switch (d.kind) {
    case kind::SCOUT: return apply_scout(d, a);
    case kind::SPY: return apply_spy(d, a);
    case kind::RAID: return apply_raid(d, a);
    case kind::KEY: return apply_key(d, a);
    case kind::ALMS: return apply_alms(d, a);
    case kind::ENTERTAINERS_FIRST: return apply_entertainers_first(d, a);
    case kind::ENTERTAINERS_SECOND: return apply_entertainers_second(d, a);
    case kind::ARROW_GIVE: return apply_arrow_give(d, a);
    case kind::ARROW_TAKE: return apply_arrow_take(d, a);
    case kind::FAKE_BEARD: return apply_fake_beard(d, a);
    default: throw std::logic_error("unknown decision kind");
  }
}

// The why-illegal texts of scouting.py and raiding.py, word for word.
std::string State::why(const Decision &d, int a) const {
  const Blocks &B = b();
  const Actions &A = acts();
  const std::string castle = "castle ";
  switch (d.kind) {
    case kind::SCOUT: {
      if (!A.play.contains(a)) return "";
      const int k = A.play.first(a), c = A.play.second(a);
      if (!get(B.castle_in_play, c)) return castle + std::to_string(c + 1) + " is not in this game";
      if (get(B.hand, d.player, k) == 0) return cfg().kind_names[static_cast<size_t>(k)] + " is not in the player's hand";
      return castle + std::to_string(c + 1) + " already holds its maximum of " +
             std::to_string(cfg().capacity[static_cast<size_t>(c)]) + " cards";
    }
    case kind::SPY:
      return A.spy.contains(a) ? "only a castle holding others' face-down cards can be looked at" : "";
    case kind::RAID: {
      if (!A.raid.contains(a)) return "";
      const int c = A.raid.first(a);
      if (!get(B.castle_in_play, c)) return castle + std::to_string(c + 1) + " is not in this game";
      if (get(B.key_blocked, c))
        return "the key forces the raider to choose a castle other than " + std::to_string(c + 1);
      return castle + std::to_string(c + 1) + " was already raided this round";
    }
    case kind::ALMS:
      return A.alms.contains(a) ? "the village must be a village with a free space, not yet given to this "
                                  "round, and orthogonally next to the previous one"
                                : "";
    default:
      return "";
  }
}

// Every field within the ranges the rules index by, so that no state handed over from Python
// can make the rules read or write outside an array (the Python side checks the rest: what
// the cards add up to, which decision may be pending).
void State::check_fields() const {
  const int n = num_players();
  for (int8_t k : deck)
    if (k < 0 || k >= NUM_KINDS) throw BadInput("deck: a card kind outside 0..21");
  if (static_cast<int>(order.size()) != n) throw BadInput("order: one seat per player");
  std::vector<int> seen(static_cast<size_t>(n), 0);
  for (int8_t p : order) {
    if (p < 0 || p >= n || seen[static_cast<size_t>(p)]++) throw BadInput("order: not a permutation of the seats");
  }
  if (step < 0 || step > n * cfg().hand_size) throw BadInput("step: outside 0..players x hand size");
  for (int8_t st : end_stages)
    if (st != kind::ENTERTAINERS_FIRST && st != kind::ARROW_GIVE && st != kind::FAKE_BEARD)
      throw BadInput("end_stages: not an end stage");
  for (const auto &card : discard_fd)
    if (card.kind < 0 || card.kind >= NUM_KINDS || card.owner < 0 || card.owner >= n || card.spied_by < -1 ||
        card.spied_by >= n)
      throw BadInput("discard_fd: a card kind or seat out of range");
  for (int8_t g : grid)
    if (g != FOREST && g != NO_CARD && (g < 0 || g >= static_cast<int>(cfg().village_spaces.size())))
      throw BadInput("grid: not a village card");
  if (static_cast<int>(raids.size()) != n) throw BadInput("raids: one list per seat");
  for (const auto &r : raids)
    for (int8_t v : r)
      if (v < 1 || v > MAX_CASTLE) throw BadInput("raids: a castle value outside 1..6");
  if (turn < 0 || turn >= n) throw BadInput("turn: not a seat");
  // what a pending decision reads (the Python checks say it in words first: checks.py)
  for (const auto &d : decisions) {
    if (d.kind == kind::SCOUT && step >= n * cfg().hand_size) throw BadInput("step: too many plays for scouting");
    if ((d.kind == kind::RAID || d.kind == kind::KEY || d.kind == kind::ALMS) && step >= n)
      throw BadInput("step: too many raids for raiding");
    if (d.kind == kind::KEY && (d.len < 2 || d.data[1] < 0)) throw BadInput("decisions: the key names no raider");
  }
  check_decisions(-1);
}

}  // namespace forest::chickwood
