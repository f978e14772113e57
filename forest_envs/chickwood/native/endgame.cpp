// Chickwood Forest, "End of Game": the Legendary cards resolved right before the final
// scoring (travelling entertainers, golden arrow, fake beard) (the Python rules' endgame
// module). Scoring itself is scoring.cpp.
#include "state.hpp"

namespace forest::chickwood {

using native::Decision;

namespace {
// Each end stage and the Legendary card whose holder decides it, in the order they resolve.
constexpr std::array<std::array<int, 2>, 3> END_STAGES{
    {{kind::ENTERTAINERS_FIRST, ENTERTAINERS}, {kind::ARROW_GIVE, GOLDEN_ARROW}, {kind::FAKE_BEARD, FAKE_BEARD}}};

int card_of_stage(int stage) {
  for (const auto &[st, card] : END_STAGES)
    if (st == stage) return card;
  throw std::logic_error("not an end stage");
}
}  // namespace

void State::end_stage_game() {
  end_stages.clear();
  if (cfg().legendary)
    for (const auto &[st, card] : END_STAGES) end_stages.push_back(static_cast<int8_t>(st));
  next_end_stage();
}

// The holders of the end cards act in turn, each only when the card can change something.
void State::next_end_stage() {
  const Blocks &B = b();
  const int n = num_players();
  while (!end_stages.empty()) {
    const int stage = end_stages.front();
    end_stages.erase(end_stages.begin());
    const int who = holder(card_of_stage(stage));
    if (who < 0) continue;
    if (stage == kind::ENTERTAINERS_FIRST) {
      int first = -1;
      bool two = false;
      for (int cell = 0; cell < MAX_CELLS && !two; ++cell)
        for (int s = 0; s < MAX_SPACES && !two; ++s) {
          const int o = space_owner(cell, s);
          if (o < 0) continue;
          if (first < 0) first = o;
          else if (o != first) two = true;
        }
      if (!two) continue;
    } else if (stage == kind::ARROW_GIVE) {
      int with_treasure = 0;
      bool holder_has = false;
      for (int p = 0; p < n; ++p) {
        int t = 0;
        for (int k = 0; k < NUM_TREASURE_KINDS; ++k) t += get(B.collection, p, k);
        if (t > 0) {
          ++with_treasure;
          holder_has = holder_has || p == who;
        }
      }
      if (!holder_has || with_treasure < 2) continue;
    } else if (stage == kind::FAKE_BEARD && get(B.collection, who, HENCHMAN) == 0) {
      continue;
    }
    next_turn(stage, who);
    return;
  }
  end_game();
}

// --- the travelling entertainers ------------------------------------------------------------
// First pick: an alms of a seat that has a rival alms somewhere on the grid.
void State::mask_entertainers_first(const Decision &, int8_t *mask) const {
  std::array<int, MAX_CELLS * MAX_SPACES> owners{};
  std::array<int, 8> alms_of{};  // alms of each seat on the grid
  int occupied = 0;
  for (int i = 0; i < MAX_CELLS * MAX_SPACES; ++i) {
    owners[static_cast<size_t>(i)] = space_owner(i / MAX_SPACES, i % MAX_SPACES);
    if (owners[static_cast<size_t>(i)] >= 0) {
      ++occupied;
      ++alms_of[static_cast<size_t>(owners[static_cast<size_t>(i)])];
    }
  }
  int8_t *picks = mask + acts().ent_pick.start;
  for (int i = 0; i < MAX_CELLS * MAX_SPACES; ++i) {
    const int o = owners[static_cast<size_t>(i)];
    if (o >= 0 && occupied - alms_of[static_cast<size_t>(o)] > 0) picks[i] = 1;
  }
  mask[acts().ent_pass.start] = 1;
}

void State::apply_entertainers_first(const Decision &d, int a) {
  if (a == acts().ent_pass.start)
    next_end_stage();
  else
    replace(kind::ENTERTAINERS_SECOND, d.player, {a - acts().ent_pick.start});
}

// Second pick: an alms of another seat than the first pick's.
void State::mask_entertainers_second(const Decision &d, int8_t *mask) const {
  const int first_pick = d[0];
  const int first = space_owner(first_pick / MAX_SPACES, first_pick % MAX_SPACES);
  int8_t *picks = mask + acts().ent_pick.start;
  for (int i = 0; i < MAX_CELLS * MAX_SPACES; ++i) {
    const int o = space_owner(i / MAX_SPACES, i % MAX_SPACES);
    picks[i] = o >= 0 && o != first ? 1 : 0;
  }
}

void State::apply_entertainers_second(const Decision &d, int a) {
  const int first_pick = d[0];
  swap_alms(first_pick / MAX_SPACES, first_pick % MAX_SPACES, acts().ent_pick.first(a), acts().ent_pick.second(a));
  next_end_stage();
}

// Swap two alms: each takes the space, and so the rank, of the one it replaces.
void State::swap_alms(int ca, int sa, int cb, int sb) {
  const Blocks &B = b();
  const int n = num_players();
  for (int p = 0; p < n; ++p) std::swap(at(B.alms_owner, ca, sa, p), at(B.alms_owner, cb, sb, p));
  for (int cell : {ca, cb})
    for (int p = 0; p < n; ++p) {
      int count = 0;
      for (int s = 0; s < MAX_SPACES; ++s) count += get(B.alms_owner, cell, s, p);
      at(B.alms_count, cell, p) = static_cast<int16_t>(count);
    }
}

// --- the golden arrow ------------------------------------------------------------------------
void State::mask_arrow_give(const Decision &d, int8_t *mask) const {
  for (int k = 0; k < NUM_TREASURE_KINDS; ++k) mask[acts().arrow_give.id(k)] = get(b().collection, d.player, k) > 0;
  mask[acts().arrow_pass.start] = 1;
}

void State::apply_arrow_give(const Decision &d, int a) {
  if (a == acts().arrow_pass.start)
    next_end_stage();
  else
    replace(kind::ARROW_TAKE, d.player, {acts().arrow_give.first(a)});
}

void State::mask_arrow_take(const Decision &d, int8_t *mask) const {
  const int p = d.player, n = num_players();
  for (int r = 0; r < n - 1; ++r)
    for (int k = 0; k < NUM_TREASURE_KINDS; ++k)
      mask[acts().arrow_take.id(r, k)] = get(b().collection, (p + r + 1) % n, k) > 0;
}

void State::apply_arrow_take(const Decision &d, int a) {
  const Blocks &B = b();
  const int give = d[0], p = d.player;
  const int r = acts().arrow_take.first(a), take = acts().arrow_take.second(a);
  const int o = (p + r + 1) % num_players();
  at(B.collection, p, give) -= 1;
  at(B.collection, o, give) += 1;
  at(B.collection, o, take) -= 1;
  at(B.collection, p, take) += 1;
  next_end_stage();
}

// --- the fake beard --------------------------------------------------------------------------
void State::mask_fake_beard(const Decision &, int8_t *mask) const {
  for (int r = 0; r < num_players() - 1; ++r) mask[acts().beard_give.id(r)] = 1;
  mask[acts().beard_pass.start] = 1;
}

void State::apply_fake_beard(const Decision &d, int a) {
  if (acts().beard_give.contains(a)) {
    const int p = d.player;
    const int o = (p + acts().beard_give.first(a) + 1) % num_players();
    at(b().collection, p, HENCHMAN) -= 1;
    at(b().collection, o, HENCHMAN) += 1;
  }
  next_end_stage();
}

}  // namespace forest::chickwood
