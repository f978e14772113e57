// The native ismcts: single-observer information-set MCTS over a game's native State, the
// algorithm of agents/search/tree.py (docs/search.md, "The algorithm") in C++:
//
//   determinize  the root's resample_hidden(seat, rng): a state the seat cannot tell from the
//                true one
//   descend      select and expand: an open-loop tree (a history of actions from the root has
//                one node per deciding seat); at each node, among the actions legal in this
//                determinization, an untried one first (uniformly; with a policy prior, the
//                most likely, within the widening), else UCB1 with availability counts,
//                W/N + c * w * sqrt(log(avail)/N) (w: the prior's p(a)/max p, else 1)
//   rollout      uniform random (or a policy's) moves until the game ends, ``depth`` moves
//                or the env's step limit
//   rewards      per seat from the game's ranks (win, rank) or point totals (score), of the
//                finished game or the unfinished position at the depth cap; nothing at the
//                env's step limit
//   back_up      each action of the path credited with the reward of the seat that chose it
//
// and the move: the root action with the most tries (ties: the higher mean, then the lower
// id). It draws from its own PCG64 seeded by the caller, so a seed gives one search (with a
// sims budget alone); it does not repeat the Python search's draws.
//
// A game's State needs: resample_hidden(seat, Pcg64&) -> State, legal_mask(), apply(a),
// is_terminal(), current_player(), num_players(), ranks(), core().layout.observe (for a
// policy) and, for the score mode, scores() whose items have total().
#pragma once

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>


#include "checked.hpp"
#include "mask_scan.hpp"
#include "policy.hpp"
#include "results.hpp"
#include "rng.hpp"

namespace forest::native {

struct SearchOptions {
  int64_t sims = 1000;      // simulations; 0: no limit (the time budget alone)
  double seconds = 0.0;     // wall time; 0: no limit (the sims budget alone)
  double c = 0.7;           // UCB1's exploration constant
  int64_t depth = 20;       // rollout moves before the position is evaluated; -1: to the end
  int64_t steps_left = -1;  // actions until the env truncates the game; -1: it never does
  RewardMode reward = RewardMode::Rank;
  double score_scale = 1.0;  // the score mode divides point differences by this
  uint64_t seed = 0;
  std::shared_ptr<const Mlp> prior;    // a policy prior (none: plain expansion and UCB1)
  bool prior_at_root_only = false;     // prior_at=root
  bool widen_all = false;              // widen=all (else sqrt)
  std::shared_ptr<const Mlp> rollout;  // a policy's rollouts (none: uniform random)
  bool greedy = false;                 // pick=greedy (else sample)
  std::function<void()> poll;          // called every kPollEvery simulations (may throw)

  // BadInput naming the option that cannot be searched with.
  void check() const {
    if (sims < 0) throw BadInput("search: sims must be >= 0 (0: no limit)");
    if (!(seconds >= 0.0) || !std::isfinite(seconds)) throw BadInput("search: seconds must be a finite number >= 0");
    if (sims == 0 && seconds == 0.0) throw BadInput("search: needs a budget (sims and/or seconds)");
    if (!(c >= 0.0) || !std::isfinite(c)) throw BadInput("search: c must be a finite number >= 0");
    if (depth < -1) throw BadInput("search: depth must be >= 0, or -1 for none");
    if (steps_left < -1) throw BadInput("search: steps_left must be >= 0, or -1 for none");
    if (!(score_scale > 0.0) || !std::isfinite(score_scale)) throw BadInput("search: score_scale must be > 0");
  }
};

// One (history, deciding seat)'s statistics of one action.
struct SearchEdge {
  int32_t action = 0;
  int32_t child = -1;      // the history after this action, once expanded
  uint32_t tries = 0;      // simulations that chose it here (N)
  uint32_t available = 0;  // simulations in which it was legal here
  double reward_sum = 0.0;  // the deciding seat's rewards they brought back (W)
};

// What the search knows of one deciding seat after one history.
struct SearchNode {
  std::vector<SearchEdge> edges;   // the actions ever legal here, by id
  uint32_t guided_visits = 0;      // visits that consulted the prior (the widening counts them)
  std::vector<float> prior_logits;  // the policy prior's, from the first guided visit
};

// The open-loop tree: histories (0 is the root) and each one's node per deciding seat.
class SearchTree {
 public:
  explicit SearchTree(int num_players) : num_players_(num_players) { new_history(); }

