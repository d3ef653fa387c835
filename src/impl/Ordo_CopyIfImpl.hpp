#ifndef ORDO_IMPL_COPYIFIMPL_HPP
#define ORDO_IMPL_COPYIFIMPL_HPP

// Device level of stable compaction (copy_if, copy_flagged), reduce then scan, on every backend:
//   Ordo::copy_if::count    one team per tile counts its selected elements
//   Ordo::copy_if::scan     exclusive scan of the tile counts; the total goes to count(0)
//   Ordo::copy_if::scatter  each team scans its tile's selections and writes them in order
// and unordered compaction (copy_if_unordered), one launch:
//   Ordo::copy_if_unordered::tiles  each team (on CUDA: each warp) claims its output room with one
//                                   atomic on the total and writes its selections there
// Writes past out's end are dropped (the caller reports the overflow from the total).

#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>
#include <impl/cuda/Ordo_Cuda_Compact.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Which elements a compaction keeps: pred(in(i)) for copy_if, flags(i) for copy_flagged.
template <class InView, class Pred>
struct SelectByPredicate {
  InView in;
  Pred pred;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return pred(in(i)); }
};

template <class FlagView>
struct SelectByFlag {
  FlagView flags;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return bool(flags(i)); }
};

// The input range [first, second) of team member.league_rank()'s tile.
template <class Member>
KOKKOS_INLINE_FUNCTION Kokkos::pair<std::int64_t, std::int64_t> tile_span(const Member& member,
                                                                          std::int64_t tile,
                                                                          std::int64_t n) {
  const std::int64_t begin = member.league_rank() * tile;
  return {begin, begin + tile < n ? begin + tile : n};
}

// How many elements of the team's tile the selection keeps (every thread gets the result).
template <class Member, class Select>
KOKKOS_INLINE_FUNCTION std::int64_t team_count(const Member& member,
                                               Kokkos::pair<std::int64_t, std::int64_t> span,
                                               const Select& select) {
  std::int64_t count = 0;
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(member, span.first, span.second),
      [&](std::int64_t i, std::int64_t& c) { c += select(i) ? 1 : 0; }, count);
  return count;
}

// Writes the tile's kept elements, in order, to out from position `base` on; writes past out's
// end are dropped.
template <class Member, class Select, class InView, class OutView>
KOKKOS_INLINE_FUNCTION void team_scatter(const Member& member,
                                         Kokkos::pair<std::int64_t, std::int64_t> span,
                                         const Select& select, const InView& in, const OutView& out,
                                         std::int64_t base) {
  const std::int64_t capacity = out.extent(0);
  Kokkos::parallel_scan(Kokkos::TeamThreadRange(member, span.first, span.second),
                        [&](std::int64_t i, std::int64_t& before, bool final) {
                          const bool keep = select(i);
                          if (final && keep && base + before < capacity) out(base + before) = in(i);
                          before += keep ? 1 : 0;
                        });
}

template <class ExecSpace, class Select, class CountView>
struct CompactCount {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Select select;
  CountView tile_counts;
  std::int64_t n, tile;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t count = team_count(member, tile_span(member, tile, n), select);
    Kokkos::single(Kokkos::PerTeam(member), [&] { tile_counts(member.league_rank()) = count; });
  }
};

// Exclusive scan of the tile counts in place; the total to total(0).
template <class CountView, class TotalView>
struct CompactScan {
  CountView tile_counts;
  TotalView total;
  std::int64_t tiles;

  KOKKOS_FUNCTION void operator()(std::int64_t t, std::int64_t& sum, bool final) const {
    const std::int64_t c = tile_counts(t);
    if (final) {
      tile_counts(t) = sum;
      if (t == tiles - 1) total(0) = typename TotalView::non_const_value_type(sum + c);
    }
    sum += c;
  }
};

