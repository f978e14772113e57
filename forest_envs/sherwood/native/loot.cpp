// Sherwood Forest: sharing the loot of a successful attack, and what follows it (rules: loot;
// rulebook, "Successful attack": "Dividing loot and fame"; "After a successful attack"; with the
// additions "Spontaneous attack" and "Provisions"). The loot is handed out one share at a time
// (a bag or a comrade) in rounds, the leader choosing where a round cannot serve everyone, his
// own share's kind where it matters and which shares are comrades; rules/loot.py's docstring
// says why the engine may decide the rest alone.
#include <algorithm>
#include <numeric>

#include "state.hpp"

namespace forest::sherwood {

namespace {
int sum_of(const std::vector<int> &v) { return std::accumulate(v.begin(), v.end(), 0); }
}  // namespace

void State::take_loot(int amb, const std::vector<int> &order, const Card &card) {
  Loot L;
  L.ambush = amb;
  L.order = order;
  L.gold = card.gold;
  L.comrades = card.comrades;
  loot = std::move(L);
  fill(b().shares, 0);  // this robbery's shares, none given yet
  const int *target = find_in(targets, amb);
  if (target && *target == coach->card) {
    keep_agreement();
    return;
  }
  void_agreement(amb);
  share_loot();
}

void State::ask_leader(int k, std::initializer_list<int> data) {
  show_shares();
  push_or_replace(k, loot->leader, data);
}

void State::show_shares() {
  const Loot &L = *loot;
  for (int q : L.order) {
    at(b().shares, q, 0) = static_cast<int16_t>(L.shares[static_cast<size_t>(q)]);
    at(b().shares, q, 1) = static_cast<int16_t>(L.comrades_got[static_cast<size_t>(q)]);
  }
}

void State::push_or_replace(int k, int player, std::initializer_list<int> data) {
  const int top = top_kind();
  if (top == kind::SHARE || top == kind::COMRADE || top == kind::PROVISIONS || top == kind::SHORTFALL)
    replace(k, player, data);
  else
    push(k, player, data);
}

// "If the number of shares in the loot equals the number of outlaws in the ambush, each outlaw
// brings his player one share of the loot"; else the share-out rounds.
void State::share_loot() {
  Loot &L = *loot;
  const int n = num_players();
  const int gold = std::min(L.gold, static_cast<int>(get(b().pit, 0)));
  if (gold + L.comrades == 0) {  // nothing to share: the shares block stays empty
    const int amb = L.ambush;
    loot.reset();
    after_success(amb);
    return;
  }
  std::vector<int> outlaws(static_cast<size_t>(n), 0);
  for (int q : L.order) outlaws[static_cast<size_t>(q)] = get(b().ambush_outlaws, L.ambush, q);
  L.gold = gold;
  L.leader = L.order[0];
  L.outlaws = outlaws;
  L.oak.assign(static_cast<size_t>(n), 0);
  for (int q = 0; q < n; ++q) L.oak[static_cast<size_t>(q)] = get(b().oak, q);
  L.shares.assign(static_cast<size_t>(n), 0);
  L.comrades_got.assign(static_cast<size_t>(n), 0);
  if (fits(outlaws)) {  // every outlaw brings his player one share
    L.shares = outlaws;
    leader_keeps_the_rest();
    return;
  }
  share_out();
}

// Whether these share counts can all be filled with the loot's bags and comrades.
bool State::fits(const std::vector<int> &shares) const {
  const Loot &L = *loot;
  const int need = sum_of(shares) - L.gold;  // shares that must be comrades
  if (need <= 0) return true;
  return need <= L.comrades && need <= room_for_comrades(shares);
}

// How many of these shares can be comrades: each seat's shares up to his figures under the oak,
// the leader's without those he took as bags.
int State::room_for_comrades(const std::vector<int> &shares) const {
  const Loot &L = *loot;
  int room = 0;
  for (size_t q = 0; q < shares.size(); ++q) {
    const int s = shares[q] - (static_cast<int>(q) == L.leader ? L.own_bags : 0);
    room += std::min(s, L.oak[q]);
  }
  return room;
}

bool State::fits_one_more(int q) const {
  std::vector<int> shares = loot->shares;
  ++shares[static_cast<size_t>(q)];
  return fits(shares);
}

// "The procedure is repeated until all the loot has been handed out": rounds until a choice is
// the leader's.
void State::share_out() {
  Loot &L = *loot;
  const int leader = L.leader;
  auto share_of = [&](int q) -> int & { return L.shares[static_cast<size_t>(q)]; };
  while (true) {
    std::vector<int> tier;
    for (int q : L.tier)
      if (fits_one_more(q)) tier.push_back(q);
    if (tier.empty()) {
      if (!L.tiers.empty()) {
        L.tier = L.tiers.front();
        L.tiers.erase(L.tiers.begin());
        continue;
      }
      if (L.own_round < L.round && share_of(leader) > L.leader_before) {
        L.own_round = L.round;  // the round is over: his own share's kind
        if (own_share_matters()) {
          ask_leader(kind::SHARE, {0, 1});
          return;
        }
      }
      std::vector<int> unserved;
      for (int q : L.order)
        if (share_of(q) < L.outlaws[static_cast<size_t>(q)] && fits_one_more(q)) unserved.push_back(q);
      if (unserved.empty()) break;
      ++L.round;
      L.leader_before = share_of(leader);
      std::vector<int> allies;
      for (int q : unserved)
        if (q != leader) allies.push_back(q);
      if (L.round == 1 && !allies.empty() && contains(unserved, leader)) {
        L.tier = allies;
        L.tiers = {{leader}};
      } else {
        L.tier = unserved;
      }
      continue;
    }
    const int picks = tier_room(tier);
    if (picks == static_cast<int>(tier.size())) {
      for (int q : tier) ++share_of(q);
      L.tier.clear();
      continue;
    }
    L.tier = tier;
    ask_leader(kind::SHARE, {picks, 0});
    return;
  }
  leader_keeps_the_rest();
}

// Whether taking the share the leader took this round as a bag rather than a comrade can change
// what an ally can still get (rules/loot.py's docstring, 2.).
bool State::own_share_matters() const {
  const Loot &L = *loot;
  const int q = L.leader;
  const int room = room_for_comrades(L.shares);
  const int slack = room - (sum_of(L.shares) - L.gold);
  int bag_only = 0;
  for (int a : L.order)
    if (a != q) {
      const auto i = static_cast<size_t>(a);
      bag_only += std::max(0, L.outlaws[i] - L.oak[i]) - std::max(0, L.shares[i] - L.oak[i]);
    }
  const auto lq = static_cast<size_t>(q);
  return L.shares[lq] - L.own_bags <= L.oak[lq] && room <= L.comrades && 1 <= slack && slack <= bag_only;
}

// How many of the tier can still get a share (greedy is exact on a matroid).
int State::tier_room(const std::vector<int> &tier) const {
  std::vector<int> shares = loot->shares;
  int room = 0;
  for (int q : tier) {
    ++shares[static_cast<size_t>(q)];
    if (fits(shares))
      ++room;
    else
      --shares[static_cast<size_t>(q)];
  }
  return room;
}

void State::leader_keeps_the_rest() {
  Loot &L = *loot;
  while (fits_one_more(L.leader)) ++L.shares[static_cast<size_t>(L.leader)];
  // The comrades still to hand out: the shares beyond the bags, less those the leader took as
  // his own; the rest stay under the oak.
  L.comrades = sum_of(L.shares) - L.gold - sum_of(L.comrades_got);
  assign_comrades();
}

void State::mask_share(const native::Decision &d, int8_t *mask) const {
  if (d[1]) {
    mask[acts().share.start] = 1;
    mask[acts().comrade.start] = 1;
    return;
  }
  mark_seats(mask, acts().share, d.player, loot->tier);
}

std::string State::why_share(const native::Decision &d, int) const {
  if (d[1])
    return "the leader takes his own share of this round as a bag (give a share to self) or as a comrade (give a "
           "comrade to self); nobody else is named here";
  return "this round's remaining shares go to participants not yet served in it who can still take one (a comrade "
         "only with a figure under the oak)";
}

void State::apply_share(const native::Decision &d, int a) {
  Loot &L = *loot;
  if (d[1]) {
    if (acts().comrade.contains(a))
      ++L.comrades_got[static_cast<size_t>(L.leader)];
    else
      ++L.own_bags;
    share_out();
    return;
  }
  const int q = seat_named(acts().share, d.player, a);
  ++L.shares[static_cast<size_t>(q)];
  L.tier.erase(std::find(L.tier.begin(), L.tier.end(), q));
  share_out();
}

void State::assign_comrades() {
  Loot &L = *loot;
  if (L.comrades > 0) {
    const std::vector<int> room = comrade_room();
    std::vector<int> takers;
    for (int q : L.order)
      if (room[static_cast<size_t>(q)] > 0) takers.push_back(q);
    if (takers.size() > 1 && sum_of(room) > L.comrades) {
      ask_leader(kind::COMRADE, {L.comrades});
      return;
    }
    for (int q : takers) {  // no choice left: every taker fills his room
      const int k = std::min(room[static_cast<size_t>(q)], L.comrades);
      L.comrades_got[static_cast<size_t>(q)] += k;
      L.comrades -= k;
    }
  }
  const int top = top_kind();
  if (top == kind::SHARE || top == kind::COMRADE || top == kind::SHORTFALL) pop();
  pay_loot();
}

void State::mask_comrade(const native::Decision &d, int8_t *mask) const {
  const std::vector<int> room = comrade_room();
  std::vector<int> seats;
  for (int q : loot->order)
    if (room[static_cast<size_t>(q)] > 0) seats.push_back(q);
  mark_seats(mask, acts().comrade, d.player, seats);
}

void State::apply_comrade(const native::Decision &d, int a) {
  Loot &L = *loot;
  const int q = seat_named(acts().comrade, d.player, a);
  ++L.comrades_got[static_cast<size_t>(q)];
  --L.comrades;
  assign_comrades();
}

// The shares change hands: bags from the pit to the camps, comrades from under the oak into the
// camps (sixth round: counted for the end of the game).
void State::pay_loot() {
  const Blocks &B = b();
  show_shares();
  const bool sixth = sixth_round();
  const Loot &L = *loot;
  for (int q : L.order) {
    const int com = L.comrades_got[static_cast<size_t>(q)];
    const int bags = L.shares[static_cast<size_t>(q)] - com;
    bump(B.gold, q, bags);
    bump(B.pit, 0, -bags);
    bump(B.oak, q, -com);
    bump(B.camp, q, com);
    if (sixth) {
      bump(B.round_gold, q, bags);
      bump(B.round_comrades, q, com);
    }
  }
  const int amb = L.ambush;
  loot.reset();
  after_success(amb);
}

// --- after a successful attack (rulebook, "After a successful attack") -------------------------
void State::after_success(int amb) {
  const std::vector<int> order = participants(amb);
  if (cfg().additions) {
    if (order.empty()) throw std::logic_error("after_success: an ambush without participants");
    provisioning = ProvisionsQuestions{amb, order, 0, {}};
    push_or_replace(kind::PROVISIONS, order[0], {amb});
    return;
  }
  go_home(amb, order, {});
}

// "By playing the provisions card you may leave your outlaws in the ambush after a successful
// attack": once per stay.
void State::mask_provisions(const native::Decision &d, int8_t *mask) const {
  mask[acts().provisions_none.start] = 1;
  const int amb = d[0];
  if (get(b().hand, d.player, PROVISIONS) > 0 && !get(b().provisioned, amb, d.player))
    mask[acts().provisions.start] = 1;
}

void State::apply_provisions(const native::Decision &d, int a) {
  const Blocks &B = b();
  ProvisionsQuestions &c = *provisioning;
  const int q = d.player;
  if (a == acts().provisions.start) {
    bump(B.hand, q, PROVISIONS, -1);
    bump(B.hand_count, q, -1);
    bump(B.equip_discard, PROVISIONS, 1);
    c.stay.push_back(q);
  }
  ++c.asking;
  if (c.asking < static_cast<int>(c.order.size())) {
    replace(kind::PROVISIONS, c.order[static_cast<size_t>(c.asking)], {c.ambush});
    return;
  }
  pop();
  const ProvisionsQuestions done = c;
  provisioning.reset();
  go_home(done.ambush, done.order, done.stay);
}

// "All allies lead their outlaws from the ambush back to their camps", except those who played
// provisions now; "The card of the robbed traveller is removed from the game".
void State::go_home(int amb, const std::vector<int> &order, const std::vector<int> &stays) {
  for (int q : stays) at(b().provisioned, amb, q) = 1;
  leave_ambush(amb, order, stays);
  removed.push_back(coach->card);
  next_lead();
}

}  // namespace forest::sherwood