  int32_t new_history() {
    node_of_.insert(node_of_.end(), static_cast<size_t>(num_players_), -1);
    return histories() - 1;
  }
  int32_t histories() const { return static_cast<int32_t>(node_of_.size() / static_cast<size_t>(num_players_)); }
  int num_players() const { return num_players_; }

  // The node of ``seat`` after ``history`` (-1: that seat never decided there).
  int32_t find(int32_t history, int seat) const {
    check_index(history, histories(), "search history");
    check_index(seat, num_players_, "search seat");
    return node_of_[static_cast<size_t>(history) * static_cast<size_t>(num_players_) + static_cast<size_t>(seat)];
  }
  // ... made on its first visit.
  int32_t node(int32_t history, int seat) {
    int32_t found = find(history, seat);
    if (found < 0) {
      found = static_cast<int32_t>(nodes.size());
      nodes.emplace_back();
      node_of_[static_cast<size_t>(history) * static_cast<size_t>(num_players_) + static_cast<size_t>(seat)] = found;
    }
    return found;
  }

  std::vector<SearchNode> nodes;

 private:
  int num_players_;
  std::vector<int32_t> node_of_;  // [history][seat] -> node, -1: none
};

struct SearchResult {
  int action = -1;
  int64_t sims = 0;
  double seconds = 0.0;
  std::vector<int32_t> root_legal;  // the seat's legal actions at the root
  std::vector<uint32_t> root_tries;  // and their tries
  std::vector<double> root_means;    // and the mean reward they brought the seat (0: untried)
};

// The next uniform integer in 0..n-1 (Lemire's method, unbiased) from ``g``.
inline uint32_t uniform_below(Pcg64 &g, uint32_t n) {
  uint64_t m = static_cast<uint64_t>(g.next32()) * n;
  auto low = static_cast<uint32_t>(m);
  if (low < n) {
    const uint32_t threshold = static_cast<uint32_t>(-n) % n;
    while (low < threshold) {
      m = static_cast<uint64_t>(g.next32()) * n;
      low = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

template <class S>
class Ismcts {
 public:
  static constexpr int64_t kPollEvery = 64;
  static constexpr bool kHasPoints = HasTotals<S>;

  // ``root`` must outlive the search; it is only determinized from ``seat``.
  Ismcts(const S &root, int seat, SearchOptions options)
      : root_(root), seat_(seat), o_(std::move(options)), g_(Pcg64::from_seed(o_.seed)),
        tree_(root.num_players()), rewards_(static_cast<size_t>(root.num_players()), 0.0) {
    o_.check();
    const int n = root.num_players();
    if (n < 2) throw BadInput("search: a game of one player");
    if (seat < 0 || seat >= n) throw BadInput("search: seat " + std::to_string(seat) + " is not a seat");
    if (root.is_terminal()) throw BadInput("search: the game is over");
    if (root.current_player() != seat)
      throw BadInput("search: it is player " + std::to_string(root.current_player()) + "'s decision, not seat " +
                     std::to_string(seat) + "'s");
    if (o_.reward == RewardMode::Score && !kHasPoints) throw BadInput("search: reward score needs a game with points");
    const auto &layout = root.core().layout;
    for (const auto &policy : {o_.prior, o_.rollout})
      if (policy && (policy->inputs() != layout.observation_size() || policy->outputs() != root.core().num_actions))
        throw BadInput("search: a policy for observations of " + std::to_string(policy->inputs()) + " floats and " +
                       std::to_string(policy->outputs()) + " actions; this game has " +
                       std::to_string(layout.observation_size()) + " and " + std::to_string(root.core().num_actions));
    observation_.resize(static_cast<size_t>(layout.observation_size() + layout.tables().spare));
  }

  SearchResult run() {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.seconds));
    const int64_t budget = o_.sims > 0 ? o_.sims : INT64_MAX;
    SearchResult result;
    S det = determinize();
    legal_actions(det, result.root_legal);  // the seat's own: as true
    while (result.sims < budget) {
      if (result.sims > 0) det = determinize();
      simulate(det);
      ++result.sims;
      if (o_.seconds > 0.0 && Clock::now() >= deadline) break;
      if (o_.poll && result.sims % kPollEvery == 0) o_.poll();
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    result.action = most_tried(result);
    return result;
  }

  const SearchTree &tree() const { return tree_; }

 private:
  struct Step {
    int32_t node;
    int32_t edge;  // index in the node's edges
    int seat;
  };

  S determinize() { return root_.resample_hidden(seat_, g_); }

  // The legal actions of ``s``, by id (mask_scan.hpp reads the mask sixteen bytes at a time).
  static void legal_actions(S &s, std::vector<int32_t> &out) {
    out.clear();
    const auto &mask = s.legal_mask();
    for_each_legal(mask.data(), mask.size(), [&out](int a) { out.push_back(a); });
    if (out.empty()) throw std::logic_error("search: a position with no legal action");
  }

  void simulate(S &s) {
    path_.clear();
    const int64_t steps = descend(s);
    const bool evaluate = rollout(s, steps);
    set_rewards(s, evaluate);
    back_up();
  }

  // --- select and expand ------------------------------------------------------------------
  int64_t descend(S &s) {
    int32_t history = 0;
    int64_t steps = 0;
    while (!s.is_terminal()) {
      if (o_.steps_left >= 0 && steps >= o_.steps_left) break;
      const int seat = s.current_player();
      const int32_t node_id = tree_.node(history, seat);
      legal_actions(s, legal_);
      SearchNode &node = tree_.nodes[static_cast<size_t>(node_id)];
      count_available(node);
      const auto [edge, expanded] = choose(s, node, seat, history == 0);
      path_.push_back({node_id, edge, seat});
      SearchEdge &e = node.edges[static_cast<size_t>(edge)];
      s.apply(e.action);
      ++steps;
      if (expanded) {
        e.child = tree_.new_history();
        break;
      }
      history = e.child;
    }
    return steps;
  }

  // Count a visit in which each of legal_ is available, adding the edges never seen here;
  // edge_of_[i] is legal_[i]'s edge.
  void count_available(SearchNode &node) {
    edge_of_.resize(legal_.size());
    size_t j = 0;
    for (size_t i = 0; i < legal_.size(); ++i) {
      const int32_t a = legal_[i];
      while (j < node.edges.size() && node.edges[j].action < a) ++j;
      if (j == node.edges.size() || node.edges[j].action != a) {
        SearchEdge fresh;
        fresh.action = a;
        node.edges.insert(node.edges.begin() + static_cast<std::ptrdiff_t>(j), fresh);
      }
      node.edges[j].available += 1;
      edge_of_[i] = static_cast<int32_t>(j);
    }
  }

  // (the edge taken at ``node``, whether it is expanded here)
  std::pair<int32_t, bool> choose(S &s, SearchNode &node, int seat, bool at_root) {
    const size_t n = legal_.size();
    size_t untried = 0;
    for (size_t i = 0; i < n; ++i) untried += edge(node, i).tries == 0;
    const bool guided = o_.prior && (!o_.prior_at_root_only || at_root);
    if (guided) prior_weights(s, node, seat);
    if (untried > 0) {
      if (!guided) return {nth_untried(node, uniform_below(g_, static_cast<uint32_t>(untried))), true};
      const double tried = static_cast<double>(n - untried);
      if (o_.widen_all || untried == n || tried < 1.0 + std::sqrt(static_cast<double>(node.guided_visits)))
        return {most_likely_untried(node), true};
    }
    return {ucb1(node, guided), false};  // every legal action tried, or the widening is closed
  }

  SearchEdge &edge(SearchNode &node, size_t i) { return node.edges[static_cast<size_t>(edge_of_[i])]; }

  int32_t nth_untried(SearchNode &node, uint32_t k) {
    for (size_t i = 0; i < legal_.size(); ++i)
      if (edge(node, i).tries == 0 && k-- == 0) return edge_of_[i];
    throw std::logic_error("search: no such untried action");
  }

  // The policy's most likely untried action (ties uniformly, in id order).
  int32_t most_likely_untried(SearchNode &node) {
    double best = -1.0;
    uint32_t ties = 0;
    for (size_t i = 0; i < legal_.size(); ++i) {
      if (edge(node, i).tries != 0) continue;
      if (weights_[i] > best) {
        best = weights_[i];
        ties = 1;
      } else if (weights_[i] == best) {
        ++ties;
      }
    }
    uint32_t k = uniform_below(g_, ties);
    for (size_t i = 0; i < legal_.size(); ++i)
      if (edge(node, i).tries == 0 && weights_[i] == best && k-- == 0) return edge_of_[i];
    throw std::logic_error("search: no most likely untried action");
  }

  // UCB1 with availability counts over the tried legal actions; the first of equal scores.
  int32_t ucb1(SearchNode &node, bool weighted) {
    double best = -1.0;
    int32_t chosen = -1;
    for (size_t i = 0; i < legal_.size(); ++i) {
      const SearchEdge &e = edge(node, i);
      if (e.tries == 0) continue;
      const double tries = e.tries;
      const double explore = std::sqrt(std::log(static_cast<double>(e.available)) / tries);
      const double score = e.reward_sum / tries + o_.c * (weighted ? weights_[i] : 1.0) * explore;
      if (chosen < 0 || score > best) {
        best = score;
        chosen = edge_of_[i];
      }
    }
    if (chosen < 0) throw std::logic_error("search: UCB1 over no tried action");
    return chosen;
  }

  // Count a guided visit and set weights_ over legal_: p(a) / max p over the legal actions.
  // The node's logits are computed on its first guided visit, from this determinization's
  // observation of the deciding seat, and kept.
  void prior_weights(S &s, SearchNode &node, int seat) {
    node.guided_visits += 1;
    if (node.prior_logits.empty()) {
      show_derived_blocks(s);
      s.core().layout.observe(s.buf, seat, observation_.data());
      o_.prior->features(observation_.data(), mlp_work_);
      o_.prior->logits(mlp_work_, node.prior_logits);
    }
    weights_.resize(legal_.size());
    float top = -std::numeric_limits<float>::infinity();
    for (int32_t a : legal_) top = std::max(top, node.prior_logits[static_cast<size_t>(a)]);
    for (size_t i = 0; i < legal_.size(); ++i)
      weights_[i] = std::exp(static_cast<double>(node.prior_logits[static_cast<size_t>(legal_[i])]) - top);
  }

  // --- roll out and evaluate --------------------------------------------------------------
  // Returns whether the position is evaluated: the game ended, or the depth cap came before
  // the env's step limit.
  bool rollout(S &s, int64_t steps) {
    int64_t cap = o_.steps_left < 0 ? -1 : o_.steps_left - steps;
    bool evaluate = false;
    if (o_.depth >= 0 && (cap < 0 || o_.depth < cap)) {
      cap = o_.depth;
      evaluate = true;
    }
    for (int64_t played = 0; (cap < 0 || played < cap) && !s.is_terminal(); ++played)
      s.apply(o_.rollout ? policy_move(s) : random_move(s));
    return evaluate || s.is_terminal();
  }

  int random_move(S &s) {
    legal_actions(s, legal_);
    return legal_[uniform_below(g_, static_cast<uint32_t>(legal_.size()))];
  }

  // The rollout policy's move on the observation of the seat to move: its most likely legal
  // action, or one drawn by its masked probabilities.
  int policy_move(S &s) {
    legal_actions(s, legal_);
    show_derived_blocks(s);
    s.core().layout.observe(s.buf, s.current_player(), observation_.data());
    const Mlp &policy = *o_.rollout;
    policy.features(observation_.data(), mlp_work_);
    weights_.resize(legal_.size());
    double top = -std::numeric_limits<double>::infinity();
    size_t best = 0;
    for (size_t i = 0; i < legal_.size(); ++i) {
      weights_[i] = policy.logit(mlp_work_, legal_[i]);
      if (weights_[i] > top) {
        top = weights_[i];
        best = i;
      }
    }
    if (o_.greedy) return legal_[best];
    double total = 0.0;
    for (double &w : weights_) total = (w = total + std::exp(w - top));
    const double u = g_.next_double() * total;
    const auto at = std::upper_bound(weights_.begin(), weights_.end(), u) - weights_.begin();
    return legal_[std::min(static_cast<size_t>(at), legal_.size() - 1)];
  }

  // The reward of each seat (results.py's returns_from_ranks) into rewards_.
  void set_rewards(const S &s, bool evaluate) {
    std::fill(rewards_.begin(), rewards_.end(), 0.0);
    if (!evaluate) return;  // the env's step limit: nobody gets anything
    std::vector<int> totals;
    if constexpr (kHasPoints) {
      if (o_.reward == RewardMode::Score) totals = s.totals();
    }
    returns_from_ranks(s.ranks(), o_.reward, totals.empty() ? nullptr : &totals, o_.score_scale, rewards_.data());
  }

  void back_up() {
    for (const Step &step : path_) {
      SearchEdge &e = tree_.nodes[static_cast<size_t>(step.node)].edges[static_cast<size_t>(step.edge)];
      e.tries += 1;
      e.reward_sum += rewards_[static_cast<size_t>(step.seat)];
    }
  }

  // --- the move ------------------------------------------------------------------------------
  // The root action with the most tries; ties: the higher mean reward, then the lower id.
  int most_tried(SearchResult &result) const {
    const int32_t root = tree_.find(0, seat_);
    result.root_tries.assign(result.root_legal.size(), 0);
    auto &means = result.root_means;
    means.assign(result.root_legal.size(), 0.0);
    if (root >= 0) {
      const auto &edges = tree_.nodes[static_cast<size_t>(root)].edges;
      for (size_t i = 0; i < result.root_legal.size(); ++i) {
        const auto it = std::lower_bound(edges.begin(), edges.end(), result.root_legal[i],
                                         [](const SearchEdge &e, int32_t a) { return e.action < a; });
        if (it != edges.end() && it->action == result.root_legal[i]) {
          result.root_tries[i] = it->tries;
          means[i] = it->reward_sum / std::max(1.0, static_cast<double>(it->tries));
        }
      }
    }
    size_t best = 0;
    for (size_t i = 1; i < result.root_legal.size(); ++i)
      if (result.root_tries[i] > result.root_tries[best] ||
          (result.root_tries[i] == result.root_tries[best] && means[i] > means[best]))
        best = i;
    return result.root_legal.empty() ? -1 : result.root_legal[best];
  }

  const S &root_;
  int seat_;
  SearchOptions o_;
  Pcg64 g_;
  SearchTree tree_;
  std::vector<double> rewards_;
  std::vector<Step> path_;
  std::vector<int32_t> legal_, edge_of_;
  std::vector<double> weights_;
  std::vector<float> observation_;
  MlpWork mlp_work_;
};

}  // namespace forest::native
