// Roundforest: how near the tiles are to each other in moves, the near_* observation blocks
// (the Python rules' distances module, whose docstring says how a route is counted). They are
// a function of the forest, the tokens, the debts and the pieces, written whenever the buffer
// is read whole, never by a rule; the breadth-first searches run over sets of cells as bits.
#include <bit>
#include <cstring>

#include "state.hpp"

namespace forest::roundforest {

namespace {

// distances._spread: from the cells of ``frontier`` (``start`` moves away) along ``lead`` (the
// cells each cell leads to), each cell's near value, 0 beyond MOVES_CAP moves or out of reach.
// One pass over each distance's cells writes their value and gathers where they lead.
void spread(const std::array<Cells, NUM_CELLS> &lead, Cells frontier, int start, const NearValues &near,
            int16_t *out) {
  std::fill(out, out + NUM_CELLS, int16_t{0});
  Cells seen = frontier;
  for (int d = start; frontier && d < MOVES_CAP; ++d) {
    const int16_t value = near[static_cast<size_t>(d)];
    Cells reached = 0;
    for (Cells f = frontier; f; f &= f - 1) {
      const int cell = std::countr_zero(f);
      out[cell] = value;
      reached |= lead[static_cast<size_t>(cell)];
    }
    frontier = reached & ~seen;
    seen |= frontier;
  }
}

}  // namespace

// NearBlocks.near_values: near_well, near_spirit, near_debt, near_piece in buffer order.
void State::write_near(int16_t *out) const {
  const Blocks &B = b();
  const Tables &T = tab();
  const Config &c = cfg();
  const NearValues &near = T.near_value;
  const int n = num_players();
  const int16_t *tile = row(B.cell_tile), *orient = row(B.cell_orient), *turns = row(B.cell_turn),
                *blocked = row(B.cell_blocked), *token = row(B.cell_char);
  // where a piece may go from a tile once it turned (a blockaded tile does not turn), and
  // from where it may come to one
  std::array<Cells, NUM_CELLS> turned{}, back{};
  for (int cell : c.tile_cells) {
    const int t = tile[cell], o = orient[cell];
    if (t < 0 || t >= NUM_TILES || o < 0 || o > 3)
      throw native::BadInput("cell_tile, cell_orient: a tile cell without a tile or orientation");
    const int facing = blocked[cell] ? o : (o + turns[cell]) & 3;  // & 3: the turn modulo 4, also below 0
    const Cells targets = T.targets(cell, T.open_bits[static_cast<size_t>(t)][static_cast<size_t>(facing)]);
    turned[static_cast<size_t>(cell)] = targets;
    for (Cells f = targets; f; f &= f - 1) back[static_cast<size_t>(std::countr_zero(f))] |= Cells{1} << cell;
  }
  std::array<Cells, NUM_CHARACTERS> at_char{};  // the cells of each character's tokens
  for (int cell : c.tile_cells) {
    const int ch = token[cell];
    if (ch >= NUM_CHARACTERS) throw native::BadInput("cell_char: not a character");
    if (ch >= 0) at_char[static_cast<size_t>(ch)] |= Cells{1} << cell;
  }
  spread(back, T.well_cells, 0, near, out);
  spread(back, at_char[SPIRIT], 0, near, out + NUM_CELLS);
  const int16_t *debts = row(B.debts);
  for (int p = 0; p < n; ++p) {
    Cells owed = 0;
    for (int ch = 0; ch < NUM_CHARACTERS; ++ch)
      if (debts[p * NUM_CHARACTERS + ch]) owed |= at_char[static_cast<size_t>(ch)];
    spread(back, owed, 0, near, out + (2 + p) * NUM_CELLS);
  }
  for (int p = 0; p < n; ++p) {
    int16_t *dist = out + (2 + n + p) * NUM_CELLS;
    const int cell = pos[static_cast<size_t>(p)];
    if (T.is_tile[static_cast<size_t>(cell)]) {
      const int t = tile[cell], o = orient[cell];
      spread(turned, T.targets(cell, T.open_bits[static_cast<size_t>(t)][static_cast<size_t>(o & 3)]), 1, near, dist);
      dist[cell] = near[0];
    } else {
      spread(turned, T.start_cells[static_cast<size_t>(p)], 1, near, dist);
    }
  }
}

// NearBlocks.show_near: the blocks written from their sources; the values of the last
// sources seen are kept, so observing every seat of one position computes them once.
void State::show_derived_blocks() const {
  const Tables &T = tab();
  const Blocks &B = b();
  const size_t board = static_cast<size_t>(T.near_sources_hi - T.near_sources_lo);
  const size_t key_size = board + static_cast<size_t>(B.debts.size) + pos.size();
  const size_t near_size = static_cast<size_t>(T.near_hi - T.near_lo);
  const bool same = near_key_.size() == key_size &&
                    std::memcmp(near_key_.data(), buf + T.near_sources_lo, board * sizeof(int16_t)) == 0 &&
                    std::memcmp(near_key_.data() + board, buf + B.debts.offset,
                                static_cast<size_t>(B.debts.size) * sizeof(int16_t)) == 0 &&
                    std::equal(pos.begin(), pos.end(), near_key_.begin() + static_cast<std::ptrdiff_t>(board) + B.debts.size);
  if (!same) {
    near_key_.resize(key_size);
    std::memcpy(near_key_.data(), buf + T.near_sources_lo, board * sizeof(int16_t));
    std::memcpy(near_key_.data() + board, buf + B.debts.offset, static_cast<size_t>(B.debts.size) * sizeof(int16_t));
    std::copy(pos.begin(), pos.end(), near_key_.begin() + static_cast<std::ptrdiff_t>(board) + B.debts.size);
    near_values_.resize(near_size);
    write_near(near_values_.data());
  }
  std::memcpy(buf + T.near_lo, near_values_.data(), near_size * sizeof(int16_t));
}

}  // namespace forest::roundforest
