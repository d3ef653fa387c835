// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILECOMPACT_HPP
#define ORDO_IMPL_TILECOMPACT_HPP

// Team level of compaction (launched by device/Ordo_CopyIfImpl.hpp): which elements copy_if and
// copy_flagged keep (selections) and what they write for a kept one (emitters; retrieve_all's are
// in device/Ordo_RetrieveAllImpl.hpp), and the tile agents:
//   CompactLookback   stable single pass: count, look back (TileLookback::window_prefix), write;
//                     on CUDA's seam the warps' ballots and walk (WarpSeam::compact_stable)
//   CompactCount      reduce then scan (host backends): a tile's count
//   CompactScatter    ... then its kept elements from the scanned offset
//   CompactUnordered  one atomic a tile on the total (on CUDA's seam: compact_unordered)

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_LookbackWord.hpp>
#include <impl/team/Ordo_Lookback.hpp>
#include <impl/team/Ordo_TileIO.hpp>
#include <impl/team/Ordo_WarpSeam.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Which elements a compaction keeps: pred(in(i)) for copy_if, flags(i) for copy_flagged.
// A by-value selection (by_value) decides from the element the emitter loads: of_value(load(i))
// is operator()(i), and kernels that hold the element test it without a second read.
template <class InView, class Pred>
struct SelectByPredicate {
  InView in;
  Pred pred;
  static constexpr bool by_value = true;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return pred(in(i)); }
  template <class T>
  KOKKOS_INLINE_FUNCTION bool of_value(const T& v) const {
    return pred(v);
  }
};

template <class FlagView>
struct SelectByFlag {
  FlagView flags;
  static constexpr bool by_value = false;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return bool(flags(i)); }
  template <class T>
  KOKKOS_INLINE_FUNCTION bool of_value(const T&) const {
    return false;
  }
};

// What copy_if writes for a kept element: out(pos) = in(i). Emitters load an element and store
// it separately, so that kernels can issue several loads before their stores. Where in is
// contiguous, `group` consecutive elements load as one vector (vector_group, Ordo_TileIO.hpp) from
// a group-aligned index when aligned() (1: element by element).
//
// An emitter whose store(pos, v) writes at output position pos only says so with
// `stores_in_place = true`: a store there that a later one overwrites is harmless, which lets a
// thread store every element and move on only past the kept ones (team_scatter).
template <class Emit, class = void>
struct StoresInPlace : std::false_type {};
template <class Emit>
struct StoresInPlace<Emit, std::void_t<decltype(Emit::stores_in_place)>>
    : std::bool_constant<Emit::stores_in_place> {};

template <class InView, class OutView>
struct EmitElement {
  using value_type = typename InView::non_const_value_type;
  static constexpr int group = is_contiguous_1d_v<InView> ? vector_group<value_type> : 1;
  static constexpr bool stores_in_place = true;
  InView in;
  OutView out;
  bool aligned() const { return group > 1 && vector_aligned<group>(in.data()); }
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return out.extent(0); }
  KOKKOS_INLINE_FUNCTION value_type load(std::int64_t i) const { return in(i); }
  template <int G>
  KOKKOS_INLINE_FUNCTION void load_group(std::int64_t i, value_type* v) const {
    load_vector<G>(in.data() + i, v);
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const value_type& v) const { out(pos) = v; }
};

// Runs launch(std::integral_constant<int, G>) with G = Emit::group where the emitter loads
// aligned groups on a device backend's warp seam, else G = 1.
template <class ExecSpace, class Seam, class Emit, class Launch>
void with_load_group(const Emit& emit, const Launch& launch) {
  if constexpr (Emit::group > 1 && !is_host_space_v<ExecSpace> && Seam::warp) {
    if (emit.aligned()) {
      launch(std::integral_constant<int, Emit::group>{});
      return;
    }
  }
  (void)emit;
  launch(std::integral_constant<int, 1>{});
}

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

