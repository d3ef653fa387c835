// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SETOPSIMPL_HPP
#define ORDO_IMPL_SETOPSIMPL_HPP

// Device level of the set operations (set_intersection, set_union, set_difference,
// set_symmetric_difference and their _by_key forms): one pass over the balanced path plus a
// compaction.
//   device backends: Ordo::<algo>::partition  the balanced-path cut of every tile boundary (and
//                                              the look-back words zeroed)
//                    Ordo::<algo>::tiles      each team takes the next tile (ticket order), loads
//                                              its A and B ranges into scratch, cuts them on the
//                                              balanced path a thread each, walks its piece in
//                                              registers, scans the emitted counts, finds its
//                                              output offset by the decoupled look-back and
//                                              stores the tile's outputs coalesced
//   host backends:   Ordo::<algo>::host       one balanced-path piece per thread, its outputs'
//                                              sources staged in workspace, then
//                    Ordo::<algo>::store      each piece stored at its offset
// Outputs past the emitter's capacity are dropped; the total goes to count(0).

#include <impl/Ordo_Checks.hpp>
#include <impl/Ordo_LookbackWord.hpp>
#include <impl/Ordo_MergePath.hpp>
#include <impl/Ordo_TileIO.hpp>
#include <impl/Ordo_TileSetOps.hpp>
#include <impl/Ordo_Traits.hpp>
#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// Where outputs go: keys, and with values the value of the element each came from.
template <class OutKeys>
struct SetKeysEmit {
  OutKeys out;
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return out.extent(0); }
  template <class Key>
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const Key& key, bool, std::int64_t) const {
    out(pos) = key;
  }
};

template <class OutKeys, class AValues, class BValues, class OutValues>
struct SetPairsEmit {
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

// One team per tile of about team_size * VT elements of A and B (a cut may add one).
template <SetOp Op, int VT, int Window, class ExecSpace, class AView, class BView, class Emit,
          class Cuts, class Words, class Total, class Comp>
struct SetTiles {
  using Key = typename AView::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using KeyTile = Kokkos::View<Key*, Scratch, Kokkos::MemoryUnmanaged>;
  using IndexTile = Kokkos::View<int*, Scratch, Kokkos::MemoryUnmanaged>;

  AView a;
  BView b;
  Emit emit;
  Cuts cuts;
  Words words;  // words(t): tile t's look-back word; words(tiles): the ticket counter
  Total total;
  std::int64_t tiles;
  Comp comp;

  static std::size_t scratch_bytes(int team_size) {
    const std::size_t tile = std::size_t(team_size) * VT + 1;
    return KeyTile::shmem_size(tile + 1) + IndexTile::shmem_size(tile) +
           IndexTile::shmem_size(2 * (team_size + 1) + 1);
  }
  std::size_t team_shmem_size(int team_size) const { return scratch_bytes(team_size); }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const int nt = member.team_size(), t = member.team_rank();
    const int tile_size = nt * VT + 1;
    KeyTile keys(member.team_scratch(0), tile_size + 1);
    IndexTile slots(member.team_scratch(0), tile_size);
    IndexTile split(member.team_scratch(0), 2 * (nt + 1) + 1);  // the last: the tile's count

    const std::int64_t id = team_ticket(member, words, tiles);
    const std::int64_t a0 = cuts(2 * id), b0 = cuts(2 * id + 1);
    const std::int64_t a1 = piece_end<std::int64_t>(cuts(2 * id + 2), a0, tile_size);
    const int na = int(a1 - a0);
    const int nb = int(piece_end<std::int64_t>(cuts(2 * id + 3), b0, tile_size - na) - b0);
    const int count = na + nb;
    tile_load<VT>(member, a, a0, na, b, b0, nb, keys);
    member.team_barrier();

    // The threads' cuts inside the tile (the tile is a set operation of its own).
    {
      const int diag = t * VT < count ? t * VT : count;
      const auto cut = balanced_path<int>(keys, 0, na, keys, na, nb, diag, comp);
      split(2 * t) = cut.first;
      split(2 * t + 1) = cut.second;
      if (t == nt - 1) {
        split(2 * nt) = na;
        split(2 * nt + 1) = nb;
      }
    }
    member.team_barrier();

    // Walk the piece in registers: at most VT + 1 steps (a cut may add one element).
    SetWalk<Op, int, KeyTile, KeyTile, Comp> walk(keys, split(2 * t), split(2 * t + 2), keys,
                                                  na + split(2 * t + 1), na + split(2 * t + 3),
                                                  comp);
    int src[VT + 1];
    unsigned emitted = 0;
    ORDO_UNROLL
    for (int k = 0; k < VT + 1; ++k) {
      if (!walk.done()) {
        bool from_a;
        if (walk.step(from_a, src[k])) emitted |= 1u << k;
      }
    }
    const int mine = Kokkos::popcount(emitted);
    int pos = member.team_scan(mine);
    // (The threads' pieces hold at most count outputs together, unless the input is not sorted:
    // then only the first count are kept.)
    ORDO_UNROLL
    for (int k = 0; k < VT + 1; ++k) {
      if ((emitted & (1u << k)) && pos < count) slots(pos++) = src[k];
    }
    // The last thread's end is the tile's count.
    if (t == nt - 1) split(2 * nt + 2) = pos;
    member.team_barrier();
    const int kept = split(2 * nt + 2) < count ? split(2 * nt + 2) : count;
    const std::int64_t prefix = team_look_back<Window>(member, words, id, kept);
    if (id == tiles - 1 && t == 0) total(0) = typename Total::non_const_value_type(prefix + kept);

