// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTEDSEARCHIMPL_HPP
#define ORDO_IMPL_SORTEDSEARCHIMPL_HPP

// Device level of sorted search: dispatch by execution space and size.
//   device backends: Ordo::<algo>::partition (the merge-path partitioner of merge) then
//                    Ordo::<algo>::tiles (pipelined tiles, as merge's); small inputs: one
//                    launch, Ordo::<algo>::fused, whose teams co-rank their own tiles
//   host backends:   Ordo::<algo>::host, one merge-path chunk of the walk per thread, walked as
//                    interleaved pieces where the sink's results are plain stores
// The binary search of unsorted needles is in Ordo_BinarySearchImpl.hpp; the bounds alone
// (sorted_search with an index View) take it on device backends where a and b together hold at
// most SearchTuning::binary_max_total elements (one launch of independent searches, where the
// walk's tile makes four dependent trips through memory and barriers).
//
// What a walk produces goes to a sink (see Ordo_TileSearch.hpp for the walk): the sink says at
// compile time which results it wants (want_x, want_y), whether it needs match flags (match) and
// match counts (count_matches), whether its results are plain stores that a later result of the
// same element may overwrite (plain_stores: host backends then interleave the walks,
// search_chunk_interleaved), and stores each result where its caller asked.

#include <Ordo_SearchTypes.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_BinarySearchImpl.hpp>
#include <impl/device/Ordo_MergePathLaunch.hpp>
#include <impl/team/Ordo_TileMerge.hpp>
#include <impl/team/Ordo_TileSearch.hpp>

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
  static constexpr bool plain_stores = true;
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
  static constexpr bool plain_stores = false;

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

// Second pass of sorted_equality_count (the equality counts): the walk of X = B and
// Y = A gives the upper bound of each a[j] in b; counts(j) holds its lower bound from the first
// pass and becomes the difference.
template <class CountView>
struct EqualityCountSink {
  CountView counts;
  static constexpr bool want_x = false, want_y = true, match = false, count_matches = false;
  static constexpr bool plain_stores = false;  // counts(j) is read back
  using value_type = typename CountView::non_const_value_type;

  KOKKOS_INLINE_FUNCTION void x(std::int64_t, std::int64_t, bool) const {}
  KOKKOS_INLINE_FUNCTION void y(std::int64_t j, std::int64_t upper, bool) const {
    counts(j) = value_type(upper - std::int64_t(counts(j)));
  }
  KOKKOS_INLINE_FUNCTION void add_counts(std::int64_t, std::int64_t) const {}
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
    } else if constexpr (Sink::plain_stores) {
      search_chunk_interleaved<HostTuning::merge_ways>(x, y, c, chunks, comp, sink);
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
  if constexpr (!is_host_space_v<ExecSpace>) {
    using Tuning = SearchTuning<ExecSpace, sizeof(typename AView::value_type)>;
    if (path == SearchPath::automatic &&
        std::int64_t(a.extent(0) + b.extent(0)) <= Tuning::binary_max_total) {
      const char* label = "Ordo::sorted_search::binary_search";
      if (bounds == Bounds::lower) {
        binary_search_dispatch<false>(label, space, b, a, a_index, comp);
      } else {
        binary_search_dispatch<true>(label, space, b, a, a_index, comp);
      }
      return;
    }
  }
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
