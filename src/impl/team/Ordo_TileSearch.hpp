// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILESEARCH_HPP
#define ORDO_IMPL_TILESEARCH_HPP

// Team level of sorted search: the vectorized walk of two sorted sequences.
//
// Every mode of sorted search is one walk: the lower-bound traversal of X into Y, the stable merge
// order of X and Y with X first on ties. Each step consumes one element:
//   X step: X[xi] orders before or ties Y[yi]; its lower bound in Y is yi, and it has a match when
//           Y[yi] equals it (the trailing Y).
//   Y step: Y[yi] orders strictly before X[xi]; its upper bound in X is xi, and it has a match when
//           X[xi - 1] equals it (the preceding X).
// The upper-bound search of A into B is the same walk with X = B and Y = A, so one walk (and the
// one merge-path partitioner, which orders X first on ties) serves both bounds. Equality is two
// less-than tests; the walk's own decision already made one of them.

#include <impl/core/Ordo_Tuning.hpp>
#include <impl/team/Ordo_TileMerge.hpp>
#include <impl/team/Ordo_TileRange.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// The state of one walk over x[x_first, x_end) and y[.., y_end) (x_first: where X's first loaded
// element sits, so that a Y step at xi == x_first has no preceding X). With RangeCheck false the
// caller guarantees the walk never runs off the loaded data (the halo elements are present), and
// the range tests disappear ("extended" tiles).
template <bool RangeCheck, class Index, class XView, class YView, class Comp>
struct SearchWalk {
  using Key = typename XView::non_const_value_type;
  const XView& x;
  const YView& y;
  const Comp& comp;
  Index x_first, xi, x_end, yi, y_end;
  Key xk{}, yk{}, xprev{};

  KOKKOS_INLINE_FUNCTION SearchWalk(const XView& x_, Index x_first_, Index xi_, Index x_end_,
                                    const YView& y_, Index yi_, Index y_end_, const Comp& comp_)
      : x(x_),
        y(y_),
        comp(comp_),
        x_first(x_first_),
        xi(xi_),
        x_end(x_end_),
        yi(yi_),
        y_end(y_end_) {
    if (!RangeCheck || xi < x_end) xk = x(xi);
    if (!RangeCheck || yi < y_end) yk = y(yi);
    if (xi > x_first) xprev = x(xi - 1);
  }

  // One step. Returns true for an X step; `match` is set when Match asks for it.
  template <bool Match>
  KOKKOS_INLINE_FUNCTION bool step(bool& match) {
    bool take_x;
    if (RangeCheck && xi >= x_end) {
      take_x = false;
    } else if (RangeCheck && yi >= y_end) {
      take_x = true;
    } else {
      take_x = !comp(yk, xk);
    }
    if (take_x) {
      if constexpr (Match) match = (!RangeCheck || yi < y_end) && !comp(xk, yk);
      xprev = xk;
      ++xi;
      if (!RangeCheck || xi < x_end) xk = x(xi);
    } else {
      if constexpr (Match) match = xi > x_first && !comp(xprev, yk);
      ++yi;
      if (!RangeCheck || yi < y_end) yk = y(yi);
    }
    return take_x;
  }
};

// A sequential walk of `steps` steps from (xi, yi) over whole Views, reporting each result to the
// sink: sink.x(i, lower bound of x[i] in y, match) and sink.y(j, upper bound of y[j] in x, match).
// Host backends run one merge-path chunk per thread with it; sorted_search_team one per thread.
template <class Sink, class XView, class YView, class Comp>
KOKKOS_INLINE_FUNCTION void serial_search(const XView& x, const YView& y, std::int64_t xi,
                                          std::int64_t yi, std::int64_t steps, const Comp& comp,
                                          const Sink& sink) {
  SearchWalk<true, std::int64_t, XView, YView, Comp> w(x, 0, xi, std::int64_t(x.extent(0)), y, yi,
                                                       std::int64_t(y.extent(0)), comp);
  for (std::int64_t s = 0; s < steps; ++s) {
    bool match = false;
    const std::int64_t xi0 = w.xi, yi0 = w.yi;
    if (w.template step<Sink::match>(match)) {
      if constexpr (Sink::want_x) sink.x(xi0, yi0, match);
    } else {
      if constexpr (Sink::want_y) sink.y(yi0, xi0, match);
    }
  }
}

// Chunk c of `chunks` equal pieces of the walk over x and y: co-rank its start, walk its steps.
template <class Sink, class XView, class YView, class Comp>
KOKKOS_INLINE_FUNCTION void search_chunk(const XView& x, const YView& y, std::int64_t c,
                                         std::int64_t chunks, const Comp& comp, const Sink& sink) {
  const std::int64_t m = x.extent(0), n = y.extent(0), total = m + n;
  const std::int64_t d0 = chunk_begin(total, chunks, c), d1 = chunk_begin(total, chunks, c + 1);
  const std::int64_t i0 = merge_path<std::int64_t>(x, 0, m, y, 0, n, d0, comp);
  serial_search(x, y, i0, d0 - i0, d1 - d0, comp, sink);
}

