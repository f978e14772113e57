// The observation layout of one game configuration, as core/layout.py froze it: the state
// buffer's blocks by name, each seat's gather index, the scale of each observed number and
// the one-hot tables. Nothing here is declared twice: Python builds the tables (the one
// source) and hands them over when a native game is made; this side checks them and then
// computes observations exactly as Layout.observe does (float32 value x float32 scale).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checked.hpp"

namespace forest::native {

// A block of the state buffer: where it starts and its shape (at most 3 axes here).
struct Block {
  int32_t offset = 0;
  int32_t size = 0;
  std::array<int32_t, 3> dims{1, 1, 1};
  int ndim = 0;

  int32_t index(int i) const {
    check_index(i, dims[0], "block axis 0");
    return offset + i;
  }
  int32_t index(int i, int j) const {
    check_index(i, dims[0], "block axis 0");
    check_index(j, dims[1], "block axis 1");
    return offset + i * dims[1] + j;
  }
  int32_t index(int i, int j, int k) const {
    check_index(i, dims[0], "block axis 0");
    check_index(j, dims[1], "block axis 1");
    check_index(k, dims[2], "block axis 2");
    return offset + (i * dims[1] + j) * dims[2] + k;
  }
};

struct LayoutTables {
  int32_t size = 0;
  int32_t num_players = 0;
  std::map<std::string, std::vector<int32_t>> blocks;  // name -> [offset, dim0, dim1, ...]
  std::vector<std::vector<int64_t>> gather;             // per seat: buffer index of each entry
  std::vector<float> scale;                             // per observed float
  int32_t observation_size = 0;
  bool unit_scale = true;
  bool has_onehot = false;
  int32_t numbers = 0;                                  // observed numbers before the one-hots
  int32_t spare = 0;
  std::vector<int64_t> onehot_base, onehot_at;
  std::vector<int16_t> state_low, state_high;
};

class Layout {
  // out[out, out + len) is gathered from buf[src, src + len)
  struct GatherRun {
    int32_t out, src, len;
  };

 public:
  Layout() = default;
  explicit Layout(LayoutTables t) : t_(std::move(t)) {
    check();
    const size_t numbers = static_cast<size_t>(t_.has_onehot ? t_.numbers : t_.observation_size);
    for (const auto &g : t_.gather) {
      std::vector<GatherRun> runs;
      for (size_t i = 0; i < numbers; ++i) {
        if (!runs.empty() && runs.back().src + runs.back().len == g[i])
          ++runs.back().len;
        else
          runs.push_back({static_cast<int32_t>(i), static_cast<int32_t>(g[i]), 1});
      }
      number_runs_.push_back(std::move(runs));
      onehot_gather_.emplace_back(g.begin() + static_cast<std::ptrdiff_t>(numbers), g.end());
    }
  }

  int32_t size() const { return t_.size; }
  int32_t num_players() const { return t_.num_players; }
  int32_t observation_size() const { return t_.observation_size; }
  const LayoutTables &tables() const { return t_; }

  // The block named ``name``, which must have exactly ``dims`` (checked once, when a game's
  // native tables are built, so a layout changed on the Python side fails loudly here).
  Block block(const std::string &name, std::vector<int32_t> dims) const {
    auto it = t_.blocks.find(name);
    if (it == t_.blocks.end()) throw BadInput("the layout has no block " + name);
    const auto &spec = it->second;
    std::vector<int32_t> have(spec.begin() + 1, spec.end());
    if (have != dims) throw BadInput("block " + name + " has another shape than the native engine expects");
    if (dims.size() > 3) throw BadInput("block " + name + " has more than 3 axes");
    Block b;
    b.offset = spec[0];
    b.ndim = static_cast<int>(dims.size());
    b.size = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
      b.dims[i] = dims[i];
      b.size *= dims[i];
    }
    return b;
  }

  // Layout.observe(buf, seat) into ``out`` (observation_size floats).
  void observe(const int16_t *buf, int seat, float *out) const {
    const size_t s = static_cast<size_t>(seat);
    if (t_.has_onehot) write_onehots(buf, onehot_gather_[s], out);
    // after the one-hots: a "none" one-hot may have landed on the first number
    write_numbers(buf, number_runs_[s], out);
  }

