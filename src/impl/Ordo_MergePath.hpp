// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_MERGEPATH_HPP
#define ORDO_IMPL_MERGEPATH_HPP

// The one merge-path partitioner of Ordo (seed 001's co-rank). Every primitive that splits the
// merge of two sorted sequences into pieces (merge, sorted search, the merge phases of sort,
// set operations, joins, the load-balancing search) calls these functions:
//   merge_path           the search along a cross diagonal: a thread's binary search, or with
//                        the probes of a thread's vector lanes (narrowing_search)
//   sampled_merge_path   the same, searching samples of A and B first (sort's merge passes)
//   team_merge_path_ends the co-ranks of a tile's two ends by a whole team, for kernels that
//                        partition inside themselves (small inputs: one launch instead of two)
//   balanced_path        merge_path moved off the middle of a pair of equal keys (set operations)
//   gallop_up/down       a first-false search near one end of a range (runs of equal keys)
//   partition_merge_path device level: the co-rank of every tile boundary, one launch
//   launch_merge_path_tiles  a tiled kernel over the merge path: partition then tiles, or fused
//   host_chunk_count     how many merge-path chunks a host backend splits the work into
//   chunk_begin          where chunk c of them begins
//   piece_end            a piece's end co-rank held against its start (inputs that are not sorted)

#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// Who runs the probes of a narrowing search (below): one thread (one probe a round, a binary
// search) or a thread's Lanes vector lanes. count(test) is how many of the round's probes p in
// [0, size()) pass test(p), known to every lane or thread that runs it.
struct ThreadProbes {
  KOKKOS_INLINE_FUNCTION static constexpr int size() { return 1; }
  template <class Test>
  KOKKOS_INLINE_FUNCTION int count(const Test& test) const {
    return test(0) ? 1 : 0;
  }
};

template <int Lanes, class Member>
struct VectorProbes {
  const Member& member;
  KOKKOS_INLINE_FUNCTION static constexpr int size() { return Lanes; }
  template <class Test>
  KOKKOS_INLINE_FUNCTION int count(const Test& test) const {
    int passed = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(member, Lanes), [&](int p, int& c) { c += test(p) ? 1 : 0; },
        passed);
    return passed;
  }
};

// The first position in [lo, hi) where `before` is false (hi if none), `before` holding on a
// prefix of the range. Each round tests size() probes spread evenly over what remains; the
// number that pass narrows it by a factor of size() + 1 (with one probe: a binary search).
template <class Index, class Probes, class Before>
KOKKOS_INLINE_FUNCTION Index narrowing_search(Index lo, Index hi, const Probes& probes,
                                              const Before& before) {
  const Index size = probes.size();
  while (lo < hi) {
    const Index width = hi - lo;
    // Probe p tests lo + (p + 1) * width / (size + 1): non-decreasing in p, below hi.
    auto probe = [&](Index p) { return lo + (p + 1) * width / (size + 1); };
    const Index passed = probes.count([&](int p) { return before(probe(p)); });
    const Index new_lo = passed == 0 ? lo : probe(passed - 1) + 1;
    hi = passed == size ? hi : probe(passed);
    lo = new_lo;
  }
  return lo;
}

// The same first position, found near lo (gallop_up) or near hi (gallop_down): probes 1, 2, 4,
// ... away from that end, then a binary search of the last gap; O(log d) steps for an answer d
// away (the runs of equal keys the set operations and joins look for are mostly short).
template <class Index, class Before>
KOKKOS_INLINE_FUNCTION Index gallop_up(Index lo, Index hi, const Before& before) {
  Index next = lo, step = 1;
  while (next < hi && before(next)) {  // before(q) for every q below next + 1
    lo = next + 1;
    next = lo + step;
    step *= 2;
  }
  return narrowing_search(lo, next < hi ? next : hi, ThreadProbes{}, before);
}

