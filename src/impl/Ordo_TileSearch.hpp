// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILESEARCH_HPP
#define ORDO_IMPL_TILESEARCH_HPP

// Team level of sorted search (seed 000: CPUSortedSearch3, DeviceSerialSearch, CTASortedSearch).
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

#include <impl/Ordo_TileMerge.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// The state of one walk over x[x_first, x_end) and y[.., y_end) (x_first: where X's first loaded
// element sits, so that a Y step at xi == x_first has no preceding X). With RangeCheck false the
// caller guarantees the walk never runs off the loaded data (the halo elements are present), and
// the range tests disappear (seed 000's "extended" tiles).
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

// Results of a tile's walk, packed in an int: the tile-local index, and the match in bit 30.
inline constexpr int search_match_bit = 1 << 30;

// Register-blocked walk of a tile (seed 000's DeviceSerialSearch): up to VT steps from tile
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

}  // namespace Ordo::Impl

#endif
