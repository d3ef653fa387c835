// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SEGMENTEDSORTBINS_HPP
#define ORDO_IMPL_SEGMENTEDSORTBINS_HPP

// Device level of segmented sort, the census and the kernels of the bins (the long bin, the host
// path and the order of the launches: Ordo_SegmentedSortImpl.hpp). Each CRS segment [offsets(s),
// offsets(s + 1)) of the records sorted in place, the segments binned by length
// (SegmentedSortTuning's lane_max and team_max; bin b holds the segments of 2^b + 1 to 2^(b + 1)
// records), one launch a bin:
//   Ordo::segmented_sort::census     one pass over the offsets: the segments of each bin above
//                                    the lane bins, the long bin's records, the first segment whose
//                                    offsets are bad (read back once: bad offsets throw before
//                                    anything moves)
//   Ordo::segmented_sort::lists      those bins' segment ids (scratch counters, one global atomic
//                                    a team and bin)
//   Ordo::segmented_sort::lanes      up to lane_max records: one thread a segment, the
//                                    network of its registers (lane_sort); no list, one launch
//   Ordo::segmented_sort::groups     CUDA seam, up to 32 * seam_regs records: one group of
//                                    a warp's lanes a segment (SegmentedSortTuning's group_regs
//                                    registers a lane, or as many lanes as the warp has)
//   Ordo::segmented_sort::teams      up to team_max records: one team a segment, the block
//                                    kernel's team sort (the CUDA seam's or the portable network)

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/lane/Ordo_Slab.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_TileSort.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// Bin b: segments of 2^b + 1 to 2^(b + 1) records (b = 0: 2 records); lane bins up to
// lane_max records, team bins up to team_max, then the long bin.
template <class Tuning>
struct SegmentBins {
  KOKKOS_INLINE_FUNCTION static constexpr int ceil_log2(std::int64_t x) {
    int l = 0;
    while ((std::int64_t(1) << l) < x) ++l;
    return l;
  }
  static constexpr int lane_bins = ceil_log2(Tuning::lane_max);
  static constexpr int long_bin = ceil_log2(Tuning::team_max);
  static constexpr int count = long_bin + 1;
  static constexpr int list_items = Tuning::list_items;  // segments a thread of SegmentPass
  static constexpr std::int64_t capacity(int b) { return std::int64_t(2) << b; }
  // The bin of a segment of len records; -1: none (fewer than 2).
  KOKKOS_INLINE_FUNCTION static int of(std::int64_t len) {
    if (len < 2) return -1;
    if (len > Tuning::team_max) return long_bin;
    return ceil_log2(len) - 1;
  }
};

// One pass over the offsets, items * team_size segments a team, counting each bin above the lane
// bins in scratch, then one atomic a bin and team on the device:
//   Place = false  the census: counts(b) = the segments of bin b, counts(long_bin + 1) = the long
//                  bin's records, counts(long_bin + 2) = segments - the first bad segment (0: none)
//   Place = true   lists: each such segment's id to lists(starts[b] + ...), counts as cursors
template <bool Place, class ExecSpace, class Bins, class Offsets, class List, class Counts>
struct SegmentPass {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int items = Bins::list_items;
  Offsets offsets;
  List lists;
  Counts counts;
  std::int64_t n, segments;
  std::int64_t starts[Bins::count];

  static std::size_t scratch_bytes() { return 2 * (Bins::count + 1) * 8 + 64; }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    constexpr int words = Bins::count + 1;  // the bins and the long bin's records
    auto* local = static_cast<std::int64_t*>(member.team_scratch(0).get_shmem(words * 8));
    auto* base = static_cast<std::int64_t*>(member.team_scratch(0).get_shmem(words * 8));
    const int t = opaque(member.team_rank()), nt = member.team_size();
    const std::int64_t first = std::int64_t(member.league_rank()) * items * nt;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, words), [&](int b) { local[b] = 0; });
    member.team_barrier();
    int bin[items];
    std::int64_t at[items];
    ORDO_UNROLL
    for (int k = 0; k < items; ++k) {
      const std::int64_t s = first + k * nt + t;
      bin[k] = -1;
      if (s >= segments) continue;
      const std::int64_t lo = std::int64_t(offsets(s)), hi = std::int64_t(offsets(s + 1));
      if (!Place && (lo < 0 || hi < lo || hi > n)) {
        Kokkos::atomic_max(&counts(Bins::count + 1), segments - s);
        continue;
      }
      const int b = Bins::of(hi - lo);
      if (b < Bins::lane_bins) continue;
      bin[k] = b;
      at[k] = Kokkos::atomic_fetch_add(&local[b], std::int64_t(1));
      if (!Place && b == Bins::long_bin) Kokkos::atomic_add(&local[Bins::count], hi - lo);
    }
    member.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, words), [&](int b) {
      base[b] = local[b] ? Kokkos::atomic_fetch_add(&counts(b), local[b]) : 0;
    });
    if constexpr (Place) {
      member.team_barrier();
      ORDO_UNROLL
      for (int k = 0; k < items; ++k) {
        if (bin[k] >= 0) {
          lists(starts[bin[k]] + base[bin[k]] + at[k]) = std::uint32_t(first + k * nt + t);
        }
      }
    }
  }
};

