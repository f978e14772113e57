// The batched API: N games of one configuration stepped together in C++, the envs split over
// a persistent pool of threads (thread_pool.hpp), every output written into arrays made once
// (by the binding, batch_binding.hpp, which hands them to Python). What one env does is what ForestAECEnv (envs/aec.py) does with the same seed, so a
// batch can be checked against N AEC envs action for action:
//
//   - env i's first game is seeded with seed + i, and its seeder is numpy's default_rng(seed +
//     i): every later game of env i is seeded with seeder.integers(2**62), drawn when the game
//     before it ends (the AEC env's reset(seed=seed + i), then unseeded resets);
//   - rewards are 0 until a game ends, then the game's returns in the reward mode (win, rank,
//     score: core/results.py's returns_from_ranks, computed in double as Python does);
//   - a game reaching max_steps actions without ending is truncated: every reward 0;
//   - a game that ends (terminated or truncated) is replaced at once by the env's next game
//     (same-step auto-reset): the observation, mask and seat written are the new game's, and
//     the finished game's final observation of every seat, its ranks and totals go to
//     outputs of their own.
//
// Every action is checked before any env moves: an illegal action anywhere raises
// BatchIllegalAction naming the env, and no env has changed. Each env's work depends on its
// own state alone, so the outputs are the same for any number of threads.
//
// A game's state class S plugs in by what EngineState<S> (state_core.hpp) already gives, plus
// ``static S new_game(tables, const Pcg64&)`` (a new game drawn from a seeded generator, in the
// Python engine's order), ``ranks()`` and, in games with points, ``totals()``. A game's
// module.cpp binds ``Batch<State>`` in one line (batch_binding.hpp: bind_batch).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "checked.hpp"
#include "results.hpp"
#include "rng.hpp"
#include "state_core.hpp"
#include "thread_pool.hpp"

namespace forest::native {

// What a state class must give to be stepped in batches.
template <class S>
concept BatchableState = std::derived_from<S, EngineState<S>> && requires(S &s, const S &cs, const Pcg64 &g) {
  { S::new_game(cs.tables_ptr(), g) } -> std::same_as<S>;
  { cs.ranks() } -> std::convertible_to<std::vector<int>>;
};

struct BatchOptions {
  int num_envs = 1;
  int threads = 1;
  RewardMode reward = RewardMode::Win;
  double score_scale = 1.0;
  int64_t max_steps = 0;  // 0: games are never truncated
};

// Where a batch writes (rows by env; C-contiguous). The final_* arrays may be null: then
// those outputs are not written.
struct BatchOutputs {
  float *observation = nullptr;        // [N, obs]: the seat to move's observation
  int8_t *mask = nullptr;              // [N, A]: its legal mask
  int32_t *seat = nullptr;             // [N]: the seat to move
  float *rewards = nullptr;            // [N, P]: every seat's reward this step
  bool *terminated = nullptr;          // [N]: the game ended by its rules this step
  bool *truncated = nullptr;           // [N]: the game reached max_steps this step
  float *final_observation = nullptr;  // [N, P, obs]: an ended game's last observation, every seat
  int32_t *final_ranks = nullptr;      // [N, P]: an ended game's ranks
  int32_t *final_totals = nullptr;     // [N, P]: an ended game's point totals (games with points)
};

// An illegal action found while checking a batch's actions: which env, and the engine's text.
struct BatchIllegalAction : IllegalAction {
  BatchIllegalAction(int env_, int64_t action_, int player_, const std::string &what)
      : IllegalAction(what), env(env_), action(action_), player(player_) {}
  int env;
  int64_t action;
  int player;
};

// The action that leaves an env where it is in step(actions, allow_pass=true).
constexpr int64_t kPass = -1;

// The second entropy word of each env's sampler: env i samples from numpy's
// default_rng([seed + i, kSamplerTag]), a stream apart from its games' (default_rng(seed + i)).
constexpr uint64_t kSamplerTag = 0x5A3B1E;

template <BatchableState S>
class Batch {
 public:
  using TablesPtr = std::remove_cvref_t<decltype(std::declval<const S &>().tables_ptr())>;

