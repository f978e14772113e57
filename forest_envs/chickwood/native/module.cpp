// forest_envs.chickwood.native._engine: the Python binding of Chickwood's native state. Thin:
// what every game binds comes from bind_game (core/native/game_binding.hpp); here are
// Chickwood's own Config, fields (out as plain Python values, back checked by
// State::check_fields), constants and test helpers.
#include "../../core/native/game_binding.hpp"
#include "state.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using forest::chickwood::Config;
using forest::chickwood::SecretDiscard;
using forest::chickwood::State;
namespace native = forest::native;
using native::small_ints;

NB_MODULE(_engine, m) {
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

  // Tables, the State's shared methods, the batched API and the native ismcts
  auto cls = native::bind_game<State>(m);

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

  cls  // --- the fields, as the Python state holds them -------------------------------------
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
      // --- results ---------------------------------------------------------------------
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
           });
}
