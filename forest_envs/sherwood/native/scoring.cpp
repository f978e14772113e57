// Sherwood Forest: the sixth round and the result (rules: scoring; facts.ranks). Each new bag
// of gold of the sixth round becomes one fame point, each new comrade two; the converted bags
// leave the camp. Most fame wins; ties: fewer outlaws under the oak, then more gold.
#include <algorithm>
#include <tuple>

#include "../../core/native/results.hpp"
#include "state.hpp"

namespace forest::sherwood {

void State::end_of_the_game() {
  const Blocks &B = b();
  int left = 0;
  for (int q = 0; q < num_players(); ++q) {
    at(B.fame, q) = static_cast<int16_t>(get(B.fame, q) + FINAL_GOLD_FAME * get(B.round_gold, q) +
                                         FINAL_COMRADE_FAME * get(B.round_comrades, q));
    const int leave = std::min(get(B.round_gold, q), get(B.gold, q));
    at(B.gold, q) = static_cast<int16_t>(get(B.gold, q) - leave);
    left += leave;
  }
  at(B.pit, 0) = static_cast<int16_t>(get(B.pit, 0) + left);
  end_game();
}

std::vector<int> State::ranks() const {
  const Blocks &B = b();
  const int n = num_players();
  std::vector<std::tuple<int, int, int>> keys;
  for (int p = 0; p < n; ++p) keys.emplace_back(get(B.fame, p), -get(B.oak, p), get(B.gold, p));
  return native::competition_ranks(keys);
}

// facts.scores' totals: each seat's fame.
std::vector<int> State::totals() const {
  std::vector<int> out;
  for (int p = 0; p < num_players(); ++p) out.push_back(get(b().fame, p));
  return out;
}

}  // namespace forest::sherwood
