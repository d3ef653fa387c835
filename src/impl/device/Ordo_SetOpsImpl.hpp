// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SETOPSIMPL_HPP
#define ORDO_IMPL_SETOPSIMPL_HPP

// Device level of the set operations (set_intersection, set_union, set_difference,
// set_symmetric_difference and their _by_key forms): one pass over the balanced path plus a
// compaction.
//   device backends: Ordo::<algo>::partition  the balanced-path cut of every tile boundary (and
//                                              the look-back words zeroed)
//                    Ordo::<algo>::tiles      each team takes the next tile (ticket order; on
//                                              CUDA its block's), loads its A and B ranges into
//                                              scratch, cuts them on the balanced path a thread
//                                              each, walks its piece in registers, scans the
//                                              emitted counts (on CUDA by warp shuffles), finds
//                                              its output offset by the decoupled look-back (on
//                                              CUDA walked by warp 0) and stores the tile's
//                                              outputs coalesced
//   host backends:   Ordo::<algo>::host       a balanced-path chunk per thread, walked as
//                                              interleaved pieces (set_chunk_interleaved) that
//                                              stage their outputs in workspace (keys, or with
//                                              values their sources), then
//                    Ordo::<algo>::store      the staged outputs stored at their offsets, every
//                                              thread a share of each piece
// Outputs past the emitter's capacity are dropped; the total goes to count(0).

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_MergePathLaunch.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/lane/Ordo_LookbackWord.hpp>
#include <impl/team/Ordo_TileIO.hpp>
#include <impl/team/Ordo_TileSetOps.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// Where outputs go: keys, and with values the value of the element each came from.
template <class OutKeys>
struct SetKeysEmit {
  static constexpr bool keys_only = true;
  OutKeys out;
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return out.extent(0); }
  template <class Key>
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const Key& key, bool, std::int64_t) const {
    out(pos) = key;
  }
};

template <class OutKeys, class AValues, class BValues, class OutValues>
struct SetPairsEmit {
  static constexpr bool keys_only = false;
  OutKeys out;
  AValues a_values;
  BValues b_values;
  OutValues out_values;
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const {
    return out.extent(0) < out_values.extent(0) ? out.extent(0) : out_values.extent(0);
  }
  template <class Key>
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const Key& key, bool from_a,
                                    std::int64_t i) const {
    out(pos) = key;
    out_values(pos) = from_a ? a_values(i) : b_values(i);
  }
};

// Cuts of every tile boundary: cuts(2t), cuts(2t + 1) = the balanced-path cut of diagonal
// min(t * tile, |a| + |b|); words(t) = 0 for the look-back (words(tiles) is the ticket).
template <class AView, class BView, class Cuts, class Words, class Comp>
struct SetPartition {
  AView a;
  BView b;
  Cuts cuts;
  Words words;
  std::int64_t tile;
  Comp comp;

  KOKKOS_FUNCTION void operator()(std::int64_t t) const {
    const std::int64_t m = a.extent(0), n = b.extent(0);
    const std::int64_t diag = t * tile < m + n ? t * tile : m + n;
    const auto cut = balanced_path<std::int64_t>(a, 0, m, b, 0, n, diag, comp);
    cuts(2 * t) = cut.first;
    cuts(2 * t + 1) = cut.second;
    words(t) = 0;
  }
};

// Host backends: where piece q's outputs are staged. A piece holds its diagonal range plus at
// most one element of a cut, so piece q's outputs fit from its first diagonal plus q on.
KOKKOS_INLINE_FUNCTION std::int64_t staged_begin(std::int64_t total, std::int64_t pieces,
                                                 std::int64_t q) {
  return chunk_begin(total, pieces, q) + q;
}

// Whether the host path stages the outputs' keys (only keys are stored, and a key fits a
// workspace slot) or their sources (A: index, B: -1 - index).
template <class Emit, class Key>
inline constexpr bool stages_keys = std::is_trivially_copyable_v<Key> &&
                                    sizeof(Key) <= sizeof(std::int64_t) && Emit::keys_only;

// Stages an output at slot k: its key, or its source.
template <bool Keys, class AView, class BView, class Staged>
struct SetStage {
  AView a;
  BView b;
  Staged staged;

