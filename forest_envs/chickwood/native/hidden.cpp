// Chickwood Forest's determinization for search: every card a seat cannot know is redealt at
// random into the same places (the Python state's resample_hidden, draw for draw).
#include <algorithm>

#include "state.hpp"

namespace forest::chickwood {

State State::resample_hidden(int seat, native::Pcg64 &g) const {
  if (seat < 0 || seat >= num_players()) throw native::BadInput("resample_hidden: not a seat");
  State fresh(*this);
  const Blocks &B = b();
  const int n = num_players();
  const int spy = spier();
  std::vector<int8_t> pool(deck.begin(), deck.end());
  std::vector<int> others;
  for (int o = 0; o < n; ++o)
    if (o != seat) others.push_back(o);
  auto add_counts = [&](const int16_t *counts) {
    for (int k = 0; k < NUM_KINDS; ++k)
      for (int i = 0; i < counts[k]; ++i) pool.push_back(static_cast<int8_t>(k));
  };
  for (int o : others) add_counts(fresh.row(B.hand) + o * NUM_KINDS);
  std::vector<int> hidden_castles;
  for (int c = 0; c < MAX_CASTLE; ++c)
    if (!(spy == seat && get(B.spy_castle, c))) hidden_castles.push_back(c);
  for (int o : others)
    for (int c : hidden_castles) add_counts(fresh.row(B.fd_own) + (o * MAX_CASTLE + c) * NUM_KINDS);
  std::vector<size_t> secret;
  for (size_t i = 0; i < fresh.discard_fd.size(); ++i)
    if (!fresh.discard_fd[i].known_to(seat)) {
      secret.push_back(i);
      pool.push_back(fresh.discard_fd[i].kind);
    }
  // sorted first, so that the redeal depends only on what the seat knows
  std::sort(pool.begin(), pool.end());
  native::shuffle_in_place(g, pool);
  size_t pos = 0;
  auto take = [&]() {
    if (pos >= pool.size()) throw std::logic_error("resample_hidden: more places than hidden cards");
    return pool[pos++];
  };
  for (auto &k : fresh.deck) k = take();
  auto redeal = [&](int16_t *counts) {
    int total = 0;
    for (int k = 0; k < NUM_KINDS; ++k) total += counts[k];
    std::fill(counts, counts + NUM_KINDS, int16_t{0});
    for (int i = 0; i < total; ++i) counts[take()] += 1;
  };
  for (int o : others) redeal(fresh.row(B.hand) + o * NUM_KINDS);
  for (int o : others)
    for (int c : hidden_castles) redeal(fresh.row(B.fd_own) + (o * MAX_CASTLE + c) * NUM_KINDS);
  for (size_t i : secret) fresh.discard_fd[i].kind = take();
  fresh.show_discards();
  if (spy >= 0 && spy != seat) {
    for (int c = 0; c < MAX_CASTLE; ++c) {
      if (!get(B.spy_castle, c)) continue;
      for (int k = 0; k < NUM_KINDS; ++k) {
        int others_cards = 0;
        for (int o = 0; o < n; ++o)
          if (o != spy) others_cards += fresh.get(B.fd_own, o, c, k);
        fresh.at(B.spy_view, spy, c, k) = static_cast<int16_t>(others_cards);
      }
    }
  }
  // The determinization gets its own chance: future draws are hidden too (_resampled).
  fresh.rng = native::Pcg64::from_seed(static_cast<uint64_t>(native::draw_integer(g, uint64_t{1} << 63)));
  fresh.edited();
  return fresh;
}

}  // namespace forest::chickwood
