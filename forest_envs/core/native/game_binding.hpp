// What every game's native module binds the same way, so that a game's module.cpp binds only
// its own: its Config's fields, its State's fields (getters and checked setters), its
// constants and its test helpers. bind_game<State>(m) imports numpy, registers the errors,
// binds Tables (built from the layout, the action names, the decision kinds, the game's
// Config and the action blocks), and the State class with the engine contract's primitives
// (bind_state_core), its construction, setup, determinization, ranks and a native random
// playout, the batched API (bind_batch) and the native ismcts (bind_search); it returns the
// State class for the game's own methods. S derives from GameState<S, Tables>
// (state_core.hpp) and supplies new_game, resample_hidden, ranks, check_fields.
#pragma once

#include <string>
#include <vector>

#include "actions.hpp"
#include "batch_binding.hpp"
#include "binding.hpp"
#include "search_binding.hpp"

namespace forest::native {

namespace nb = nanobind;

// Python ints into an int8 field, each within lo..hi; ``what`` names the field in the error.
inline std::vector<int8_t> small_ints(const std::vector<int> &values, int lo, int hi, const char *what) {
  std::vector<int8_t> out;
  for (int v : values) {
    if (v < lo || v > hi) throw BadInput(std::string(what) + ": value " + std::to_string(v) + " out of range");
    out.push_back(static_cast<int8_t>(v));
  }
  return out;
}

template <class S>
nb::class_<S> bind_game(nb::module_ &m) {
  using namespace nb::literals;
  using Tables = typename S::Tables;
  using Config = decltype(Tables::config);
  import_numpy();
  register_errors();
  set_leak_warnings();

  nb::class_<Tables>(m, "Tables")
      .def(
          "__init__",
          [](Tables *t, const nb::dict &layout, std::vector<std::string> action_names, const nb::list &kinds,
             Config config, const NameTable &action_blocks) {
            new (t) Tables(core_from_python(layout, std::move(action_names), kinds), std::move(config), action_blocks);
          },
          "layout"_a, "action_names"_a, "kinds"_a, "config"_a, "action_blocks"_a)
      .def_prop_ro("num_players", [](const Tables &t) { return t.core->num_players; });

  auto cls = nb::class_<S>(m, "State");
  bind_state_core<S>(cls);
  cls.def(nb::init<std::shared_ptr<const Tables>>(), "tables"_a)
      .def(nb::init<const S &>(), "other"_a)
      .def("_assign", [](S &s, const S &o) { s = o; })
      .def("_setup", [](S &s, uint64_t seed) { s = S::new_game(s.tables_ptr(), Pcg64::from_seed(seed)); })
      .def("_setup_from_rng",
           [](S &s, uint64_t shi, uint64_t slo, uint64_t ihi, uint64_t ilo, bool has32, uint32_t u) {
             s = S::new_game(s.tables_ptr(), Pcg64::from_state(shi, slo, ihi, ilo, has32, u));
           })
      .def("_resample_in_place",
           [](S &s, int seat, uint64_t shi, uint64_t slo, uint64_t ihi, uint64_t ilo, bool has32, uint32_t u) {
             auto g = Pcg64::from_state(shi, slo, ihi, ilo, has32, u);
             s = s.resample_hidden(seat, g);
             return std::make_tuple(g.state_hi(), g.state_lo(), g.inc_hi(), g.inc_lo(), g.has_uint32(), g.uinteger());
           })
      .def_prop_ro("tables", &S::tables_ptr)
      .def("_check_fields", &S::check_fields)
      // a rules step tests call to build positions (the Python state's name)
      .def("set_turn",
           [](S &s, int p) {
             if (p < 0 || p >= s.num_players()) throw BadInput("set_turn: not a seat");
             s.set_turn(p);
           })
      .def("ranks", &S::ranks)
      // the bare engine's speed, without Python in between
      .def("_random_playout", [](S &s, uint64_t seed, int64_t max_actions) {
        auto g = Pcg64::from_seed(seed);
        int64_t done = 0;
        while (!s.is_terminal() && done < max_actions) {
          s.apply(s.random_legal(g));
          ++done;
        }
        return done;
      });

  // N games stepped together in C++ (forest_envs/envs/vector.py's BatchedEnv)
  bind_batch<S>(m);
  // the native ismcts (core/native/search.hpp): _ismcts and SearchPolicy
  bind_search<S>(m, cls);
  return cls;
}

}  // namespace forest::native