  // The interleaved walk's candidate: A's head (index i, key x) where take_a, else B's (j, y).
  template <class Key>
  void select(std::int64_t k, bool take_a, std::int64_t i, std::int64_t j, const Key& x,
              const Key& y) const {
    if constexpr (Keys) {
      staged(k) = take_a ? x : y;
    } else {
      staged(k) = take_a ? i : -1 - j;
    }
  }
  void operator()(std::int64_t k, bool from_a, std::int64_t i) const {
    if constexpr (Keys) {
      staged(k) = from_a ? a(i) : b(i);
    } else {
      staged(k) = from_a ? i : -1 - i;
    }
  }
};

// Chunk c of `chunks`: its Ways pieces (c * Ways + w of pieces = chunks * Ways) staged from
// staged_begin, sizes(q) piece q's output count.
template <SetOp Op, int Ways, class AView, class BView, class Stage, class Sizes, class Comp>
struct SetHostChunks {
  AView a;
  BView b;
  Stage stage;
  Sizes sizes;
  std::int64_t chunks;
  Comp comp;

  void operator()(std::int64_t c) const {
    const std::int64_t total = std::int64_t(a.extent(0)) + std::int64_t(b.extent(0));
    std::int64_t k[Ways], first[Ways];
    for (int w = 0; w < Ways; ++w)
      first[w] = k[w] = staged_begin(total, chunks * Ways, c * Ways + w);
    set_chunk_interleaved<Op, Ways>(a, b, c, chunks, comp, k, stage);
    for (int w = 0; w < Ways; ++w) sizes(c * Ways + w) = k[w] - first[w];
  }
};

// Share j of `shares` of piece q's staged outputs stored at its offset: work item q * shares + j.
template <bool Keys, class AView, class BView, class Emit, class Staged, class Sizes>
struct SetHostStore {
  AView a;
  BView b;
  Emit emit;
  Staged staged;
  Sizes sizes;  // sizes(q): piece q's output offset (scanned)
  std::int64_t pieces, shares, total_elements;

  void operator()(std::int64_t w) const {
    const std::int64_t q = w / shares, j = w % shares;
    const std::int64_t offset = sizes(q), size = sizes(q + 1) - offset;
    const std::int64_t capacity = emit.capacity();
    const std::int64_t lo = offset + chunk_begin(size, shares, j);
    const std::int64_t hi = offset + chunk_begin(size, shares, j + 1);
    const std::int64_t from = staged_begin(total_elements, pieces, q) - offset;
    for (std::int64_t k = lo; k < hi && k < capacity; ++k) {
      const auto s = staged(from + k);
      if constexpr (Keys) {
        emit.store(k, s, true, 0);
      } else if (s >= 0) {
        emit.store(k, a(s), true, s);
      } else {
        emit.store(k, b(-1 - s), false, -1 - s);
      }
    }
  }
};

// Which path runs: the backend's choice (on CUDA the warp seam's tiles), or (tests) the portable
// tiles on any backend.
enum class SetPath { automatic, tiled };

