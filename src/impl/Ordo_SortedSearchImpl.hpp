// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTEDSEARCHIMPL_HPP
#define ORDO_IMPL_SORTEDSEARCHIMPL_HPP

// Device level of sorted search: dispatch by execution space and size.
//   device backends: Ordo::<algo>::partition (the merge-path partitioner of merge) then
//                    Ordo::<algo>::tiles (pipelined tiles, as merge's); small inputs: one
//                    launch, Ordo::<algo>::fused, whose teams co-rank their own tiles
//   host backends:   Ordo::<algo>::host, one merge-path chunk of the walk per thread
// The binary search of unsorted needles is in Ordo_BinarySearchImpl.hpp.
//
// What a walk produces goes to a sink (see Ordo_TileSearch.hpp for the walk): the sink says at
// compile time which results it wants (want_x, want_y), whether it needs match flags (match) and
// match counts (count_matches), and stores each result where its caller asked.

#include <Ordo_SearchTypes.hpp>
#include <impl/Ordo_BinarySearchImpl.hpp>
#include <impl/Ordo_Checks.hpp>
#include <impl/Ordo_MergePath.hpp>
#include <impl/Ordo_TileMerge.hpp>
#include <impl/Ordo_TileSearch.hpp>
#include <impl/Ordo_Traits.hpp>
#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// Bounds of X into Y (OnX) or of Y into X, into one index View.
template <bool OnX, class IndexView>
struct IndexSink {
  IndexView index;
  static constexpr bool want_x = OnX, want_y = !OnX, match = false, count_matches = false;
  using value_type = typename IndexView::non_const_value_type;

  KOKKOS_INLINE_FUNCTION void x(std::int64_t i, std::int64_t bound, bool) const {
    index(i) = value_type(bound);
  }
  KOKKOS_INLINE_FUNCTION void y(std::int64_t j, std::int64_t bound, bool) const {
    index(j) = value_type(bound);
  }
  KOKKOS_INLINE_FUNCTION void add_counts(std::int64_t, std::int64_t) const {}
};

// The complete search: every result of both sides; an output View of extent 0 is not written.
// counts(x_slot) receives the X matches, counts(1 - x_slot) the Y matches.
template <class XIndex, class XMatch, class YIndex, class YMatch, class Counts>
struct CompleteSink {
  XIndex x_index;
  XMatch x_match;
  YIndex y_index;
  YMatch y_match;
  Counts counts;
  int x_slot;
  static constexpr bool want_x = true, want_y = true, match = true, count_matches = true;

  KOKKOS_INLINE_FUNCTION void x(std::int64_t i, std::int64_t bound, bool m) const {
    if (x_index.extent(0)) x_index(i) = typename XIndex::non_const_value_type(bound);
    if (x_match.extent(0)) x_match(i) = m;
  }
  KOKKOS_INLINE_FUNCTION void y(std::int64_t j, std::int64_t bound, bool m) const {
    if (y_index.extent(0)) y_index(j) = typename YIndex::non_const_value_type(bound);
    if (y_match.extent(0)) y_match(j) = m;
  }
  KOKKOS_INLINE_FUNCTION void add_counts(std::int64_t xm, std::int64_t ym) const {
    using C = typename Counts::non_const_value_type;
    if (xm) Kokkos::atomic_add(&counts(x_slot), C(xm));
    if (ym) Kokkos::atomic_add(&counts(1 - x_slot), C(ym));
  }
};

// Second pass of sorted_equality_count (seed 000's SortedEqualityCount): the walk of X = B and
// Y = A gives the upper bound of each a[j] in b; counts(j) holds its lower bound from the first
// pass and becomes the difference.
template <class CountView>
struct EqualityCountSink {
  CountView counts;
  static constexpr bool want_x = false, want_y = true, match = false, count_matches = false;
  using value_type = typename CountView::non_const_value_type;

  KOKKOS_INLINE_FUNCTION void x(std::int64_t, std::int64_t, bool) const {}
  KOKKOS_INLINE_FUNCTION void y(std::int64_t j, std::int64_t upper, bool) const {
    counts(j) = value_type(upper - std::int64_t(counts(j)));
  }
  KOKKOS_INLINE_FUNCTION void add_counts(std::int64_t, std::int64_t) const {}
};

