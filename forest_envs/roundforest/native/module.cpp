// forest_envs.roundforest.native._engine: the Python binding of Roundforest's native state.
// Thin: what every game binds comes from bind_game (core/native/game_binding.hpp); here are
// Roundforest's own Config, fields (out as plain Python values, back checked by
// State::check_fields), constants and test helpers.
#include "../../core/native/game_binding.hpp"
#include "state.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using forest::roundforest::Character;
using forest::roundforest::Config;
using forest::roundforest::State;
using forest::roundforest::Task;
namespace native = forest::native;
using native::small_ints;

namespace {

// A task from Python: None, or (give, need, without, copper, silver, reward_item, apples).
Task task_from(nb::handle t) {
  Task task;
  if (t.is_none()) return task;
  auto [give, need, without, copper, silver, reward, apples] =
      nb::cast<std::tuple<std::vector<int>, std::vector<int>, std::vector<int>, int, int, int, int>>(t);
  task.present = true;
  task.give = give;
  task.need = need;
  task.without = without;
  task.copper = copper;
  task.silver = silver;
  task.reward_item = reward;
  task.apples = apples;
  return task;
}

}  // namespace

NB_MODULE(_engine, m) {
  nb::class_<Config>(m, "Config")
      .def(nb::init<>())
      .def_rw("num_players", &Config::num_players)
      .def_rw("no_silver", &Config::no_silver)
      .def_rw("blockade", &Config::blockade)
      .def_rw("grid", &Config::grid)
      .def_rw("tile_cells", &Config::tile_cells)
      .def_rw("well_cells", &Config::well_cells)
      .def_rw("plain_cells", &Config::plain_cells)
      .def_rw("corner", &Config::corner)
      .def_rw("starts", &Config::starts)
      .def_rw("gap_cells", &Config::gap_cells)
      .def_rw("items", &Config::items)
      .def_rw("chips", &Config::chips)
      .def_rw("tile_turn", &Config::tile_turn)
      .def_rw("tile_inner", &Config::tile_inner)
      .def_rw("tile_outer", &Config::tile_outer)
      .def_rw("near", &Config::near)
      .def_rw("cell_names", &Config::cell_names)
      .def_rw("character_names", &Config::character_names)
      // [(helpful, upper task, lower task)], a task as task_from reads it
      .def("set_characters", [](Config &c, const nb::list &chars) {
        c.characters.clear();
        for (nb::handle ch : chars) {
          auto t = nb::cast<nb::tuple>(ch);
          if (t.size() != 3) throw native::BadInput("a character is (helpful, upper, lower)");
          Character out;
          out.helpful = nb::cast<bool>(t[0]);
          out.upper = task_from(t[1]);
          out.lower = task_from(t[2]);
          c.characters.push_back(std::move(out));
        }
      });

  // Tables, the State's shared methods, the batched API and the native ismcts
  auto cls = native::bind_game<State>(m);

  // The ids this engine fixes, for the test that checks them against components.py.
  m.def("constants", []() {
    using namespace forest::roundforest;
    nb::dict d;
    d["MAX_GRID"] = MAX_GRID;
    d["NUM_CELLS"] = NUM_CELLS;
    d["NUM_TILES"] = NUM_TILES;
    d["MOVES_CAP"] = MOVES_CAP;
    d["NO_CHIP"] = NO_CHIP;
    d["BLUE"] = BLUE;
    d["YELLOW"] = YELLOW;
    d["RED"] = RED;
    d["NUM_ITEMS"] = NUM_ITEMS;
    d["ANVIL"] = ANVIL;
    d["BARREL"] = BARREL;
    d["SADDLE"] = SADDLE;
    d["CHEST"] = CHEST;
    d["STONE"] = STONE;
    d["CROSS"] = CROSS;
    d["KEY"] = KEY;
    d["SWORD"] = SWORD;
    d["POTION"] = POTION;
    d["COPPER_TOKEN"] = COPPER_TOKEN;
    d["SILVER_TOKEN"] = SILVER_TOKEN;
    d["BACKPACK_ITEMS"] = BACKPACK_ITEMS;
    d["BACKPACK_HEAVY"] = BACKPACK_HEAVY;
    d["FAIRY_ROWS"] = FAIRY_ROWS;
    d["FAIRY_SLOTS"] = FAIRY_SLOTS;
    d["FAIRY_COST"] = nb::make_tuple(FAIRY_COST[0], FAIRY_COST[1], FAIRY_COST[2]);
    d["NUM_CHARACTERS"] = NUM_CHARACTERS;
    d["PRINCE"] = PRINCE;
    d["MERCHANT"] = MERCHANT;
    d["GOBLIN"] = GOBLIN;
    d["BEGGAR"] = BEGGAR;
    d["UNICORN"] = UNICORN;
    d["SPIRIT"] = SPIRIT;
    d["MERCHANT_MAX_SALES"] = MERCHANT_MAX_SALES;
    d["BEGGAR_FEE"] = BEGGAR_FEE;
    d["PRINCE_DRAWS"] = PRINCE_DRAWS;
    d["COPPER_SUPPLY"] = COPPER_SUPPLY;
    d["SILVER_SUPPLY"] = SILVER_SUPPLY;
    d["APPLE_SUPPLY"] = APPLE_SUPPLY;
    d["COMPASSES_EACH"] = COMPASSES_EACH;
    d["APPLES_TO_WIN"] = APPLES_TO_WIN;
    d["ROUND_CAP"] = ROUND_CAP;
    d["WELL_ITEMS_IN"] = WELL_ITEMS_IN;
    d["WELL_COPPER_OUT"] = WELL_COPPER_OUT;
    d["WELL_COPPER_IN"] = WELL_COPPER_IN;
    d["SILVER_IN_COPPER"] = SILVER_IN_COPPER;
    d["COPPER"] = COPPER;
    d["SILVER"] = SILVER;
    d["APPLES"] = APPLES;
    d["NO_ITEM"] = NO_ITEM;
    d["NO_CHAR"] = NO_CHAR;
    d["PRINCE_REDRAWS"] = PRINCE_REDRAWS;
    nb::dict kinds;
    const char *names[] = {"TURN",     "BLOCKADE_START", "BLOCKADE_END", "DRAWN",       "TOKEN_ITEM",
                           "YELLOW",   "CHARACTER",      "MEET",         "WELL",        "WELL_GIVE",
                           "MERCHANT", "PRINCE",         "GOBLIN_GIVE",  "GOBLIN_TAKE", "BEGGAR",
                           "UNICORN",  "SADDLE",         "SPIRIT_PLACE", "COIN_TOKEN",  "CHEST"};
    for (int i = 0; i < kind::COUNT; ++i) kinds[names[i]] = i;
    d["Kind"] = kinds;
    return d;
  });

  cls  // --- the fields, as the Python state holds them -------------------------------------
      .def("_pos", [](const State &s) { return std::vector<int>(s.pos.begin(), s.pos.end()); })
      .def("_set_pos",
           [](State &s, const std::vector<int> &v) {
             if (static_cast<int>(v.size()) != s.num_players()) throw native::BadInput("pos: one cell per piece");
             s.pos = small_ints(v, 0, forest::roundforest::NUM_CELLS - 1, "pos");
           })
      .def("_pile", [](const State &s) { return std::vector<int>(s.pile.begin(), s.pile.end()); })
      .def("_set_pile",
           [](State &s, const std::vector<int> &v) {
             s.pile = small_ints(v, 0, forest::roundforest::NUM_CHARACTERS - 1, "pile");
           })
      // --- rules steps tests call to build positions (the Python state's names) ----------
      .def("_replace",
           [](State &s, int k, int p, const std::vector<int> &data) {
             if (k < 0 || k >= forest::roundforest::kind::COUNT) throw native::BadInput("replace: no such decision kind");
             if (p < 0 || p >= s.num_players()) throw native::BadInput("replace: not a seat");
             const auto &spec = s.core().kinds[static_cast<size_t>(k)];
             if (static_cast<int>(data.size()) != spec.ints + spec.seats)
               throw native::BadInput("replace: decision " + spec.name + " carries another number of values");
             native::Decision d;
             d.kind = static_cast<int16_t>(k);
             d.player = static_cast<int16_t>(p);
             d.len = static_cast<int16_t>(data.size());
             for (size_t i = 0; i < data.size(); ++i) d.data[i] = static_cast<int16_t>(data[i]);
             if (s.decisions.empty())
               s.decisions.push_back(d);
             else
               s.decisions.back() = d;
             s.check_fields();
             s.show();
           })
      // the near_* blocks written from their sources (before the buffer is read whole)
      .def("show_near", [](const State &s) { s.show_derived_blocks(); });
}
