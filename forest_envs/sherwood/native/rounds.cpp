// Sherwood Forest: setup and the round (rules: rounds). A round: the preparation phase, in
// turn order from the holder of the starting player figure, until every camp is empty; then
// the attack phase, until the laid-out travellers run out. The sixth round's end is the
// game's (scoring.cpp).
#include <algorithm>

#include "state.hpp"

namespace forest::sherwood {

// rules: Rounds.new (rulebook, "Setup"; the additions' "Before the Game")
State State::new_game(std::shared_ptr<const Tables> tables, const native::Pcg64 &rng) {
  State s(std::move(tables));
  s.rng = rng;
  const Config &c = s.cfg();
  const Blocks &B = s.b();
  const int n = s.num_players();
  for (const std::vector<int> *deck : {&c.deck_a, &c.deck_b}) {
    const std::vector<int> ids = native::permutation(s.rng, *deck);
    const size_t cut = std::min(ids.size(), static_cast<size_t>(c.deck_cards));
    s.pile.insert(s.pile.end(), ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(cut));
    s.box.insert(s.box.end(), ids.begin() + static_cast<std::ptrdiff_t>(cut), ids.end());
  }
  if (!c.additions) s.box.insert(s.box.end(), c.sheriff_ids.begin(), c.sheriff_ids.end());
  std::sort(s.box.begin(), s.box.end());
  s.equip_deck = native::permutation(s.rng, c.equipment_deck);
  s.slots.assign(MAX_SLOTS, -1);
  s.round_index = 0;
  s.at(B.players_onehot, n - 3) = 1;
  s.at(B.additions, 0) = c.additions ? 1 : 0;
  s.fill(B.camp, BAND_START);
  s.fill(B.oak, OAK_START);
  s.fill(B.gold, GOLD_START);
  s.at(B.pit, 0) = static_cast<int16_t>(GOLD_BAGS - GOLD_START * n);
  s.at(B.equip_left, 0) = static_cast<int16_t>(s.equip_deck.size());
  s.at(B.figure, static_cast<int>(native::draw_integer(s.rng, static_cast<uint64_t>(n)))) = 1;
  s.push(kind::PREP, 0, {0});
  s.start_round();
  return s;
}

void State::start_round() {
  const Blocks &B = b();
  ++round_index;
  at(B.round_no, 0) = static_cast<int16_t>(round_index);
  at(B.attack_phase, 0) = 0;
  fill(B.emptied, 0);
  lay_out();
  next_turn(kind::PREP, figure_seat(), {0});
}

// The next seat clockwise after ``after`` with outlaws in camp, or the attacks ("End: the
// preparation phase ends when all camps are empty").
void State::next_prep(int after) {
  for (int p : seats_from(after + 1))
    if (get(b().camp, p) > 0) {
      next_turn(kind::PREP, p, {0});
      return;
    }
  start_attacks();
}

// Seats whose camps may just have emptied, in the order the rewards go to them ("End of
// Preparation": the first a fame point, the second the starting player card).
void State::note_emptied(const std::vector<int> &seats) {
  const Blocks &B = b();
  int rank = -1;
  for (int p : seats) {
    if (get(B.camp, p) == 0 && get(B.emptied, p) == 0) {
      if (rank < 0) {
        rank = 0;
        for (int q = 0; q < num_players(); ++q) rank += get(B.emptied, q) != 0;
      }
      ++rank;
      at(B.emptied, p) = static_cast<int16_t>(rank);
      if (rank == FIRST_TO_EMPTY) {
        at(B.fame, p) = static_cast<int16_t>(at(B.fame, p) + FIRST_EMPTY_FAME);
      } else if (rank == SECOND_TO_EMPTY) {
        fill(B.card_holder, 0);
        at(B.card_holder, p) = 1;
      }
    }
  }
}

// Rulebook, "END OF THE ROUND": everyone home, new travellers, the figure to the poorest (the
// additions first give the fork bonus and clear the agreements).
void State::end_round() {
  const Blocks &B = b();
  const int n = num_players();
  if (cfg().additions) {
    fork_bonus();
    end_agreements();
  }
  for (int q = 0; q < n; ++q) {
    int back = row_sum(B.places, q);
    for (int a = 0; a < NUM_AMBUSHES; ++a) back += get(B.ambush_outlaws, a, q);
    at(B.camp, q) = static_cast<int16_t>(get(B.camp, q) + back);
  }
  fill(B.places, 0);
  fill(B.ambush_outlaws, 0);
  fill(B.ambush_leader, 0);
  std::vector<int> all(NUM_AMBUSHES);
  for (int a = 0; a < NUM_AMBUSHES; ++a) all[static_cast<size_t>(a)] = a;
  return_promised(all);
  if (round_index >= ROUNDS) {
    end_of_the_game();
    return;
  }
  fill(B.round_gold, 0);
  fill(B.round_comrades, 0);
  // The poorest player (the figure's holder excluded) takes the figure; ties go to the first
  // tied player clockwise from the previous holder.
  const int prev = figure_seat();
  int best = -1;
  for (int p : seats_from(prev + 1)) {
    if (p == prev) continue;
    if (best < 0 || get(B.gold, p) < get(B.gold, best)) best = p;
  }
  fill(B.figure, 0);
  at(B.figure, best) = 1;
  start_round();
}

// (Additions) Provisions, agreements, loot laid out in advance and pledges end with the round.
void State::end_agreements() {
  const Blocks &B = b();
  const int n = num_players();
  fill(B.provisioned, 0);
  std::vector<int> ambushes;
  for (const auto &e : targets) ambushes.push_back(e.first);
  for (int amb : ambushes) void_agreement(amb);
  int laid = 0;
  for (int i = 0; i < B.advance.size; ++i) laid += buf[B.advance.offset + i];
  at(B.pit, 0) = static_cast<int16_t>(get(B.pit, 0) + laid);
  fill(B.advance, 0);
  for (int q = 0; q < n; ++q) {
    int c = 0;
    for (int a = 0; a < NUM_AMBUSHES; ++a) c += get(B.advance_comrades, a, q);
    at(B.oak, q) = static_cast<int16_t>(get(B.oak, q) + c);
  }
  fill(B.advance_comrades, 0);
  fill(B.pledged, 0);
}

// (Additions) The most outlaws in the four red-circled forks: one more outlaw from under the
// oak for every tied contender with a figure there.
void State::fork_bonus() {
  const Blocks &B = b();
  const int n = num_players();
  std::vector<int> in_forks(static_cast<size_t>(n), 0);
  int top = 0;
  for (int q = 0; q < n; ++q) {
    for (int f : RED_FORKS) in_forks[static_cast<size_t>(q)] += get(B.ambush_outlaws, f, q);
    top = std::max(top, in_forks[static_cast<size_t>(q)]);
  }
  fill(B.fork_bonus, 0);
  if (top == 0) return;
  for (int q = 0; q < n; ++q)
    if (in_forks[static_cast<size_t>(q)] == top && get(B.oak, q) > 0) {
      at(B.oak, q) = static_cast<int16_t>(get(B.oak, q) - 1);
      at(B.camp, q) = static_cast<int16_t>(get(B.camp, q) + 1);
      at(B.fork_bonus, q) = 1;
    }
}

}  // namespace forest::sherwood
