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

#include <impl/Ordo_Checks.hpp>
#include <impl/Ordo_CompactElements.hpp>
#include <impl/Ordo_LookbackWord.hpp>
#include <impl/Ordo_Traits.hpp>
#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>
#include <impl/cuda/Ordo_Cuda_Compact.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// How stable compaction runs: the backend's choice (CompactTuning::single_pass), or one of the two
// ways named (tests run both on every backend).
// single_pass_portable: the single pass without the CUDA seam (the same as single_pass elsewhere).
enum class CompactPath { automatic, single_pass, single_pass_portable, reduce_then_scan };

// The input range [first, second) of tile number `tile_index`.
KOKKOS_INLINE_FUNCTION Kokkos::pair<std::int64_t, std::int64_t> tile_span(std::int64_t tile_index,
                                                                          std::int64_t tile,
                                                                          std::int64_t n) {
  const std::int64_t begin = tile_index * tile;
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

// Emits the tile's kept elements, in order, from output position `base` on; positions past the
// emitter's capacity are dropped.
template <class Member, class Select, class Emit>
KOKKOS_INLINE_FUNCTION void team_scatter(const Member& member,
                                         Kokkos::pair<std::int64_t, std::int64_t> span,
                                         const Select& select, const Emit& emit,
                                         std::int64_t base) {
  const std::int64_t capacity = emit.capacity();
  Kokkos::parallel_scan(Kokkos::TeamThreadRange(member, span.first, span.second),
                        [&](std::int64_t i, std::int64_t& before, bool final) {
                          const bool keep = select(i);
                          if (final && keep && base + before < capacity) {
                            emit.store(base + before, emit.load(i));
                          }
                          before += keep ? 1 : 0;
                        });
}

// The warp seam's stage: `count` elements of T in the team's scratch.
template <class T, class Member>
KOKKOS_INLINE_FUNCTION T* stage(const Member& member, std::int64_t count) {
  return static_cast<T*>(member.team_scratch(0).get_shmem_aligned(sizeof(T) * count, alignof(T)));
}

// The team scratch stage<T>(member, count) takes, its alignment included.
template <class T>
constexpr std::size_t stage_bytes(std::int64_t count) {
  return sizeof(T) * std::size_t(count) + alignof(T);
}

// ---- single pass: decoupled look-back
// ------------------------------------------------------------
//
// Each tile publishes one 64-bit word: its state in the top two bits and a count below. A tile
// first publishes its own count (aggregate), then, once it knows how many elements the tiles
// before it keep, its inclusive prefix. Tiles take their numbers from a ticket counter in the
// order they start, so every tile a team waits for has started and publishes without waiting on
// anything later: the spin always ends.
// How many of the vt flags (each 0 or 1) from `flags` on are set, four bytes at a time.
template <int vt>
KOKKOS_INLINE_FUNCTION int count_flags(const std::uint8_t* flags) {
  static_assert(vt % 4 == 0, "flags are read four at a time");
  int c = 0;
  for (int q = 0; q < vt / 4; ++q) {
    c += int((reinterpret_cast<const std::uint32_t*>(flags)[q] * 0x01010101u) >> 24);
  }
  return c;
}

// One team per tile. Warp: the CUDA seam (warp ballots, warp 0 looks back); otherwise the
// portable version below.
template <bool Warp, int G, class ExecSpace, class Select, class Emit, class StateView,
          class TotalView>
struct CompactLookback {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using Tuning = CompactTuning<ExecSpace>;
  static constexpr int vt = Tuning::lookback_items_per_thread;
  static constexpr int team = Tuning::lookback_team_size;
  static constexpr int tile = team * vt;
  static constexpr int chunk = vt < 16 ? vt : 16;  // loads in flight per thread
  static_assert(tile <= 65536, "local indices are 16-bit");
  static_assert(vt % chunk == 0, "whole chunks per thread");
  using Flags = Kokkos::View<std::uint8_t*, Scratch, Kokkos::MemoryUnmanaged>;
  using Local = Kokkos::View<std::uint16_t*, Scratch, Kokkos::MemoryUnmanaged>;
  using Count = Kokkos::View<int*, Scratch, Kokkos::MemoryUnmanaged>;
  using Window = Kokkos::View<std::uint64_t*, Scratch, Kokkos::MemoryUnmanaged>;

  Select select;
  Emit emit;
  StateView state;  // state(t): tile t's word; state(tiles): the ticket counter
  TotalView total;
  std::int64_t n, tiles;

  // The warp seam's stage (compact_stages), else the portable kernel's flags, local positions,
  // count and look-back window.
  static constexpr int stage_size = compact_stages<Select, G> ? tile : 0;
  static std::size_t scratch_bytes() {
    if (Warp) return stage_bytes<typename Emit::value_type>(stage_size);
    return Flags::shmem_size(tile) + Local::shmem_size(tile) + Count::shmem_size(1) +
           Window::shmem_size(team);
  }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
#if defined(ORDO_CUDA_WARP_COMPACT)
    if constexpr (Warp) {
      CudaSeam::warp_tile_compact<vt, G>(
          member.league_rank(), n, member.team_size(), member.team_rank(), select, emit,
          CudaSeam::LookbackBase<StateView, TotalView>{state, total, tiles},
          stage<typename Emit::value_type>(member, stage_size));
      return;
    }
#endif
    const Flags flags(member.team_scratch(0), tile);
    const Local local(member.team_scratch(0), tile);
    const Count tile_count(member.team_scratch(0), 1);
    const Window window(member.team_scratch(0), team);

    const std::int64_t id = tiles == 1 ? 0 : team_ticket(member, state, tiles);
    const auto span = tile_span(id, tile, n);

    // Flag the tile's elements: thread r takes elements k * team + r (coalesced reads), a chunk of
    // them loaded and tested before any flag is stored. Then scan the counts of the threads' runs
    // of vt flags (thread r owns run r: the team has exactly `team` threads).
    const int r = member.team_rank();
    for (int k0 = 0; k0 < vt; k0 += chunk) {
      std::uint32_t bits = 0;
      for (int k = 0; k < chunk; ++k) {
        const std::int64_t i = span.first + std::int64_t(k0 + k) * team + r;
        bits |= std::uint32_t(i < span.second && select(i)) << k;
      }
      for (int k = 0; k < chunk; ++k) flags((k0 + k) * team + r) = (bits >> k) & 1u;
    }
    member.team_barrier();
    const int run = r;
    const int run_count = count_flags<vt>(&flags(run * vt));
    const int before = member.team_scan(run_count);
    if (run == team - 1) {
      tile_count(0) = before + run_count;
      LookbackWord::publish(state(id),
                            (id == 0 ? LookbackWord::inclusive : LookbackWord::aggregate) |
                                std::uint64_t(before + run_count));
    }
    // The local positions of the run's kept elements, in order.
    int pos = before;
    for (int q = 0; q < vt / 4; ++q) {
      const std::uint32_t four = reinterpret_cast<const std::uint32_t*>(&flags(run * vt))[q];
      for (int b = 0; b < 4; ++b) {
        if ((four >> (8 * b)) & 1u) local(pos++) = std::uint16_t(run * vt + 4 * q + b);
      }
    }
    member.team_barrier();
    const int kept = tile_count(0);

    const std::int64_t prefix = id == 0 ? 0 : look_back(member, window, id);
    Kokkos::single(Kokkos::PerTeam(member), [&] {
      if (id > 0)
        LookbackWord::publish(state(id), LookbackWord::inclusive | std::uint64_t(prefix + kept));
      if (id == tiles - 1) total(0) = typename TotalView::non_const_value_type(prefix + kept);
    });
    member.team_barrier();

    // Write the kept elements contiguously, a chunk of loads before its stores.
    const std::int64_t capacity = emit.capacity();
    for (int j0 = 0; j0 < kept; j0 += team * chunk) {
      typename Emit::value_type v[chunk];
      for (int k = 0; k < chunk; ++k) {
        const int j = j0 + k * team + r;
        if (j < kept) v[k] = emit.load(span.first + local(j));
      }
      for (int k = 0; k < chunk; ++k) {
        const int j = j0 + k * team + r;
        if (j < kept && prefix + j < capacity) emit.store(prefix + j, v[k]);
      }
    }
  }

  // How many elements the tiles before tile `id` keep. The team reads the words of a window of
  // up to `team` preceding tiles at once (waiting for each to publish), then adds them from the
  // nearest back to the first inclusive prefix; without one, it moves the window further back.
  KOKKOS_FUNCTION std::int64_t look_back(const Member& member, const Window& window,
                                         std::int64_t id) const {
    std::int64_t prefix = 0;
    for (std::int64_t nearest = id - 1;; nearest -= team) {
      const int width = int(nearest + 1 < team ? nearest + 1 : team);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, width), [&](int w) {
        std::uint64_t word;
        do {
          word = LookbackWord::read(state(nearest - w));
        } while (word == 0);
        window(w) = word;
      });
      member.team_barrier();
      int stop = width;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(member, width),
          [&](int w, int& s) {
            if ((window(w) & LookbackWord::inclusive) && w < s) s = w;
          },
          Kokkos::Min<int>(stop));
      std::int64_t sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(member, width),
          [&](int w, std::int64_t& s) {
            if (w <= stop) s += std::int64_t(window(w) & LookbackWord::value_mask);
          },
          sum);
      prefix += sum;
      if (stop < width) return prefix;
      member.team_barrier();  // the window is read again
    }
  }
};

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
    with_load_group<ExecSpace>(emit, seam, [&](auto group) {
      constexpr int min_teams = Tuning::lookback_min_teams(
          sizeof(typename Emit::value_type),
          !decltype(seam)::value || compact_stages<Select, decltype(group)::value>);
      using Bounds =
          Kokkos::LaunchBounds<(min_teams > 0 ? Tuning::lookback_team_size : 0), min_teams>;
      using Functor = CompactLookback<decltype(seam)::value, decltype(group)::value, ExecSpace,
                                      Select, Emit, decltype(state), TotalView>;
      Kokkos::parallel_for(
          "Ordo::copy_if::tiles",
          by_argument(
              Kokkos::TeamPolicy<ExecSpace, Bounds>(space, tiles, Tuning::lookback_team_size)
                  .set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes()))),
          Functor{select, emit, state, total, n, tiles});
    });
  });
}