// The set operation Op of a and b into `emit`; count(0) receives the output size.
template <SetOp Op, class ExecSpace, class AView, class BView, class Emit, class Count, class Comp>
void set_op_dispatch(const std::string& algo, const ExecSpace& space, const AView& a,
                     const BView& b, const Emit& emit, const Count& count, const Comp& comp,
                     SetPath path = SetPath::automatic) {
  const std::int64_t m = a.extent(0), n = b.extent(0), total = m + n;
  using C = typename Count::non_const_value_type;
  if (total == 0) {
    Kokkos::deep_copy(space, Kokkos::subview(count, 0), C(0));
    return;
  }
  if constexpr (is_host_space_v<ExecSpace>) {
    if (path == SetPath::automatic) {
      constexpr int ways = HostTuning::merge_ways;
      const std::int64_t chunks = host_chunk_count(space, total), pieces = chunks * ways;
      using Key = typename AView::non_const_value_type;
      constexpr bool keys = stages_keys<Emit, Key>;
      using Staged = std::conditional_t<keys, Key, std::int64_t>;
      const auto staged = workspace<Staged>(space, total + pieces, WorkspaceSlot::set_staged);
      const auto sizes = workspace<std::int64_t>(space, pieces + 1, WorkspaceSlot::set_cuts);
      using Stage = SetStage<keys, AView, BView, decltype(staged)>;
      using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
      Kokkos::parallel_for("Ordo::" + algo + "::host", Policy(space, 0, chunks),
                           SetHostChunks<Op, ways, AView, BView, Stage, decltype(sizes), Comp>{
                               a, b, Stage{a, b, staged}, sizes, chunks, comp});
      space.fence("Ordo::" + algo + ": fence");
      std::int64_t running = 0;
      for (std::int64_t q = 0; q <= pieces; ++q) {
        const std::int64_t size = q < pieces ? sizes(q) : 0;
        sizes(q) = running;
        running += size;
      }
      Kokkos::parallel_for(
          "Ordo::" + algo + "::store", Policy(space, 0, pieces * chunks),
          SetHostStore<keys, AView, BView, Emit, decltype(staged), decltype(sizes)>{
              a, b, emit, staged, sizes, pieces, chunks, total});
      Kokkos::deep_copy(space, Kokkos::subview(count, 0), C(running));
      return;
    }
  }
  using Tuning = SetOpsTuning<ExecSpace, sizeof(typename AView::value_type)>;
  constexpr int vt = Tuning::vt;
  const std::int64_t tile = std::int64_t(Tuning::team_size) * vt;
  const std::int64_t tiles = (total + tile - 1) / tile;
  const auto cuts = workspace<std::int64_t>(space, 2 * (tiles + 1), WorkspaceSlot::set_cuts);
  const auto words = workspace<std::uint64_t>(space, tiles + 1, WorkspaceSlot::set_words);
  Kokkos::parallel_for(
      "Ordo::" + algo + "::partition",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, tiles + 1),
      SetPartition<AView, BView, decltype(cuts), decltype(words), Comp>{a, b, cuts, words, tile,
                                                                        comp});
  with_warp_seam<ExecSpace>(path == SetPath::automatic, [&](auto seam) {
    launch_tiles<Tuning::team_size, Tuning::min_teams>(
        "Ordo::" + algo + "::tiles", space, TilePlan{tiles, Tuning::team_size},
        SetTiles<Op, vt, Tuning::lookback_window, decltype(seam), ExecSpace, AView, BView, Emit,
                 decltype(cuts), decltype(words), Count, Comp>{a, b, emit, cuts, words, count,
                                                               tiles, comp});
  });
}

// An upper bound of the workspace of a set operation of m and n elements (and the count).
template <class ExecSpace>
std::size_t set_operation_bound(const ExecSpace& space, std::int64_t m, std::int64_t n) {
  const std::int64_t total = m + n;
  std::size_t bytes = slot_bytes<std::int64_t>(1);
  if (total == 0) return bytes;
  if constexpr (is_host_space_v<ExecSpace>) {
    const std::int64_t pieces = host_chunk_count(space, total) * HostTuning::merge_ways;
    return bytes + slot_bytes<std::int64_t>(total + pieces) + slot_bytes<std::int64_t>(pieces + 1);
  } else {
    (void)space;
    return bytes + 3 * tile_words_bytes(total);
  }
}

// ---- argument checks and the returned size (Ordo_SetOps.hpp)

template <class ExecSpace, class AView, class BView, class OutView, class Comp>
void check_set_operation(const char* fn, const ExecSpace& space, const AView& a, const BView& b,
                         const OutView& out, const Comp& comp) {
  static_check_views<ExecSpace, AView, BView, OutView>();
  using T = typename OutView::non_const_value_type;
  static_assert(std::is_same_v<typename AView::non_const_value_type, T> &&
                    std::is_same_v<typename BView::non_const_value_type, T>,
                "Ordo: set operations take a, b and out of one value type");
  check_all_reachable<ExecSpace>(fn, "a", a, "b", b, "out", out);
  check_no_alias(fn, "out", out, "a", a, "b", b);
  if constexpr (debug_checks) {
    check_sorted(fn, "a", space, a, comp);
    check_sorted(fn, "b", space, b, comp);
  }
}

}  // namespace Ordo::Impl

#endif