// Chunk c of `chunks` as Ways walks interleaved (host backends, InterleavedPieces), for sinks that
// want one side's results without match flags and store them plainly (Sink::plain_stores): the
// pieces' steps in lockstep with no branch on the comparison. Each step stores the wanted side's
// result for its current element whichever side the step takes: a Y step leaves an X element's
// slot holding a value its own X step overwrites later (in the lockstep or in the rest of its
// piece, which walks one step at a time).
template <int Ways, class Sink, class XView, class YView, class Comp>
inline void search_chunk_interleaved(const XView& x, const YView& y, std::int64_t c,
                                     std::int64_t chunks, const Comp& comp, const Sink& sink) {
  static_assert(Sink::plain_stores && Sink::want_x != Sink::want_y && !Sink::match,
                "the interleaved walk stores one side's bounds, no match flags");
  InterleavedPieces<Ways> p(x, y, c, chunks, comp);
  auto &xi = p.i, &yi = p.j;
  while (const std::int64_t steps = p.lockstep()) {
    for (std::int64_t s = 0; s < steps; ++s) {
      for (int w = 0; w < Ways; ++w) {
        const bool take_x = !comp(y(yi[w]), x(xi[w]));
        if constexpr (Sink::want_x) {
          sink.x(xi[w], yi[w], false);
        } else {
          sink.y(yi[w], xi[w], false);
        }
        xi[w] += take_x;
        yi[w] += !take_x;
      }
    }
  }
  for (int w = 0; w < Ways; ++w) {
    serial_search(x, y, xi[w], yi[w], (p.i_end[w] - xi[w]) + (p.j_end[w] - yi[w]), comp, sink);
  }
}

// Results of a tile's walk, packed in an int: the tile-local index, and the match in bit 30.
inline constexpr int search_match_bit = 1 << 30;

// Register-blocked walk of a tile : up to VT steps from tile
// positions (xi, yi), each result packed into res[] and its direction into the returned decision
// bits (bit k set: step k was an X step). X results hold yi - y_begin, Y results xi - x_begin.
// The tile's X elements (with the preceding one, where loaded) sit from x_first on.
template <int VT, bool RangeCheck, bool Match, class TileView, class Comp>
KOKKOS_INLINE_FUNCTION unsigned tile_serial_search(const TileView& tile, int x_first, int xi,
                                                   int x_begin, int x_end, int yi, int y_begin,
                                                   int y_end, int count, const Comp& comp,
                                                   int (&res)[VT], int& x_matches, int& y_matches) {
  static_assert(VT <= 32, "decision bits live in one 32-bit word");
  SearchWalk<RangeCheck, int, TileView, TileView, Comp> w(tile, x_first, xi, x_end, tile, yi, y_end,
                                                          comp);
  unsigned decisions = 0;
  ORDO_UNROLL
  for (int k = 0; k < VT; ++k) {
    if (!RangeCheck || k < count) {
      bool match = false;
      const int xi0 = w.xi, yi0 = w.yi;
      const bool took_x = w.template step<Match>(match);
      res[k] = (took_x ? yi0 - y_begin : xi0 - x_begin) | (match ? search_match_bit : 0);
      if (took_x) {
        decisions |= 1u << k;
        x_matches += match;
      } else {
        y_matches += match;
      }
    }
  }
  return decisions;
}

// Tiles of team_size * VT steps of the walk . The team loads its X
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

// Device backends: each team first loads `samples` evenly spaced haystack elements into scratch
// (sample j = hay[j * step]), so that the top levels of every search run in scratch instead of
// chasing L2 and DRAM; each needle then finishes in one step-long range of the haystack. A team
// takes per_team needles (binary_search_dispatch chooses how many).
template <int Samples, class ExecSpace, class Haystack, class Needles, class Out, bool Upper,
          class Comp>
struct BinarySearchTiles {
  using Key = typename Haystack::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using SampleTile = Kokkos::View<Key*, typename ExecSpace::scratch_memory_space,
                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Haystack haystack;
  Needles needles;
  Out out;
  Comp comp;
  int samples;            // min(Samples, |haystack|)
  std::int64_t step;      // ceil(|haystack| / samples)
  std::int64_t per_team;  // needles a team

  std::size_t team_shmem_size(int) const { return SampleTile::shmem_size(Samples); }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    SampleTile tile(member.team_scratch(0), Samples);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, samples),
                         [&](int j) { tile(j) = haystack(j * step); });
    member.team_barrier();
    const std::int64_t n = haystack.extent(0), count = needles.extent(0);
    const std::int64_t first = member.league_rank() * per_team;
    const std::int64_t last = first + per_team < count ? first + per_team : count;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, first, last), [&](std::int64_t i) {
      const auto needle = needles(i);
      // c samples order before the needle: the answer lies in [(c - 1) * step + 1, c * step].
      const std::int64_t c = binary_search<Upper>(tile, 0, samples, needle, comp);
      const std::int64_t lo = c > 0 ? (c - 1) * step + 1 : 0;
      const std::int64_t hi = c * step < n ? c * step : n;
      out(i) = typename Out::non_const_value_type(
          binary_search<Upper>(haystack, lo, hi > lo ? hi - lo : 0, needle, comp));
    });
  }
};

}  // namespace Ordo::Impl

#endif
