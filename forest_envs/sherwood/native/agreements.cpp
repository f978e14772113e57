// Sherwood Forest (additions): binding agreements made with an offer (rules: agreements;
// rulebook, ADDITIONS: "Exchange", "Agreements" and "Binding agreements"). An offer may mark a
// laid-out traveller as its target (target); the informant insists on it (informant); each
// asked ally's terms are settled (terms). A formed alliance binds: a token pair on the ambush
// and the target, the promised loot laid out from the pit and from under the oak.
#include <algorithm>

#include "state.hpp"

namespace forest::sherwood {

namespace of = offer_field;

namespace {
// Python's slice stop ``:x`` on an axis of ``len`` entries.
int slice_stop(int x, int len) { return x < 0 ? std::max(0, len + x) : std::min(x, len); }
}  // namespace

void State::mask_target(const native::Decision &, int8_t *mask) const {
  mask[acts().target_none.start] = 1;
  if (tokens_free() > 0)
    for (int s = 0; s < MAX_SLOTS; ++s) mask[acts().target.start + s] = static_cast<int8_t>(get(b().slot_present, s));
}

void State::apply_target(const native::Decision &d, int a) {
  Offer &o = *offer;
  if (acts().target.contains(a)) {
    const int s = a - acts().target.start;
    o.target = s;
    show_offer(of::TARGET);
    for (int q : o.allies)
      if (get(b().slot_marked, s, q)) {
        replace(kind::INFORMANT, d.player, {o.ambush, o.own});
        return;
      }
  }
  ask_ally(d.player);
}

// The performer, or a seat he may ask who looked at the target in the inn (public).
void State::mask_informant(const native::Decision &d, int8_t *mask) const {
  const Offer &o = *offer;
  mask[acts().informant.start] = 1;
  std::vector<int> seats;
  for (int q : o.allies)
    if (get(b().slot_marked, o.target, q)) seats.push_back(q);
  mark_seats(mask, acts().informant, d.player, seats);
}

void State::apply_informant(const native::Decision &d, int a) {
  offer->informant = seat_named(acts().informant, d.player, a);
  show_offer(of::INFORMANT);
  ask_ally(d.player);
}

// Loot is promised by the informant to the other participants, only with a marked target, bags
// as far as the pit can lay them out and comrades from the recipient's own figures under the
// oak; gold now is paid by the performer to an ally.
void State::mask_terms(const native::Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  const Offer &o = *offer;
  const int p = d.player, q = d[2];
  int promised = 0, paid = 0;
  for (const auto &e : o.terms) {
    promised += e.second[0];
    paid += e.second[1];
  }
  const bool loot_promised = o.target >= 0 && q != o.informant;
  const int top_g = loot_promised ? std::min(MAX_PROMISED_LOOT, get(B.pit, 0) - promised) : 0;
  const int top_c = loot_promised ? std::min(MAX_PROMISED_COMRADES, static_cast<int>(get(B.oak, q))) : 0;
  const int top_k = q != p ? std::min(MAX_PAYMENT, get(B.gold, p) - paid) : 0;
  const auto &T = acts().terms;
  for (int g = 0; g < slice_stop(top_g + 1, T.dims[0]); ++g)
    for (int k = 0; k < slice_stop(top_k + 1, T.dims[1]); ++k)
      for (int c = 0; c < slice_stop(top_c + 1, T.dims[2]); ++c) mask[T.id(g, k, c)] = 1;
}

void State::apply_terms(const native::Decision &d, int a) {
  const int q = d[2];
  const auto t = acts().terms.index(a);
  put_in(offer->terms, q, Triple{t[0], t[1], t[2]});
  show_offer(of::TERMS);
  if (q == d.player)
    after_asks(d.player);
  else
    next_ally(d.player);
}

// "All items ... are laid out in the places agreed in advance": gold paid with the offer
// changes hands; a marked target gets a token pair on it and the ambush, and the informant's
// promised loot is laid out.
void State::bind_agreement(const Offer &o, std::vector<int> &used) {
  const Blocks &B = b();
  const int p = o.performer, amb = o.ambush;
  const bool sixth = sixth_round();
  for (const auto &[q, t] : o.terms) {
    const int g = t[0], k = t[1], c = t[2];
    bump(B.gold, p, -k);
    bump(B.gold, q, k);
    if (sixth) bump(B.round_gold, q, k);
    at(B.advance, amb, q) = static_cast<int16_t>(g);
    bump(B.pit, 0, -g);
    at(B.advance_comrades, amb, q) = static_cast<int16_t>(c);  // the ally's own figures, from under the oak
    bump(B.oak, q, -c);
  }
  if (o.target >= 0) {
    int letter = 0;
    while (letter < NUM_LETTERS && contains(used, letter)) ++letter;
    if (letter == NUM_LETTERS) throw std::logic_error("bind_agreement: no alliance token pair is free");
    put_in(tokens, TokenKey{amb, NO_SEAT}, letter);
    put_in(targets, amb, slots[static_cast<size_t>(o.target)]);
    at(B.ambush_target, amb, o.target) = 1;
    at(B.informant, amb, o.informant) = 1;
  }
}

// The binding agreement of an ambush ends: uncollected loot goes back to the pit and under
// the oak.
void State::void_agreement(int amb) {
  if (!cfg().additions) return;
  const Blocks &B = b();
  const int n = num_players();
  for (int q = 0; q < n; ++q) {
    bump(B.pit, 0, get(B.advance, amb, q));
    at(B.advance, amb, q) = 0;
    bump(B.oak, q, get(B.advance_comrades, amb, q));
    at(B.advance_comrades, amb, q) = 0;
    at(B.pledged, amb, q) = 0;
    at(B.informant, amb, q) = 0;
  }
  pop_from(targets, amb);
  pop_from(tokens, TokenKey{amb, NO_SEAT});
  for (int s = 0; s <= MAX_SLOTS; ++s) at(B.ambush_target, amb, s) = 0;
}

}  // namespace forest::sherwood
