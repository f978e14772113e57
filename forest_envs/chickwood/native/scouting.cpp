// Chickwood Forest, "Sequence of Play: 1. Scout the Castles", and the spy glass (Legendary
// variant) right before the first raid (the Python rules' scouting module).
#include "state.hpp"

namespace forest::chickwood {

using native::Decision;

void State::set_scout_turn() {
  const int n = num_players();
  fill(b().banner_pos, 0);
  at(b().banner_pos, step / n) = 1;
  next_turn(kind::SCOUT, order[static_cast<size_t>(step % n)]);
}

// A hand card to any castle in play below its limit.
void State::mask_scout(const Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  std::array<int8_t, MAX_CASTLE> open{};
  for (int c = 0; c < MAX_CASTLE; ++c)
    open[static_cast<size_t>(c)] =
        get(B.castle_in_play, c) && get(B.castle_cards, c) < cfg().capacity[static_cast<size_t>(c)] ? 1 : 0;
  for (int k = 0; k < NUM_KINDS; ++k) {
    if (!get(B.hand, d.player, k)) continue;
    int8_t *plays = mask + acts().play.id(k, 0);
    for (int c = 0; c < MAX_CASTLE; ++c) plays[c] = open[static_cast<size_t>(c)];
  }
}

void State::apply_scout(const Decision &d, int a) {
  const Blocks &B = b();
  const int k = acts().play.first(a), c = acts().play.second(a);
  const int p = d.player, n = num_players();
  at(B.hand, p, k) -= 1;
  at(B.hand_count, p) -= 1;
  if (get(B.banner, p, step / n)) {
    at(B.fd_own, p, c, k) += 1;
    at(B.castle_fd_count, c, p) += 1;
  } else {
    at(B.castle_faceup, c, k) += 1;
    at(B.castle_faceup_by, c, k, p) += 1;
  }
  at(B.castle_cards, c) += 1;
  step += 1;
  if (step < n * cfg().hand_size) {
    set_scout_turn();
    return;
  }
  fill(B.banner_pos, 0);
  const int spy = holder(SPY_GLASS);
  if (spy >= 0 && any_spy_target(spy))
    next_turn(kind::SPY, spy);
  else
    begin_raids();
}

// --- the spy glass ---------------------------------------------------------------------------
// A castle holding face-down cards of another player than p.
bool State::spy_target(int p, int c) const {
  int others = 0;
  for (int o = 0; o < num_players(); ++o)
    if (o != p) others += get(b().castle_fd_count, c, o);
  return others > 0;
}

bool State::any_spy_target(int p) const {
  for (int c = 0; c < MAX_CASTLE; ++c)
    if (spy_target(p, c)) return true;
  return false;
}

void State::mask_spy(const Decision &d, int8_t *mask) const {
  for (int c = 0; c < MAX_CASTLE; ++c) mask[acts().spy.id(c)] = spy_target(d.player, c) ? 1 : 0;
}

void State::apply_spy(const Decision &d, int a) {
  const Blocks &B = b();
  const int p = d.player, c = acts().spy.first(a);
  at(B.spy_castle, c) = 1;
  for (int k = 0; k < NUM_KINDS; ++k) {
    int others = 0;
    for (int o = 0; o < num_players(); ++o)
      if (o != p) others += get(B.fd_own, o, c, k);
    at(B.spy_view, p, c, k) = static_cast<int16_t>(others);
  }
  begin_raids();
}

}  // namespace forest::chickwood
