// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_COPYIFIMPL_HPP
#define ORDO_IMPL_COPYIFIMPL_HPP

// Device level of compaction over an index range [0, n): select(i) says whether element i is
// kept, emit.store(pos, emit.load(i)) writes it to output position pos (copy_if: out(pos) = in(i);
// retrieve_all: the map's key and value at slot i). Writes at positions >= emit.capacity() are
// dropped (the caller reports the overflow from the total).
//
// Stable compaction (copy_if, copy_flagged, retrieve_all), two ways:
//   single pass (device backends):
//   Ordo::copy_if::tiles    each team takes the next tile (ticket order), counts and scans its
//                           selections (on CUDA with warp ballots, the seam: full tiles of
//                           contiguous, aligned 4- and 8-byte elements load 16-byte vectors, a
//                           by-value selection tests the loaded element, and the kept elements
//                           wait in scratch; elsewhere in team scratch), publishes its count, finds
//                           its output offset by a decoupled look-back over the published counts
//                           of the tiles before it, and writes its kept elements contiguously
//   reduce then scan (host backends):
//   Ordo::copy_if::count    one team per tile counts its selected elements
//   Ordo::copy_if::scan     exclusive scan of the tile counts; the total goes to count(0)
//   Ordo::copy_if::scatter  each team scans its tile's selections and writes them in order
// Unordered compaction (copy_if_unordered, retrieve_all_unordered), one launch:
//   Ordo::copy_if_unordered::tiles  each team claims its output room with one atomic on the total
//                                   and writes its selections there (on CUDA: the seam's tile code,
//                                   the same as the single pass's, with the atomic for the
//                                   look-back)

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/device/Ordo_VendorCalls.hpp>
#include <impl/lane/Ordo_LookbackWord.hpp>
#include <impl/team/Ordo_TileCompact.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// How stable compaction runs: the backend's choice (CompactTuning::single_pass), or one of the two
// ways named (tests run both on every backend).
// single_pass_portable: the single pass without the CUDA seam (the same as single_pass elsewhere).
enum class CompactPath { automatic, single_pass, single_pass_portable, reduce_then_scan };

// ---- single pass: decoupled look-back
// ------------------------------------------------------------
//
// Each tile publishes one 64-bit word: its state in the top two bits and a count below. A tile
// first publishes its own count (aggregate), then, once it knows how many elements the tiles
// before it keep, its inclusive prefix. Tiles take their numbers from a ticket counter in the
// order they start, so every tile a team waits for has started and publishes without waiting on
// anything later: the spin always ends.
template <class ExecSpace, class Select, class Emit, class TotalView>
void compact_single_pass(const ExecSpace& space, std::int64_t n, const Select& select,
                         const Emit& emit, const TotalView& total, bool warp) {
  using Tuning = CompactTuning<ExecSpace>;
  constexpr std::int64_t tile =
      std::int64_t(Tuning::lookback_team_size) * Tuning::lookback_items_per_thread;
  const std::int64_t tiles = (n + tile - 1) / tile;
  const auto state = workspace<std::uint64_t>(space, tiles + 1);
  // A single tile takes no ticket and reads no word: nothing to zero (one launch).
  if (tiles > 1) Kokkos::deep_copy(space, state, 0);
  warp = warp && Tuning::warp_compacts(sizeof(typename Emit::value_type));
  with_warp_seam<ExecSpace>(warp, [&](auto seam) {
    using Seam = decltype(seam);
    with_load_group<ExecSpace, Seam>(emit, [&](auto group) {
      constexpr int min_teams =
          Tuning::lookback_min_teams(sizeof(typename Emit::value_type),
                                     !Seam::warp || compact_stages<Select, decltype(group)::value>);
      using Functor = CompactLookback<Seam, decltype(group)::value, ExecSpace, Select, Emit,
                                      decltype(state), TotalView>;
      launch_tiles<Tuning::lookback_team_size, min_teams>(
          "Ordo::copy_if::tiles", space,
          TilePlan{tiles, Tuning::lookback_team_size, Functor::scratch_bytes()},
          Functor{select, emit, state, total, n, tiles});
    });
  });
}