template <class Index, class Before>
KOKKOS_INLINE_FUNCTION Index gallop_down(Index lo, Index hi, const Before& before) {
  Index probe = hi - 1, step = 1;
  while (probe >= lo && !before(probe)) {  // !before(q) for every q from probe on
    hi = probe;
    probe = hi - 1 - step;
    step *= 2;
  }
  return narrowing_search(probe + 1 > lo ? probe + 1 : lo, hi, ThreadProbes{}, before);
}

// The search of merge_path below over [lo, hi], a range known to hold the co-rank.
template <class Index, class AView, class BView, class Comp, class Probes = ThreadProbes>
KOKKOS_INLINE_FUNCTION Index merge_path_between(const AView& a, Index a_begin, const BView& b,
                                                Index b_begin, Index diag, Index lo, Index hi,
                                                const Comp& comp, const Probes& probes = Probes()) {
  // A[i] is among the first diag outputs unless B[diag - 1 - i] orders strictly before it.
  return narrowing_search(
      lo, hi, probes, [&](Index i) { return !comp(b(b_begin + diag - 1 - i), a(a_begin + i)); });
}

// Co-rank of `diag` (seed 001): the number of elements of A among the first `diag` elements of
// the stable merge of A = a[a_begin, a_begin + a_count) and B = b[b_begin, b_begin + b_count),
// where on ties every element of A comes before the equal elements of B. Views or scratch Views.
template <class Index, class AView, class BView, class Comp, class Probes = ThreadProbes>
KOKKOS_INLINE_FUNCTION Index merge_path(const AView& a, Index a_begin, Index a_count,
                                        const BView& b, Index b_begin, Index b_count, Index diag,
                                        const Comp& comp, const Probes& probes = Probes()) {
  const Index lo = diag > b_count ? diag - b_count : Index(0);
  const Index hi = diag < a_count ? diag : a_count;
  return merge_path_between(a, a_begin, b, b_begin, diag, lo, hi, comp, probes);
}

// The same co-rank, where every S-th element of A and of B is also stored in a small array of
// samples: A[u * S] in samples(a_samples + u), B[u * S] in samples(b_samples + u). The samples
// are searched first and the arrays only inside a window of 2 * S positions, so that most of the
// dependent loads go to an array S times smaller (sort's partitions of 2^24 u32 keys on the H100:
// 8.4 to 12.3 us instead of 10 to 18.6; a sample step still costs about what a DRAM step does).
// For A's sampled position i = u * S, let j = diag - 1 - i and c = j / S, so that
// B[c * S] <= B[j] <= B[(c + 1) * S]. If B[(c + 1) * S] orders before A[i], then so does B[j]:
// A[i] is surely not among the first diag outputs ("after", monotone in u). If A[i] does not
// order after B[c * S], it surely is ("before", monotone the other way). A sampled position that
// is neither is followed by an "after" one (A[i + S] >= A[i] > B[c * S], the next position's
// lower sample), so the first "after" position u * S and the one 2 * S before it, which is then
// "before", bracket the co-rank.
template <int S, class Index, class AView, class BView, class Samples, class Comp,
          class Probes = ThreadProbes>
KOKKOS_INLINE_FUNCTION Index sampled_merge_path(const AView& a, Index a_begin, Index a_count,
                                                const BView& b, Index b_begin, Index b_count,
                                                const Samples& samples, Index a_samples,
                                                Index b_samples, Index diag, const Comp& comp,
                                                const Probes& probes = Probes()) {
  const Index lo = diag > b_count ? diag - b_count : Index(0);
  const Index hi = diag < a_count ? diag : a_count;
  // Sampled positions of A in [lo, hi): u * S for u in [u_lo, u_hi); the first "after" one.
  const Index u_lo = (lo + S - 1) / S, u_hi = (hi + S - 1) / S;
  const Index first = narrowing_search(u_lo, u_hi, probes, [&](Index u) {
    const Index next = (diag - 1 - u * S) / S + 1;  // c + 1
    return !(next * S < b_count && comp(samples(b_samples + next), samples(a_samples + u)));
  });
  const Index window_lo = first - 2 >= u_lo ? (first - 2) * S + 1 : lo;
  const Index window_hi = first < u_hi ? first * S : hi;
  return merge_path_between(a, a_begin, b, b_begin, diag, window_lo, window_hi, comp, probes);
}

