#ifndef ORDO_IMPL_MERGEPATH_HPP
#define ORDO_IMPL_MERGEPATH_HPP

// The one merge-path partitioner of Ordo (seed 001's co-rank). Every primitive that splits the
// merge of two sorted sequences into pieces (merge, sorted search, the merge phases of sort,
// joins) calls these functions:
//   merge_path           thread level: one binary search along a cross diagonal
//   team_merge_path      team level: a (team_size + 1)-ary search, for kernels that partition
//                        inside themselves (small inputs: one launch instead of two)
//   partition_merge_path device level: the co-rank of every tile boundary, one launch

#include <Kokkos_Core.hpp>
#include <impl/Ordo_Tuning.hpp>

#include <cstdint>
#include <string>

namespace Ordo::Impl {

// Co-rank of `diag` (seed 001): the number of elements of A among the first `diag` elements of
// the stable merge of A = a[a_begin, a_begin + a_count) and B = b[b_begin, b_begin + b_count),
// where on ties every element of A comes before the equal elements of B. Views or scratch Views.
template <class Index, class AView, class BView, class Comp>
KOKKOS_INLINE_FUNCTION Index merge_path(const AView& a, Index a_begin, Index a_count,
                                        const BView& b, Index b_begin, Index b_count, Index diag,
                                        const Comp& comp) {
  Index lo = diag > b_count ? diag - b_count : Index(0);
  Index hi = diag < a_count ? diag : a_count;
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    // A[mid] is among the first diag outputs unless B[diag - 1 - mid] orders strictly before it.
    if (comp(b(b_begin + diag - 1 - mid), a(a_begin + mid))) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// The same co-rank found by `probes` cooperating threads or vector lanes: each round every one
// tests one probe of the remaining range, and the number of probes that lie before the answer
// narrows the range by a factor of probes + 1. The probes run over Kokkos::ThreadVectorRange
// (Lanes) or Kokkos::TeamThreadRange; every participant returns the result.
template <bool Lanes, class Member, class Index, class AView, class BView, class Comp>
KOKKOS_INLINE_FUNCTION Index kary_merge_path(const Member& member, Index probes, const AView& a,
                                             Index a_count, const BView& b, Index b_count,
                                             Index diag, const Comp& comp) {
  Index lo = diag > b_count ? diag - b_count : Index(0);
  Index hi = diag < a_count ? diag : a_count;
  while (lo < hi) {
    const Index width = hi - lo;
    // Probe p (0 <= p < probes) tests position lo + (p + 1) * width / (probes + 1), clamped
    // below hi; probes are non-decreasing, so "A[pos] goes first" holds for a prefix of them.
    auto probe = [&](Index p) { return lo + (p + 1) * width / (probes + 1); };
    Index before = 0;
    auto count_before = [&](Index p, Index& count) {
      const Index pos = probe(p);
      if (pos < hi && !comp(b(diag - 1 - pos), a(pos))) ++count;
    };
    if constexpr (Lanes) {
      Kokkos::parallel_reduce(Kokkos::ThreadVectorRange(member, probes), count_before, before);
    } else {
      Kokkos::parallel_reduce(Kokkos::TeamThreadRange(member, probes), count_before, before);
    }
    const Index new_lo = before == 0 ? lo : probe(before - 1) + 1;
    const Index new_hi = before == probes ? hi : (probe(before) < hi ? probe(before) : hi);
    lo = new_lo;
    hi = new_hi;
  }
  return lo;
}

// The co-rank found by a whole team (fused kernels that partition inside themselves).
template <class Member, class Index, class AView, class BView, class Comp>
KOKKOS_INLINE_FUNCTION Index team_merge_path(const Member& member, const AView& a, Index a_count,
                                             const BView& b, Index b_count, Index diag,
                                             const Comp& comp) {
  return kary_merge_path<false>(member, Index(member.team_size()), a, a_count, b, b_count, diag,
                                comp);
}

// The piece of the merge path that team `member.league_rank()` owns: merge outputs
// [begin, begin + count) (count <= tile_size), made of A[a0, a1) and B[begin - a0, ...). Fused
// kernels co-rank both ends with the team; the others read them from the partition kernel's part.
struct TileRange {
  std::int64_t begin;
  int count;
  std::int64_t a0, a1;
};

template <bool Fused, class Member, class AView, class BView, class PartView, class Comp>
KOKKOS_INLINE_FUNCTION TileRange tile_range(const Member& member, std::int64_t tile_size,
                                            const AView& a, const BView& b, const PartView& part,
                                            const Comp& comp) {
  const std::int64_t m = a.extent(0), n = b.extent(0);
  TileRange r;
  r.begin = member.league_rank() * tile_size;
  r.count = int(r.begin + tile_size < m + n ? tile_size : m + n - r.begin);
  if constexpr (Fused) {
    r.a0 = team_merge_path(member, a, m, b, n, r.begin, comp);
    r.a1 = team_merge_path(member, a, m, b, n, r.begin + r.count, comp);
  } else {
    r.a0 = part(member.league_rank());
    r.a1 = part(member.league_rank() + 1);
  }
  return r;
}

// Writes to part(t) the co-rank of min(t * tile, |A| + |B|) for every t in [0, part.extent(0)).
// Host backends: one binary search per boundary. Device backends: one team thread per boundary,
// whose vector lanes run a (lanes + 1)-ary search, so that a boundary costs a handful of
// dependent global loads instead of log2(|A|) (one thread per boundary leaves the GPU waiting on
// memory latency; one team per boundary runs out of resident blocks).
template <class ExecSpace, class AView, class BView, class PartView, class Comp>
struct MergePathPartition {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  AView a;
  BView b;
  PartView part;
  std::int64_t tile;
  Comp comp;
  int lanes;

  KOKKOS_FUNCTION std::int64_t diag(std::int64_t t) const {
    const std::int64_t total = std::int64_t(a.extent(0)) + std::int64_t(b.extent(0));
    return t * tile < total ? t * tile : total;
  }
  KOKKOS_FUNCTION void operator()(std::int64_t t) const {
    part(t) = merge_path<std::int64_t>(a, 0, a.extent(0), b, 0, b.extent(0), diag(t), comp);
  }
  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t t =
        std::int64_t(member.league_rank()) * member.team_size() + member.team_rank();
    if (t >= std::int64_t(part.extent(0))) return;
    const std::int64_t rank =
        kary_merge_path<true>(member, std::int64_t(lanes), a, std::int64_t(a.extent(0)), b,
                              std::int64_t(b.extent(0)), diag(t), comp);
    Kokkos::single(Kokkos::PerThread(member), [&] { part(t) = rank; });
  }
};

template <class ExecSpace, class AView, class BView, class PartView, class Comp>
void partition_merge_path(const std::string& label, const ExecSpace& space, const AView& a,
                          const BView& b, const PartView& part, std::int64_t tile,
                          const Comp& comp) {
  using Tuning = PartitionTuning<ExecSpace>;
  const MergePathPartition<ExecSpace, AView, BView, PartView, Comp> functor{
      a, b, part, tile, comp, Tuning::lanes};
  if constexpr (Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible) {
    Kokkos::parallel_for(
        label,
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, part.extent(0)),
        functor);
  } else {
    const std::int64_t teams =
        (std::int64_t(part.extent(0)) + Tuning::team_size - 1) / Tuning::team_size;
    Kokkos::parallel_for(
        label, Kokkos::TeamPolicy<ExecSpace>(space, teams, Tuning::team_size, Tuning::lanes),
        functor);
  }
}

}  // namespace Ordo::Impl

#endif
