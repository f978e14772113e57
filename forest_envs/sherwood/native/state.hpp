// One play of Sherwood Forest in C++: the same buffer blocks, fields and decision stack as the
// Python SherwoodState, and the same rules, one file per module of the Python rules:
//   state.cpp                 the tables, the blank state, the dispatch by decision kind,
//                             the facts (rules: facts)
//   checks.cpp                the checks of a state from Python                  (rules: checks)
//   rounds.cpp                setup, the turn order, the end of a round         (rules: rounds)
//   prepare.cpp               the preparation actions                          (rules: prepare)
//   negotiate.cpp             the joint ambush's offer                        (rules: negotiate)
//   agreements.cpp            (additions) target, informant, terms           (rules: agreements)
//   attacks.cpp               leading a traveller, the drive, equipment          (rules: attacks)
//   planned_attack.cpp        (additions) pledges, the kept agreement      (rules: planned_attack)
//   loot.cpp                  sharing the loot, provisions, going home              (rules: loot)
//   sheriff.cpp               (additions) the crushed ambush, forest cloaks       (rules: sheriff)
//   messenger.cpp             (additions) the messenger's clothes               (rules: messenger)
//   scoring.cpp               the sixth round's conversion, the ranks              (rules: scoring)
//   seats_and_travellers.cpp  seats in actions, laid-out travellers, leaving an ambush
//   hidden.cpp                resample_hidden, a determinization for search       (rules: hidden)
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tables.hpp"

namespace forest::sherwood {

using Triple = std::array<int, 3>;

// rules/records.py, field for field (a dict is a list of pairs in insertion order, as the
// Python dict iterates and to_json writes it).
struct Offer {
  int performer = 0, ambush = 0, own = 0, offers = 0;
  std::vector<int> allies;
  int informant = 0, next_ally = 0;
  std::vector<Triple> asked;  // (seat, outlaws, cards)
  int told = -1, target = -1;
  std::vector<std::pair<int, Triple>> terms;    // seat -> (bags, gold now, comrades)
  std::vector<std::pair<int, Triple>> promise;  // seat -> weapon cards by kind
};

struct Coach {
  int card = 0, step = 0, destination = 0;
};

struct Fight {
  int ambush = 0, strength = 0;
  std::vector<int> order;
  int total = 0, asking = 0;
  std::vector<int> pledgers;
};

struct Loot {
  int ambush = 0;
  std::vector<int> order;
  int gold = 0, comrades = 0, informant = -1, short_bags = 0, short_comrades = 0, leader = -1;
  std::vector<int> outlaws, oak, shares, comrades_got;
  int round = 0;
  std::vector<int> tier;
  std::vector<std::vector<int>> tiers;
  int own_bags = 0, leader_before = 0, own_round = 0;
};

struct CloakQuestions {
  int ambush = 0;
  std::vector<int> order;
  int asking = 0;
  std::vector<std::pair<int, bool>> cloaks;  // seat -> stays in the ambush
};

struct ProvisionsQuestions {
  int ambush = 0;
  std::vector<int> order;
  int asking = 0;
  std::vector<int> stay;
};

// A Python dict's operations on a list of pairs in insertion order.
template <class K, class V>
const V *find_in(const std::vector<std::pair<K, V>> &d, const K &k) {
  for (const auto &e : d)
    if (e.first == k) return &e.second;
  return nullptr;
}
template <class K, class V>
void put_in(std::vector<std::pair<K, V>> &d, const K &k, const V &v) {
  for (auto &e : d)
    if (e.first == k) {
      e.second = v;
      return;
    }
  d.emplace_back(k, v);
}
template <class K, class V>
void pop_from(std::vector<std::pair<K, V>> &d, const K &k) {
  for (auto it = d.begin(); it != d.end(); ++it)
    if (it->first == k) {
      d.erase(it);
      return;
    }
}

using TokenKey = std::pair<int, int>;  // (ambush, seat); seat NO_SEAT: an agreement's target

class State : public native::GameState<State, Tables> {
 public:
  explicit State(std::shared_ptr<const Tables> tables);
  State(const State &) = default;
  State &operator=(const State &) = default;

  // A new game from a seeded generator: every draw in the Python engine's order.
  static State new_game(std::shared_ptr<const Tables> tables, const native::Pcg64 &rng);

  // --- the fields (rules: SherwoodState.FIELDS) ---------------------------------------------
  std::vector<int> pile, box, removed, slots, equip_deck, leads;
  std::optional<Coach> coach;
  std::optional<Fight> fight;
  std::optional<Loot> loot;
  std::optional<Offer> offer;
  std::vector<std::pair<TokenKey, int>> tokens;
  int round_index = 0;
  std::optional<CloakQuestions> crush;
  std::optional<ProvisionsQuestions> provisioning;
  std::vector<int> window;
  std::vector<std::pair<int, int>> targets;  // ambush -> the card of its agreement's target