// ---- reduce then scan ------------------------------------------------------------------------

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

template <class ExecSpace, class Select, class Emit, class TotalView>
void compact_reduce_then_scan(const ExecSpace& space, std::int64_t n, const Select& select,
                              const Emit& emit, const TotalView& total) {
  using Tuning = CompactTuning<ExecSpace>;
  const std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::items_per_thread;
  const std::int64_t tiles = (n + tile - 1) / tile;
  const auto tile_counts = workspace<std::int64_t>(space, tiles);
  using Counts = decltype(tile_counts);
  const TilePlan plan{tiles, Tuning::team_size};
  launch_tiles("Ordo::copy_if::count", space, plan,
               CompactCount<ExecSpace, Select, Counts>{select, tile_counts, n, tile});
  Kokkos::parallel_scan(
      "Ordo::copy_if::scan",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, tiles),
      CompactScan<Counts, TotalView>{tile_counts, total, tiles});
  launch_tiles("Ordo::copy_if::scatter", space, plan,
               CompactScatter<ExecSpace, Select, Emit, Counts, TotalView>{select, emit, tile_counts,
                                                                          total, n, tile, tiles});
}

// Stable compaction of the selected elements of [0, n); the selected count to total(0).
template <class ExecSpace, class Select, class Emit, class TotalView>
void compact_dispatch(const ExecSpace& space, std::int64_t n, const Select& select,
                      const Emit& emit, const TotalView& total,
                      CompactPath path = CompactPath::automatic) {
  if (n == 0) {
    Kokkos::deep_copy(space, Kokkos::subview(total, 0), 0);
    return;
  }
  if (path == CompactPath::automatic) {
    path = CompactTuning<ExecSpace>::single_pass ? CompactPath::single_pass
                                                 : CompactPath::reduce_then_scan;
  }
  if (path == CompactPath::single_pass || path == CompactPath::single_pass_portable) {
    compact_single_pass(space, n, select, emit, total, path == CompactPath::single_pass);
  } else {
    compact_reduce_then_scan(space, n, select, emit, total);
  }
}

// ---- unordered -------------------------------------------------------------------------------

// Unordered compaction of [0, n); the selected count to total(0). warp: use the CUDA seam where
// built.
template <class ExecSpace, class Select, class Emit, class TotalView>
void compact_unordered_dispatch(const ExecSpace& space, std::int64_t n, const Select& select,
                                const Emit& emit, const TotalView& total, bool warp = true) {
  Kokkos::deep_copy(space, Kokkos::subview(total, 0), 0);
  if (n == 0) return;
  using Tuning = CompactTuning<ExecSpace>;
  const std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::items_per_thread;
  warp = warp && Tuning::warp_compacts(sizeof(typename Emit::value_type));
  with_warp_seam<ExecSpace>(warp, [&](auto seam) {
    using Seam = decltype(seam);
    with_load_group<ExecSpace, Seam>(emit, [&](auto group) {
      // The warp seam's stage (compact_stages).
      const std::size_t scratch = Seam::warp && compact_stages<Select, decltype(group)::value>
                                      ? stage_bytes<typename Emit::value_type>(tile)
                                      : 0;
      launch_tiles(
          "Ordo::copy_if_unordered::tiles", space,
          TilePlan{(n + tile - 1) / tile, Tuning::team_size, scratch},
          CompactUnordered<Seam, decltype(group)::value, ExecSpace, Select, Emit, TotalView>{
              select, emit, total, n, tile});
    });
  });
}

// Ordered: compact_dispatch (stable), else compact_unordered_dispatch.
template <bool Ordered, class ExecSpace, class Select, class Emit, class TotalView>
void compact(const ExecSpace& space, std::int64_t n, const Select& select, const Emit& emit,
             const TotalView& total) {
  if constexpr (Ordered) {
    compact_dispatch(space, n, select, emit, total);
  } else {
    compact_unordered_dispatch(space, n, select, emit, total);
  }
}

