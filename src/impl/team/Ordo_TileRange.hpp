// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TEAM_TILERANGE_HPP
#define ORDO_IMPL_TEAM_TILERANGE_HPP

// Team level of the merge-path partitioner: the piece of the merge path a tile covers, read from
// the partition kernel's boundaries or co-ranked by the whole team inside a fused kernel.
//   team_merge_path_ends the co-ranks of a tile's two ends by a whole team, for kernels that
//                        partition inside themselves (small inputs: one launch instead of two)
//   tile_range           a tile's outputs and its ranges of A and B, either way

#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_MergePath.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// The co-ranks of two diagonals (a tile's ends) found together by a whole team, for kernels that
// partition inside themselves. Each round every thread tests P probes of each range still open
// (their loads in flight together) and one team reduction counts, for both ranges at once, the
// probes that lie before the answer; the probes split a range of width w into size + 1 gaps of
// w / (size + 1) or one more positions (size = team_size * P), so a round narrows it that much and
// a range of at most size positions ends in one round. Every thread returns both co-ranks.
template <int P, class Member, class Index, class AView, class BView, class Comp>
KOKKOS_INLINE_FUNCTION Kokkos::pair<Index, Index> team_merge_path_ends(
    const Member& member, const AView& a, Index a_count, const BView& b, Index b_count, Index diag0,
    Index diag1, const Comp& comp) {
  const Index size = Index(member.team_size()) * P;
  const Index diag[2] = {diag0, diag1};
  Index lo[2], hi[2], step[2] = {0, 0}, rest[2] = {0, 0};
  for (int e = 0; e < 2; ++e) {
    lo[e] = diag[e] > b_count ? diag[e] - b_count : Index(0);
    hi[e] = diag[e] < a_count ? diag[e] : a_count;
  }
  // Probe p < size of range e: the last position of the (p + 1)-th gap (the first `rest` gaps are
  // one longer); non-decreasing in p and below hi.
  auto probe = [&](int e, Index p) {
    return lo[e] + (p + 1) * step[e] + (p + 1 < rest[e] ? p + 1 : rest[e]) - 1;
  };
  // Both counts travel in one word, 16 bits each.
  KOKKOS_ASSERT(size < (Index(1) << 16));
  while (lo[0] < hi[0] || lo[1] < hi[1]) {
    for (int e = 0; e < 2; ++e) {
      step[e] = (hi[e] - lo[e]) / (size + 1);
      rest[e] = (hi[e] - lo[e]) % (size + 1);
    }
    std::uint32_t passed = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(member, member.team_size()),
        [&](int t, std::uint32_t& count) {
          for (int e = 0; e < 2; ++e) {
            if (lo[e] == hi[e]) continue;
            for (int q = 0; q < P; ++q) {
              // A[i] is among the first diag outputs unless B[diag - 1 - i] orders before it.
              const Index i = probe(e, Index(q) * member.team_size() + t);
              count += std::uint32_t(!comp(b(diag[e] - 1 - i), a(i))) << (16 * e);
            }
          }
        },
        passed);
    for (int e = 0; e < 2; ++e) {
      if (lo[e] == hi[e]) continue;
      const Index before = Index(passed >> (16 * e)) & 0xffff;
      const Index new_lo = before == 0 ? lo[e] : probe(e, before - 1) + 1;
      hi[e] = before == size ? hi[e] : probe(e, before);
      lo[e] = new_lo;
    }
  }
  return {lo[0], lo[1]};
}

// The piece of the merge path that tile `id` covers: merge outputs [begin, begin + count)
// (count <= tile_size), made of A[a0, a1) and B[begin - a0, ...). Fused kernels co-rank both ends
// with the team; the others read them from the partition kernel's part.
struct TileRange {
  std::int64_t begin;
  int count;
  std::int64_t a0, a1;
};

template <bool Fused, class Member, class AView, class BView, class PartView, class Comp>
KOKKOS_INLINE_FUNCTION TileRange tile_range(const Member& member, std::int64_t id,
                                            std::int64_t tile_size, const AView& a, const BView& b,
                                            const PartView& part, const Comp& comp) {
  const std::int64_t m = a.extent(0), n = b.extent(0);
  TileRange r;
  r.begin = id * tile_size;
  r.count = int(r.begin + tile_size < m + n ? tile_size : m + n - r.begin);
  if constexpr (Fused) {
    constexpr int probes = MergePathTuning<typename Member::execution_space>::team_probes;
    const auto ends =
        team_merge_path_ends<probes>(member, a, m, b, n, r.begin, r.begin + r.count, comp);
    r.a0 = ends.first;
    r.a1 = ends.second;
  } else {
    (void)member, (void)comp;
    r.a0 = part(id);
    r.a1 = part(id + 1);
  }
  r.a1 = piece_end<std::int64_t>(r.a1, r.a0, r.count);
  return r;
}

}  // namespace Ordo::Impl

#endif
