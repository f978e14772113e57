// Sherwood Forest's native tables: the ids components.py, actions.py and observation.py fix
// for every configuration (checked against Python by tests/test_native_engines.py), and what
// one configuration fixes (Config, filled from the Python SherwoodGame and components.py: one
// source for every card, route and deck), with the buffer blocks and action blocks looked up
// once by name (rules/precomputed.py's tables).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../../core/native/actions.hpp"
#include "../../core/native/state_core.hpp"

namespace forest::sherwood {

using native::ActionBlock;
using native::Block;

// components.py: players, pieces, the box
constexpr int MAX_SEATS = 6, OUTLAWS_PER_COLOUR = 8, BAND_START = 4, OAK_START = 4, MIN_BAND = 4;
constexpr int GOLD_BAGS = 42, GOLD_START = 2, CHURCH_FORCED_ABOVE = 5, MERCHANT_COST = 1, MARKET_COST = 2;
constexpr int HAND_LIMIT = 3, ROUNDS = 6, FIRST_EMPTY_FAME = 1, NUM_LETTERS = 6;
constexpr int FINAL_GOLD_FAME = 1, FINAL_COMRADE_FAME = 2;
// components.py: the map
constexpr int NUM_TOWNS = 4, NUM_AMBUSHES = 12, ROUTE_LEN = 8;
constexpr std::array<int, 4> RED_FORKS{8, 9, 10, 11};
// components.py: cards and equipment
constexpr int NUM_CARDS = 55, MAX_STRENGTH = 14;
constexpr int NUM_EQUIPMENT_KINDS = 6, NUM_WEAPON_KINDS = 3, MAX_WEAPON_STRENGTH = 3;
constexpr std::array<int, NUM_WEAPON_KINDS> WEAPON_STRENGTH{1, 2, 3};
constexpr int CUDGEL = 0, BOW = 1, SWORD = 2, PROVISIONS = 3, FOREST_CLOAK = 4, MESSENGER = 5;
constexpr std::array<int, NUM_EQUIPMENT_KINDS> EQUIPMENT_COUNTS{8, 6, 4, 2, 2, 2};
// components.py: preparation places
constexpr int CHURCH = 0, INN = 1, MERCHANT = 2, MARKET = 3, NUM_PLACES = 4;
// actions.py
constexpr int MAX_SLOTS = 6, MAX_ASK_CARDS = 3, MAX_PROMISED_LOOT = 9, MAX_PAYMENT = 5, MAX_PROMISED_COMRADES = 2;
constexpr int CLOAK_STAY = 0, WITHHOLD_BAG = 0, WITHHOLD_COMRADE = 1, CONFIRM_FORM = 0;
// observation.py
constexpr int MAX_OFFERS = 3, FEATURES = 16;
constexpr int F_STRENGTH = 0, F_FAME = 1, F_GOLD = 2, F_COMRADES = 3, F_ORIGIN = 4, F_DEST = 8;
constexpr int F_SHERIFF = 12, F_FAME_LOSS = 13, F_OUTLAW_LOSS = 14, F_DECK_B = 15;
// rules: agreements.NO_SEAT, attacks.PLACE_ON_THE_ROAD, negotiate.ACCEPTED / NO_TARGET / TOLD,
// rounds.FIRST_TO_EMPTY / SECOND_TO_EMPTY
constexpr int NO_SEAT = -1, PLACE_ON_THE_ROAD = MAX_SLOTS, ACCEPTED = 1, NO_TARGET = MAX_SLOTS, TOLD = 1;
constexpr int FIRST_TO_EMPTY = 1, SECOND_TO_EMPTY = 2;

// observation.py: the decision kinds, in DECISIONS order
namespace kind {
constexpr int PREP = 0, ASK = 1, REVEAL = 2, ANSWER = 3, LEAD = 4, EQUIP = 5, SHARE = 6, COMRADE = 7, CLOAK = 8,
              PROVISIONS = 9, MESSENGER = 10, TARGET = 11, TERMS = 12, INFORMANT = 13, PLEDGE = 14,
              SHORTFALL = 15, CALL = 16, CONFIRM = 17, COUNT = 18;
}

// components.Traveller
struct Card {
  bool deck_b = false;
  int strength = 0, fame = 0, gold = 0, comrades = 0, origin = 0, destination = 0;
  bool sheriff = false;
  int fame_loss = 0, outlaw_loss = 0;
};

// What one configuration fixes, as the Python SherwoodGame and components.py hold it.
struct Config {
  int num_players = 0;
  bool additions = false;
  int deck_cards = 0;  // DECK_CARDS[n]
  int laid_out = 0;    // LAID_OUT[n]
  std::vector<Card> cards;
  std::vector<std::vector<int>> card_features;       // precomputed.CARD_FEATURES
  std::vector<std::vector<std::vector<int>>> routes;  // ROUTES[(o, d)] as routes[o][d] (o == d: none)
  std::vector<std::vector<std::vector<std::vector<int>>>> reroute;  // REROUTE[o][d][passed]
  std::vector<int> deck_a, deck_b;                   // precomputed.DECK_IDS of this configuration
  std::vector<int> sheriff_ids;                      // precomputed.SHERIFF_IDS
  std::vector<int> equipment_deck;                   // precomputed.EQUIPMENT_DECK[additions]
};

struct Blocks {
  Block players_onehot, additions, round_no, attack_phase, pit, pile_left, equip_left, equip_discard, slot_present,
      slot_face_up, slot_card, slot_told, coach_card, coach_at, coach_step, offer_ambush, offer_own, offers_made,
      figure, card_holder, emptied, camp, places, oak, gold, fame, hand_count, round_gold, round_comrades,
      ambush_outlaws, ambush_leader, promised, slot_marked, leads_left, offer_ask, offer_answer, played, shares,
      provisioned, messenger_used, fork_bonus, ambush_target, advance, advance_comrades, informant, offer_target,
      offer_terms, offer_informant, pledged, hand, peek;
};

// A named block of three axes (accept, terms): its start and shape.
struct ActionBlock3 {
  int32_t start = 0, size = 0;
  std::array<int32_t, 3> dims{};
  bool contains(int a) const { return a >= start && a < start + size; }
  std::array<int, 3> index(int a) const {
    const int r = a - start;
    return {r / (dims[1] * dims[2]), r / dims[2] % dims[1], r % dims[2]};
  }
  int id(int i, int j, int k) const { return start + (i * dims[1] + j) * dims[2] + k; }
};

struct Actions {
  ActionBlock church, inn, merchant, market, ambush, joint, ask, reveal, reveal_none, decline, lead, equip,
      equip_pass, share, comrade, cloak, cloak_none, provisions, provisions_none, messenger, messenger_pass, target,
      target_none, informant, renounce, withhold, call, confirm;
  ActionBlock3 accept, terms;
};

struct Tables {
  std::shared_ptr<const native::CoreTables> core;
  Config config;
  Blocks blocks;
  Actions actions;

  Tables(std::shared_ptr<const native::CoreTables> core_, Config config_, const native::NameTable &action_blocks);

  const Card &card(int c) const {
    if (c < 0 || c >= NUM_CARDS) throw std::out_of_range("not a traveller card: " + std::to_string(c));
    return config.cards[static_cast<size_t>(c)];
  }
  const std::vector<int> &route(int origin, int destination) const {
    return config.routes[static_cast<size_t>(origin)][static_cast<size_t>(destination)];
  }
};

}  // namespace forest::sherwood
