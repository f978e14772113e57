// numpy's PCG64 bit generator, seeded as numpy seeds it, drawn through numpy's own C
// distributions (libnpyrandom), so that a native state draws exactly what the Python engine's
// numpy.random.Generator draws for the same seed: the same shuffles, the same integers, the
// same generator state after every draw (core/rng.py holds the Python side).
//
// The bit generator is reimplemented here (128-bit LCG, XSL-RR output, the 32-bit half kept
// for the next 32-bit draw, as numpy/random/src/pcg64 does it); the distributions are not:
// random_interval (Generator.shuffle / permutation) and random_bounded_uint64_fill
// (Generator.integers, unmasked) come from numpy's static library through a bitgen_t that
// points at this generator.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include <numpy/random/bitgen.h>
uint64_t random_interval(bitgen_t *bitgen_state, uint64_t max);
void random_bounded_uint64_fill(bitgen_t *bitgen_state, uint64_t off, uint64_t rng, intptr_t cnt,
                                bool use_masked, uint64_t *out);
}

namespace forest::native {

__extension__ typedef unsigned __int128 u128;  // GCC and Clang's 128-bit integer

class Pcg64 {
 public:
  // numpy's PCG_DEFAULT_MULTIPLIER_128
  static constexpr u128 kMultiplier =
      (static_cast<u128>(0x2360ED051FC65DA4ULL) << 64) | 0x4385DF649FCCF645ULL;

  Pcg64() = default;

  // numpy.random.PCG64(seed) for a non-negative integer seed below 2**64: SeedSequence(seed)
  // hashed into four 64-bit words, two for the state and two for the increment.
  static Pcg64 from_seed(uint64_t seed);

  // The generator whose numpy state dict is {"state": {"state": s, "inc": i}, "has_uint32",
  // "uinteger"}; 128-bit values as (high, low) 64-bit halves.
  static Pcg64 from_state(uint64_t state_hi, uint64_t state_lo, uint64_t inc_hi, uint64_t inc_lo,
                          bool has_uint32, uint32_t uinteger) {
    Pcg64 g;
    g.state_ = (static_cast<u128>(state_hi) << 64) | state_lo;
    g.inc_ = (static_cast<u128>(inc_hi) << 64) | inc_lo;
    g.has_uint32_ = has_uint32;
    g.uinteger_ = uinteger;
    return g;
  }

  uint64_t state_hi() const { return static_cast<uint64_t>(state_ >> 64); }
  uint64_t state_lo() const { return static_cast<uint64_t>(state_); }
  uint64_t inc_hi() const { return static_cast<uint64_t>(inc_ >> 64); }
  uint64_t inc_lo() const { return static_cast<uint64_t>(inc_); }
  bool has_uint32() const { return has_uint32_; }
  uint32_t uinteger() const { return uinteger_; }

  uint64_t next64() {
    state_ = state_ * kMultiplier + inc_;
    const uint64_t folded = static_cast<uint64_t>(state_ >> 64) ^ static_cast<uint64_t>(state_);
    const unsigned rot = static_cast<unsigned>(state_ >> 122);
    return (folded >> rot) | (folded << ((64u - rot) & 63u));
  }

  uint32_t next32() {
    if (has_uint32_) {
      has_uint32_ = false;
      return uinteger_;
    }
    const uint64_t next = next64();
    has_uint32_ = true;
    uinteger_ = static_cast<uint32_t>(next >> 32);
    return static_cast<uint32_t>(next & 0xffffffffULL);
  }

  double next_double() { return static_cast<double>(next64() >> 11) * (1.0 / 9007199254740992.0); }

  // numpy's bitgen_t view of this generator (valid while the generator lives and stays put).
  bitgen_t bitgen() {
    bitgen_t b;
    b.state = this;
    b.next_uint64 = [](void *st) { return static_cast<Pcg64 *>(st)->next64(); };
    b.next_uint32 = [](void *st) { return static_cast<Pcg64 *>(st)->next32(); };
    b.next_double = [](void *st) { return static_cast<Pcg64 *>(st)->next_double(); };
    b.next_raw = [](void *st) { return static_cast<Pcg64 *>(st)->next64(); };
    return b;
  }

  bool operator==(const Pcg64 &o) const {
    return state_ == o.state_ && inc_ == o.inc_ && has_uint32_ == o.has_uint32_ &&
           (!has_uint32_ || uinteger_ == o.uinteger_);
  }

 private:
  void step() { state_ = state_ * kMultiplier + inc_; }