// The balanced path (the set operations' partitioner, after moderngpu's): the co-rank of `diag`
// moved so that a cut through a key's copies never separates a pair. The set operations pair the
// r-th copy of a key in A with its r-th copy in B; merge_path's cut, which puts every copy in A
// before the copies in B, can leave a pair on both sides. Let v be the key at the cut, ca and cb
// its copies in A and B, d of them before the cut. The cut takes the first d copies in the
// pairing order (a0 b0 a1 b1 ... then the longer side's extra copies), and one more (a "star")
// when the d-th is the A half of a pair: ka copies of A and kb of B with ka == kb, or every copy
// of the shorter side. Returns {ka + the elements of A before v, the same for B}; the result
// covers diag or diag + 1 elements, and consecutive diagonals give consecutive, non-overlapping
// pieces. Each piece is then a set operation of its own.
template <class Index, class AView, class BView, class Comp>
KOKKOS_INLINE_FUNCTION Kokkos::pair<Index, Index> balanced_path(const AView& a, Index a_begin,
                                                                Index a_count, const BView& b,
                                                                Index b_begin, Index b_count,
                                                                Index diag, const Comp& comp) {
  const Index ai = merge_path(a, a_begin, a_count, b, b_begin, b_count, diag, comp);
  const Index bi = diag - ai;
  const bool has_a = ai < a_count, has_b = bi < b_count;
  if (!has_a && !has_b) return {ai, bi};
  // v: the next key of the merge (A first on ties); its copies before the cut, if any, are the
  // elements just before it in A or B.
  const bool take_a = has_a && (!has_b || !comp(b(b_begin + bi), a(a_begin + ai)));
  const auto v = take_a ? a(a_begin + ai) : b(b_begin + bi);
  const bool left_a = ai > 0 && !comp(a(a_begin + ai - 1), v);
  const bool left_b = bi > 0 && !comp(b(b_begin + bi - 1), v);
  if (!left_a && !left_b) return {ai, bi};
  // v's copies around the cut (runs are mostly short: galloping searches from the cut).
  const Index a_lo = gallop_down(Index(0), ai, [&](Index p) { return comp(a(a_begin + p), v); });
  const Index a_hi = gallop_up(ai, a_count, [&](Index p) { return !comp(v, a(a_begin + p)); });
  const Index b_lo = gallop_down(Index(0), bi, [&](Index p) { return comp(b(b_begin + p), v); });
  const Index b_hi = gallop_up(bi, b_count, [&](Index p) { return !comp(v, b(b_begin + p)); });
  const Index ca = a_hi - a_lo, cb = b_hi - b_lo, d = (ai - a_lo) + (bi - b_lo);
  const Index pairs = ca < cb ? ca : cb;
  Index ka, kb;
  if (d <= 2 * pairs) {
    ka = kb = (d + 1) / 2;
  } else if (ca >= cb) {
    kb = cb;
    ka = d - cb;
  } else {
    ka = ca;
    kb = d - ca;
  }
  return {a_lo + ka, b_lo + kb};
}

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

// A piece's end co-rank held inside what the piece may hold: at least `begin` and at most `room`
// past it. Co-ranks are searched independently for each end of each piece; on sorted input they
// are monotone and this changes nothing, but on input that is not sorted (or under a comparator
// that is not a strict weak order) an end may fall before its start or overshoot the piece, and
// a kernel that trusted it would read and write outside its tile. Every co-rank from merge_path
// and balanced_path already lies inside its View, so the held one does too (Ordo::merge's
// documentation: unsorted input gives unspecified output, never an access outside the Views).
template <class Index>
KOKKOS_INLINE_FUNCTION Index piece_end(Index end, Index begin, Index room) {
  return end < begin ? begin : end > begin + room ? begin + room : end;
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

// The boundaries of one merge of a and b cut into tiles of `tile` outputs: boundary t is the
// co-rank of output min(t * tile, |a| + |b|).
template <class AView, class BView, class Comp>
struct MergeBoundaries {
  AView a;
  BView b;
  std::int64_t tile;
  Comp comp;
  template <class Probes>
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t t, const Probes& probes) const {
    const std::int64_t m = a.extent(0), n = b.extent(0);
    const std::int64_t diag = t * tile < m + n ? t * tile : m + n;
    return merge_path<std::int64_t>(a, 0, m, b, 0, n, diag, comp, probes);
  }
};