  Batch(TablesPtr tables, BatchOptions options, BatchOutputs outputs)
      : tables_(std::move(tables)), opt_(options), out_(outputs) {
    if (opt_.num_envs < 1) throw BadInput("a batch needs at least one env");
    if (opt_.threads < 1) throw BadInput("a batch needs at least one thread");
    if (opt_.max_steps < 0) throw BadInput("max_steps must be 0 (never truncate) or positive");
    if (!(opt_.score_scale > 0.0)) throw BadInput("score_scale must be positive");
    if constexpr (!HasTotals<S>) {
      if (opt_.reward == RewardMode::Score)
        throw BadInput("this game's native state gives no totals(): no 'score' reward");
      if (out_.final_totals) throw BadInput("this game's native state gives no totals(): no final totals");
    }
    if (!out_.observation || !out_.mask || !out_.seat || !out_.rewards || !out_.terminated || !out_.truncated)
      throw BadInput("a batch needs its observation, mask, seat, rewards, terminated and truncated outputs");
    S blank(tables_);
    num_players_ = blank.num_players();
    num_actions_ = blank.core().num_actions;
    observation_size_ = blank.core().layout.observation_size();
    spare_ = blank.core().layout.tables().spare;
    if (num_players_ < 2) throw BadInput("a batch plays games of at least two players");
    envs_.reserve(static_cast<size_t>(opt_.num_envs));
    for (int i = 0; i < opt_.num_envs; ++i) envs_.push_back(Env{blank, Pcg64(), Pcg64(), 0});
    const int threads = std::min(opt_.threads, opt_.num_envs);
    // Chunks of envs handed out one at a time: several per thread, so a thread the OS keeps
    // waiting holds up little (thread_pool.hpp), few enough that claiming one costs nothing.
    chunk_size_ = std::max(1, (opt_.num_envs + threads * kChunksPerThread - 1) / (threads * kChunksPerThread));
    chunks_ = (opt_.num_envs + chunk_size_ - 1) / chunk_size_;
    scratch_.resize(static_cast<size_t>(threads));
    pool_ = std::make_unique<ThreadPool>(threads);
  }

  int num_envs() const { return opt_.num_envs; }
  int threads() const { return pool_->threads(); }
  int num_players() const { return num_players_; }
  int num_actions() const { return num_actions_; }
  int observation_size() const { return observation_size_; }
  bool started() const { return started_; }
  const BatchOptions &options() const { return opt_; }

  // Env i's current state (a game in progress: a batch never holds a finished game).
  const S &state(int i) const {
    if (i < 0 || i >= opt_.num_envs) throw BadInput("env " + std::to_string(i) + " is not in this batch");
    return envs_[static_cast<size_t>(i)].state;
  }

  // Every env starts a new game: env i's seeded with seed + i (seed None: from its seeder,
  // which must have been seeded by an earlier reset). The outputs show the new games.
  void reset(std::optional<uint64_t> seed) {
    if (seed) {
      if (*seed > UINT64_MAX - static_cast<uint64_t>(opt_.num_envs - 1))
        throw BadInput("seed + number of envs must stay below 2**64");
    } else if (!seeded_) {
      throw BadInput("the first reset of a batch needs a seed");
    }
    broken_ = false;
    auto job = [&](int chunk, int thread) {
      const auto [lo, hi] = range(chunk);
      for (int i = lo; i < hi; ++i) {
        Env &e = envs_[static_cast<size_t>(i)];
        if (seed) {
          e.seeder = Pcg64::from_seed(*seed + static_cast<uint64_t>(i));
          e.sampler = Pcg64::from_seeds({*seed + static_cast<uint64_t>(i), kSamplerTag});
          e.state = S::new_game(tables_, Pcg64::from_seed(*seed + static_cast<uint64_t>(i)));
          e.steps = 0;
        } else {
          next_game(e);
        }
        clear_step(i);
        show(i, thread);
      }
    };
    run(job);
    seeded_ = true;
    started_ = true;
  }