  // The name of the first block holding a value outside its declared range ("" if none).
  std::string out_of_range(const int16_t *buf) const {
    for (int32_t i = 0; i < t_.size; ++i) {
      if (buf[i] < t_.state_low[i] || buf[i] > t_.state_high[i]) {
        for (const auto &[name, spec] : t_.blocks) {
          int32_t sz = 1;
          for (size_t d = 1; d < spec.size(); ++d) sz *= spec[d];
          if (i >= spec[0] && i < spec[0] + sz) return name;
        }
        return "?";
      }
    }
    return "";
  }

 private:
  void check() const {
    const auto &t = t_;
    if (t.size <= 0 || t.num_players <= 0) throw BadInput("layout: empty");
    if (static_cast<int32_t>(t.gather.size()) != t.num_players) throw BadInput("layout: one gather per seat");
    if (static_cast<int32_t>(t.state_low.size()) != t.size || static_cast<int32_t>(t.state_high.size()) != t.size)
      throw BadInput("layout: state bounds of the wrong size");
    for (const auto &g : t.gather) {
      if (g.size() != t.gather[0].size()) throw BadInput("layout: gathers of different sizes");
      for (auto i : g)
        if (i < 0 || i >= t.size) throw BadInput("layout: gather index outside the buffer");
    }
    const int64_t entries = static_cast<int64_t>(t.gather[0].size());
    if (!t.has_onehot) {
      if (entries != t.observation_size || static_cast<int64_t>(t.scale.size()) != entries)
        throw BadInput("layout: observation size does not match the gather");
    } else {
      if (t.numbers < 0 || t.numbers > entries || static_cast<int64_t>(t.scale.size()) < t.numbers)
        throw BadInput("layout: bad count of numbers");
      if (static_cast<int64_t>(t.onehot_base.size()) != entries - t.numbers)
        throw BadInput("layout: one-hot bases do not match the gather");
      for (auto at : t.onehot_at)
        if (at < 0 || at >= t.observation_size + t.spare) throw BadInput("layout: one-hot index outside the observation");
    }
    for (const auto &[name, spec] : t.blocks) {
      if (spec.empty()) throw BadInput("layout: block " + name + " without offset");
      int64_t sz = 1;
      for (size_t d = 1; d < spec.size(); ++d) sz *= spec[d];
      if (spec[0] < 0 || spec[0] + sz > t.size) throw BadInput("layout: block " + name + " outside the buffer");
    }
  }

  // The numbers: out[i] = buf[gather[i]] * scale[i] (float32 value x float32 scale), run by
  // run. Each run's loop reads consecutive entries, so the compiler vectorizes it: a
  // layout's gather is a few runs per seat (its blocks, cut where a seat axis is rotated).
  void write_numbers(const int16_t *buf, const std::vector<GatherRun> &runs, float *out) const {
    const float *scale = t_.scale.data();
    for (const GatherRun &r : runs) {
      const int16_t *from = buf + r.src;
      float *to = out + r.out;
      const int32_t len = r.len;
      if (t_.unit_scale) {
        for (int32_t k = 0; k < len; ++k) to[k] = static_cast<float>(from[k]);
      } else {
        const float *by = scale + r.out;
        for (int32_t k = 0; k < len; ++k) to[k] = static_cast<float>(from[k]) * by[k];
      }
    }
  }

  // The one-hots: every class entry zero, then a one per id. The zeros reach one float past
  // the observation when the layout has no numbers (the "none" ones land there): the
  // caller's buffer is observation_size + spare long.
  void write_onehots(const int16_t *buf, const std::vector<int32_t> &gather, float *out) const {
    const int64_t numbers = t_.numbers;
    std::fill(out + numbers, out + t_.observation_size + t_.spare, 0.0f);
    const int64_t at_size = static_cast<int64_t>(t_.onehot_at.size());
    for (size_t i = 0; i < gather.size(); ++i) {
      const int64_t slot = static_cast<int64_t>(buf[gather[i]]) + t_.onehot_base[i];
      if (slot < 0 || slot >= at_size)
        throw std::out_of_range("a one-hot block holds a value outside its declared range");
      out[t_.onehot_at[static_cast<size_t>(slot)]] = 1.0f;
    }
  }

  LayoutTables t_;
  // per seat: the numbers' gather as runs of consecutive buffer entries, and the one-hots'
  // gather (t_.gather, checked to lie in the buffer, whose size is an int32)
  std::vector<std::vector<GatherRun>> number_runs_;
  std::vector<std::vector<int32_t>> onehot_gather_;
};

}  // namespace forest::native