// ---- reduce then scan ------------------------------------------------------------------------

template <class ExecSpace, class Select, class CountView>
struct CompactCount {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Select select;
  CountView tile_counts;
  std::int64_t n, tile;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const auto count = team_count(member, tile_span(member.league_rank(), tile, n), select);
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

template <class ExecSpace, class Select, class Emit, class CountView>
struct CompactScatter {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Select select;
  Emit emit;
  CountView tile_offsets;
  std::int64_t n, tile;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    team_scatter(member, tile_span(member.league_rank(), tile, n), select, emit,
                 tile_offsets(member.league_rank()));
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
  const auto policy = by_argument(Kokkos::TeamPolicy<ExecSpace>(space, tiles, Tuning::team_size));
  Kokkos::parallel_for("Ordo::copy_if::count", policy,
                       CompactCount<ExecSpace, Select, Counts>{select, tile_counts, n, tile});
  Kokkos::parallel_scan(
      "Ordo::copy_if::scan",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, tiles),
      CompactScan<Counts, TotalView>{tile_counts, total, tiles});
  Kokkos::parallel_for(
      "Ordo::copy_if::scatter", policy,
      CompactScatter<ExecSpace, Select, Emit, Counts>{select, emit, tile_counts, n, tile});
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

// One team per tile. Warp: the CUDA seam (warp ballots, one atomic per tile); otherwise the
// portable version: count the tile, claim room with one atomic per team, scan the tile to write.
template <bool Warp, int G, class ExecSpace, class Select, class Emit, class TotalView>
struct CompactUnordered {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Select select;
  Emit emit;
  TotalView total;
  std::int64_t n, tile;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const auto span = tile_span(member.league_rank(), tile, n);
#if defined(ORDO_CUDA_WARP_COMPACT)
    if constexpr (Warp) {
      CudaSeam::warp_tile_compact<CompactTuning<ExecSpace>::items_per_thread, G>(
          member.league_rank(), n, member.team_size(), member.team_rank(), select, emit,
          CudaSeam::AtomicBase<TotalView>{total},
          stage<typename Emit::value_type>(member, compact_stages<Select, G> ? tile : 0));
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
    team_scatter(member, span, select, emit, base);
  }
};

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
    with_load_group<ExecSpace>(emit, seam, [&](auto group) {
      // The warp seam's stage (compact_stages).
      const std::size_t scratch = seam && compact_stages<Select, decltype(group)::value>
                                      ? stage_bytes<typename Emit::value_type>(tile)
                                      : 0;
      const auto policy =
          by_argument(Kokkos::TeamPolicy<ExecSpace>(space, (n + tile - 1) / tile, Tuning::team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(scratch)));
      Kokkos::parallel_for(
          "Ordo::copy_if_unordered::tiles", policy,
          CompactUnordered<decltype(seam)::value, decltype(group)::value, ExecSpace, Select, Emit,
                           TotalView>{select, emit, total, n, tile});
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

// Runs the compaction of [0, n) with the total in the counts workspace and returns it; an
// overflow of the emitter's capacity (whose writes were dropped) is an error.
template <bool Ordered, class ExecSpace, class Select, class Emit>
std::int64_t compact_and_count(const char* fn, const ExecSpace& space, std::int64_t n,
                               const Select& select, const Emit& emit) {
  const auto total = workspace<std::int64_t>(space, 1, WorkspaceSlot::counts);
  compact<Ordered>(space, n, select, emit, total);
  const std::int64_t count = read_back<1>(space, total, std::string(fn) + ": fence")[0];
  if (count > emit.capacity()) {
    fail(fn, "out has " + std::to_string(emit.capacity()) + " elements, the selection has " +
                 std::to_string(count) + " (nothing was written past out's end)");
  }
  return count;
}

}  // namespace Ordo::Impl

#endif