  // One action per env (kPass, with allow_pass: that env stays as it is: no reward, its
  // observation, mask and seat as they were). Every action is checked first; an illegal one
  // throws BatchIllegalAction (the lowest env's) and no env changes.
  void step(const int64_t *actions, bool allow_pass) {
    if (!started_) throw BadInput("step() before reset()");
    if (broken_)
      throw BadInput("an earlier step failed part way (an error inside the engine); reset() the batch first");
    check_actions(actions, allow_pass);
    auto job = [&](int chunk, int thread) {
      const auto [lo, hi] = range(chunk);
      for (int i = lo; i < hi; ++i) step_env(i, actions[i], thread);
    };
    run(job);
  }

  // A uniformly random legal action for every env into ``out``, drawn from env i's sampler
  // (seeded by reset: numpy's default_rng([seed + i, kSamplerTag]).integers(number of legal
  // actions) picks among them in id order): random opponents and random play, without Python.
  void sample(int64_t *out) {
    if (!started_) throw BadInput("sample_actions() before reset()");
    auto job = [&](int chunk, int) {
      const auto [lo, hi] = range(chunk);
      for (int i = lo; i < hi; ++i) {
        Env &e = envs_[static_cast<size_t>(i)];
        out[i] = e.state.random_legal(e.sampler);
      }
    };
    pool_->run(job, chunks_);
  }

 private:
  struct Env {
    S state;
    Pcg64 seeder;   // default_rng(seed + i): draws the seed of the env's next game
    Pcg64 sampler;  // default_rng([seed + i, kSamplerTag]): sample()'s draws
    int64_t steps;  // actions applied in the current game
  };

  // The envs of a chunk.
  std::pair<int, int> range(int chunk) const {
    const int lo = chunk * chunk_size_;
    return {lo, std::min(opt_.num_envs, lo + chunk_size_)};
  }

  template <class Job>
  void run(Job &job) {
    try {
      pool_->run(job, chunks_);
    } catch (...) {
      broken_ = true;  // some envs moved, others did not: only a reset makes the batch whole again
      throw;
    }
  }

  void check_actions(const int64_t *actions, bool allow_pass) {
    for (int i = 0; i < opt_.num_envs; ++i) {
      const int64_t a = actions[i];
      if (allow_pass && a == kPass) continue;
      S &s = envs_[static_cast<size_t>(i)].state;
      if (a >= 0 && a < num_actions_ && s.legal_mask()[static_cast<size_t>(a)]) continue;
      const int player = s.current_player();
      try {
        s.apply(a);  // refuses the action, with the engine's text, and changes nothing
      } catch (const IllegalAction &e) {
        throw BatchIllegalAction(i, a, player, "env " + std::to_string(i) + ": " + e.what());
      }
      throw std::logic_error("the engine applied an action its mask refuses");
    }
  }

  void step_env(int i, int64_t action, int thread) {
    if (action == kPass) {
      clear_step(i);
      return;
    }
    Env &e = envs_[static_cast<size_t>(i)];
    e.state.apply(action);
    e.steps += 1;
    const bool over = e.state.is_terminal();
    const bool cut = !over && opt_.max_steps > 0 && e.steps >= opt_.max_steps;
    const size_t ni = static_cast<size_t>(i);
    float *rewards = out_.rewards + ni * static_cast<size_t>(num_players_);
    out_.terminated[ni] = over;
    out_.truncated[ni] = cut;
    if (!over && !cut) {
      std::fill(rewards, rewards + num_players_, 0.0f);
      show(i, thread);
      return;
    }
    finish(e, i, over, rewards, thread);
    next_game(e);
    show(i, thread);
  }

