// forest_envs.chickwood.native._engine: the Python binding of Chickwood's native state. Thin:
// the configuration's tables come from the Python ChickwoodGame (native/__init__.py), the
// fields go out as plain Python values and come back checked (State::check_fields).
#include "../../core/native/batch_binding.hpp"
#include "../../core/native/binding.hpp"
#include "state.hpp"

// the native ismcts (agents/search/native.py)
#include "../../core/native/search_binding.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using forest::chickwood::Config;
using forest::chickwood::SecretDiscard;
using forest::chickwood::State;
using forest::chickwood::Tables;
namespace native = forest::native;

namespace {

std::vector<int8_t> small_ints(const std::vector<int> &values, int lo, int hi, const char *what) {
  std::vector<int8_t> out;
  for (int v : values) {
    if (v < lo || v > hi) throw native::BadInput(std::string(what) + ": value " + std::to_string(v) + " out of range");
    out.push_back(static_cast<int8_t>(v));
  }
  return out;
}

}  // namespace

NB_MODULE(_engine, m) {
  native::import_numpy();
  native::register_errors();
  native::set_leak_warnings();

  nb::class_<Config>(m, "Config")
      .def(nb::init<>())
      .def_rw("num_players", &Config::num_players)
      .def_rw("legendary", &Config::legendary)
      .def_rw("hand_size", &Config::hand_size)
      .def_rw("composition", &Config::composition)
      .def_rw("castle_values", &Config::castle_values)
      .def_rw("capacity", &Config::capacity)
      .def_rw("banner", &Config::banner)
      .def_rw("pile_cards", &Config::pile_cards)
      .def_rw("village_cards", &Config::village_cards)
      .def_rw("village_spaces", &Config::village_spaces)
      .def_rw("village_glory", &Config::village_glory)
      .def_rw("adjacent", &Config::adjacent)
      .def_rw("kind_names", &Config::kind_names)
      .def_rw("forest_cell", &Config::forest_cell)
      .def_rw("absent_cell", &Config::absent_cell);

  nb::class_<Tables>(m, "Tables")
      .def(
          "__init__",
          [](Tables *t, const nb::dict &layout, std::vector<std::string> action_names, const nb::list &kinds,
             Config config, const native::NameTable &action_blocks) {
            new (t) Tables(native::core_from_python(layout, std::move(action_names), kinds), std::move(config),
                           action_blocks);
          },
          "layout"_a, "action_names"_a, "kinds"_a, "config"_a, "action_blocks"_a)
      .def_prop_ro("num_players", [](const Tables &t) { return t.core->num_players; });

  // The ids this engine fixes, for the test that checks them against components.py.
  m.def("constants", []() {
    using namespace forest::chickwood;
    nb::dict d;
    d["NUM_KINDS"] = NUM_KINDS;
    d["CHEST0"] = CHEST0;
    d["GARMENT0"] = GARMENT0;
    d["JEWEL0"] = JEWEL0;
    d["NUM_TREASURE_KINDS"] = NUM_TREASURE_KINDS;
    d["BUST"] = BUST;
    d["MAID"] = MAID;
    d["HENCHMAN"] = HENCHMAN;
    d["BENEFACTOR0"] = BENEFACTOR0;
    d["SPY_GLASS"] = SPY_GLASS;
    d["KEY"] = KEY;
    d["ENTERTAINERS"] = ENTERTAINERS;
    d["GOLDEN_ARROW"] = GOLDEN_ARROW;
    d["FAKE_BEARD"] = FAKE_BEARD;
    d["JEWELRY_VALUE"] = nb::make_tuple(JEWELRY_VALUE[0], JEWELRY_VALUE[1], JEWELRY_VALUE[2]);
    d["BENEFACTOR_VALUE"] = nb::make_tuple(BENEFACTOR_VALUE[0], BENEFACTOR_VALUE[1], BENEFACTOR_VALUE[2]);
    d["MAX_CASTLE"] = MAX_CASTLE;
    d["MAX_CELLS"] = MAX_CELLS;
    d["MAX_SPACES"] = MAX_SPACES;
    d["GRID_COLS"] = GRID_COLS;
    d["ALMS_PER_PLAYER"] = ALMS_PER_PLAYER;
    d["FOREST"] = FOREST;
    d["NO_CARD"] = NO_CARD;
    d["NO_LAST_CELL"] = NO_LAST_CELL;
    d["MAX_OPPONENTS"] = MAX_OPPONENTS;
    nb::dict kinds;
    kinds["SCOUT"] = kind::SCOUT;
    kinds["SPY"] = kind::SPY;
    kinds["RAID"] = kind::RAID;
    kinds["KEY"] = kind::KEY;
    kinds["ALMS"] = kind::ALMS;
    kinds["ENTERTAINERS_FIRST"] = kind::ENTERTAINERS_FIRST;
    kinds["ENTERTAINERS_SECOND"] = kind::ENTERTAINERS_SECOND;
    kinds["ARROW_GIVE"] = kind::ARROW_GIVE;
    kinds["ARROW_TAKE"] = kind::ARROW_TAKE;
    kinds["FAKE_BEARD"] = kind::FAKE_BEARD;
    d["Kind"] = kinds;
    return d;
  });

  auto cls = nb::class_<State>(m, "State");
  native::bind_state_core<State>(cls);
  cls.def(nb::init<std::shared_ptr<const Tables>>(), "tables"_a)
      .def(nb::init<const State &>(), "other"_a)
      .def("_assign", [](State &s, const State &o) { s = o; })
      .def("_setup",
           [](State &s, uint64_t seed) {
             s = State::new_game(s.tables_ptr(), native::Pcg64::from_seed(seed));
           })
      .def("_setup_from_rng",
           [](State &s, uint64_t shi, uint64_t slo, uint64_t ihi, uint64_t ilo, bool has32, uint32_t u) {
             s = State::new_game(s.tables_ptr(), native::Pcg64::from_state(shi, slo, ihi, ilo, has32, u));
           })
      .def("_resample_in_place",
           [](State &s, int seat, uint64_t shi, uint64_t slo, uint64_t ihi, uint64_t ilo, bool has32, uint32_t u) {
             auto g = native::Pcg64::from_state(shi, slo, ihi, ilo, has32, u);
             s = s.resample_hidden(seat, g);
             return std::make_tuple(g.state_hi(), g.state_lo(), g.inc_hi(), g.inc_lo(), g.has_uint32(), g.uinteger());
           })
      .def_prop_ro("tables", &State::tables_ptr)
      // --- the fields, as the Python state holds them -------------------------------------
      .def("_deck", [](const State &s) { return std::vector<int>(s.deck.begin(), s.deck.end()); })
      .def("_set_deck", [](State &s, const std::vector<int> &v) { s.deck = small_ints(v, -128, 127, "deck"); })
      .def("_order", [](const State &s) { return std::vector<int>(s.order.begin(), s.order.end()); })
      .def("_set_order", [](State &s, const std::vector<int> &v) { s.order = small_ints(v, -128, 127, "order"); })
      .def_rw("step", &State::step)
      .def("_end_stages", [](const State &s) { return std::vector<int>(s.end_stages.begin(), s.end_stages.end()); })
      .def("_set_end_stages",
           [](State &s, const std::vector<int> &v) { s.end_stages = small_ints(v, -128, 127, "end_stages"); })
      .def("_discard_fd",
           [](const State &s) {
             std::vector<std::tuple<int, int, int>> out;
             for (const auto &c : s.discard_fd) out.emplace_back(c.kind, c.owner, c.spied_by);
             return out;
           })
      .def("_set_discard_fd",
           [](State &s, const std::vector<std::tuple<int, int, int>> &cards) {
             std::vector<SecretDiscard> out;
             for (const auto &[k, o, spy] : cards) {
               auto v = small_ints({k, o, spy}, -128, 127, "discard_fd");
               out.push_back({v[0], v[1], v[2]});
             }
             s.discard_fd = std::move(out);
           })
      .def("_grid", [](const State &s) { return std::vector<int>(s.grid.begin(), s.grid.end()); })
      .def("_set_grid",
           [](State &s, const std::vector<int> &v) {
             if (v.size() != s.grid.size()) throw native::BadInput("grid: one card per cell");
             auto g = small_ints(v, -128, 127, "grid");
             std::copy(g.begin(), g.end(), s.grid.begin());
           })
      .def("_raids",
           [](const State &s) {
             std::vector<std::vector<int>> out;
             for (const auto &r : s.raids) out.emplace_back(r.begin(), r.end());
             return out;
           })
      .def("_set_raids",
           [](State &s, const std::vector<std::vector<int>> &v) {
             std::vector<std::vector<int8_t>> out;
             for (const auto &r : v) out.push_back(small_ints(r, -128, 127, "raids"));
             s.raids = std::move(out);
           })
      .def("_check_fields", &State::check_fields)
      // --- rules steps tests call to build positions (the Python state's names) ----------
      .def("_start_round",
           [](State &s) {
             s.check_fields();
             s.start_round();
           })
      .def("put_alms",
           [](State &s, int cell, int p) {
             if (cell < 0 || cell >= forest::chickwood::MAX_CELLS || p < 0 || p >= s.num_players())
               throw native::BadInput("put_alms: no such cell or seat");
             if (s.get(s.tables().blocks.cell_filled, cell) >= s.cell_spaces(cell))
               throw native::BadInput("put_alms: the village has no free space");
             s.put_alms(cell, p);
           })
      .def("set_turn",
           [](State &s, int p) {
             if (p < 0 || p >= s.num_players()) throw native::BadInput("set_turn: not a seat");
             s.set_turn(p);
           })
      // --- results ---------------------------------------------------------------------
      .def("ranks", &State::ranks)
      .def("_scores",
           [](const State &s) {
             nb::list out;
             for (const auto &sc : s.scores()) {
               nb::list glory;
               for (int g : sc.village_glory) glory.append(g);
               out.append(nb::make_tuple(sc.busts, sc.chests, sc.garments, sc.jewelry, sc.maid, sc.henchmen, sc.castles,
                                         sc.villages, glory, sc.total()));
             }
             return out;
           })
      // --- native loops (the bare engine's speed, without Python in between) -------------
      .def("_random_playout",
           [](State &s, uint64_t seed, int64_t max_actions) {
             auto g = native::Pcg64::from_seed(seed);
             int64_t done = 0;
             while (!s.is_terminal() && done < max_actions) {
               s.apply(s.random_legal(g));
               ++done;
             }
             return done;
           });

  // N games stepped together in C++ (forest_envs/envs/vector.py's BatchedEnv)
  native::bind_batch<State>(m);

  // --- the native ismcts (core/native/search.hpp): _ismcts and SearchPolicy ----------------
  native::bind_search<State>(m, cls);
}
