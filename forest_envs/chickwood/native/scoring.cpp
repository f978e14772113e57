// Chickwood Forest's final scoring, as pure functions of counts (the Python rules' scoring
// module: the readings are recorded in its docstrings), and the ranks built from it.
#include <algorithm>

#include "../../core/native/results.hpp"
#include "state.hpp"

namespace forest::chickwood {

namespace {

// Each bust discards one chest of the (re-checked) majority type; the first tied type (the
// choice never changes a score: scoring.resolve_busts).
std::array<int, 4> resolve_busts(std::array<int, 4> chests, int busts) {
  for (int i = 0; i < busts; ++i) {
    auto top = std::max_element(chests.begin(), chests.end());
    if (*top == 0) break;
    *top -= 1;
  }
  return chests;
}

int chest_score(const std::array<int, 4> &chests) {
  int top = 0, sum = 0;
  for (int c : chests) {
    top = std::max(top, c);
    sum += c;
  }
  return top * top - (sum - top);
}

// The glory each seat gets from one village: rank by alms, a tie to the later-placed alms
// (scoring.village_awards), highest unlocked value first.
void village_awards(const std::vector<int> &spaces, const std::vector<int> &glory, const std::array<int, MAX_SPACES> &owners,
                    int num_players, int *awards) {
  int filled = 0;
  for (int o : owners) filled += o >= 0;
  std::vector<int> values;
  int start = 0;
  for (size_t r = 0; r < spaces.size(); ++r) {
    if (filled > start && glory[r] >= 0) values.push_back(glory[r]);
    start += spaces[r];
  }
  std::sort(values.begin(), values.end(), std::greater<int>());
  std::array<int, 8> count{}, last{};
  last.fill(-1);
  for (int s = 0; s < MAX_SPACES; ++s) {
    const int o = owners[static_cast<size_t>(s)];
    if (o >= 0) {
      count[static_cast<size_t>(o)] += 1;
      last[static_cast<size_t>(o)] = s;
    }
  }
  std::vector<int> ranking;
  for (int p = 0; p < num_players; ++p)
    if (count[static_cast<size_t>(p)] > 0) ranking.push_back(p);
  std::stable_sort(ranking.begin(), ranking.end(), [&](int x, int y) {
    const auto kx = std::make_pair(count[static_cast<size_t>(x)], last[static_cast<size_t>(x)]);
    const auto ky = std::make_pair(count[static_cast<size_t>(y)], last[static_cast<size_t>(y)]);
    return kx > ky;
  });
  for (size_t place = 0; place < ranking.size() && place < values.size(); ++place)
    awards[ranking[place]] = values[place];
}

}  // namespace

std::vector<Score> State::scores() const {
  const Blocks &B = b();
  const int n = num_players();
  std::vector<Score> out(static_cast<size_t>(n));
  for (int cell = 0; cell < MAX_CELLS; ++cell) {
    const int g = grid[static_cast<size_t>(cell)];
    if (g < 0) continue;
    std::array<int, MAX_SPACES> owners{};
    for (int s = 0; s < MAX_SPACES; ++s) owners[static_cast<size_t>(s)] = space_owner(cell, s);
    std::array<int, 8> awards{};
    village_awards(cfg().village_spaces[static_cast<size_t>(g)], cfg().village_glory[static_cast<size_t>(g)], owners, n,
                   awards.data());
    for (int p = 0; p < n; ++p) {
      out[static_cast<size_t>(p)].village_glory[static_cast<size_t>(cell)] = awards[static_cast<size_t>(p)];
      out[static_cast<size_t>(p)].villages += awards[static_cast<size_t>(p)];
    }
  }
  for (int p = 0; p < n; ++p) {
    Score &s = out[static_cast<size_t>(p)];
    auto held = [&](int k) { return static_cast<int>(get(B.collection, p, k)); };
    std::array<int, 4> chests{held(CHEST0), held(CHEST0 + 1), held(CHEST0 + 2), held(CHEST0 + 3)};
    const int busts = held(BUST);
    const std::array<int, 4> kept = busts ? resolve_busts(chests, busts) : chests;
    int before = 0, after = 0;
    for (int i = 0; i < 4; ++i) {
      before += chests[static_cast<size_t>(i)];
      after += kept[static_cast<size_t>(i)];
    }
    s.busts = busts ? before - after : 0;
    s.chests = chest_score(kept);
    int singles = 0;
    for (int i = 0; i < 4; ++i) singles += held(GARMENT0 + i) == 1;
    s.garments = 5 * singles;
    for (int i = 0; i < 3; ++i) s.jewelry += held(JEWEL0 + i) * JEWELRY_VALUE[static_cast<size_t>(i)];
    if (held(MAID) > 0) {
      int types = 0;
      for (int c : kept) types += c != 0;
      for (int k = GARMENT0; k < NUM_TREASURE_KINDS; ++k) types += held(k) != 0;
      s.maid = types;
    }
    s.henchmen = -3 * held(HENCHMAN);
    for (int v = 0; v < MAX_CASTLE; ++v) s.castles += get(B.castles_held, p, v) * (v + 1);
  }
  return out;
}

std::vector<int> State::totals() const {
  std::vector<int> out;
  for (const auto &s : scores()) out.push_back(s.total());
  return out;
}

// Most glory first; equal glory shares the place (competition ranks).
std::vector<int> State::ranks() const {
  return native::competition_ranks(totals());
}

}  // namespace forest::chickwood
