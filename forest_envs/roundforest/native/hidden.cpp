// Roundforest's determinization for search: another seat's face-down card is redrawn from the
// cards it could be, the Prince's secret draws from the bag (the Python state's
// resample_hidden, draw for draw).
#include <algorithm>

#include "state.hpp"

namespace forest::roundforest {

State State::resample_hidden(int seat, native::Pcg64 &g) const {
  if (seat < 0 || seat >= num_players()) throw native::BadInput("resample_hidden: not a seat");
  State fresh(*this);
  const Blocks &B = b();
  for (int o = 0; o < num_players(); ++o) {
    if (o == seat) continue;
    bool holds_card = false;
    for (int c = 0; c < NUM_CHARACTERS; ++c) holds_card = holds_card || fresh.get(B.drawn_card, o, c);
    if (holds_card) {
      // the card it could be: any in the pile but the Forest Spirit and, when chosen with the
      // Beggar, the Beggar
      const int c = fresh.drawn_of(o);
      bool beggar = false;
      if (!fresh.decisions.empty() && fresh.decisions.back().kind == kind::CHARACTER)
        beggar = fresh.decisions.back()[0] == 1;
      std::vector<int8_t> pool;
      for (int8_t x : fresh.pile)
        if (x != SPIRIT && !(beggar && x == BEGGAR)) pool.push_back(x);
      if (c != SPIRIT && !(beggar && c == BEGGAR)) pool.push_back(static_cast<int8_t>(c));
      if (pool.empty()) throw std::logic_error("resample_hidden: no card the drawn one could be");
      std::sort(pool.begin(), pool.end());
      const int pick = pool[static_cast<size_t>(native::draw_integer(g, pool.size()))];
      std::vector<int8_t> rest;
      for (int8_t x : fresh.pile)
        if (x != pick) rest.push_back(x);
      if (pick != c) rest.push_back(static_cast<int8_t>(c));
      fresh.pile = std::move(rest);
      for (int x = 0; x < NUM_CHARACTERS; ++x) fresh.at(B.drawn_card, o, x) = 0;
      fresh.at(B.drawn_card, o, pick) = 1;
    }
    int held = 0;
    for (int k = 0; k < NUM_ITEMS; ++k) held += fresh.get(B.prince_items, o, k);
    if (held) {
      // other draws of as many tokens, at least one of which fits
      for (int i = 0; i < PRINCE_REDRAWS; ++i) {
        const auto draw = fresh.peek_items(g, held);
        bool any = false;
        for (int k = 0; k < NUM_ITEMS; ++k)
          if (draw[static_cast<size_t>(k)] && fresh.fits(o, k)) any = true;
        if (any) {
          std::copy(draw.begin(), draw.end(), fresh.row(B.prince_items) + o * NUM_ITEMS);
          break;
        }
      }
    }
  }
  // Cards are drawn from the pile at random, so its order means nothing; sorted, the result
  // depends only on what the seat knows.
  std::sort(fresh.pile.begin(), fresh.pile.end());
  // The determinization gets its own chance: future draws are hidden too (_resampled).
  fresh.rng = native::Pcg64::from_seed(static_cast<uint64_t>(native::draw_integer(g, uint64_t{1} << 63)));
  fresh.edited();
  return fresh;
}

}  // namespace forest::roundforest