  // --- EngineState's hooks -----------------------------------------------------------------
  void fill_mask(const native::Decision &d, int8_t *mask) const;
  void apply_legal(const native::Decision &d, int action);
  std::string why(const native::Decision &d, int action) const;

  // --- results (rules: facts) ------------------------------------------------------------------
  std::vector<int> ranks() const;

  // --- hidden information ----------------------------------------------------------------
  State resample_hidden(int seat, native::Pcg64 &rng) const;

  void edited();              // after a change by hand: the fields checked, the decision shown
  void check_fields() const;  // every field and block within the ranges the rules index by
  void check_values() const;  // the fields alone (a field set from Python)
  void check_top() const;     // the pending decision against what its rules read
  void forget_mask() { mask_valid_ = false; }
  std::vector<int> totals() const;  // each seat's fame (the batched API's score reward)

 private:
  const Tables &tab() const { return tables(); }

  // a block entry changed by ``delta``
  void bump(const Block &blk, int i, int delta) { at(blk, i) = static_cast<int16_t>(get(blk, i) + delta); }
  void bump(const Block &blk, int i, int j, int delta) { at(blk, i, j) = static_cast<int16_t>(get(blk, i, j) + delta); }
  // the stack's changes, refused on an empty stack or with a player or seat out of range (a
  // state from Python cannot make the rules write outside the decision blocks)
  void push(int kind, int player, std::initializer_list<int> data = {}) {
    check_decision(kind, player, data);
    StateCore::push(kind, player, data);
  }
  void replace(int kind, int player, std::initializer_list<int> data = {}) {
    if (decisions.empty()) throw std::logic_error("no pending decision to replace");
    check_decision(kind, player, data);
    StateCore::replace(kind, player, data);
  }
  void next_turn(int kind, int player, std::initializer_list<int> data = {}) {
    if (decisions.empty()) throw std::logic_error("no pending decision to replace");
    check_decision(kind, player, data);
    StateCore::next_turn(kind, player, data);
  }
  native::Decision pop() {
    if (decisions.empty()) throw std::logic_error("no pending decision to pop");
    return StateCore::pop();
  }
  void check_decision(int kind, int player, std::initializer_list<int> data) const {
    const int n = num_players();
    if (kind < 0 || kind >= kind::COUNT || player < 0 || player >= n)
      throw std::logic_error("a decision of no kind or no seat");
    const auto &spec = core().kinds[static_cast<size_t>(kind)];
    int i = 0;
    for (int v : data) {
      if (i < spec.ints ? (v < 0 || v > spec.int_high[static_cast<size_t>(i)]) : (v < 0 || v >= n))
        throw std::logic_error("decision " + spec.name + " carries a value out of range");
      ++i;
    }
  }
  int top_kind() const {
    if (decisions.empty()) throw std::logic_error("no pending decision");
    return decisions.back().kind;
  }
  // facts (state.cpp)
  int figure_seat() const;
  int card_holder_seat() const;
  std::vector<int> seats_from(int first) const;
  bool sixth_round() const { return round_index >= ROUNDS; }
  const std::vector<int> &route() const;
  std::vector<int> participants(int amb) const;
  int tokens_free() const { return NUM_LETTERS - static_cast<int>(tokens.size()); }
  std::vector<int> comrade_room() const;
  int row_sum(const Block &blk, int i) const;  // the sum of row i of a 2-axis block
  void set_row(const Block &blk, int i, const std::vector<int> &values);
  void copy_features(const Block &blk, int i, int card);  // a card's features into row i
  // rounds.cpp
  void start_round();
  void next_prep(int after);
  void note_emptied(const std::vector<int> &seats);
  void end_round();
  void end_agreements();
  void fork_bonus();
  // prepare.cpp
  bool equipment_available() const;
  void mask_prep(const native::Decision &d, int8_t *mask) const;
  std::string why_prep(const native::Decision &d, int a) const;
  void apply_prep(const native::Decision &d, int a);
  void place(int p, int where);
  void draw_equipment(int p);
  // negotiate.cpp
  void start_offer(int p, int amb, int own, int offers);
  void show_offer(unsigned changed);
  void ask_ally(int p);
  void mask_ask(const native::Decision &d, int8_t *mask) const;
  void apply_ask(const native::Decision &d, int a);
  void next_ally(int p);
  void after_asks(int p);
  void mask_reveal(const native::Decision &d, int8_t *mask) const;
  void apply_reveal(const native::Decision &d, int a);
  void ask_next_answer();
  void mask_answer(const native::Decision &d, int8_t *mask) const;
  std::string why_answer(const native::Decision &d, int a) const;
  void apply_answer(const native::Decision &d, int a);
  void apply_confirm(const native::Decision &d, int a);
  void offer_failed();
  void place_joint();
  void joint_formed();
  // agreements.cpp
  void mask_target(const native::Decision &d, int8_t *mask) const;
  void apply_target(const native::Decision &d, int a);
  void mask_informant(const native::Decision &d, int8_t *mask) const;
  void apply_informant(const native::Decision &d, int a);
  void mask_terms(const native::Decision &d, int8_t *mask) const;
  void apply_terms(const native::Decision &d, int a);
  void bind_agreement(const Offer &o, std::vector<int> &used);
  void void_agreement(int amb);
  // attacks.cpp
  void start_attacks();
  void next_lead();
  void mask_lead(const native::Decision &d, int8_t *mask) const;
  void apply_lead(const native::Decision &d, int a);
  void drive();
  void drive_on();
  int promised_strength(int amb) const;
  bool open_fight(int amb, int strength);
  int capacity(int amb, int q) const;
  bool ask_equip();
  bool fall_short(int amb, bool played = true);
  void mask_equip(const native::Decision &d, int8_t *mask) const;
  void apply_equip(const native::Decision &d, int a);
  void win(int amb, bool promised_needed);
  void return_promised(const std::vector<int> &ambushes);
  // planned_attack.cpp
  bool start_pledges(int amb, int strength, int outlaws);
  void next_pledger();
  void mask_call(const native::Decision &d, int8_t *mask) const;
  void apply_call(const native::Decision &d, int a);
  void mask_pledge(const native::Decision &d, int8_t *mask) const;
  void apply_pledge(const native::Decision &d, int a);
  void keep_agreement();
  void settle_shortfall();
  int short_of(bool bags) const;
  void withhold(bool bags, int q, int k);
  void mask_shortfall(const native::Decision &d, int8_t *mask) const;
  void apply_shortfall(const native::Decision &d, int a);
  void collect_promises();
  // loot.cpp
  void take_loot(int amb, const std::vector<int> &order, const Card &card);
  void ask_leader(int kind, std::initializer_list<int> data);
  void show_shares();
  void push_or_replace(int kind, int player, std::initializer_list<int> data);
  void share_loot();
  bool fits(const std::vector<int> &shares) const;
  int room_for_comrades(const std::vector<int> &shares) const;
  bool fits_one_more(int q) const;
  void share_out();
  bool own_share_matters() const;
  int tier_room(const std::vector<int> &tier) const;
  void leader_keeps_the_rest();
  void mask_share(const native::Decision &d, int8_t *mask) const;
  std::string why_share(const native::Decision &d, int a) const;
  void apply_share(const native::Decision &d, int a);
  void assign_comrades();
  void mask_comrade(const native::Decision &d, int8_t *mask) const;
  void apply_comrade(const native::Decision &d, int a);
  void pay_loot();
  void after_success(int amb);
  void mask_provisions(const native::Decision &d, int8_t *mask) const;
  void apply_provisions(const native::Decision &d, int a);
  void go_home(int amb, const std::vector<int> &order, const std::vector<int> &stays);
  // sheriff.cpp
  void crush_ambush(int amb);
  void mask_cloak(const native::Decision &d, int8_t *mask) const;
  void apply_cloak(const native::Decision &d, int a);
  int band(int q) const;
  void crush_losses();
  // messenger.cpp
  const std::vector<int> &reroute_towns() const;
  bool open_window();
  void mask_messenger(const native::Decision &d, int8_t *mask) const;
  void apply_messenger(const native::Decision &d, int a);
  // scoring.cpp
  void end_of_the_game();
  // seats_and_travellers.cpp
  void mark_seats(int8_t *mask, const ActionBlock &block, int player, const std::vector<int> &seats) const;
  int seat_named(const ActionBlock &block, int player, int a) const;
  void lay_out();
  void clear_slot(int s);
  void leave_ambush(int amb, const std::vector<int> &order, const std::vector<int> &stays);

  friend struct StateAccess;
};

// negotiate.cpp's show_offer: the record fields whose blocks to write (none: every block)
namespace offer_field {
constexpr unsigned AMBUSH = 1, OWN = 2, OFFERS = 4, ASKED = 8, PROMISE = 16, TARGET = 32, INFORMANT = 64,
                   TERMS = 128;
}

// checks.cpp: BadInput naming what unless every id of ids is in 0..hi-1 (a state's
// piles, a config's routes: input from Python).
void check_ids(const std::vector<int> &ids, int hi, const char *what);

inline bool contains(const std::vector<int> &v, int x) {
  for (int y : v)
    if (y == x) return true;
  return false;
}

}  // namespace forest::sherwood
