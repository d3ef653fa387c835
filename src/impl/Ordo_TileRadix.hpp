// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILERADIX_HPP
#define ORDO_IMPL_TILERADIX_HPP

// Team level of the radix sort: one digit pass over a tile of keys held in registers, Items per
// thread. Ranking finds each key's position in the tile's stable order by digit:
//   1. count   every key is counted in a column of counters, one column per thread (portable:
//              rank_in_threads, each thread counting its own run of keys in order) or per warp
//              (the CUDA seam's warp_rank: match sets of equal digits); a key's rank is how many
//              keys of its digit its column counted before it
//   2. scan    one exclusive scan of the counters in digit-major order (digit, column): each
//              counter becomes the tile position of its column's first key of that digit
//   3. place   position = scanned counter + rank
// The keys (and values) are then exchanged through scratch into that order, so that a digit's
// keys leave the tile as one contiguous run (coalesced stores).

#include <impl/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

inline constexpr int radix_bits = 8;
inline constexpr int radix_digits = 1 << radix_bits;

template <class K>
KOKKOS_INLINE_FUNCTION int radix_digit(K key, int pass) {
  return int((key >> (pass * radix_bits)) & K(radix_digits - 1));
}

// Step 1 on the portable path: thread r owns the tile positions [r * Items, (r + 1) * Items) in
// order and counts them in column r of counters(digit * columns + r).
template <int Items, class Member, class K, class Counters>
KOKKOS_INLINE_FUNCTION void rank_in_threads(const Member& member, const K (&key)[Items], int pass,
                                            int (&rank)[Items], const Counters& counters) {
  const int columns = member.team_size(), r = member.team_rank();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, radix_digits * columns),
                       [&](int j) { counters(j) = 0; });
  member.team_barrier();
  for (int k = 0; k < Items; ++k) {
    auto& c = counters(radix_digit(key[k], pass) * columns + r);
    rank[k] = c;
    c = c + 1;
  }
  member.team_barrier();
}

// Steps 2 and 3: the digit-major scan of radix_digits * columns counters, then the tile position
// of each key from its column; start(d) = the tile position of digit d's first key (start of
// radix_digits: the tile's key count). Ends with a team barrier.
template <int Items, class Member, class K, class Counters, class Start>
KOKKOS_INLINE_FUNCTION void place_ranked(const Member& member, const K (&key)[Items], int pass,
                                         int column, int columns, int (&rank)[Items],
                                         const Counters& counters, const Start& start) {
  const int total = radix_digits * columns, threads = member.team_size();
  const int per = (total + threads - 1) / threads, r = member.team_rank();
  const int lo = r * per < total ? r * per : total, hi = lo + per < total ? lo + per : total;
  int sum = 0;
  for (int j = lo; j < hi; ++j) sum += counters(j);
  int before = member.team_scan(sum);
  for (int j = lo; j < hi; ++j) {
    const int c = counters(j);
    counters(j) = before;
    before += c;
  }
  member.team_barrier();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, radix_digits + 1), [&](int d) {
    start(d) = d < radix_digits ? int(counters(d * columns)) : Items * threads;
  });
  for (int k = 0; k < Items; ++k) {
    rank[k] += counters(radix_digit(key[k], pass) * columns + column);
  }
  member.team_barrier();
}

}  // namespace Ordo::Impl

#endif
