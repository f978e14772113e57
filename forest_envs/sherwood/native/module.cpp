// forest_envs.sherwood.native._engine: the Python binding of Sherwood Forest's native state.
// Thin: what every game binds comes from bind_game (core/native/game_binding.hpp); here are
// Sherwood's own Config (filled from the Python SherwoodGame and components.py by
// native/__init__.py), its fields (out as plain Python values, a record as the tuple of its
// fields, which __init__.py turns into the rules' record; back checked by State::check_values
// at once and State::check_fields once a state is loaded), its constants and test helpers.
#include "../../core/native/game_binding.hpp"
#include "state.hpp"

namespace nb = nanobind;
using namespace nb::literals;
namespace native = forest::native;
namespace sw = forest::sherwood;
using sw::State;
using sw::Triple;

namespace {

template <class T>
T cast_as(nb::handle h, const char *what) {
  try {
    return nb::cast<T>(h);
  } catch (const std::exception &) {
    throw native::BadInput(std::string(what) + ": not a value of the expected type");
  }
}

nb::list py_ints(const std::vector<int> &v) {
  nb::list out;
  for (int x : v) out.append(x);
  return out;
}

nb::tuple py_triple(const Triple &t) { return nb::make_tuple(t[0], t[1], t[2]); }

Triple triple_from(nb::handle h, const char *what) {
  auto v = cast_as<std::vector<int>>(h, what);
  if (v.size() != 3) throw native::BadInput(std::string(what) + ": three numbers");
  return {v[0], v[1], v[2]};
}

nb::dict py_seat_triples(const std::vector<std::pair<int, Triple>> &d) {
  nb::dict out;
  for (const auto &[q, t] : d) out[nb::int_(q)] = py_triple(t);
  return out;
}

std::vector<std::pair<int, Triple>> seat_triples_from(nb::handle h, const char *what) {
  auto d = cast_as<nb::dict>(h, what);
  std::vector<std::pair<int, Triple>> out;
  for (auto [k, v] : d) out.emplace_back(cast_as<int>(k, what), triple_from(v, what));
  return out;
}

// A record's fields as the tuple its Python class takes (records.py, field for field).
nb::object py_record(const State &s, const std::string &name) {
  if (name == "coach") {
    if (!s.coach) return nb::none();
    return nb::make_tuple(s.coach->card, s.coach->step, s.coach->destination);
  }
  if (name == "fight") {
    if (!s.fight) return nb::none();
    const auto &f = *s.fight;
    return nb::make_tuple(f.ambush, f.strength, py_ints(f.order), f.total, f.asking, py_ints(f.pledgers));
  }
  if (name == "loot") {
    if (!s.loot) return nb::none();
    const auto &L = *s.loot;
    nb::list tiers;
    for (const auto &t : L.tiers) tiers.append(py_ints(t));
    return nb::make_tuple(L.ambush, py_ints(L.order), L.gold, L.comrades, L.informant, L.short_bags, L.short_comrades,
                          L.leader, py_ints(L.outlaws), py_ints(L.oak), py_ints(L.shares), py_ints(L.comrades_got),
                          L.round, py_ints(L.tier), tiers, L.own_bags, L.leader_before, L.own_round);
  }
  if (name == "offer") {
    if (!s.offer) return nb::none();
    const auto &o = *s.offer;
    nb::list asked;
    for (const auto &t : o.asked) asked.append(py_triple(t));
    return nb::make_tuple(o.performer, o.ambush, o.own, o.offers, py_ints(o.allies), o.informant, o.next_ally, asked,
                          o.told, o.target, py_seat_triples(o.terms), py_seat_triples(o.promise));
  }
  if (name == "crush") {
    if (!s.crush) return nb::none();
    nb::dict cloaks;
    for (const auto &[q, stay] : s.crush->cloaks) cloaks[nb::int_(q)] = nb::bool_(stay);
    return nb::make_tuple(s.crush->ambush, py_ints(s.crush->order), s.crush->asking, cloaks);
  }
  if (name == "provisioning") {
    if (!s.provisioning) return nb::none();
    const auto &p = *s.provisioning;
    return nb::make_tuple(p.ambush, py_ints(p.order), p.asking, py_ints(p.stay));
  }
  throw native::BadInput("no record field " + name);
}

void set_record(State &s, const std::string &name, nb::handle h) {
  const char *what = name.c_str();
  if (h.is_none()) {
    if (name == "coach") s.coach.reset();
    else if (name == "fight") s.fight.reset();
    else if (name == "loot") s.loot.reset();
    else if (name == "offer") s.offer.reset();
    else if (name == "crush") s.crush.reset();
    else if (name == "provisioning") s.provisioning.reset();
    else throw native::BadInput("no record field " + name);
    return;
  }
  auto t = cast_as<nb::tuple>(h, what);
  auto field = [&](size_t i) { return t[i]; };
  auto count = [&](size_t k) {
    if (t.size() != k) throw native::BadInput(name + ": a record of another number of fields");
  };
  if (name == "coach") {
    count(3);
    s.coach = sw::Coach{cast_as<int>(field(0), what), cast_as<int>(field(1), what), cast_as<int>(field(2), what)};
  } else if (name == "fight") {
    count(6);
    s.fight = sw::Fight{cast_as<int>(field(0), what), cast_as<int>(field(1), what),
                        cast_as<std::vector<int>>(field(2), what), cast_as<int>(field(3), what),
                        cast_as<int>(field(4), what), cast_as<std::vector<int>>(field(5), what)};
  } else if (name == "loot") {
    count(18);
    sw::Loot L;
    L.ambush = cast_as<int>(field(0), what);
    L.order = cast_as<std::vector<int>>(field(1), what);
    L.gold = cast_as<int>(field(2), what);
    L.comrades = cast_as<int>(field(3), what);
    L.informant = cast_as<int>(field(4), what);
    L.short_bags = cast_as<int>(field(5), what);
    L.short_comrades = cast_as<int>(field(6), what);
    L.leader = cast_as<int>(field(7), what);
    L.outlaws = cast_as<std::vector<int>>(field(8), what);
    L.oak = cast_as<std::vector<int>>(field(9), what);
    L.shares = cast_as<std::vector<int>>(field(10), what);
    L.comrades_got = cast_as<std::vector<int>>(field(11), what);
    L.round = cast_as<int>(field(12), what);
    L.tier = cast_as<std::vector<int>>(field(13), what);
    L.tiers = cast_as<std::vector<std::vector<int>>>(field(14), what);
    L.own_bags = cast_as<int>(field(15), what);
    L.leader_before = cast_as<int>(field(16), what);
    L.own_round = cast_as<int>(field(17), what);
    s.loot = std::move(L);
  } else if (name == "offer") {
    count(12);
    sw::Offer o;
    o.performer = cast_as<int>(field(0), what);
    o.ambush = cast_as<int>(field(1), what);
    o.own = cast_as<int>(field(2), what);
    o.offers = cast_as<int>(field(3), what);
    o.allies = cast_as<std::vector<int>>(field(4), what);
    o.informant = cast_as<int>(field(5), what);
    o.next_ally = cast_as<int>(field(6), what);
    for (nb::handle a : cast_as<nb::list>(field(7), what)) o.asked.push_back(triple_from(a, what));
    o.told = cast_as<int>(field(8), what);
    o.target = cast_as<int>(field(9), what);
    o.terms = seat_triples_from(field(10), what);
    o.promise = seat_triples_from(field(11), what);
    s.offer = std::move(o);
  } else if (name == "crush") {
    count(4);
    sw::CloakQuestions c;
    c.ambush = cast_as<int>(field(0), what);
    c.order = cast_as<std::vector<int>>(field(1), what);
    c.asking = cast_as<int>(field(2), what);
    for (auto [k, v] : cast_as<nb::dict>(field(3), what)) c.cloaks.emplace_back(cast_as<int>(k, what), cast_as<bool>(v, what));
    s.crush = std::move(c);
  } else if (name == "provisioning") {
    count(4);
    s.provisioning = sw::ProvisionsQuestions{cast_as<int>(field(0), what), cast_as<std::vector<int>>(field(1), what),
                                             cast_as<int>(field(2), what), cast_as<std::vector<int>>(field(3), what)};
  } else {
    throw native::BadInput("no record field " + name);
  }
}

std::vector<int> *int_list(State &s, const std::string &name) {
  if (name == "pile") return &s.pile;
  if (name == "box") return &s.box;
  if (name == "removed") return &s.removed;
  if (name == "slots") return &s.slots;
  if (name == "equip_deck") return &s.equip_deck;
  if (name == "leads") return &s.leads;
  if (name == "window") return &s.window;
  return nullptr;
}

nb::object py_field(State &s, const std::string &name) {
  if (auto *v = int_list(s, name)) return py_ints(*v);
  if (name == "round_index") return nb::int_(s.round_index);
  if (name == "tokens") {
    nb::dict out;
    for (const auto &[k, letter] : s.tokens) out[nb::make_tuple(k.first, k.second)] = letter;
    return out;
  }
  if (name == "targets") {
    nb::dict out;
    for (const auto &[amb, card] : s.targets) out[nb::int_(amb)] = card;
    return out;
  }
  return py_record(s, name);
}

// A field from Python, checked before anything reads it; refused, the state is unchanged.
void set_field(State &s, const std::string &name, nb::handle h) {
  const State before(s);
  try {
    if (auto *list = int_list(s, name)) {
      *list = cast_as<std::vector<int>>(h, name.c_str());
    } else if (name == "round_index") {
      s.round_index = cast_as<int>(h, "round_index");
    } else if (name == "tokens") {
      s.tokens.clear();
      for (auto [k, v] : cast_as<nb::dict>(h, "tokens")) {
        auto key = cast_as<std::vector<int>>(k, "tokens");
        if (key.size() != 2) throw native::BadInput("tokens: keys are (ambush, seat)");
        s.tokens.emplace_back(sw::TokenKey{key[0], key[1]}, cast_as<int>(v, "tokens"));
      }
    } else if (name == "targets") {
      s.targets.clear();
      for (auto [k, v] : cast_as<nb::dict>(h, "targets"))
        s.targets.emplace_back(cast_as<int>(k, "targets"), cast_as<int>(v, "targets"));
    } else {
      set_record(s, name, h);
    }
    s.check_values();
  } catch (...) {
    s = before;
    throw;
  }
  s.forget_mask();
}

}  // namespace

