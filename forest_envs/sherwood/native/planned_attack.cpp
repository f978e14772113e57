// Sherwood Forest (additions): a planned attack, a traveller with an alliance token falling
// into the ambush with the same token (rules: planned_attack; rulebook, "Attacks (with the
// additions)"). The allies' equipment promises are called in, the leader saying the order
// (call), each ally playing his cards or renouncing (pledge); after a successful planned
// attack the informant first pays the promised loot; what neither the loot nor his camp covers,
// promises go without, the informant choosing whose (shortfall).
#include <algorithm>

#include "state.hpp"

namespace forest::sherwood {

// --- the equipment promises --------------------------------------------------------------------
bool State::start_pledges(int amb, int strength, int outlaws) {
  const std::vector<int> order = participants(amb);
  std::vector<int> pledgers;
  for (int q : order)
    if (get(b().pledged, amb, q) > 0) pledgers.push_back(q);
  fight = Fight{amb, strength, order, outlaws, 0, pledgers};
  next_pledger();
  return true;
}

void State::next_pledger() {
  Fight &f = *fight;
  const int leader = f.order[0];
  int k, player;
  if (f.pledgers.size() > 1) {
    k = kind::CALL;
    player = leader;
  } else {
    if (f.pledgers.empty()) throw std::logic_error("next_pledger: nobody left to keep a promise");
    k = kind::PLEDGE;
    player = f.pledgers.back();
    f.pledgers.pop_back();
  }
  const int top = top_kind();
  if (top == kind::PLEDGE || top == kind::CALL)
    replace(k, player, {f.ambush, f.strength, f.total, leader});
  else
    push(k, player, {f.ambush, f.strength, f.total, leader});
}

void State::mask_call(const native::Decision &d, int8_t *mask) const {
  mark_seats(mask, acts().call, d.player, fight->pledgers);
}

void State::apply_call(const native::Decision &d, int a) {
  Fight &f = *fight;
  const int q = seat_named(acts().call, d.player, a);
  f.pledgers.erase(std::find(f.pledgers.begin(), f.pledgers.end(), q));
  replace(kind::PLEDGE, q, {f.ambush, f.strength, f.total, f.order[0]});
}

void State::mask_pledge(const native::Decision &d, int8_t *mask) const {
  for (int k = 0; k < NUM_WEAPON_KINDS; ++k) mask[acts().equip.start + k] = get(b().hand, d.player, k) > 0;
  mask[acts().renounce.start] = 1;
}

void State::apply_pledge(const native::Decision &d, int a) {
  const Blocks &B = b();
  Fight &f = *fight;
  const int q = d.player, amb = f.ambush, leader = f.order[0];
  if (a == acts().renounce.start) {
    // "The planned attack is called off if the equipment cards are not applied in full."
    pop();
    fight.reset();
    if (!fall_short(amb)) drive_on();
    return;
  }
  const int k = a - acts().equip.start;
  bump(B.hand, q, k, -1);
  bump(B.hand_count, q, -1);
  bump(B.played, q, k, 1);
  f.total += WEAPON_STRENGTH[static_cast<size_t>(k)];
  if (f.total >= f.strength) {  // must attack: the strength is reached
    pop();
    fight.reset();
    win(amb, true);
    return;
  }
  if (row_sum(B.played, q) < get(B.pledged, amb, q)) {
    replace(kind::PLEDGE, q, {amb, f.strength, f.total, leader});
    return;
  }
  if (!f.pledgers.empty()) {
    next_pledger();
    return;
  }
  // Every promise kept and still short: cards from hand, as at any ambush.
  pop();
  int reach = f.total;
  for (int x : f.order) reach += MAX_WEAPON_STRENGTH * std::min(capacity(amb, x), static_cast<int>(get(B.hand_count, x)));
  if (reach < f.strength || !ask_equip()) {
    fight.reset();
    if (!fall_short(amb)) drive_on();
  }
}

// --- the binding agreement kept ------------------------------------------------------------------
// "First the informant must fulfil the requirements of the binding agreements, and only then
// divide the remainder of the loot."
void State::keep_agreement() {
  const Blocks &B = b();
  const int n = num_players();
  Loot &L = *loot;
  const int amb = L.ambush;
  int informant_seat = 0;
  for (int q = 1; q < n; ++q)
    if (get(B.informant, amb, q) > get(B.informant, amb, informant_seat)) informant_seat = q;
  int owed = 0, owed_c = 0;
  for (int q = 0; q < n; ++q) {
    owed += get(B.advance, amb, q);
    owed_c += get(B.advance_comrades, amb, q);
  }
  const int covered = std::min(L.gold, owed);
  L.gold -= covered;
  const int pay = std::min(owed - covered, static_cast<int>(get(B.gold, informant_seat)));
  bump(B.gold, informant_seat, -pay);
  bump(B.pit, 0, pay);
  const int covered_c = std::min(L.comrades, owed_c);
  L.comrades -= covered_c;
  L.informant = informant_seat;
  L.short_bags = owed - covered - pay;
  L.short_comrades = owed_c - covered_c;
  settle_shortfall();
}

// Withdraw the promises the loot and the informant cannot cover; the informant decides whose,
// the engine alone only where his choice cannot matter.
void State::settle_shortfall() {
  const Blocks &B = b();
  const int n = num_players();
  const int amb = loot->ambush;
  for (bool bags : {true, false}) {
    const Block &laid = bags ? B.advance : B.advance_comrades;
    while (short_of(bags) > 0) {
      std::vector<int> due;
      int total = 0;
      for (int q = 0; q < n; ++q) {
        total += get(laid, amb, q);
        if (get(laid, amb, q) > 0) due.push_back(q);
      }
      if (due.empty()) throw std::logic_error("settle_shortfall: promises short with nothing laid out");
      if (due.size() > 1 && short_of(bags) < total) {
        push_or_replace(kind::SHORTFALL, loot->informant, {amb, loot->short_bags, loot->short_comrades});
        return;
      }
      for (int q : due) withhold(bags, q, std::min(short_of(bags), static_cast<int>(get(laid, amb, q))));
    }
  }
  collect_promises();
}

int State::short_of(bool bags) const { return bags ? loot->short_bags : loot->short_comrades; }

void State::withhold(bool bags, int q, int k) {
  const Blocks &B = b();
  Loot &L = *loot;
  if (bags) {
    bump(B.advance, L.ambush, q, -k);
    bump(B.pit, 0, k);
    L.short_bags -= k;
  } else {
    bump(B.advance_comrades, L.ambush, q, -k);
    bump(B.oak, q, k);
    L.short_comrades -= k;
  }
}

void State::mask_shortfall(const native::Decision &d, int8_t *mask) const {
  const int amb = d[0];
  const bool bags = d[1] != 0;
  const Block &laid = bags ? b().advance : b().advance_comrades;
  const int start = acts().withhold.id(bags ? WITHHOLD_BAG : WITHHOLD_COMRADE, 0);
  const int n = num_players();
  for (int q = 0; q < n; ++q)
    if (get(laid, amb, q)) mask[start + ((q - d.player) % n + n) % n] = 1;
}

void State::apply_shortfall(const native::Decision &d, int a) {
  const int k = acts().withhold.first(a), r = acts().withhold.second(a);
  withhold(k == WITHHOLD_BAG, (d.player + r) % num_players(), 1);
  settle_shortfall();
}

// The recipients collect what is still laid out for them; the agreement ends, and the rest of
// the loot is shared by the basic rules.
void State::collect_promises() {
  const Blocks &B = b();
  const int amb = loot->ambush;
  const bool sixth = sixth_round();
  for (int q = 0; q < num_players(); ++q) {
    const int bags = get(B.advance, amb, q), comrades = get(B.advance_comrades, amb, q);
    bump(B.gold, q, bags);
    bump(B.camp, q, comrades);
    if (sixth) {
      bump(B.round_gold, q, bags);
      bump(B.round_comrades, q, comrades);
    }
    at(B.advance, amb, q) = 0;
    at(B.advance_comrades, amb, q) = 0;
  }
  void_agreement(amb);
  share_loot();
}

}  // namespace forest::sherwood
