// Roundforest, "Red colour chip: draw a character card", "Character tokens", "Friendly
// characters" and "Hostile characters": the pile, a card drawn face down, tasks, debts and
// meeting a character token (the Python rules' characters module).
#include "state.hpp"

namespace forest::roundforest {

using native::Decision;

// --- the pile ----------------------------------------------------------------------------------
void State::show_pile() { at(b().pile_size, 0) = static_cast<int16_t>(pile.size()); }

// "draws any character card face down from the pile": one at random.
int State::draw_card() {
  const auto i = static_cast<size_t>(native::draw_integer(rng, pile.size()));
  const int c = pile[i];
  pile.erase(pile.begin() + static_cast<std::ptrdiff_t>(i));
  show_pile();
  return c;
}

void State::take_card(int c) {
  for (size_t i = 0; i < pile.size(); ++i)
    if (pile[i] == c) {
      pile.erase(pile.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  show_pile();
}

void State::return_card(int c) {
  pile.push_back(static_cast<int8_t>(c));
  show_pile();
}

// --- tasks -------------------------------------------------------------------------------------
bool State::can_do(int p, const Task &task) const {
  if (!task.present) return false;
  const Blocks &B = b();
  std::array<int, NUM_ITEMS> need{};
  for (int k : task.give) need[static_cast<size_t>(k)] += 1;
  for (int k : task.need) need[static_cast<size_t>(k)] += 1;
  for (int k = 0; k < NUM_ITEMS; ++k)
    if (get(B.backpack, p, k) < need[static_cast<size_t>(k)]) return false;
  for (int k : task.without)
    if (get(B.backpack, p, k) > 0) return false;
  return get(B.copper, p) >= task.copper && get(B.silver, p) >= task.silver;
}

void State::fulfil(int p, const Task &task) {
  const Blocks &B = b();
  for (int k : task.give) {
    at(B.backpack, p, k) -= 1;
    at(B.bag_items, k) += 1;
  }
  at(B.copper, p) -= static_cast<int16_t>(task.copper);
  at(B.silver, p) -= static_cast<int16_t>(task.silver);
  at(B.supply, COPPER) += static_cast<int16_t>(task.copper);
  at(B.supply, SILVER) += static_cast<int16_t>(task.silver);
  if (task.reward_item >= 0 && get(B.bag_items, task.reward_item) > 0) {
    at(B.bag_items, task.reward_item) -= 1;
    at(B.backpack, p, task.reward_item) += 1;
  }
  for (int i = 0; i < task.apples; ++i) give_apple(p);
}

int State::debtor_of(int c) const {
  for (int p = 0; p < num_players(); ++p)
    if (get(b().debts, p, c)) return p;
  return -1;
}

// --- a card drawn face down (red chip) or chosen with the Beggar -----------------------------------
void State::resolve_card(int p, int c, int beggar) {
  const Blocks &B = b();
  if (c == SPIRIT) {
    if (qualified(p)) {
      return_card(c);
      win(p);
      return;
    }
    at(B.laid_out, c) = 1;
    if (!spirit_on_forest()) at(B.cell_char, pos[static_cast<size_t>(p)]) = static_cast<int16_t>(c);
    end_action();
    return;
  }
  at(B.drawn_card, p, c) = 1;
  replace(kind::CHARACTER, p, {beggar});
}

int State::drawn_of(int p) const {
  const int16_t *r = row(b().drawn_card) + p * NUM_CHARACTERS;
  int best = 0;
  for (int c = 1; c < NUM_CHARACTERS; ++c)
    if (r[c] > r[best]) best = c;
  return best;
}

void State::mask_character(const Decision &d, int8_t *mask) const {
  const Actions &A = acts();
  const int p = d.player, c = drawn_of(p);
  const Character &ch = cfg().characters[static_cast<size_t>(c)];
  if (ch.helpful) {
    mask[A.use.start] = can_use(p, c) ? 1 : 0;
    mask[A.defer.start] = 1;
  } else {
    mask[A.upper.start] = can_do(p, ch.upper) ? 1 : 0;
    mask[A.lower.start] = can_do(p, ch.lower) ? 1 : 0;
    mask[A.apple.start] = get(b().apples, p) > 0 ? 1 : 0;
    mask[A.debt.start] = 1;
  }
}

void State::apply_character(const Decision &d, int a) {
  const Actions &A = acts();
  const Blocks &B = b();
  const int p = d.player, c = drawn_of(p);
  at(B.drawn_card, p, c) = 0;
  const Character &ch = cfg().characters[static_cast<size_t>(c)];
  const int here = pos[static_cast<size_t>(p)];
  if (a == A.upper.start || a == A.lower.start) {
    fulfil(p, a == A.upper.start ? ch.upper : ch.lower);
    return_card(c);
  } else if (a == A.apple.start) {
    at(B.apples, p) -= 1;
    at(B.supply, APPLES) += 1;
    return_card(c);
  } else if (a == A.debt.start) {
    at(B.debts, p, c) = 1;
    at(B.cell_char, here) = static_cast<int16_t>(c);
  } else if (a == A.defer.start) {
    at(B.laid_out, c) = 1;
    at(B.cell_char, here) = static_cast<int16_t>(c);
  } else {  // use
    return_card(c);
    start_ability(p, c);
    return;
  }
  end_action();
}

// --- meet: a character token entered ---------------------------------------------------------------
bool State::can_meet(int p, int c) const {
  const Character &ch = cfg().characters[static_cast<size_t>(c)];
  if (ch.helpful) return can_use(p, c);
  if (can_do(p, ch.upper) || can_do(p, ch.lower)) return true;
  return get(b().debts, p, c) && get(b().apples, p) > 0;
}

void State::meet(int p, int c, int cell) {
  const Blocks &B = b();
  if (cfg().characters[static_cast<size_t>(c)].helpful) {
    at(B.cell_char, cell) = NO_CHAR;
    if (get(B.laid_out, c)) {
      at(B.laid_out, c) = 0;
      return_card(c);
    }
    start_ability(p, c);
  } else {
    replace(kind::MEET, p, {c, cell});
  }
}

void State::mask_meet(const Decision &d, int8_t *mask) const {
  const Actions &A = acts();
  const int p = d.player, c = d[0];
  const Character &ch = cfg().characters[static_cast<size_t>(c)];
  mask[A.upper.start] = can_do(p, ch.upper) ? 1 : 0;
  mask[A.lower.start] = can_do(p, ch.lower) ? 1 : 0;
  mask[A.apple.start] = get(b().debts, p, c) && get(b().apples, p) > 0 ? 1 : 0;
}

void State::apply_meet(const Decision &d, int a) {
  const Actions &A = acts();
  const Blocks &B = b();
  const int p = d.player, c = d[0], cell = d[1];
  const Character &ch = cfg().characters[static_cast<size_t>(c)];
  if (a == A.apple.start) {
    at(B.apples, p) -= 1;
    at(B.supply, APPLES) += 1;
  } else {
    fulfil(p, a == A.upper.start ? ch.upper : ch.lower);
  }
  const int debtor = debtor_of(c);
  if (debtor >= 0) at(B.debts, debtor, c) = 0;
  return_card(c);
  at(B.cell_char, cell) = NO_CHAR;
  end_action();
}

}  // namespace forest::roundforest