// ---- the entry points after their argument checks (Ordo_CopyIf.hpp, Ordo_RetrieveAll.hpp)

template <class ExecSpace, class InView, class OutView, class... Others>
void check_compaction(const char* fn, const InView& in, const OutView& out,
                      const Others&... named_others) {
  static_check_views<ExecSpace, InView, OutView>();
  static_assert(
      std::is_assignable_v<typename OutView::reference_type, typename InView::const_value_type>,
      "Ordo::copy_if: out's elements must be assignable from in's");
  check_no_alias(fn, "out", out, "in", in, named_others...);
  check_all_reachable<ExecSpace>(fn, "in", in, "out", out, named_others...);
}

// run(total) with the total in the counts workspace, which it returns; a total past capacity (the
// output's extent: the writes past it were dropped) is an error.
template <class ExecSpace, class Run>
std::int64_t counted(const char* fn, const ExecSpace& space, std::int64_t capacity,
                     const Run& run) {
  const auto total = workspace<std::int64_t>(space, 1, WorkspaceSlot::counts);
  run(total);
  const std::int64_t count = read_back<1>(space, total, std::string(fn) + ": fence")[0];
  if (count > capacity) {
    fail(fn, "out has " + std::to_string(capacity) + " elements, the selection has " +
                 std::to_string(count) + " (nothing was written past out's end)");
  }
  return count;
}

// The compaction of [0, n), counted.
template <bool Ordered, class ExecSpace, class Select, class Emit>
std::int64_t compact_and_count(const char* fn, const ExecSpace& space, std::int64_t n,
                               const Select& select, const Emit& emit) {
  return counted(fn, space, emit.capacity(),
                 [&](const auto& total) { compact<Ordered>(space, n, select, emit, total); });
}

// copy_if's stable compaction of in into out, the count to total(0): the vendor's selection where
// the seam takes it (Vendor::takes_select and takes_size: on CUDA, cub::DeviceSelect::If for
// contiguous Views of one element type, out at least as long as in) from CompactTuning's
// vendor_from elements on, else Ordo's compaction.
template <class ExecSpace, class InView, class OutView, class Pred, class TotalView>
void copy_if_dispatch(const char* fn, const ExecSpace& space, const InView& in, const OutView& out,
                      const Pred& pred, const TotalView& total) {
  using Seam = Vendor<ExecSpace>;
  const std::int64_t n = in.extent(0);
  if constexpr (Seam::template takes_select<InView, OutView>()) {
    const auto call = [&](void* temp, std::size_t& bytes) {
      Seam::select_if(fn, temp, bytes, in.data(), out.data(), total.data(), n, pred, space);
    };
    if (vendor_call(space, CompactTuning<ExecSpace>::vendor_from, VendorShape{n}, call, out))
      return;
  }
  (void)fn;
  compact_dispatch(space, in.extent(0), SelectByPredicate<InView, Pred>{in, pred},
                   EmitElement<InView, OutView>{in, out}, total);
}

// An upper bound of the workspace of the compactions and the runs calls over n elements of
// values of type V (void: none): the count, the compaction's look-back words and tile counts,
// reduce_by_key's words and carries, and the vendor's temporary storage where the space has one
// (Vendor::scan_temp_bound).
template <class ExecSpace, class V>
std::size_t compaction_bound(std::int64_t n) {
  std::int64_t carry_words = 1;
  if constexpr (!std::is_void_v<V>) carry_words = (sizeof(V) + 7) / 8;
  std::size_t bytes = slot_bytes<std::int64_t>(1) + tile_words_bytes(n) * (2 + 2 * carry_words);
  if (const std::size_t vendor = Vendor<ExecSpace>::scan_temp_bound(n); vendor > 0) {
    bytes += slot_bytes<std::byte>(std::int64_t(vendor));
  }
  return bytes;
}

}  // namespace Ordo::Impl

#endif