  // An ended game's rewards and final outputs (before the env's next game replaces it).
  void finish(Env &e, int i, bool over, float *rewards, int thread) {
    const size_t ni = static_cast<size_t>(i), np = static_cast<size_t>(num_players_);
    const std::vector<int> ranks = e.state.ranks();
    std::optional<std::vector<int>> totals;
    if constexpr (HasTotals<S>) {
      if (out_.final_totals || (over && opt_.reward == RewardMode::Score)) totals = e.state.totals();
    }
    if (over)
      returns_from_ranks(ranks, opt_.reward, totals ? &*totals : nullptr, opt_.score_scale, rewards);
    else
      std::fill(rewards, rewards + num_players_, 0.0f);
    if (out_.final_ranks)
      for (size_t p = 0; p < np; ++p) out_.final_ranks[ni * np + p] = static_cast<int32_t>(ranks[p]);
    if (out_.final_totals && totals)
      for (size_t p = 0; p < np; ++p) out_.final_totals[ni * np + p] = static_cast<int32_t>((*totals)[p]);
    if (out_.final_observation) {
      const size_t obs = static_cast<size_t>(observation_size_);
      for (int p = 0; p < num_players_; ++p)
        observe(e.state, p, out_.final_observation + (ni * np + static_cast<size_t>(p)) * obs, thread);
    }
  }

  // The env's next game, seeded as the AEC env's next unseeded reset seeds it.
  void next_game(Env &e) {
    const auto game_seed = static_cast<uint64_t>(draw_integer(e.seeder, uint64_t{1} << 62));
    e.state = S::new_game(tables_, Pcg64::from_seed(game_seed));
    e.steps = 0;
  }

  void clear_step(int i) {
    const size_t ni = static_cast<size_t>(i);
    float *rewards = out_.rewards + ni * static_cast<size_t>(num_players_);
    std::fill(rewards, rewards + num_players_, 0.0f);
    out_.terminated[ni] = false;
    out_.truncated[ni] = false;
  }

  // The observation, mask and seat of the player to move in env i.
  void show(int i, int thread) {
    const size_t ni = static_cast<size_t>(i);
    S &s = envs_[ni].state;
    const int seat = s.current_player();
    if (seat < 0) throw std::logic_error("a new game with nobody to move");
    out_.seat[ni] = seat;
    const auto &mask = s.legal_mask();
    std::memcpy(out_.mask + ni * static_cast<size_t>(num_actions_), mask.data(), static_cast<size_t>(num_actions_));
    observe(s, seat, out_.observation + ni * static_cast<size_t>(observation_size_), thread);
  }

  void observe(const S &s, int seat, float *out, int thread) {
    show_derived_blocks(s);
    const Layout &layout = s.core().layout;
    if (spare_ == 0) {
      layout.observe(s.buf, seat, out);
      return;
    }
    // A layout of one-hot ids only writes a spare float past the observation: through a
    // scratch row, since the next row may be another thread's.
    auto &scratch = scratch_[static_cast<size_t>(thread)];
    scratch.resize(static_cast<size_t>(observation_size_ + spare_));
    layout.observe(s.buf, seat, scratch.data());
    std::memcpy(out, scratch.data(), static_cast<size_t>(observation_size_) * sizeof(float));
  }

  TablesPtr tables_;
  BatchOptions opt_;
  BatchOutputs out_;
  int num_players_ = 0, num_actions_ = 0, observation_size_ = 0, spare_ = 0;
  std::vector<Env> envs_;
  static constexpr int kChunksPerThread = 8;
  int chunk_size_ = 1, chunks_ = 1;
  std::vector<std::vector<float>> scratch_;  // per thread
  std::unique_ptr<ThreadPool> pool_;
  bool seeded_ = false, started_ = false, broken_ = false;
};

}  // namespace forest::native