// Tiles of team_size * VT steps of the walk (seed 000's KernelSortedSearch). The team loads its X
// and Y ranges with the halo elements the match flags and the range-check-free walk need, each
// thread walks VT steps in registers, the results are compacted through scratch into X order and
// Y order, and stored with coalesced writes. Fused: one team per tile, which co-ranks its tile's
// ends itself; otherwise the ends come from `part`, and where two tiles fit a team's scratch
// (pipelined) each team runs tiles one after another, loading the next while it walks the current
// one (team_pipeline; part's last word is the tiles' ticket counter), else one team a tile.
template <int VT, bool Fused, class ExecSpace, class XView, class YView, class PartView, class Sink,
          class Comp>
struct SearchTiles {
  using Key = typename XView::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using KeyTile = Kokkos::View<Key*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using IndexTile = Kokkos::View<int*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Slot = Kokkos::View<std::int64_t*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int halo = 3;  // preceding X, trailing X, trailing Y
  // The walk without range checks reads up to VT elements past where a thread starts; on sorted
  // input it stays inside the loaded ranges, on any other input these slots keep it inside the
  // tile's scratch.
  static constexpr int slack = VT;
  static constexpr int team_size = SearchTuning<ExecSpace, sizeof(Key)>::team_size;
  static constexpr int min_teams = SearchTuning<ExecSpace, sizeof(Key)>::pipeline_min_teams;
  // The scratch a team takes for tiles of `count` steps: `buffers` tiles of keys with their halo,
  // the results with slack (a thread's Y results start at its co-rank, below count, and a walk
  // over input that is not sorted may take all its VT steps in Y), and the pipeline's slot.
  static constexpr std::size_t scratch_of(int count, int buffers) {
    return buffers * sizeof(Key) * tile_slots<Key>(count + halo + slack) + 16 +
           sizeof(int) * (count + slack) + 16 + (buffers > 1 ? sizeof(std::int64_t) + 16 : 0);
  }
  // Pipelined where two tiles of keys and the results fit a team's scratch.
  static constexpr bool pipelined =
      !Fused && scratch_of(team_size * VT, 2) <= ScratchTuning<ExecSpace>::team_max;
  static constexpr int buffers = pipelined ? 2 : 1;

  XView x;
  YView y;
  PartView part;
  Sink sink;
  Comp comp;

  static std::size_t scratch_bytes(int threads) { return scratch_of(threads * VT, buffers); }
  std::size_t team_shmem_size(int threads) const { return scratch_bytes(threads); }

