// The observation layout of one game configuration, as core/layout.py froze it: the state
// buffer's blocks by name, each seat's gather index, the scale of each observed number and
// the one-hot tables. Nothing here is declared twice: Python builds the tables (the one
// source) and hands them over when a native game is made; this side checks them and then
// computes observations exactly as Layout.observe does (float32 value x float32 scale).
#pragma once

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
 public:
  Layout() = default;
  explicit Layout(LayoutTables t) : t_(std::move(t)) { check(); }

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
    const auto &g = t_.gather[seat];
    const int64_t n = static_cast<int64_t>(g.size());
    if (!t_.has_onehot) {
      if (t_.unit_scale) {
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(buf[g[i]]);
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(buf[g[i]]) * t_.scale[i];
      }
      return;
    }
    // The one-hot path writes one float past the observation when the layout has no numbers
    // (the "none" ones land there): the caller's buffer is observation_size + spare long.
    const int64_t numbers = t_.numbers;
    const int64_t total = t_.observation_size + t_.spare;
    for (int64_t i = numbers; i < total; ++i) out[i] = 0.0f;
    const int64_t at_size = static_cast<int64_t>(t_.onehot_at.size());
    for (int64_t i = numbers; i < n; ++i) {
      const int64_t slot = static_cast<int64_t>(buf[g[i]]) + t_.onehot_base[i - numbers];
      if (slot < 0 || slot >= at_size)
        throw std::out_of_range("a one-hot block holds a value outside its declared range");
      out[t_.onehot_at[slot]] = 1.0f;
    }
    for (int64_t i = 0; i < numbers; ++i) out[i] = static_cast<float>(buf[g[i]]) * t_.scale[i];
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

  LayoutTables t_;
};

}  // namespace forest::native
