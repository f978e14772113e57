// Sherwood Forest: the attack phase (rules: attacks; rulebook, "ATTACKS"). In turn order from
// the holder of the starting player card each player leads a laid-out traveller (lead); its
// coach drives along its route, and every occupied ambush it passes fights it: an ambush whose
// outlaws and promised cards reach the traveller's strength must attack; one that could reach
// it with cards from hand asks its participants, leader first, for cards (equip); one that
// cannot lets it pass. Loot: loot.cpp; the Sheriff: sheriff.cpp.
#include <algorithm>

#include "state.hpp"

namespace forest::sherwood {

void State::start_attacks() {
  const Blocks &B = b();
  at(B.attack_phase, 0) = 1;
  const int holder = card_holder_seat();
  const int first = holder >= 0 ? holder : figure_seat();
  leads.clear();
  for (int i = 0; i < cfg().laid_out; ++i) leads.push_back((first + i) % num_players());
  fill(B.leads_left, 0);
  for (int p : leads) bump(B.leads_left, p, 1);
  next_lead();
}

// The traveller has left the forest: agreements targeting it end; the next player leads, or
// the round ends.
void State::next_lead() {
  const Blocks &B = b();
  if (coach) {
    std::vector<int> ended;
    for (const auto &[amb, card] : targets)
      if (card == coach->card) ended.push_back(amb);
    for (int amb : ended) void_agreement(amb);
  }
  coach.reset();
  fill(B.coach_card, 0);
  fill(B.coach_at, 0);
  at(B.coach_step, 0) = 0;
  if (leads.empty()) {
    end_round();
    return;
  }
  next_turn(kind::LEAD, leads.front());
}

void State::mask_lead(const native::Decision &, int8_t *mask) const {
  for (int s = 0; s < MAX_SLOTS; ++s) mask[acts().lead.start + s] = static_cast<int8_t>(get(b().slot_present, s));
}

void State::apply_lead(const native::Decision &, int a) {
  const Blocks &B = b();
  const int s = a - acts().lead.start;
  const int card = slots[static_cast<size_t>(s)];
  if (card < 0 || card >= NUM_CARDS) throw std::logic_error("lead: no traveller in that place");
  clear_slot(s);
  const int p = leads.front();
  leads.erase(leads.begin());
  bump(B.leads_left, p, -1);
  coach = Coach{card, 0, tab().card(card).destination};
  if (!targets.empty())
    for (int amb = 0; amb < NUM_AMBUSHES; ++amb)
      if (get(B.ambush_target, amb, s) > 0) {
        at(B.ambush_target, amb, s) = 0;
        at(B.ambush_target, amb, PLACE_ON_THE_ROAD) = 1;
      }
  copy_features(B.coach_card, 0, card);
  at(B.messenger_used, 0) = 0;
  if (!open_window()) drive();
}

// --- the coach on the road (rulebook, "Movement of travellers") ------------------------------
void State::drive() {
  const Blocks &B = b();
  const std::vector<int> &r = route();
  const int strength = tab().card(coach->card).strength;
  int step = coach->step;
  std::array<bool, NUM_AMBUSHES> manned{};
  for (int a = 0; a < NUM_AMBUSHES; ++a)
    for (int q = 0; q < num_players(); ++q) manned[static_cast<size_t>(a)] = manned[static_cast<size_t>(a)] || get(B.ambush_outlaws, a, q) != 0;
  while (step < static_cast<int>(r.size())) {
    const int amb = r[static_cast<size_t>(step)];
    if (manned[static_cast<size_t>(amb)]) {
      coach->step = step;
      if (open_fight(amb, strength)) return;
      coach->step = step + 1;  // passed without being robbed
      if (open_window()) return;
    }
    ++step;
  }
  removed.push_back(coach->card);  // it left the forest: the card leaves the game
  next_lead();
}

void State::drive_on() {
  ++coach->step;
  if (!open_window()) drive();
}

int State::promised_strength(int amb) const {
  int total = 0;
  for (int q = 0; q < num_players(); ++q)
    for (int k = 0; k < NUM_WEAPON_KINDS; ++k) total += get(b().promised, amb, q, k) * WEAPON_STRENGTH[static_cast<size_t>(k)];
  return total;
}

// Resolve the ambush the coach is passing; true when control left the drive.
bool State::open_fight(int amb, int strength) {
  const Blocks &B = b();
  const int n = num_players();
  at(B.coach_step, 0) = static_cast<int16_t>(coach->step);
  fill(B.coach_at, 0);
  at(B.coach_at, amb) = 1;
  int outlaws = 0;
  for (int q = 0; q < n; ++q) outlaws += get(B.ambush_outlaws, amb, q);
  const int promised = tokens.empty() ? 0 : promised_strength(amb);
  if (outlaws >= strength) {
    win(amb, false);
    return true;
  }
  if (cfg().additions) {
    const int *target = find_in(targets, amb);
    bool pledges = false;
    for (int q = 0; q < n; ++q) pledges = pledges || get(B.pledged, amb, q) != 0;
    if (target && *target == coach->card && pledges) return start_pledges(amb, strength, outlaws);
  }
  if (outlaws + promised >= strength) {
    win(amb, true);
    return true;
  }
  // Only public numbers decide whether anybody is asked.
  int most = 0;
  for (int q = 0; q < n; ++q) most += std::min(get(B.ambush_outlaws, amb, q), get(B.hand_count, q));
  if (outlaws + promised + MAX_WEAPON_STRENGTH * most < strength) return fall_short(amb, false);
  const std::vector<int> order = participants(amb);
  int reach = outlaws + promised;
  for (int q : order) reach += MAX_WEAPON_STRENGTH * std::min(capacity(amb, q), static_cast<int>(get(B.hand_count, q)));
  if (reach >= strength) {
    fight = Fight{amb, strength, order, outlaws + promised, 0, {}};
    if (ask_equip()) return true;
  }
  return fall_short(amb);
}

// Cards seat q may still play here: "one card per outlaw, no more!", promised cards included.
int State::capacity(int amb, int q) const {
  const Blocks &B = b();
  int c = get(B.ambush_outlaws, amb, q);
  for (int k = 0; k < NUM_WEAPON_KINDS; ++k) c -= get(B.promised, amb, q, k) + get(B.played, q, k);
  return c;
}

// Push the equip decision of the next participant who could play a card; false when nobody is
// left.
bool State::ask_equip() {
  Fight &f = *fight;
  const int amb = f.ambush;
  while (f.asking < static_cast<int>(f.order.size())) {
    const int q = f.order[static_cast<size_t>(f.asking)];
    if (capacity(amb, q) > 0 && get(b().hand_count, q) > 0) {
      const int leader = f.order[0];
      if (top_kind() == kind::EQUIP)
        replace(kind::EQUIP, q, {amb, f.strength, f.total, leader});
      else
        push(kind::EQUIP, q, {amb, f.strength, f.total, leader});
      return true;
    }
    ++f.asking;
  }
  if (top_kind() == kind::EQUIP) pop();
  fight.reset();
  return false;
}

// "No attack takes place": cards played here are used up; a traveller drives on (false), the
// Sheriff crushes the ambush (true).
bool State::fall_short(int amb, bool played) {
  const Blocks &B = b();
  if (played) {
    for (int q = 0; q < num_players(); ++q)
      for (int k = 0; k < NUM_WEAPON_KINDS; ++k) {
        bump(B.equip_discard, k, get(B.played, q, k));
        at(B.played, q, k) = 0;
      }
  }
  if (!tab().card(coach->card).sheriff) return false;
  crush_ambush(amb);
  return true;
}

void State::mask_equip(const native::Decision &d, int8_t *mask) const {
  for (int k = 0; k < NUM_WEAPON_KINDS; ++k) mask[acts().equip.start + k] = get(b().hand, d.player, k) > 0;
  mask[acts().equip_pass.start] = 1;
}

void State::apply_equip(const native::Decision &d, int a) {
  const Blocks &B = b();
  Fight &f = *fight;
  const int q = d.player, amb = f.ambush;
  if (acts().equip.contains(a)) {
    const int k = a - acts().equip.start;
    bump(B.hand, q, k, -1);
    bump(B.hand_count, q, -1);
    bump(B.played, q, k, 1);
    f.total += WEAPON_STRENGTH[static_cast<size_t>(k)];
    if (f.total >= f.strength) {
      pop();
      fight.reset();
      win(amb, true);
      return;
    }
    if (capacity(amb, q) > 0 && get(B.hand_count, q) > 0) {
      replace(kind::EQUIP, q, {amb, f.strength, f.total, f.order[0]});
      return;
    }
  }
  ++f.asking;
  if (!ask_equip() && !fall_short(amb)) drive_on();
}

// --- a successful attack (rulebook, "Successful attack") ----------------------------------------
void State::win(int amb, bool promised_needed) {
  const Blocks &B = b();
  const int n = num_players();
  const Card &card = tab().card(coach->card);
  const std::vector<int> order = participants(amb);
  if (promised_needed) {
    for (int q = 0; q < n; ++q)
      for (int k = 0; k < NUM_WEAPON_KINDS; ++k) {
        bump(B.equip_discard, k, get(B.promised, amb, q, k));
        at(B.promised, amb, q, k) = 0;
      }
    for (int q : order) pop_from(tokens, TokenKey{amb, q});
  } else {
    return_promised({amb});
  }
  for (int q = 0; q < n; ++q)
    for (int k = 0; k < NUM_WEAPON_KINDS; ++k) {
      bump(B.equip_discard, k, get(B.played, q, k));
      at(B.played, q, k) = 0;
    }
  for (int q : order) bump(B.fame, q, card.fame);
  take_loot(amb, order, card);
}

// Promised cards not needed go back to their owners' hands ("Equipment cards"; at the round's
// end too).
void State::return_promised(const std::vector<int> &ambushes) {
  if (tokens.empty()) return;
  const Blocks &B = b();
  for (int a : ambushes)
    for (int p = 0; p < num_players(); ++p) {
      int count = 0;
      for (int k = 0; k < NUM_WEAPON_KINDS; ++k) count += get(B.promised, a, p, k);
      if (count) {
        for (int k = 0; k < NUM_WEAPON_KINDS; ++k) {
          bump(B.hand, p, k, get(B.promised, a, p, k));
          at(B.promised, a, p, k) = 0;
        }
        bump(B.hand_count, p, count);
      }
      pop_from(tokens, TokenKey{a, p});
    }
}

}  // namespace forest::sherwood