  // Tile id's X and Y ranges with their halo: X from x0 - left, x_count elements, and Y from y0,
  // y_count elements.
  struct Ranges {
    TileRange range;
    std::int64_t x0, y0;
    int nx, ny, left, x_count, y_count;
    bool right_x, right_y;
  };
  KOKKOS_INLINE_FUNCTION Ranges ranges(const Member& member, std::int64_t id) const {
    const std::int64_t m = x.extent(0), n = y.extent(0);
    Ranges r;
    r.range =
        tile_range<Fused>(member, id, std::int64_t(member.team_size()) * VT, x, y, part, comp);
    r.x0 = r.range.a0;
    r.nx = int(r.range.a1 - r.range.a0);
    r.ny = r.range.count - r.nx;
    r.y0 = r.range.begin - r.x0;
    r.left = Sink::match && r.x0 > 0;
    r.right_x = r.range.a1 < m;
    r.right_y = r.y0 + r.ny < n;
    r.x_count = r.left + r.nx + r.right_x;
    r.y_count = r.ny + r.right_y;
    return r;
  }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const int slots = tile_slots<Key>(member.team_size() * VT + halo + slack);
    const KeyTile tiles(member.team_scratch(0), buffers * slots);
    const IndexTile results(member.team_scratch(0), member.team_size() * VT + slack);
    auto tile_of = [&](int buffer) { return KeyTile(tiles.data() + buffer * slots, slots); };
    if constexpr (!pipelined) {
      const Ranges r = ranges(member, member.league_rank());
      const KeyTile keys = tile_of(0);
      tile_load<VT>(member, x, r.x0 - r.left, r.x_count, y, r.y0, r.y_count, keys);
      member.team_barrier();
      walk(member, r, keys, TileLayout{0, r.x_count}, results);
    } else {
      const std::int64_t tiles_count = std::int64_t(part.extent(0)) - 2;
      team_pipeline(
          member, &part(tiles_count + 1), Slot(member.team_scratch(0), 1), tiles_count,
          [&](std::int64_t id, int buffer) {
            const Ranges r = ranges(member, id);
            tile_load_async<VT>(member, x, r.x0 - r.left, r.x_count, y, r.y0, r.y_count,
                                tile_of(buffer));
          },
          [&](std::int64_t id, int buffer) {
            const Ranges r = ranges(member, id);
            const KeyTile keys = tile_of(buffer);
            walk(member, r, keys,
                 tile_layout<ExecSpace>(x, r.x0 - r.left, r.x_count, y, r.y0, keys), results);
          });
    }
  }

  // The walk of a tile whose X range (with its halo) sits in keys from at.a_at on and its Y range
  // from at.b_at on; slots: team_size * VT results and slack.
  KOKKOS_FUNCTION void walk(const Member& member, const Ranges& r, const KeyTile& keys,
                            TileLayout at, const IndexTile& slots) const {
    const int t = member.team_rank();
    const int count = r.range.count, nx = r.nx, ny = r.ny;
    const std::int64_t x0 = r.x0, y0 = r.y0, n = y.extent(0);
    const bool right_x = r.right_x, right_y = r.right_y;
    const int left = r.left;
    const int xs = at.a_at + left, x_end = at.a_at + r.x_count, ys = at.b_at,
              y_end = at.b_at + r.y_count;

    // Merge path inside the tile, then VT steps of the walk in registers; tiles with every halo
    // element present walk without range checks.
    const int diag = t * VT < count ? t * VT : count;
    const int mine = count - diag < VT ? count - diag : VT;
    const int xl = merge_path<int>(keys, xs, nx, keys, ys, ny, diag, comp);
    int res[VT];
    int x_matches = 0, y_matches = 0;
    const bool extended = right_x && right_y && (!Sink::match || left);
    const unsigned decisions = extended ? tile_serial_search<VT, false, Sink::match>(
                                              keys, at.a_at, xs + xl, xs, x_end, ys + diag - xl, ys,
                                              y_end, mine, comp, res, x_matches, y_matches)
                                        : tile_serial_search<VT, true, Sink::match>(
                                              keys, at.a_at, xs + xl, xs, x_end, ys + diag - xl, ys,
                                              y_end, mine, comp, res, x_matches, y_matches);

    // Compact: X results to slots [0, nx) in X order, Y results to [nx, count) in Y order.
    int xo = xl, yo = nx + diag - xl;
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) {
      if (k < mine) {
        if (decisions & (1u << k)) {
          if constexpr (Sink::want_x) slots(xo) = res[k];
          ++xo;
        } else {
          if constexpr (Sink::want_y) slots(yo) = res[k];
          ++yo;
        }
      }
    }
    if constexpr (Sink::count_matches) {
      std::int64_t packed = std::int64_t(x_matches) | (std::int64_t(y_matches) << 32);
      member.team_reduce(Kokkos::Sum<std::int64_t>(packed));
      if (t == 0) sink.add_counts(packed & 0xffffffff, packed >> 32);
    }
    member.team_barrier();

    constexpr int index_mask = search_match_bit - 1;
    Kokkos::parallel_for(
        Kokkos::TeamThreadRange(member, Sink::want_x ? 0 : nx, Sink::want_y ? count : nx),
        [&](int i) {
          // Bounds inside the tile's ranges, and no match without an element to match, whatever
          // the input (a walk over input that is not sorted may step past its ranges).
          const int r = slots(i), at = r & index_mask;
          const bool match = r & search_match_bit;
          if (i < nx) {
            const std::int64_t bound = y0 + (at < ny ? at : ny);
            sink.x(x0 + i, bound, match && bound < n);
          } else {
            const std::int64_t bound = x0 + (at < nx ? at : nx);
            sink.y(y0 + (i - nx), bound, match && bound > 0);
          }
        });
  }
};