NB_MODULE(_engine, m) {
  nb::class_<sw::Config>(m, "Config")
      .def(nb::init<>())
      .def_rw("num_players", &sw::Config::num_players)
      .def_rw("additions", &sw::Config::additions)
      .def_rw("deck_cards", &sw::Config::deck_cards)
      .def_rw("laid_out", &sw::Config::laid_out)
      .def_rw("card_features", &sw::Config::card_features)
      .def_rw("routes", &sw::Config::routes)
      .def_rw("reroute", &sw::Config::reroute)
      .def_rw("deck_a", &sw::Config::deck_a)
      .def_rw("deck_b", &sw::Config::deck_b)
      .def_rw("sheriff_ids", &sw::Config::sheriff_ids)
      .def_rw("equipment_deck", &sw::Config::equipment_deck)
      // [(deck_b, strength, fame, gold, comrades, origin, destination, sheriff, fame_loss, outlaw_loss)]
      .def("set_cards", [](sw::Config &c, const std::vector<std::tuple<bool, int, int, int, int, int, int, bool, int, int>> &cards) {
        c.cards.clear();
        for (const auto &[b, st, fa, go, co, o, d, sh, fl, ol] : cards) c.cards.push_back({b, st, fa, go, co, o, d, sh, fl, ol});
      });

  // Tables, the State's shared methods, the batched API and the native ismcts
  auto cls = native::bind_game<State>(m);

  // The ids this engine fixes, for the test that checks them against the Python modules.
  m.def("constants", []() {
    using namespace forest::sherwood;
    nb::dict d;
    const std::pair<const char *, int> ids[] = {
        {"MAX_SEATS", MAX_SEATS}, {"OUTLAWS_PER_COLOUR", OUTLAWS_PER_COLOUR}, {"BAND_START", BAND_START},
        {"OAK_START", OAK_START}, {"MIN_BAND", MIN_BAND}, {"GOLD_BAGS", GOLD_BAGS}, {"GOLD_START", GOLD_START},
        {"CHURCH_FORCED_ABOVE", CHURCH_FORCED_ABOVE}, {"MERCHANT_COST", MERCHANT_COST}, {"MARKET_COST", MARKET_COST},
        {"HAND_LIMIT", HAND_LIMIT}, {"ROUNDS", ROUNDS}, {"FIRST_EMPTY_FAME", FIRST_EMPTY_FAME},
        {"NUM_LETTERS", NUM_LETTERS}, {"FINAL_GOLD_FAME", FINAL_GOLD_FAME}, {"FINAL_COMRADE_FAME", FINAL_COMRADE_FAME},
        {"NUM_TOWNS", NUM_TOWNS}, {"NUM_AMBUSHES", NUM_AMBUSHES}, {"ROUTE_LEN", ROUTE_LEN}, {"NUM_CARDS", NUM_CARDS},
        {"MAX_STRENGTH", MAX_STRENGTH}, {"NUM_EQUIPMENT_KINDS", NUM_EQUIPMENT_KINDS},
        {"NUM_WEAPON_KINDS", NUM_WEAPON_KINDS}, {"MAX_WEAPON_STRENGTH", MAX_WEAPON_STRENGTH}, {"CUDGEL", CUDGEL},
        {"BOW", BOW}, {"SWORD", SWORD}, {"PROVISIONS", PROVISIONS}, {"FOREST_CLOAK", FOREST_CLOAK},
        {"MESSENGER", MESSENGER}, {"CHURCH", CHURCH}, {"INN", INN}, {"MERCHANT", MERCHANT}, {"MARKET", MARKET},
        {"MAX_SLOTS", MAX_SLOTS}, {"MAX_ASK_CARDS", MAX_ASK_CARDS}, {"MAX_PROMISED_LOOT", MAX_PROMISED_LOOT},
        {"MAX_PAYMENT", MAX_PAYMENT}, {"MAX_PROMISED_COMRADES", MAX_PROMISED_COMRADES}, {"CLOAK_STAY", CLOAK_STAY},
        {"WITHHOLD_BAG", WITHHOLD_BAG}, {"WITHHOLD_COMRADE", WITHHOLD_COMRADE}, {"CONFIRM_FORM", CONFIRM_FORM},
        {"MAX_OFFERS", MAX_OFFERS}, {"FEATURES", FEATURES}, {"F_STRENGTH", F_STRENGTH}, {"F_FAME", F_FAME},
        {"F_GOLD", F_GOLD}, {"F_COMRADES", F_COMRADES}, {"F_ORIGIN", F_ORIGIN}, {"F_DEST", F_DEST},
        {"F_SHERIFF", F_SHERIFF}, {"F_FAME_LOSS", F_FAME_LOSS}, {"F_OUTLAW_LOSS", F_OUTLAW_LOSS},
        {"F_DECK_B", F_DECK_B}, {"NO_SEAT", NO_SEAT}, {"PLACE_ON_THE_ROAD", PLACE_ON_THE_ROAD},
        {"ACCEPTED", ACCEPTED}, {"NO_TARGET", NO_TARGET}, {"TOLD", TOLD}, {"FIRST_TO_EMPTY", FIRST_TO_EMPTY},
        {"SECOND_TO_EMPTY", SECOND_TO_EMPTY}};
    for (const auto &[name, value] : ids) d[name] = value;
    d["RED_FORKS"] = nb::make_tuple(RED_FORKS[0], RED_FORKS[1], RED_FORKS[2], RED_FORKS[3]);
    d["WEAPON_STRENGTH"] = nb::make_tuple(WEAPON_STRENGTH[0], WEAPON_STRENGTH[1], WEAPON_STRENGTH[2]);
    nb::list counts;
    for (int c : EQUIPMENT_COUNTS) counts.append(c);
    d["EQUIPMENT_COUNTS"] = nb::tuple(counts);
    nb::dict kinds;
    const char *names[] = {"PREP",      "ASK",    "REVEAL", "ANSWER",    "LEAD",      "EQUIP",
                           "SHARE",     "COMRADE", "CLOAK", "PROVISIONS", "MESSENGER", "TARGET",
                           "TERMS",     "INFORMANT", "PLEDGE", "SHORTFALL", "CALL",    "CONFIRM"};
    for (int i = 0; i < kind::COUNT; ++i) kinds[names[i]] = i;
    d["Kind"] = kinds;
    return d;
  });

  cls  // --- the fields, as plain Python values (records as the tuples of their fields) ---------
      .def("_field", &py_field)
      .def("_set_field", &set_field, nb::arg("name"), nb::arg("value").none())
      // --- a rules step tests call to build positions (the Python state's push / replace) ---
      .def("_push_or_replace",
           [](State &s, bool push, int k, int p, const std::vector<int> &data) {
             if (k < 0 || k >= sw::kind::COUNT) throw native::BadInput("replace: no such decision kind");
             if (p < 0 || p >= s.num_players()) throw native::BadInput("replace: not a seat");
             const auto &spec = s.core().kinds[static_cast<size_t>(k)];
             if (static_cast<int>(data.size()) != spec.ints + spec.seats)
               throw native::BadInput("replace: decision " + spec.name + " carries another number of values");
             native::Decision d;
             d.kind = static_cast<int16_t>(k);
             d.player = static_cast<int16_t>(p);
             d.len = static_cast<int16_t>(data.size());
             for (size_t i = 0; i < data.size(); ++i) d.data[i] = static_cast<int16_t>(data[i]);
             if (push || s.decisions.empty())
               s.decisions.push_back(d);
             else
               s.decisions.back() = d;
             s.show();
           });
}
