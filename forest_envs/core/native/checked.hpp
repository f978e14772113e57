// Bounds-checked indexing in debug builds (FOREST_NATIVE_CHECKED, set by the build's debug and
// sanitizer configurations), plain indexing in release builds, and the exceptions the
// bindings turn into the Python engine's errors.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace forest::native {

// An action the rules refuse (Python: forest_envs.core.errors.IllegalActionError).
struct IllegalAction : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Input from Python that cannot be a state of this game (Python: ValueError).
struct BadInput : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

#ifdef FOREST_NATIVE_CHECKED
inline void check_index(std::ptrdiff_t i, std::ptrdiff_t size, const char *what) {
  if (i < 0 || i >= size)
    throw std::out_of_range(std::string(what) + ": index " + std::to_string(i) + " outside 0.." +
                            std::to_string(size - 1));
}
#else
inline void check_index(std::ptrdiff_t, std::ptrdiff_t, const char *) {}
#endif

}  // namespace forest::native