template <bool Place, class Bins, class ExecSpace, class Offsets, class List, class Counts>
void segment_pass(const ExecSpace& space, const Offsets& offsets, const List& lists,
                  const Counts& counts, std::int64_t n, const std::int64_t* starts, int team_size) {
  using Pass = SegmentPass<Place, ExecSpace, Bins, Offsets, List, Counts>;
  const std::int64_t segments = std::int64_t(offsets.extent(0)) - 1;
  Pass pass{offsets, lists, counts, n, segments, {}};
  for (int b = 0; b < Bins::count; ++b) pass.starts[b] = starts ? starts[b] : 0;
  const std::int64_t per_team = std::int64_t(Pass::items) * team_size;
  launch_tiles(Place ? "Ordo::segmented_sort::lists" : "Ordo::segmented_sort::census", space,
               TilePlan{(segments + per_team - 1) / per_team, team_size, Pass::scratch_bytes()},
               pass);
}

// The census: how many segments each bin above the lane bins holds, and the long bin's records
// (index Bins::count). Throws unless every segment lies inside the n keys with non-decreasing
// offsets. One pass over the offsets, one read back.
template <class Bins, int TeamSize, class ExecSpace, class Offsets>
std::array<std::int64_t, Bins::count + 2> segment_census(const char* fn, const ExecSpace& space,
                                                         const Offsets& offsets, std::int64_t n) {
  const std::int64_t segments = std::int64_t(offsets.extent(0)) - 1;
  const auto counts =
      workspace<std::int64_t>(space, Bins::count + 2, WorkspaceSlot::segment_cursors);
  Kokkos::deep_copy(space, counts, 0);
  segment_pass<false, Bins>(space, offsets, counts, counts, n, nullptr, TeamSize);
  const auto census = read_back<Bins::count + 2>(space, counts, std::string(fn) + ": fence");
  if (census[Bins::count + 1] > 0) {
    const std::int64_t s = segments - census[Bins::count + 1];
    using Pair = Kokkos::pair<std::int64_t, std::int64_t>;
    const auto pair = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{},
                                                          Kokkos::subview(offsets, Pair(s, s + 2)));
    const std::string lo = std::to_string(pair(0)), hi = std::to_string(pair(1));
    const std::string at = "offsets(" + std::to_string(s) + ") = " + lo + ", offsets(" +
                           std::to_string(s + 1) + ") = " + hi;
    if (std::int64_t(pair(0)) < 0) fail(fn, at + ": an offset is negative");
    if (std::int64_t(pair(1)) < std::int64_t(pair(0))) fail(fn, at + ": offsets decrease");
    fail(fn, at + ": the segment runs past the end of keys, which has " + std::to_string(n) +
                 " elements");
  }
  return census;
}

// The segments of one bin: segment list(first + i) for i in [0, count).
template <class Offsets, class List>
struct BinSegments {
  Offsets offsets;
  List list;
  std::int64_t first;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& lo, std::int64_t& n) const {
    const std::int64_t s = list(first + i);
    lo = std::int64_t(offsets(s));
    n = std::int64_t(offsets(s + 1)) - lo;
  }
};

// A segment of at most R records in one thread's registers. Encoded keys pad with the all-ones
// word (which never moves down), others run the count-guarded network.
template <int R, class Codec, class V, class Records, class Order>
KOKKOS_INLINE_FUNCTION void sort_segment_in_lane(const Records& records, std::int64_t lo,
                                                 std::int64_t n, const Order& order) {
  using K = typename Codec::Bits;
  K k[R];
  V v[R];
  ORDO_UNROLL
  for (int r = 0; r < R; ++r) {
    if (r < n) {
      k[r] = records.keys.load(lo + r);
      v[r] = records.values.load(lo + r);
    } else if constexpr (Codec::encoded) {
      k[r] = Codec::padding;
      v[r] = padding_value<V>();
    }
  }
  if constexpr (Codec::encoded) {
    lane_sort<R>(k, v, order, 0, NoBound{});
  } else {
    lane_sort<R>(k, v, order, 0, n);
  }
  ORDO_UNROLL
  for (int r = 0; r < R; ++r) {
    if (r < n) {
      records.keys.store(lo + r, k[r]);
      records.values.store(lo + r, v[r]);
    }
  }
}

// sort_segment_in_lane with the fewest registers (2, 4, ..., Max) that hold n records.
template <int Max, int R = 2, class Codec, class V, class Records, class Order>
KOKKOS_INLINE_FUNCTION void sort_segment_in_lanes(const Records& records, std::int64_t lo,
                                                  std::int64_t n, const Order& order) {
  if constexpr (R < Max) {
    if (n > R) {
      sort_segment_in_lanes<Max, 2 * R, Codec, V>(records, lo, n, order);
      return;
    }
  }
  sort_segment_in_lane<R, Codec, V>(records, lo, n, order);
}

// Every segment of 2 to lane_max records, one thread each (no list: consecutive threads
// take consecutive segments, whose records lie side by side).
template <int Max, class Codec, class V, class Records, class Order, class Offsets>
struct SegmentLanes {
  Records records;
  Order order;
  Offsets offsets;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s) const {
    const std::int64_t lo = std::int64_t(offsets(s)), n = std::int64_t(offsets(s + 1)) - lo;
    if (n >= 2 && n <= Max) sort_segment_in_lanes<Max, 2, Codec, V>(records, lo, n, order);
  }
};

}  // namespace Ordo::Impl

#endif