// The partition kernel: part(t) = boundaries(t, probes) for every t in [0, part.extent(0)), where
// `boundaries` finds boundary t's co-rank with the probes it is given (MergeBoundaries above;
// sort's merge passes, many pairs of runs at once). One thread per boundary (RangePolicy), or the
// Lanes vector lanes of a team thread (TeamPolicy). (Measured on the H100: one team, or one
// thread's vector lanes, per boundary run a wider search with fewer dependent steps but fetch more
// sectors; for merge and for sort's large passes one thread wins: sort's 2^24-key partitions took
// 14-30 us with 7 probes a round instead of 9-17, DRAM-bound on the sectors the probes fetch,
// Nsight Compute at c924ecf+. SortTuning's partition_lanes says where lanes win.)
template <int Lanes, class ExecSpace, class Boundaries, class PartView>
struct MergePathPartition {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Boundaries boundaries;
  PartView part;
  std::int64_t* ticket;  // zeroed by the first boundary's thread where not null

  KOKKOS_FUNCTION void operator()(std::int64_t t) const {
    part(t) = boundaries(t, ThreadProbes{});
    if (t == 0 && ticket != nullptr) *ticket = 0;
  }
  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t t =
        std::int64_t(member.league_rank()) * member.team_size() + member.team_rank();
    if (t >= std::int64_t(part.extent(0))) return;
    const std::int64_t r = boundaries(t, VectorProbes<Lanes, Member>{member});
    Kokkos::single(Kokkos::PerThread(member), [&] {
      part(t) = r;
      if (t == 0 && ticket != nullptr) *ticket = 0;
    });
  }
};

// Calls f(std::integral_constant<int, L>) for L = lanes, one of the widths partitions search
// with: 1 (one thread per boundary), 4, 8, 16 or 32 vector lanes (Kokkos::abort otherwise).
template <class F>
void with_partition_lanes(int lanes, const F& f) {
  switch (lanes) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    case 16: f(std::integral_constant<int, 16>{}); break;
    case 32: f(std::integral_constant<int, 32>{}); break;
    default: Kokkos::abort("Ordo: partition lanes must be 1, 4, 8, 16 or 32");
  }
}

// Launches the partition kernel over part's boundaries: one thread each (Lanes 1), or Lanes vector
// lanes each in teams of tile_threads / Lanes threads (tile_threads: the team size of the tiles
// that read part, so that a partition team spans as many lanes as a tile team has threads).
template <int Lanes = 1, class ExecSpace, class Boundaries, class PartView>
void partition_merge_path(const std::string& label, const ExecSpace& space,
                          const Boundaries& boundaries, const PartView& part, int tile_threads = 1,
                          std::int64_t* ticket = nullptr) {
  const std::int64_t count = part.extent(0);
  const MergePathPartition<Lanes, ExecSpace, Boundaries, PartView> partition{boundaries, part,
                                                                             ticket};
  if constexpr (Lanes == 1) {
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, count),
        partition);
  } else {
    using Policy = Kokkos::TeamPolicy<ExecSpace>;
    const int vector = Lanes < Policy::vector_length_max() ? Lanes : Policy::vector_length_max();
    const int threads = tile_threads / Lanes > 1 ? tile_threads / Lanes : 1;
    Kokkos::parallel_for(
        label, Policy(space, int((count + threads - 1) / threads), threads, vector), partition);
  }
}

// Tile boundaries written by the partition kernel (workspace memory).
template <class ExecSpace>
using PartitionView = Kokkos::View<std::int64_t*, typename ExecSpace::memory_space,
                                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// Whether a tiles functor runs tiles one after another (team_pipeline) rather than one a team.