// Emits the tile's kept elements, in order, to its output positions [base, end) (end - base: the
// tile's count); positions past the emitter's capacity are dropped. A team of one thread (the host
// backends) walks the tile once; where the emitter stores in place, without a branch on the
// selection: every element is stored at the next position, and the position moves on only where
// the element is kept, so a dropped element's store is overwritten by the next kept one (never at
// end or past it, which the next tile owns).
template <class Member, class Select, class Emit>
KOKKOS_INLINE_FUNCTION void team_scatter(const Member& member,
                                         Kokkos::pair<std::int64_t, std::int64_t> span,
                                         const Select& select, const Emit& emit, std::int64_t base,
                                         std::int64_t end) {
  const std::int64_t capacity = emit.capacity();
  if (member.team_size() == 1) {
    const std::int64_t stop = end < capacity ? end : capacity;
    std::int64_t pos = base;
    for (std::int64_t i = span.first; i < span.second && pos < stop; ++i) {
      const bool keep = select(i);
      if (StoresInPlace<Emit>::value || keep) emit.store(pos, emit.load(i));
      pos += keep ? 1 : 0;
    }
    return;
  }
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

// One team per tile. On a warp seam its compact_stable (CUDA: warp ballots, warp 0 looks back);
// otherwise the portable version below.
template <class Seam, int G, class ExecSpace, class Select, class Emit, class StateView,
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
    if (Seam::warp) return stage_bytes<typename Emit::value_type>(stage_size);
    return Flags::shmem_size(tile) + Local::shmem_size(tile) + Count::shmem_size(1) +
           Window::shmem_size(team);
  }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    if constexpr (Seam::warp) {
      Seam::template compact_stable<vt, G>(member, n, select, emit, state, total, tiles,
                                           stage<typename Emit::value_type>(member, stage_size));
    } else {
      portable(member);
    }
  }

  KOKKOS_FUNCTION void portable(const Member& member) const {
    const Flags flags(member.team_scratch(0), tile);
    const Local local(member.team_scratch(0), tile);
    const Count tile_count(member.team_scratch(0), 1);
    const Window window(member.team_scratch(0), team);

    const std::int64_t id = tiles == 1 ? 0 : tile_lookback(state).ticket(member, tiles);
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

    const std::int64_t prefix =
        id == 0 ? 0 : tile_lookback(state).template window_prefix<team>(member, window, id);
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
};

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

// Tile t's output positions: [tile_offsets(t), tile_offsets(t + 1)), the last tile's up to the
// total.
template <class ExecSpace, class Select, class Emit, class CountView, class TotalView>
struct CompactScatter {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Select select;
  Emit emit;
  CountView tile_offsets;
  TotalView total;
  std::int64_t n, tile, tiles;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t t = member.league_rank();
    const std::int64_t end =
        t + 1 < tiles ? std::int64_t(tile_offsets(t + 1)) : std::int64_t(total(0));
    team_scatter(member, tile_span(t, tile, n), select, emit, tile_offsets(t), end);
  }
};

// One team per tile. On a warp seam its compact_unordered (CUDA: warp ballots, one atomic per
// tile); otherwise the portable version: count the tile, claim room with one atomic per team, scan
// the tile to write.
template <class Seam, int G, class ExecSpace, class Select, class Emit, class TotalView>
struct CompactUnordered {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Select select;
  Emit emit;
  TotalView total;
  std::int64_t n, tile;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    if constexpr (Seam::warp) {
      Seam::template compact_unordered<CompactTuning<ExecSpace>::items_per_thread, G>(
          member, n, select, emit, total,
          stage<typename Emit::value_type>(member, compact_stages<Select, G> ? tile : 0));
    } else {
      portable(member);
    }
  }

  KOKKOS_FUNCTION void portable(const Member& member) const {
    const auto span = tile_span(member.league_rank(), tile, n);
    using Count = typename TotalView::non_const_value_type;
    const std::int64_t count = team_count(member, span, select);
    std::int64_t base = 0;
    Kokkos::single(
        Kokkos::PerTeam(member),
        [&](std::int64_t& b) {
          b = std::int64_t(Kokkos::atomic_fetch_add(&total(0), Count(count)));
        },
        base);
    team_scatter(member, span, select, emit, base, base + count);
  }
};

}  // namespace Ordo::Impl

#endif
