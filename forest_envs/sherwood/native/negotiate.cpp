// Sherwood Forest: the joint ambush (rules: negotiate; rulebook, "5.2 Preparing a joint
// attack"). The performer names the ambush and his own outlaws, asks each seat with outlaws
// in camp for outlaws and cards (ask), may tell the loot of a traveller he looked at
// (reveal); the asked allies answer in turn (answer), one decline ends the offer. In the basic
// game promised cards are shown and the performer forms the ambush or gives it up (confirm).
// The offer lives in one record; its observation blocks are written from it by show_offer.
#include <algorithm>

#include "state.hpp"

namespace forest::sherwood {

namespace of = offer_field;

void State::start_offer(int p, int amb, int own, int offers) {
  Offer o;
  o.performer = p;
  o.ambush = amb;
  o.own = own;
  o.offers = offers;
  for (int q : seats_from(p + 1))
    if (q != p && get(b().camp, q) > 0) o.allies.push_back(q);
  o.informant = p;
  offer = std::move(o);
  show_offer(of::AMBUSH | of::OWN | of::OFFERS | of::TARGET);
  if (cfg().additions)
    replace(kind::TARGET, p, {amb, own});
  else
    ask_ally(p);
}

// The offer's observation blocks from the record; ``changed`` 0: every block (no offer: all
// of them cleared).
void State::show_offer(unsigned changed) {
  const Blocks &B = b();
  const int n = num_players();
  if (!offer) {
    for (const Block *blk : {&B.offer_ambush, &B.offer_own, &B.offers_made, &B.offer_ask, &B.offer_answer,
                             &B.offer_target, &B.offer_terms, &B.offer_informant})
      fill(*blk, 0);
    return;
  }
  const Offer &o = *offer;
  const bool every = changed == 0;
  if (every || (changed & of::AMBUSH)) {
    fill(B.offer_ambush, 0);
    at(B.offer_ambush, o.ambush) = 1;
  }
  if (every || (changed & of::OWN)) at(B.offer_own, 0) = static_cast<int16_t>(o.own);
  if (every || (changed & of::OFFERS)) at(B.offers_made, 0) = static_cast<int16_t>(o.offers);
  if (every || (changed & of::ASKED)) {
    fill(B.offer_ask, 0);
    for (const auto &t : o.asked) {
      at(B.offer_ask, t[0], 0) = static_cast<int16_t>(t[1]);
      at(B.offer_ask, t[0], 1) = static_cast<int16_t>(t[2]);
    }
  }
  if (every || (changed & of::PROMISE)) {
    fill(B.offer_answer, 0);
    for (const auto &e : o.promise) at(B.offer_answer, e.first) = ACCEPTED;
  }
  if (every || (changed & of::TARGET)) {
    fill(B.offer_target, 0);
    at(B.offer_target, o.target < 0 ? NO_TARGET : o.target) = 1;
  }
  if (every || (changed & (of::TARGET | of::INFORMANT))) {
    fill(B.offer_informant, 0);
    if (o.target >= 0) at(B.offer_informant, o.informant) = 1;
  }
  if (every || (changed & of::TERMS)) {
    fill(B.offer_terms, 0);
    for (const auto &[q, t] : o.terms)
      for (int j = 0; j < 3; ++j) at(B.offer_terms, q, j) = static_cast<int16_t>(t[static_cast<size_t>(j)]);
  }
  (void)n;
}

// --- asking the allies (rulebook, "a) Negotiating an alliance") ------------------------------
void State::ask_ally(int p) {
  const Offer &o = *offer;
  if (o.next_ally < 0 || o.next_ally >= static_cast<int>(o.allies.size()))
    throw std::logic_error("ask: no ally left to ask");
  replace(kind::ASK, p, {o.ambush, o.own, o.offers, o.allies[static_cast<size_t>(o.next_ally)]});
}

void State::mask_ask(const native::Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  const Offer &o = *offer;
  const int q = d[3];
  const bool last = o.next_ally == static_cast<int>(o.allies.size()) - 1;
  int cards_free = tokens_free() - (o.target >= 0 ? 1 : 0);
  for (const auto &t : o.asked) cards_free -= t[2] > 0;
  const int top_c = std::clamp(static_cast<int>(get(B.camp, q)), 0, OUTLAWS_PER_COLOUR);
  int top_e;
  if (cfg().additions)
    top_e = o.target >= 0 ? std::min(static_cast<int>(get(B.hand_count, q)), MAX_ASK_CARDS) : 0;
  else
    top_e = cards_free > 0 ? std::min(static_cast<int>(get(B.hand_count, q)), MAX_ASK_CARDS) : 0;
  top_e = std::max(top_e, 0);
  const int must = ((last && o.asked.empty()) || q == o.informant) ? 1 : 0;
  for (int c = must; c <= top_c; ++c)
    for (int e = 0; e <= std::min(c, top_e); ++e) mask[acts().ask.id(c, e)] = 1;
}

void State::apply_ask(const native::Decision &d, int a) {
  Offer &o = *offer;
  const int c = acts().ask.first(a), e = acts().ask.second(a);
  const int q = d[3];
  if (c > 0) {
    o.asked.push_back({q, c, e});
    show_offer(of::ASKED);
    if (cfg().additions) {
      replace(kind::TERMS, d.player, {o.ambush, c, q});
      return;
    }
  }
  next_ally(d.player);
}

void State::next_ally(int p) {
  Offer &o = *offer;
  ++o.next_ally;
  if (o.next_ally < static_cast<int>(o.allies.size())) {
    ask_ally(p);
    return;
  }
  after_asks(p);
}

// Every seat was asked: (additions) the informant's promise to the performer when the
// informant is an ally, then the reveal or the answers.
void State::after_asks(int p) {
  const Offer &o = *offer;
  if (o.informant != p && !find_in(o.terms, p)) {
    replace(kind::TERMS, p, {o.ambush, o.own, p});
    return;
  }
  bool looked = false;
  for (int i = 0; i < MAX_SLOTS * FEATURES; ++i) looked = looked || buf[b().peek.index(p, 0, 0) + i] != 0;
  if (looked)
    replace(kind::REVEAL, p, {o.ambush, o.own});
  else
    ask_next_answer();
}

void State::mask_reveal(const native::Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  for (int s = 0; s < MAX_SLOTS; ++s) {
    bool looked = false;
    for (int f = 0; f < FEATURES; ++f) looked = looked || get(B.peek, d.player, s, f) != 0;
    mask[acts().reveal.start + s] = looked && get(B.slot_present, s) > 0;
  }
  mask[acts().reveal_none.start] = 1;
}

// "In negotiations the performer only reveals the size of the loot": fame, gold, comrades.
void State::apply_reveal(const native::Decision &, int a) {
  const Blocks &B = b();
  if (acts().reveal.contains(a)) {
    const int s = a - acts().reveal.start;
    const int card = slots[static_cast<size_t>(s)];
    if (card < 0 || card >= NUM_CARDS) throw std::logic_error("reveal: no traveller in that place");
    const auto &f = cfg().card_features[static_cast<size_t>(card)];
    at(B.slot_told, s, 0) = TOLD;
    at(B.slot_told, s, 1) = static_cast<int16_t>(f[F_FAME]);
    at(B.slot_told, s, 2) = static_cast<int16_t>(f[F_GOLD]);
    at(B.slot_told, s, 3) = static_cast<int16_t>(f[F_COMRADES]);
    offer->told = s;
  }
  ask_next_answer();
}

// --- the answers (rulebook, "b) Alliance agreement") -------------------------------------------
void State::ask_next_answer() {
  const Offer &o = *offer;
  const size_t answered = o.promise.size();
  if (answered < o.asked.size()) {
    const Triple &t = o.asked[answered];
    if (answered)
      replace(kind::ANSWER, t[0], {o.ambush, t[1], t[2], o.performer});
    else
      push(kind::ANSWER, t[0], {o.ambush, t[1], t[2], o.performer});
    return;
  }
  pop();
  place_joint();
  bool cards = false;
  for (const auto &t : o.asked) cards = cards || t[2] != 0;
  if (!cfg().additions && cards) {
    replace(kind::CONFIRM, o.performer, {o.ambush});
    return;
  }
  joint_formed();
}

void State::mask_answer(const native::Decision &d, int8_t *mask) const {
  const Blocks &B = b();
  const int q = d.player, c = d[1], e = d[2];
  mask[acts().decline.start] = 1;
  if (get(B.camp, q) < c) return;
  if (cfg().additions) {
    mask[acts().accept.start] = 1;
    return;
  }
  const int h0 = get(B.hand, q, 0), h1 = get(B.hand, q, 1), h2 = get(B.hand, q, 2);
  for (int w0 = 0; w0 <= std::min(e, h0); ++w0)
    for (int w1 = 0; w1 <= std::min(e - w0, h1); ++w1) {
      const int w2 = e - w0 - w1;
      if (w2 <= h2) mask[acts().accept.id(w0, w1, w2)] = 1;
    }
}

std::string State::why_answer(const native::Decision &d, int) const {
  if (cfg().additions) return "with the additions an ally promises a number of cards, not which ones";
  return "an accepting ally promises exactly " + std::to_string(d[2]) + " weapon cards from his hand";
}

// "An alliance is formed only with the consent of all its participants": a decline ends it.
void State::apply_answer(const native::Decision &d, int a) {
  if (a == acts().decline.start) {
    pop();
    offer_failed();
    return;
  }
  const auto w = acts().accept.index(a);
  put_in(offer->promise, static_cast<int>(d.player), Triple{w[0], w[1], w[2]});
  show_offer(of::PROMISE);
  ask_next_answer();
}

// "If the allies' forces are insufficient, the performer may give up this action and take
// another step": everyone takes his outlaws and cards back.
void State::apply_confirm(const native::Decision &, int a) {
  const Blocks &B = b();
  if (a == acts().confirm.id(CONFIRM_FORM)) {
    joint_formed();
    return;
  }
  const Offer &o = *offer;
  const int amb = o.ambush;
  for (int q = 0; q < num_players(); ++q) {
    bump(B.camp, q, get(B.ambush_outlaws, amb, q));
    at(B.ambush_outlaws, amb, q) = 0;
    at(B.ambush_leader, amb, q) = 0;
  }
  for (const auto &t : o.asked) {
    const int q = t[0], e = t[2];
    if (!e) continue;
    for (int k = 0; k < NUM_WEAPON_KINDS; ++k) {
      at(B.hand, q, k) = static_cast<int16_t>(get(B.hand, q, k) + get(B.promised, amb, q, k));
      at(B.promised, amb, q, k) = 0;
    }
    bump(B.hand_count, q, e);
    pop_from(tokens, TokenKey{amb, q});
  }
  offer_failed();
}

void State::offer_failed() {
  const int performer = offer->performer, offers = offer->offers;
  offer.reset();
  show_offer(0);
  replace(kind::PREP, performer, {offers + 1});
}

// "The allies place their outlaws from their camps into the ambush. One of the performer's
// outlaws is placed on the square leader's space"; promised cards are laid out marked with a
// lettered token pair (with the additions they stay in hand).
void State::place_joint() {
  const Blocks &B = b();
  const Offer &o = *offer;
  const int p = o.performer, amb = o.ambush;
  bump(B.camp, p, -o.own);
  at(B.ambush_outlaws, amb, p) = static_cast<int16_t>(o.own);
  at(B.ambush_leader, amb, p) = 1;
  std::vector<int> used;
  for (const auto &e : tokens) used.push_back(e.second);
  for (const auto &t : o.asked) {
    const int q = t[0], c = t[1], e = t[2];
    bump(B.camp, q, -c);
    at(B.ambush_outlaws, amb, q) = static_cast<int16_t>(c);
    if (e && cfg().additions) {
      at(B.pledged, amb, q) = static_cast<int16_t>(e);
    } else if (e) {
      const Triple *w = find_in(o.promise, q);
      if (!w) throw std::logic_error("place_joint: an ally without his promise");
      for (int k = 0; k < NUM_WEAPON_KINDS; ++k) {
        bump(B.hand, q, k, -(*w)[static_cast<size_t>(k)]);
        at(B.promised, amb, q, k) = static_cast<int16_t>((*w)[static_cast<size_t>(k)]);
      }
      bump(B.hand_count, q, -e);
      int letter = 0;
      while (letter < NUM_LETTERS && contains(used, letter)) ++letter;
      if (letter == NUM_LETTERS) throw std::logic_error("place_joint: no alliance token pair is free");
      used.push_back(letter);
      put_in(tokens, TokenKey{amb, q}, letter);
    }
  }
  bind_agreement(o, used);
}

void State::joint_formed() {
  const int p = offer->performer;
  offer.reset();
  show_offer(0);
  // Camps emptied at once: the allies (clockwise from the performer) before him.
  note_emptied(seats_from(p + 1));
  next_prep(p);
}

}  // namespace forest::sherwood