// Counts the matches a host chunk reports, forwarding every result to the wrapped sink.
template <class Sink>
struct CountingSink {
  Sink sink;
  std::int64_t* x_matches;
  std::int64_t* y_matches;
  static constexpr bool want_x = Sink::want_x, want_y = Sink::want_y, match = Sink::match;

  KOKKOS_INLINE_FUNCTION void x(std::int64_t i, std::int64_t bound, bool m) const {
    sink.x(i, bound, m);
    *x_matches += m;
  }
  KOKKOS_INLINE_FUNCTION void y(std::int64_t j, std::int64_t bound, bool m) const {
    sink.y(j, bound, m);
    *y_matches += m;
  }
};

template <class XView, class YView, class Sink, class Comp>
struct SearchHost {
  XView x;
  YView y;
  Sink sink;
  std::int64_t chunks;
  Comp comp;

  void operator()(std::int64_t c) const {
    if constexpr (Sink::count_matches) {
      std::int64_t xm = 0, ym = 0;
      search_chunk(x, y, c, chunks, comp, CountingSink<Sink>{sink, &xm, &ym});
      sink.add_counts(xm, ym);
    } else {
      search_chunk(x, y, c, chunks, comp, sink);
    }
  }
};

// The tiled path, on any backend (host backends run it with their own team size, which tests
// use to check it on CPU). fused selects the single-launch variant.
template <class ExecSpace, class XView, class YView, class Sink, class Comp>
void search_tiled(const std::string& algo, const ExecSpace& space, const XView& x, const YView& y,
                  const Sink& sink, const Comp& comp, bool fused) {
  using Tuning = SearchTuning<ExecSpace, sizeof(typename XView::value_type)>;
  constexpr int vt = Tuning::vt;
  using Part = PartitionView<ExecSpace>;
  launch_merge_path_tiles("Ordo::" + algo, space, x, y, comp, Tuning::team_size,
                          std::int64_t(Tuning::team_size) * vt, fused,
                          [&](auto fused_tag, const Part& part) {
                            return SearchTiles<vt, decltype(fused_tag)::value, ExecSpace, XView,
                                               YView, Part, Sink, Comp>{x, y, part, sink, comp};
                          });
}

// The walk of X into Y, every result to `sink`.
template <class ExecSpace, class XView, class YView, class Sink, class Comp>
void search_dispatch(const std::string& algo, const ExecSpace& space, const XView& x,
                     const YView& y, const Sink& sink, const Comp& comp,
                     SearchPath path = SearchPath::automatic) {
  const std::int64_t total = std::int64_t(x.extent(0)) + std::int64_t(y.extent(0));
  if (total == 0) return;
  if (path != SearchPath::automatic) {
    search_tiled(algo, space, x, y, sink, comp, path == SearchPath::fused);
  } else if constexpr (is_host_space_v<ExecSpace>) {
    const std::int64_t chunks = host_chunk_count(space, total);
    Kokkos::parallel_for(
        "Ordo::" + algo + "::host",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
        SearchHost<XView, YView, Sink, Comp>{x, y, sink, chunks, comp});
  } else {
    using Tuning = SearchTuning<ExecSpace, sizeof(typename XView::value_type)>;
    const std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::vt;
    search_tiled(algo, space, x, y, sink, comp,
                 (total + tile - 1) / tile <= Tuning::fused_max_tiles);
  }
}

// ---- the searches after their argument checks (Ordo_SortedSearch.hpp)

template <class ExecSpace, class AView, class BView, class Comp>
void check_search_inputs(const char* fn, const ExecSpace& space, const AView& a, const BView& b,
                         const Comp& comp) {
  static_check_views<ExecSpace, AView, BView>();
  check_all_reachable<ExecSpace>(fn, "a", a, "b", b);
  if constexpr (debug_checks) {
    check_sorted(fn, "a", space, a, comp);
    check_sorted(fn, "b", space, b, comp);
  }
}