template <class Tiles, class = void>
inline constexpr bool pipelined_tiles_v = false;
template <class Tiles>
inline constexpr bool pipelined_tiles_v<Tiles, std::void_t<decltype(Tiles::pipelined)>> =
    Tiles::pipelined;

// Launches a tiled kernel over the merge path of a and b, tiles of tile_size elements, teams of
// team_size threads. fused: one launch, labelled <prefix>::fused, of
// make_tiles(std::true_type, PartitionView()), one team per tile, co-ranking its own; otherwise
// <prefix>::partition writes every tile boundary and <prefix>::tiles runs
// make_tiles(std::false_type, part): one team per tile, or, for pipelined tiles
// (pipelined_tiles_v), as many teams as the device holds at once (Tiles::min_teams: launch
// bounds), part holding one more word, their ticket counter, which the partition zeroes.
template <class ExecSpace, class AView, class BView, class Comp, class MakeTiles>
void launch_merge_path_tiles(const std::string& prefix, const ExecSpace& space, const AView& a,
                             const BView& b, const Comp& comp, int team_size,
                             std::int64_t tile_size, bool fused, const MakeTiles& make_tiles) {
  const std::int64_t total = std::int64_t(a.extent(0)) + std::int64_t(b.extent(0));
  if (total == 0) return;
  const std::int64_t tiles = (total + tile_size - 1) / tile_size;
  const Kokkos::TeamPolicy<ExecSpace> policy(space, tiles, team_size);
  if (fused) {
    Kokkos::parallel_for(prefix + "::fused", policy,
                         make_tiles(std::true_type{}, PartitionView<ExecSpace>()));
    return;
  }
  using Tiles = decltype(make_tiles(std::false_type{}, PartitionView<ExecSpace>()));
  if constexpr (pipelined_tiles_v<Tiles>) {
    const PartitionView<ExecSpace> part = workspace<std::int64_t>(space, tiles + 2);
    partition_merge_path(
        prefix + "::partition", space, MergeBoundaries<AView, BView, Comp>{a, b, tile_size, comp},
        PartitionView<ExecSpace>(part.data(), tiles + 1), 1, part.data() + tiles + 1);
    const std::int64_t resident = space.concurrency() / team_size;
    const std::int64_t league = tiles < resident ? tiles : resident > 0 ? resident : 1;
    using Bounds =
        Kokkos::LaunchBounds<(Tiles::min_teams > 0 ? Tiles::team_size : 0), Tiles::min_teams>;
    Kokkos::parallel_for(prefix + "::tiles",
                         Kokkos::TeamPolicy<ExecSpace, Bounds>(space, league, team_size),
                         make_tiles(std::false_type{}, part));
  } else {
    const PartitionView<ExecSpace> part = workspace<std::int64_t>(space, tiles + 1);
    partition_merge_path(prefix + "::partition", space,
                         MergeBoundaries<AView, BView, Comp>{a, b, tile_size, comp}, part);
    Kokkos::parallel_for(prefix + "::tiles", policy, make_tiles(std::false_type{}, part));
  }
}

// The first merge-path position of chunk c when `total` positions are cut into `chunks` pieces
// whose sizes differ by at most one (the first total % chunks are one longer); chunk c ends where
// chunk c + 1 begins.
KOKKOS_INLINE_FUNCTION std::int64_t chunk_begin(std::int64_t total, std::int64_t chunks,
                                                std::int64_t c) {
  const std::int64_t longer = total % chunks;
  return total / chunks * c + (c < longer ? c : longer);
}

// Host backends split the merge path of `total` elements into one chunk per thread, but no
// smaller than HostTuning::merge_path_grain, so that small inputs stay on one thread.
template <class ExecSpace>
std::int64_t host_chunk_count(const ExecSpace& space, std::int64_t total) {
  const std::int64_t grain = HostTuning::merge_path_grain;
  const std::int64_t most = (total + grain - 1) / grain;
  const std::int64_t threads = space.concurrency();
  return threads < most ? threads : most;
}

}  // namespace Ordo::Impl

#endif
