// Results, as core/results.py states them: the competition ranks by which each game states its
// tie-breaks, and the reward modes every native loop shares (the batch, the search): win, rank
// and score, as returns_from_ranks gives them, with the concept of a game with points.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "checked.hpp"

namespace forest::native {

// A game with points gives each seat's total (the "score" reward mode needs them).
template <class S>
concept HasTotals = requires(const S &cs) {
  { cs.totals() } -> std::convertible_to<std::vector<int>>;
};

// competition_ranks (core/results.py): rank 1 + the number of seats with a strictly better key
// (higher is better; a std::tuple compares in order, which is how a game states its tie-breaks).
template <class Key>
std::vector<int> competition_ranks(const std::vector<Key> &keys) {
  std::vector<int> out;
  out.reserve(keys.size());
  for (const auto &k : keys) {
    int better = 0;
    for (const auto &other : keys) better += other > k;
    out.push_back(1 + better);
  }
  return out;
}

enum class RewardMode { Win, Rank, Score };

inline RewardMode reward_mode_from_name(const std::string &name) {
  if (name == "win") return RewardMode::Win;
  if (name == "rank") return RewardMode::Rank;
  if (name == "score") return RewardMode::Score;
  throw BadInput("unknown reward mode '" + name + "'; expected one of win, rank, score");
}

// returns_from_ranks (core/results.py), term for term in double, stored as Out (float32 for the
// batch's arrays, double for the search's backups).
template <class Out>
void returns_from_ranks(const std::vector<int> &ranks, RewardMode mode, const std::vector<int> *totals,
                        double score_scale, Out *out) {
  const size_t n = ranks.size();
  switch (mode) {
    case RewardMode::Win: {
      const auto k = std::count(ranks.begin(), ranks.end(), 1);
      for (size_t p = 0; p < n; ++p) out[p] = ranks[p] == 1 ? static_cast<Out>(1.0 / static_cast<double>(k)) : Out{0};
      return;
    }
    case RewardMode::Rank:
      for (size_t p = 0; p < n; ++p)
        out[p] = static_cast<Out>(static_cast<double>(static_cast<int>(n) - ranks[p]) / static_cast<double>(n - 1));
      return;
    case RewardMode::Score: {
      if (totals == nullptr || totals->size() != n) throw std::logic_error("the score reward needs every seat's total");
      int64_t total = 0;
      for (int s : *totals) total += s;
      for (size_t p = 0; p < n; ++p) {
        const int64_t own = (*totals)[p];
        out[p] = static_cast<Out>(
            (static_cast<double>(own) - static_cast<double>(total - own) / static_cast<double>(n - 1)) / score_scale);
      }
      return;
    }
  }
}

}  // namespace forest::native
