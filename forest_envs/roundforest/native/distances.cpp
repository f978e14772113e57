// Roundforest: how near the tiles are to each other in moves, the near_* observation blocks
// (the Python rules' distances module, whose docstring says how a route is counted). They are
// a function of the forest, the tokens, the debts and the pieces, written whenever the buffer
// is read whole, never by a rule; the breadth-first searches run over sets of cells as bits.
#include <bit>
#include <cstring>

#include "state.hpp"

namespace forest::roundforest {

namespace {

// The move graph of the forest as it stands, one set of cells per octagon: ``from[m]`` the tiles
// whose octagon m (OCTAGON_STEP) is open and leads onto a tile. A set of cells moves along
// octagon m by a shift, so a step of a breadth-first search over every cell of a frontier at
// once is eight shifts, without a branch per cell.
struct MoveGraph {
  std::array<Cells, 8> from{};

  static Cells shifted(Cells cells, int by) { return by >= 0 ? cells << by : cells >> -by; }

  // the cells one move from ``cells``
  Cells ahead(Cells cells) const {
    Cells out = 0;
    for (size_t m = 0; m < 8; ++m) out |= shifted(cells & from[m], OCTAGON_STEP[m]);
    return out;
  }
  // the cells one move to ``cells``
  Cells behind(Cells cells) const {
    Cells out = 0;
    for (size_t m = 0; m < 8; ++m) out |= shifted(cells, -OCTAGON_STEP[m]) & from[m];
    return out;
  }
};

// distances._spread: from the cells of ``frontier`` (``start`` moves away) along ``lead`` (the
// cells one move on from a set of cells), each cell's near value, 0 beyond MOVES_CAP moves or
// out of reach.
template <class Lead>
void spread(Lead lead, Cells frontier, int start, const NearValues &near, int16_t *out) {
  std::fill(out, out + NUM_CELLS, int16_t{0});
  Cells seen = frontier;
  for (int d = start; frontier && d < MOVES_CAP; ++d) {
    const int16_t value = near[static_cast<size_t>(d)];
    for (Cells f = frontier; f; f &= f - 1) out[std::countr_zero(f)] = value;
    frontier = lead(frontier) & ~seen;
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
  // where a piece may go from a tile once it turned (a blockaded tile does not turn)
  MoveGraph turned;
  std::array<Cells, NUM_CHARACTERS> at_char{};  // the cells of each character's tokens
  for (int cell : c.tile_cells) {
    const int t = tile[cell], o = orient[cell], ch = token[cell];
    if (t < 0 || t >= NUM_TILES || o < 0 || o > 3)
      throw native::BadInput("cell_tile, cell_orient: a tile cell without a tile or orientation");
    if (ch >= NUM_CHARACTERS) throw native::BadInput("cell_char: not a character");
    const int facing = blocked[cell] ? o : (o + turns[cell]) & 3;  // & 3: the turn modulo 4, also below 0
    const unsigned open = T.open_bits[static_cast<size_t>(t)][static_cast<size_t>(facing)] &
                          T.octagon_lands[static_cast<size_t>(cell)];
    for (size_t m = 0; m < 8; ++m) turned.from[m] |= Cells{open >> m & 1u} << cell;
    if (ch >= 0) at_char[static_cast<size_t>(ch)] |= Cells{1} << cell;
  }
  const auto ahead = [&turned](Cells cells) { return turned.ahead(cells); };
  const auto behind = [&turned](Cells cells) { return turned.behind(cells); };
  spread(behind, T.well_cells, 0, near, out);
  spread(behind, at_char[SPIRIT], 0, near, out + NUM_CELLS);
  const int16_t *debts = row(B.debts);
  for (int p = 0; p < n; ++p) {
    Cells owed = 0;
    for (int ch = 0; ch < NUM_CHARACTERS; ++ch)
      if (debts[p * NUM_CHARACTERS + ch]) owed |= at_char[static_cast<size_t>(ch)];
    spread(behind, owed, 0, near, out + (2 + p) * NUM_CELLS);
  }
  for (int p = 0; p < n; ++p) {
    int16_t *dist = out + (2 + n + p) * NUM_CELLS;
    const int cell = pos[static_cast<size_t>(p)];
    if (T.is_tile[static_cast<size_t>(cell)]) {
      const int t = tile[cell], o = orient[cell];
      spread(ahead, T.targets(cell, T.open_bits[static_cast<size_t>(t)][static_cast<size_t>(o & 3)]), 1, near, dist);
      dist[cell] = near[0];
    } else {
      spread(ahead, T.start_cells[static_cast<size_t>(p)], 1, near, dist);
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