  u128 state_ = 0;
  u128 inc_ = 1;
  bool has_uint32_ = false;
  uint32_t uinteger_ = 0;
};

// Generator.integers(high) (int64, endpoint excluded, unmasked Lemire) for 0 < high <= 2**63.
inline int64_t draw_integer(bitgen_t &bg, uint64_t high) {
  if (high == 0 || high > (uint64_t{1} << 63)) throw std::invalid_argument("draw_integer: high outside 1..2**63");
  uint64_t out = 0;
  random_bounded_uint64_fill(&bg, 0, high - 1, 1, false, &out);
  return static_cast<int64_t>(out);
}

inline int64_t draw_integer(Pcg64 &g, uint64_t high) {
  bitgen_t bg = g.bitgen();
  return draw_integer(bg, high);
}

// Generator.shuffle of a 1-d array in place (what permutation does to its copy): for i from
// n-1 down to 1, swap item i with item random_interval(i).
template <class T>
void shuffle_in_place(bitgen_t &bg, T *data, size_t n) {
  for (size_t i = n; i-- > 1;) {
    const size_t j = static_cast<size_t>(random_interval(&bg, i));
    T tmp = data[j];
    data[j] = data[i];
    data[i] = tmp;
  }
}

template <class T>
void shuffle_in_place(Pcg64 &g, std::vector<T> &items) {
  bitgen_t bg = g.bitgen();
  shuffle_in_place(bg, items.data(), items.size());
}

// Generator.permutation(items): a shuffled copy.
template <class T>
std::vector<T> permutation(Pcg64 &g, std::vector<T> items) {
  shuffle_in_place(g, items);
  return items;
}

// --- SeedSequence (numpy/random/bit_generator.pyx), for integer entropy, no spawn key ---
namespace seed_sequence {
constexpr uint32_t kInitA = 0x43b0d7e5u, kMultA = 0x931e8875u, kInitB = 0x8b51f9ddu,
                   kMultB = 0x58f38dedu, kMixMultL = 0xca01f9ddu, kMixMultR = 0x4973f715u;
constexpr unsigned kXShift = 16;
constexpr size_t kPoolSize = 4;

inline uint32_t hashmix(uint32_t value, uint32_t &hash_const) {
  value ^= hash_const;
  hash_const *= kMultA;
  value *= hash_const;
  value ^= value >> kXShift;
  return value;
}

inline uint32_t mix(uint32_t x, uint32_t y) {
  uint32_t result = kMixMultL * x - kMixMultR * y;
  result ^= result >> kXShift;
  return result;
}

// The pool numpy's SeedSequence(entropy) computes from an integer's 32-bit words.
inline std::array<uint32_t, kPoolSize> pool(uint64_t entropy) {
  std::vector<uint32_t> words;
  if (entropy == 0) {
    words.push_back(0);
  } else {
    for (uint64_t e = entropy; e; e >>= 32) words.push_back(static_cast<uint32_t>(e & 0xffffffffu));
  }
  std::array<uint32_t, kPoolSize> mixer{};
  uint32_t hash_const = kInitA;
  for (size_t i = 0; i < kPoolSize; ++i)
    mixer[i] = hashmix(i < words.size() ? words[i] : 0u, hash_const);
  for (size_t src = 0; src < kPoolSize; ++src)
    for (size_t dst = 0; dst < kPoolSize; ++dst)
      if (src != dst) mixer[dst] = mix(mixer[dst], hashmix(mixer[src], hash_const));
  for (size_t src = kPoolSize; src < words.size(); ++src)
    for (size_t dst = 0; dst < kPoolSize; ++dst)
      mixer[dst] = mix(mixer[dst], hashmix(words[src], hash_const));
  return mixer;
}

// generate_state(n_words64, np.uint64)
inline std::vector<uint64_t> generate_state64(const std::array<uint32_t, kPoolSize> &pool_words,
                                              size_t n_words64) {
  std::vector<uint32_t> out32(2 * n_words64);
  uint32_t hash_const = kInitB;
  for (size_t i = 0; i < out32.size(); ++i) {
    uint32_t v = pool_words[i % kPoolSize];
    v ^= hash_const;
    hash_const *= kMultB;
    v *= hash_const;
    v ^= v >> kXShift;
    out32[i] = v;
  }
  std::vector<uint64_t> out(n_words64);
  for (size_t i = 0; i < n_words64; ++i)
    out[i] = static_cast<uint64_t>(out32[2 * i]) | (static_cast<uint64_t>(out32[2 * i + 1]) << 32);
  return out;
}
}  // namespace seed_sequence

inline Pcg64 Pcg64::from_seed(uint64_t seed) {
  const auto words = seed_sequence::generate_state64(seed_sequence::pool(seed), 4);
  const u128 initstate = (static_cast<u128>(words[0]) << 64) | words[1];
  const u128 initseq = (static_cast<u128>(words[2]) << 64) | words[3];
  Pcg64 g;
  g.state_ = 0;
  g.inc_ = (initseq << 1u) | 1u;
  g.step();
  g.state_ += initstate;
  g.step();
  g.has_uint32_ = false;
  g.uinteger_ = 0;
  return g;
}

}  // namespace forest::native
