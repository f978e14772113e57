// Sherwood Forest: the tables, the blank state, the dispatch by decision kind (rules:
// handlers) and the facts that only read the state (rules: facts); checks.cpp checks a state
// handed over from Python.
#include "state.hpp"

#include <algorithm>
#include <numeric>

namespace forest::sherwood {

using native::BadInput;
using native::Decision;

namespace {

native::ActionBlock block(const native::NameTable &a, const char *name, std::vector<int32_t> dims) {
  return native::action_block(a, name, std::move(dims));
}

ActionBlock3 block3(const native::NameTable &a, const char *name, std::array<int32_t, 3> dims) {
  auto it = a.find(name);
  if (it == a.end()) throw BadInput(std::string("the action space has no block ") + name);
  if (it->second.size() != 4 || it->second[1] != dims[0] || it->second[2] != dims[1] || it->second[3] != dims[2])
    throw BadInput(std::string("action block ") + name + " has another shape than the native engine expects");
  ActionBlock3 out;
  out.start = it->second[0];
  out.dims = dims;
  out.size = dims[0] * dims[1] * dims[2];
  return out;
}

}  // namespace

Tables::Tables(std::shared_ptr<const native::CoreTables> core_, Config config_, const native::NameTable &a)
    : core(std::move(core_)), config(std::move(config_)) {
  const Config &c = config;
  const int n = core->num_players;
  if (c.num_players != n || n < 3 || n > MAX_SEATS) throw BadInput("config: the player count is not the layout's");
  if (c.laid_out < 1 || c.laid_out > MAX_SLOTS) throw BadInput("config: laid_out out of range");
  if (static_cast<int>(c.cards.size()) != NUM_CARDS || static_cast<int>(c.card_features.size()) != NUM_CARDS)
    throw BadInput("config: one entry per traveller card");
  for (const auto &f : c.card_features)
    if (static_cast<int>(f.size()) != FEATURES) throw BadInput("config: card features of another size");
  for (const Card &card : c.cards)
    if (card.origin < 0 || card.origin >= NUM_TOWNS || card.destination < 0 || card.destination >= NUM_TOWNS ||
        card.origin == card.destination || card.strength < 0 || card.strength > MAX_STRENGTH || card.gold < 0 ||
        card.comrades < 0 || card.fame < 0)
      throw BadInput("config: a card out of range");
  if (static_cast<int>(c.routes.size()) != NUM_TOWNS || static_cast<int>(c.reroute.size()) != NUM_TOWNS)
    throw BadInput("config: routes by town");
  for (int o = 0; o < NUM_TOWNS; ++o) {
    const auto &ro = c.routes[static_cast<size_t>(o)];
    const auto &rr = c.reroute[static_cast<size_t>(o)];
    if (static_cast<int>(ro.size()) != NUM_TOWNS || static_cast<int>(rr.size()) != NUM_TOWNS)
      throw BadInput("config: routes by town");
    for (int d = 0; d < NUM_TOWNS; ++d) {
      const auto &r = ro[static_cast<size_t>(d)];
      if (static_cast<int>(r.size()) != (o == d ? 0 : ROUTE_LEN)) throw BadInput("config: a route of another length");
      check_ids(r, NUM_AMBUSHES, "config routes");
      if (static_cast<int>(rr[static_cast<size_t>(d)].size()) != ROUTE_LEN + 1)
        throw BadInput("config: reroute by ambushes passed");
      for (const auto &towns : rr[static_cast<size_t>(d)]) check_ids(towns, NUM_TOWNS, "config reroute");
    }
  }
  check_ids(c.deck_a, NUM_CARDS, "config deck_a");
  check_ids(c.deck_b, NUM_CARDS, "config deck_b");
  check_ids(c.sheriff_ids, NUM_CARDS, "config sheriff_ids");
  check_ids(c.equipment_deck, NUM_EQUIPMENT_KINDS, "config equipment_deck");

  const auto &L = core->layout;
  auto &B = blocks;
  const int S = MAX_SLOTS, A = NUM_AMBUSHES, F = FEATURES, W = NUM_WEAPON_KINDS, E = NUM_EQUIPMENT_KINDS;
  B.players_onehot = L.block("players_onehot", {4});
  B.additions = L.block("additions", {1});
  B.round_no = L.block("round_no", {1});
  B.attack_phase = L.block("attack_phase", {1});
  B.pit = L.block("pit", {1});
  B.pile_left = L.block("pile_left", {1});
  B.equip_left = L.block("equip_left", {1});
  B.equip_discard = L.block("equip_discard", {E});
  B.slot_present = L.block("slot_present", {S});
  B.slot_face_up = L.block("slot_face_up", {S});
  B.slot_card = L.block("slot_card", {S, F});
  B.slot_told = L.block("slot_told", {S, 4});
  B.coach_card = L.block("coach_card", {F});
  B.coach_at = L.block("coach_at", {A});
  B.coach_step = L.block("coach_step", {1});
  B.offer_ambush = L.block("offer_ambush", {A});
  B.offer_own = L.block("offer_own", {1});
  B.offers_made = L.block("offers_made", {1});
  B.figure = L.block("figure", {n});
  B.card_holder = L.block("card_holder", {n});
  B.emptied = L.block("emptied", {n});
  B.camp = L.block("camp", {n});
  B.places = L.block("places", {n, NUM_PLACES});
  B.oak = L.block("oak", {n});
  B.gold = L.block("gold", {n});
  B.fame = L.block("fame", {n});
  B.hand_count = L.block("hand_count", {n});
  B.round_gold = L.block("round_gold", {n});
  B.round_comrades = L.block("round_comrades", {n});
  B.ambush_outlaws = L.block("ambush_outlaws", {A, n});
  B.ambush_leader = L.block("ambush_leader", {A, n});
  B.promised = L.block("promised", {A, n, W});
  B.slot_marked = L.block("slot_marked", {S, n});
  B.leads_left = L.block("leads_left", {n});
  B.offer_ask = L.block("offer_ask", {n, 2});
  B.offer_answer = L.block("offer_answer", {n});
  B.played = L.block("played", {n, W});
  B.shares = L.block("shares", {n, 2});
  B.provisioned = L.block("provisioned", {A, n});
  B.messenger_used = L.block("messenger_used", {1});
  B.fork_bonus = L.block("fork_bonus", {n});
  B.ambush_target = L.block("ambush_target", {A, S + 1});
  B.advance = L.block("advance", {A, n});
  B.advance_comrades = L.block("advance_comrades", {A, n});
  B.informant = L.block("informant", {A, n});
  B.offer_target = L.block("offer_target", {S + 1});
  B.offer_terms = L.block("offer_terms", {n, 3});
  B.offer_informant = L.block("offer_informant", {n});
  B.pledged = L.block("pledged", {A, n});
  B.hand = L.block("hand", {n, E});
  B.peek = L.block("peek", {n, S, F});

  auto &X = actions;
  X.church = block(a, "church", {GOLD_BAGS});
  X.inn = block(a, "inn", {S});
  X.merchant = block(a, "merchant", {});
  X.market = block(a, "market", {});
  X.ambush = block(a, "ambush", {A, OUTLAWS_PER_COLOUR});
  X.joint = block(a, "joint", {A, OUTLAWS_PER_COLOUR});
  X.ask = block(a, "ask", {OUTLAWS_PER_COLOUR + 1, MAX_ASK_CARDS + 1});
  X.reveal = block(a, "reveal", {S});
  X.reveal_none = block(a, "reveal_none", {});
  X.accept = block3(a, "accept", {MAX_ASK_CARDS + 1, MAX_ASK_CARDS + 1, MAX_ASK_CARDS + 1});
  X.decline = block(a, "decline", {});
  X.lead = block(a, "lead", {S});
  X.equip = block(a, "equip", {W});
  X.equip_pass = block(a, "equip_pass", {});
  X.share = block(a, "share", {MAX_SEATS});
  X.comrade = block(a, "comrade", {MAX_SEATS});
  X.cloak = block(a, "cloak", {2});
  X.cloak_none = block(a, "cloak_none", {});
  X.provisions = block(a, "provisions", {});
  X.provisions_none = block(a, "provisions_none", {});
  X.messenger = block(a, "messenger", {NUM_TOWNS});
  X.messenger_pass = block(a, "messenger_pass", {});
  X.target = block(a, "target", {S});
  X.target_none = block(a, "target_none", {});
  X.terms = block3(a, "terms", {MAX_PROMISED_LOOT + 1, MAX_PAYMENT + 1, MAX_PROMISED_COMRADES + 1});
  X.informant = block(a, "informant", {MAX_SEATS});
  X.renounce = block(a, "renounce", {});
  X.withhold = block(a, "withhold", {2, MAX_SEATS});
  X.call = block(a, "call", {MAX_SEATS});
  X.confirm = block(a, "confirm", {2});
  if (core->kinds.size() != static_cast<size_t>(kind::COUNT)) throw BadInput("Sherwood Forest has 18 decision kinds");
}

State::State(std::shared_ptr<const Tables> tables) : GameState(std::move(tables)) {}

// rules: BufferState.edited (the fields checked first: a state built by hand in Python)
void State::edited() {
  check_fields();
  native::StateCore::edited();
}

// --- dispatch by decision kind (rules: handlers.HANDLERS) -------------------------------------
void State::fill_mask(const Decision &d, int8_t *mask) const {
  check_top();
  switch (d.kind) {
    case kind::PREP: return mask_prep(d, mask);
    case kind::ASK: return mask_ask(d, mask);
    case kind::REVEAL: return mask_reveal(d, mask);
    case kind::ANSWER: return mask_answer(d, mask);
    case kind::LEAD: return mask_lead(d, mask);
    case kind::EQUIP: return mask_equip(d, mask);
    case kind::SHARE: return mask_share(d, mask);
    case kind::COMRADE: return mask_comrade(d, mask);
    case kind::CLOAK: return mask_cloak(d, mask);
    case kind::PROVISIONS: return mask_provisions(d, mask);
    case kind::MESSENGER: return mask_messenger(d, mask);
    case kind::TARGET: return mask_target(d, mask);
    case kind::TERMS: return mask_terms(d, mask);
    case kind::INFORMANT: return mask_informant(d, mask);
    case kind::PLEDGE: return mask_pledge(d, mask);
    case kind::SHORTFALL: return mask_shortfall(d, mask);
    case kind::CALL: return mask_call(d, mask);
    case kind::CONFIRM:
      mask[acts().confirm.start] = 1;
      mask[acts().confirm.start + 1] = 1;
      return;
    default: throw std::logic_error("unknown decision kind");
  }
}

void State::apply_legal(const Decision &d, int a) {
  switch (d.kind) {
    case kind::PREP: return apply_prep(d, a);
    case kind::ASK: return apply_ask(d, a);
    case kind::REVEAL: return apply_reveal(d, a);
    case kind::ANSWER: return apply_answer(d, a);
    case kind::LEAD: return apply_lead(d, a);
    case kind::EQUIP: return apply_equip(d, a);
    case kind::SHARE: return apply_share(d, a);
    case kind::COMRADE: return apply_comrade(d, a);
    case kind::CLOAK: return apply_cloak(d, a);
    case kind::PROVISIONS: return apply_provisions(d, a);
    case kind::MESSENGER: return apply_messenger(d, a);
    case kind::TARGET: return apply_target(d, a);
    case kind::TERMS: return apply_terms(d, a);
    case kind::INFORMANT: return apply_informant(d, a);
    case kind::PLEDGE: return apply_pledge(d, a);
    case kind::SHORTFALL: return apply_shortfall(d, a);
    case kind::CALL: return apply_call(d, a);
    case kind::CONFIRM: return apply_confirm(d, a);
    default: throw std::logic_error("unknown decision kind");
  }
}

// Each handler's why (rules: the _why_* methods; "" where the Python one says None).
std::string State::why(const Decision &d, int a) const {
  const Actions &X = acts();
  switch (d.kind) {
    case kind::PREP: return why_prep(d, a);
    case kind::ASK:
      return "an ally can be asked for at most the outlaws in his camp and at most one card per outlaw from his "
             "hand (and a free pair of alliance tokens); somebody must be asked";
    case kind::ANSWER: return why_answer(d, a);
    case kind::LEAD: return X.lead.contains(a) ? "no traveller lies in that place" : "";
    case kind::EQUIP: return X.equip.contains(a) ? "that card is not in the player's hand" : "";
    case kind::SHARE: return why_share(d, a);
    case kind::COMRADE:
      return "a comrade goes to a participant with a share not yet a comrade and a figure under the oak";
    case kind::CLOAK: return X.cloak.contains(a) ? "the player holds no forest cloak" : "";
    case kind::PROVISIONS:
      return X.provisions.contains(a) ? "the player holds no provisions, or his outlaws here already stayed once" : "";
    case kind::MESSENGER:
      return X.messenger.contains(a)
                 ? "the player must hold the messenger's clothes and name a town other than the traveller's origin "
                   "and destination that the coach reaches without driving back along the path already travelled"
                 : "";
    case kind::TARGET: return "the target must be a laid-out traveller and a token pair must be free";
    case kind::TERMS:
      return "loot can be promised only for a marked target and not to the informant: bags only as far as the pit "
             "can advance them, comrades only from the recipient's own figures under the oak; gold paid now goes "
             "from the performer's camp to an ally";
    case kind::INFORMANT:
      return "the informant is the performer or a player he may ask (outlaws in camp) who looked at the target in "
             "the inn";
    case kind::PLEDGE:
      return X.equip.contains(a) ? "the ally plays a weapon card of his hand towards his promise or renounces it" : "";
    case kind::SHORTFALL:
      return "the informant withholds a promised bag (while bags are short, then a comrade) from a recipient still "
             "owed one";
    case kind::CALL: return "the leader calls an ally whose equipment promise is still to be confirmed";
    default: return "";
  }
}

// --- facts (rules: facts.SherwoodFacts) ----------------------------------------------------------
int State::figure_seat() const {
  const int n = num_players();
  int best = 0;
  for (int p = 1; p < n; ++p)
    if (get(b().figure, p) > get(b().figure, best)) best = p;
  return best;
}

int State::card_holder_seat() const {
  const int n = num_players();
  int best = 0;
  bool any = false;
  for (int p = 0; p < n; ++p) {
    if (get(b().card_holder, p)) any = true;
    if (get(b().card_holder, p) > get(b().card_holder, best)) best = p;
  }
  return any ? best : -1;
}

std::vector<int> State::seats_from(int first) const {
  const int n = num_players();
  first = ((first % n) + n) % n;
  std::vector<int> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out[static_cast<size_t>(i)] = (first + i) % n;
  return out;
}

const std::vector<int> &State::route() const {
  return tab().route(tab().card(coach->card).origin, coach->destination);
}

std::vector<int> State::participants(int amb) const {
  const int n = num_players();
  int leader = 0;
  for (int p = 1; p < n; ++p)
    if (get(b().ambush_leader, amb, p) > get(b().ambush_leader, amb, leader)) leader = p;
  std::vector<int> out;
  for (int q : seats_from(leader))
    if (get(b().ambush_outlaws, amb, q) > 0) out.push_back(q);
  return out;
}

std::vector<int> State::comrade_room() const {
  const Loot &L = *loot;
  const size_t n = L.shares.size();
  std::vector<int> room(n);
  for (size_t i = 0; i < n; ++i) room[i] = std::min(L.shares[i], L.oak[i]) - L.comrades_got[i];
  const auto q = static_cast<size_t>(L.leader);
  room[q] = std::min(L.shares[q] - L.own_bags, L.oak[q]) - L.comrades_got[q];
  return room;
}

int State::row_sum(const Block &blk, int i) const {
  native::check_index(i, blk.dims[0], "block row");
  const int w = blk.size / blk.dims[0];
  int s = 0;
  for (int j = 0; j < w; ++j) s += buf[blk.offset + i * w + j];
  return s;
}

void State::set_row(const Block &blk, int i, const std::vector<int> &values) {
  native::check_index(i, blk.dims[0], "block row");
  const int w = blk.size / blk.dims[0];
  std::fill(buf + blk.offset + i * w, buf + blk.offset + (i + 1) * w, int16_t{0});
  for (size_t j = 0; j < values.size() && static_cast<int>(j) < w; ++j)
    buf[blk.offset + i * w + static_cast<int>(j)] = static_cast<int16_t>(values[j]);
}

void State::copy_features(const Block &blk, int i, int card) {
  if (card < 0 || card >= NUM_CARDS || i < 0 || i >= blk.size / FEATURES)
    throw std::out_of_range("copy_features: no such card or row");
  const auto &f = cfg().card_features[static_cast<size_t>(card)];
  for (int j = 0; j < FEATURES; ++j) buf[blk.offset + i * FEATURES + j] = static_cast<int16_t>(f[static_cast<size_t>(j)]);
}

}  // namespace forest::sherwood