template <class ExecSpace, class View>
void check_match_output(const char* fn, const char* name, const View& v, std::size_t size) {
  static_check_views<ExecSpace, View>();
  using T = typename View::non_const_value_type;
  static_assert(std::is_same_v<T, bool> || std::is_same_v<T, std::uint8_t>,
                "Ordo::sorted_search: match flags are Views of bool or uint8_t");
  if (v.extent(0) != 0) check_size_at_least(fn, name, v, size);
}

// The three searches after their checks. Upper bounds of A into B are the lower-bound walk of
// B into A (Ordo_TileSearch.hpp).
template <class ExecSpace, class AView, class BView, class IndexView, class Comp>
void index_search(const ExecSpace& space, const AView& a, const BView& b, const IndexView& a_index,
                  Bounds bounds, const Comp& comp, SearchPath path = SearchPath::automatic) {
  if (bounds == Bounds::lower) {
    search_dispatch("sorted_search", space, a, b, IndexSink<true, IndexView>{a_index}, comp, path);
  } else {
    search_dispatch("sorted_search", space, b, a, IndexSink<false, IndexView>{a_index}, comp, path);
  }
}

// counts (extent >= 2) receives the match counts.
template <class ExecSpace, class AView, class BView, class Outputs, class Counts, class Comp>
void complete_search(const ExecSpace& space, const AView& a, const BView& b, const Outputs& o,
                     Bounds bounds, const Counts& counts, const Comp& comp,
                     SearchPath path = SearchPath::automatic) {
  Kokkos::deep_copy(space, Kokkos::subview(counts, std::pair<int, int>(0, 2)), 0);
  if (bounds == Bounds::lower) {
    using Sink = CompleteSink<decltype(o.a_index), decltype(o.a_match), decltype(o.b_index),
                              decltype(o.b_match), Counts>;
    search_dispatch("sorted_search", space, a, b,
                    Sink{o.a_index, o.a_match, o.b_index, o.b_match, counts, 0}, comp, path);
  } else {
    using Sink = CompleteSink<decltype(o.b_index), decltype(o.b_match), decltype(o.a_index),
                              decltype(o.a_match), Counts>;
    search_dispatch("sorted_search", space, b, a,
                    Sink{o.b_index, o.b_match, o.a_index, o.a_match, counts, 1}, comp, path);
  }
}

template <class ExecSpace, class AView, class BView, class CountView, class Comp>
void equality_count(const ExecSpace& space, const AView& a, const BView& b, const CountView& counts,
                    const Comp& comp, SearchPath path = SearchPath::automatic) {
  search_dispatch("sorted_equality_count", space, a, b, IndexSink<true, CountView>{counts}, comp,
                  path);
  search_dispatch("sorted_equality_count", space, b, a, EqualityCountSink<CountView>{counts}, comp,
                  path);
}

template <class ExecSpace, class AView, class BView, class Outputs, class Comp>
void check_complete_search(const char* fn, const ExecSpace& space, const AView& a, const BView& b,
                           const Outputs& o, const Comp& comp) {
  check_index_output<ExecSpace>(fn, "a_index", o.a_index, o.a_index.extent(0) ? a.extent(0) : 0,
                                b.extent(0));
  check_index_output<ExecSpace>(fn, "b_index", o.b_index, o.b_index.extent(0) ? b.extent(0) : 0,
                                a.extent(0));
  check_match_output<ExecSpace>(fn, "a_match", o.a_match, a.extent(0));
  check_match_output<ExecSpace>(fn, "b_match", o.b_match, b.extent(0));
  check_no_alias(fn, "a_index", o.a_index, "a", a, "b", b);
  check_no_alias(fn, "a_match", o.a_match, "a", a, "b", b, "a_index", o.a_index);
  check_no_alias(fn, "b_index", o.b_index, "a", a, "b", b, "a_index", o.a_index, "a_match",
                 o.a_match);
  check_no_alias(fn, "b_match", o.b_match, "a", a, "b", b, "a_index", o.a_index, "a_match",
                 o.a_match, "b_index", o.b_index);
  check_all_reachable<ExecSpace>(fn, "a_index", o.a_index, "a_match", o.a_match, "b_index",
                                 o.b_index, "b_match", o.b_match);
  check_search_inputs(fn, space, a, b, comp);
}

}  // namespace Ordo::Impl

#endif