    const std::int64_t capacity = emit.capacity();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, kept), [&](int i) {
      const int s = slots(i);
      if (prefix + i < capacity) {
        emit.store(prefix + i, keys(s), s < na, s < na ? a0 + s : b0 + (s - na));
      }
    });
  }
};

// Host backends: where piece c's outputs are staged. A piece holds its diagonal range plus at
// most one element of a cut, so piece c's outputs fit from its first diagonal plus c on.
KOKKOS_INLINE_FUNCTION std::int64_t staged_begin(std::int64_t total, std::int64_t pieces,
                                                 std::int64_t c) {
  return chunk_begin(total, pieces, c) + c;
}

// Piece c's outputs, as sources (A: index, B: -1 - index), staged from staged_begin; sizes(c)
// their count.
template <SetOp Op, class AView, class BView, class Staged, class Sizes, class Comp>
struct SetHostPieces {
  AView a;
  BView b;
  Staged staged;
  Sizes sizes;
  std::int64_t pieces;
  Comp comp;

  void operator()(std::int64_t c) const {
    const std::int64_t total = std::int64_t(a.extent(0)) + std::int64_t(b.extent(0));
    const std::int64_t first = staged_begin(total, pieces, c);
    std::int64_t k = first;
    set_piece<Op>(a, b, c, pieces, comp,
                  [&](bool from_a, std::int64_t i) { staged(k++) = from_a ? i : -1 - i; });
    sizes(c) = k - first;
  }
};

template <class AView, class BView, class Emit, class Staged, class Sizes>
struct SetHostStore {
  AView a;
  BView b;
  Emit emit;
  Staged staged;
  Sizes sizes;  // sizes(c): piece c's output offset (scanned)
  std::int64_t pieces, total_elements;

  void operator()(std::int64_t c) const {
    const std::int64_t first = staged_begin(total_elements, pieces, c);
    const std::int64_t capacity = emit.capacity();
    for (std::int64_t k = sizes(c); k < sizes(c + 1) && k < capacity; ++k) {
      const std::int64_t s = staged(first + (k - sizes(c)));
      if (s >= 0) {
        emit.store(k, a(s), true, s);
      } else {
        emit.store(k, b(-1 - s), false, -1 - s);
      }
    }
  }
};

// Which path runs: the backend's choice, or (tests) the tiled device path on any backend.
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
      const std::int64_t pieces = host_chunk_count(space, total);
      const auto staged = workspace<std::int64_t>(space, total + pieces, WorkspaceSlot::set_staged);
      const auto sizes = workspace<std::int64_t>(space, pieces + 1, WorkspaceSlot::set_cuts);
      using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
      Kokkos::parallel_for("Ordo::" + algo + "::host", Policy(space, 0, pieces),
                           SetHostPieces<Op, AView, BView, decltype(staged), decltype(sizes), Comp>{
                               a, b, staged, sizes, pieces, comp});
      space.fence("Ordo::" + algo + ": fence");
      std::int64_t running = 0;
      for (std::int64_t c = 0; c <= pieces; ++c) {
        const std::int64_t size = c < pieces ? sizes(c) : 0;
        sizes(c) = running;
        running += size;
      }
      Kokkos::parallel_for("Ordo::" + algo + "::store", Policy(space, 0, pieces),
                           SetHostStore<AView, BView, Emit, decltype(staged), decltype(sizes)>{
                               a, b, emit, staged, sizes, pieces, total});
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
  using Bounds =
      Kokkos::LaunchBounds<(Tuning::min_teams > 0 ? Tuning::team_size : 0), Tuning::min_teams>;
  Kokkos::parallel_for(
      "Ordo::" + algo + "::tiles",
      Kokkos::TeamPolicy<ExecSpace, Bounds>(space, tiles, Tuning::team_size),
      SetTiles<Op, vt, Tuning::lookback_window, ExecSpace, AView, BView, Emit, decltype(cuts),
               decltype(words), Count, Comp>{a, b, emit, cuts, words, count, tiles, comp});
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

// Reads the size back and reports an output too short for it.
template <class ExecSpace, class Count>
std::int64_t size_checked(const char* fn, const ExecSpace& space, const Count& count,
                          std::int64_t capacity, const char* out_name) {
  const std::int64_t size = read_back<1>(space, count, std::string(fn) + ": fence")[0];
  if (size > capacity) {
    fail(fn, std::string(out_name) + " has " + std::to_string(capacity) + " elements, needs " +
                 std::to_string(size) + " (the first " + std::to_string(capacity) +
                 " outputs were written)");
  }
  return size;
}

}  // namespace Ordo::Impl

#endif
