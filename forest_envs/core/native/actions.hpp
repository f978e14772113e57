// A named block of flat action ids (core/actions.py's ActionBlock): where it starts and its
// shape, looked up by name from the Python ActionSpace when a native game is made.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checked.hpp"

namespace forest::native {

using NameTable = std::map<std::string, std::vector<int32_t>>;  // name -> [start, dims...]

struct ActionBlock {
  int32_t start = 0;
  int32_t size = 1;
  std::array<int32_t, 2> dims{1, 1};

  bool contains(int a) const { return a >= start && a < start + size; }
  int id(int i) const {
    check_index(i, dims[0], "action index");
    return start + i;
  }
  int id(int i, int j) const {
    check_index(i, dims[0], "action index 0");
    check_index(j, dims[1], "action index 1");
    return start + i * dims[1] + j;
  }
  // The block's first index of action a (a one-axis block: its only index).
  int first(int a) const { return (a - start) / dims[1]; }
  int second(int a) const { return (a - start) % dims[1]; }
};

inline ActionBlock action_block(const NameTable &table, const std::string &name, std::vector<int32_t> dims) {
  auto it = table.find(name);
  if (it == table.end()) throw BadInput("the action space has no block " + name);
  std::vector<int32_t> have(it->second.begin() + 1, it->second.end());
  if (have != dims) throw BadInput("action block " + name + " has another shape than the native engine expects");
  ActionBlock b;
  b.start = it->second[0];
  b.size = 1;
  for (size_t i = 0; i < dims.size() && i < 2; ++i) {
    b.dims[i] = dims[i];
    b.size *= dims[i];
  }
  if (dims.size() > 2) throw BadInput("action block " + name + " has more than 2 axes");
  if (dims.size() == 1) b.dims[1] = 1;
  return b;
}

}  // namespace forest::native
