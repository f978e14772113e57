// Reading a legal mask (one int8 per action id, 0 or 1) for its legal actions. A mask is mostly
// zeros (a handful of a few hundred actions are legal), so it is read sixteen bytes at a time
// (SSE2) as a bit set of the nonzero bytes: a byte-wise scan was three quarters of the
// search loop's own time and half of a random playout's. Every native loop that reads a mask
// for its actions (the random playout, the batch's sampler, the search) reads it here.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace forest::native {

// Bit i set: byte i of the sixteen at ``m`` is nonzero.
inline uint32_t nonzero_bits16(const int8_t *m) {
#if defined(__SSE2__)
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m));
  return static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_setzero_si128()))) ^ 0xffffu;
#else
  uint32_t bits = 0;
  for (int i = 0; i < 16; ++i)
    if (m[i]) bits |= uint32_t{1} << i;
  return bits;
#endif
}

// How many of the bits of a sixteen-bit set are set. std::popcount without the popcnt
// instruction (the build targets plain x86-64) is a call into libgcc; this is a few
// instructions inline.
inline int bit_count16(uint32_t bits) {
#if defined(__POPCNT__)
  return std::popcount(bits);
#else
  bits = bits - ((bits >> 1) & 0x5555u);
  bits = (bits & 0x3333u) + ((bits >> 2) & 0x3333u);
  bits = (bits + (bits >> 4)) & 0x0f0fu;
  return static_cast<int>((bits + (bits >> 8)) & 0x1fu);
#endif
}

// f(a) for every action a whose byte is nonzero, in id order.
template <class F>
void for_each_legal(const int8_t *m, size_t n, F &&f) {
  size_t a = 0;
  for (; a + 16 <= n; a += 16)
    for (uint32_t bits = nonzero_bits16(m + a); bits; bits &= bits - 1)
      f(static_cast<int>(a) + std::countr_zero(bits));
  for (; a < n; ++a)
    if (m[a]) f(static_cast<int>(a));
}

// How many bytes are nonzero.
inline int count_legal(const int8_t *m, size_t n) {
  int count = 0;
  size_t a = 0;
#if defined(__SSE2__)
  // each nonzero byte as a 1, summed sixteen at a time (psadbw) into two 64-bit lanes
  const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
  __m128i sums = zero;
  for (; a + 16 <= n; a += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m + a));
    const __m128i ones = _mm_andnot_si128(_mm_cmpeq_epi8(bytes, zero), one);
    sums = _mm_add_epi64(sums, _mm_sad_epu8(ones, zero));
  }
  count = _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
#endif
  for (; a < n; ++a) count += m[a] != 0;
  return count;
}

// The k-th (from 0) action whose byte is nonzero, in id order; -1 when there are no more than k.
inline int nth_legal(const int8_t *m, size_t n, int k) {
  size_t a = 0;
  for (; a + 16 <= n; a += 16) {
    uint32_t bits = nonzero_bits16(m + a);
    if (!bits) continue;
    const int here = bit_count16(bits);
    if (k >= here) {
      k -= here;
      continue;
    }
    for (; k > 0; --k) bits &= bits - 1;
    return static_cast<int>(a) + std::countr_zero(bits);
  }
  for (; a < n; ++a)
    if (m[a] && k-- == 0) return static_cast<int>(a);
  return -1;
}

}  // namespace forest::native