template <class ExecSpace, class Select, class InView, class OutView, class CountView>
struct CompactScatter {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Select select;
  InView in;
  OutView out;
  CountView tile_offsets;
  std::int64_t n, tile;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    team_scatter(member, tile_span(member, tile, n), select, in, out,
                 tile_offsets(member.league_rank()));
  }
};

// One team per tile. Warp: the CUDA seam (warp-aggregated atomics); otherwise the portable
// version: count the tile, claim room with one atomic per team, scan the tile to write.
template <bool Warp, class ExecSpace, class Select, class InView, class OutView, class TotalView>
struct CompactUnordered {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Select select;
  InView in;
  OutView out;
  TotalView total;
  std::int64_t n, tile;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const auto span = tile_span(member, tile, n);
#if defined(ORDO_CUDA_WARP_COMPACT)
    if constexpr (Warp) {
      CudaSeam::warp_aggregated_compact(span.first, span.second, member.team_size(),
                                        member.team_rank(), select, in, out, total);
      return;
    }
#endif
    using Count = typename TotalView::non_const_value_type;
    const std::int64_t count = team_count(member, span, select);
    std::int64_t base = 0;
    Kokkos::single(
        Kokkos::PerTeam(member),
        [&](std::int64_t& b) {
          b = std::int64_t(Kokkos::atomic_fetch_add(&total(0), Count(count)));
        },
        base);
    team_scatter(member, span, select, in, out, base);
  }
};

// Unordered compaction; the selected count to total(0). warp: use the CUDA seam where built.
template <class ExecSpace, class Select, class InView, class OutView, class TotalView>
void compact_unordered_dispatch(const ExecSpace& space, const Select& select, const InView& in,
                                const OutView& out, const TotalView& total, bool warp = true) {
  const std::int64_t n = in.extent(0);
  Kokkos::deep_copy(space, Kokkos::subview(total, 0), 0);
  if (n == 0) return;
  using Tuning = CompactTuning<ExecSpace>;
  const std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::items_per_thread;
  const Kokkos::TeamPolicy<ExecSpace> policy(space, (n + tile - 1) / tile, Tuning::team_size);
  const char* label = "Ordo::copy_if_unordered::tiles";
#if defined(ORDO_CUDA_WARP_COMPACT)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    if (warp) {
      Kokkos::parallel_for(label, policy,
                           CompactUnordered<true, ExecSpace, Select, InView, OutView, TotalView>{
                               select, in, out, total, n, tile});
      return;
    }
  }
#endif
  (void)warp;
  Kokkos::parallel_for(label, policy,
                       CompactUnordered<false, ExecSpace, Select, InView, OutView, TotalView>{
                           select, in, out, total, n, tile});
}

// Stable compaction of the selected elements of in into out; the selected count to total(0).
template <class ExecSpace, class Select, class InView, class OutView, class TotalView>
void compact_dispatch(const ExecSpace& space, const Select& select, const InView& in,
                      const OutView& out, const TotalView& total) {
  const std::int64_t n = in.extent(0);
  if (n == 0) {
    Kokkos::deep_copy(space, Kokkos::subview(total, 0), 0);
    return;
  }
  using Tuning = CompactTuning<ExecSpace>;
  const std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::items_per_thread;
  const std::int64_t tiles = (n + tile - 1) / tile;
  const auto tile_counts = workspace<std::int64_t>(space, tiles);
  using Counts = decltype(tile_counts);
  const Kokkos::TeamPolicy<ExecSpace> policy(space, tiles, Tuning::team_size);
  Kokkos::parallel_for("Ordo::copy_if::count", policy,
                       CompactCount<ExecSpace, Select, Counts>{select, tile_counts, n, tile});
  Kokkos::parallel_scan(
      "Ordo::copy_if::scan",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, tiles),
      CompactScan<Counts, TotalView>{tile_counts, total, tiles});
  Kokkos::parallel_for("Ordo::copy_if::scatter", policy,
                       CompactScatter<ExecSpace, Select, InView, OutView, Counts>{
                           select, in, out, tile_counts, n, tile});
}

}  // namespace Ordo::Impl

#endif
