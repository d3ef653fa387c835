// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_RUNSIMPL_HPP
#define ORDO_IMPL_RUNSIMPL_HPP

// Device level of the runs of equal keys:
//   unique, unique_by_key   a stable compaction of the runs' first elements (device/
//                           Ordo_CopyIfImpl.hpp: Ordo::copy_if::tiles, or count, scan and scatter
//                           on host backends)
//   reduce_by_key,          Ordo::<algo>::tiles  one pass, a team a tile (team/Ordo_TileRuns.hpp),
//   run_length_encode       the tiles chained by the look-back's words and carried values; host
//                           backends: pieces of elements summarized, their open runs carried
//                           in order, then each thread walks a group of pieces interleaved
//                           without a branch on the heads (Ordo::<algo>::host::*)
//   the vendor seam where it takes the call (Vendor::takes_*: on CUDA, CUB's runs of integer keys
//   under Ordo::less or greater, integer values under Ordo::plus, minimum or maximum, contiguous
//   Views, outputs as long as the input) and is measured faster: from RunsTuning's vendor sizes on
//   bin_offsets             Ordo::bin_offsets::fill  each element writes the offsets of the bins
//                           between its key and the one before it; a reduction of the errors

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_CopyIfImpl.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/device/Ordo_VendorCalls.hpp>
#include <impl/team/Ordo_Lookback.hpp>
#include <impl/team/Ordo_TileRuns.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace Ordo::Impl {

// A reduction op as Ordo calls it, op(a, b) (a before b): a binary function object, or a Kokkos
// reducer (its join(dest, src)).
template <class Op, class V, class = void>
struct ReduceOp {
  Op op;
  KOKKOS_INLINE_FUNCTION V operator()(const V& a, const V& b) const { return V(op(a, b)); }
};

template <class Op, class V>
struct ReduceOp<Op, V,
                std::void_t<decltype(std::declval<const Op&>().join(std::declval<V&>(),
                                                                    std::declval<const V&>()))>> {
  Op op;
  KOKKOS_INLINE_FUNCTION V operator()(const V& a, const V& b) const {
    V r = a;
    op.join(r, b);
    return r;
  }
};

// The value of element i: values(i), or 1 (run_length_encode).
template <class ValueView>
struct ValueOf {
  ValueView values;
  KOKKOS_INLINE_FUNCTION typename ValueView::non_const_value_type operator()(std::int64_t i) const {
    return values(i);
  }
};

template <class V>
struct One {
  KOKKOS_INLINE_FUNCTION V operator()(std::int64_t) const { return V(1); }
};

// ---- host backends: pieces walked interleaved ---------------------------------------------

// What a piece [lo, hi) of the elements holds: how many runs start in it, its first and last run
// heads (hi where none starts), the reduction of all its elements where no run starts in it, and
// of its elements from its last head on (the run it leaves open).
template <class V>
struct PieceRuns {
  std::int64_t heads, first, last;
  V leading, trailing;
};

// The piece [lo, hi)'s runs: its first and last heads found by short walks from either end, the
// heads between counted without a branch. Every walk stays inside the piece whatever the
// comparator answers.
template <class V, class Head, class Source, class Op>
PieceRuns<V> piece_runs(const Head& head, const Source& source, const Op& op, std::int64_t lo,
                        std::int64_t hi) {
  PieceRuns<V> s{0, lo, hi, V(), V()};
  while (s.first < hi && !head(s.first)) ++s.first;
  if (s.first == hi) {
    s.leading = source(lo);
    for (std::int64_t i = lo + 1; i < hi; ++i) s.leading = op(s.leading, source(i));
    return s;
  }
  s.last = hi - 1;
  while (s.last > s.first && !head(s.last)) --s.last;
  std::int64_t heads = 1;
  for (std::int64_t i = s.first + 1; i <= s.last; ++i) heads += head.after(i) ? 1 : 0;
  s.heads = heads;
  s.trailing = source(s.last);
  for (std::int64_t i = s.last + 1; i < hi; ++i) s.trailing = op(s.trailing, source(i));
  return s;
}

// The host runs' pieces of n elements: RunsTuning's host_piece elements each, and a thread's
// group of `ways` consecutive pieces, walked interleaved (HostTuning::merge_ways): one walk waits
// on its running value's chain of op and selection at every element, `ways` walks overlap it.
template <class ExecSpace>
struct HostRunPieces {
  static constexpr std::int64_t piece = RunsTuning<ExecSpace>::host_piece;
  static constexpr int ways = HostTuning::merge_ways;
  static constexpr std::int64_t group = piece * ways;
  std::int64_t n, pieces = (n + piece - 1) / piece, groups = (pieces + ways - 1) / ways;
  std::int64_t lo(std::int64_t p) const { return p * piece; }
  std::int64_t hi(std::int64_t p) const { return n - p * piece < piece ? n : (p + 1) * piece; }
  // Whether group g holds `ways` whole pieces.
  bool whole(std::int64_t g) const { return (g + 1) * group <= n; }
};

// Host backends, the first two passes of the runs in pieces (HostRunPieces): each piece
// summarized in parallel (sums(p)), then in order the value of the run open at each piece's start
// (carried(p), p > 0) and the runs that start before it (sums(p).heads, replaced). Returns the
// number of runs.
template <class V, class ExecSpace, class KeyView, class Source, class Op, class Comp, class Sums,
          class Carried>
std::int64_t host_piece_carries(const std::string& algo, const ExecSpace& space,
                                const KeyView& keys, const Source& source, const Op& op,
                                const Comp& comp, const Sums& sums, const Carried& carried) {
  const HostRunPieces<ExecSpace> at{std::int64_t(keys.extent(0))};
  const SelectRunHead<KeyView, Comp> head{keys, comp};
  Kokkos::parallel_for(
      "Ordo::" + algo + "::host::pieces",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, at.pieces),
      [=](std::int64_t p) { sums(p) = piece_runs<V>(head, source, op, at.lo(p), at.hi(p)); });
  space.fence();
  std::int64_t runs = 0;
  PieceRuns<V> before{};
  for (std::int64_t p = 0; p < at.pieces; ++p) {
    const PieceRuns<V> s = sums(p);
    if (p > 0) carried(p) = before.heads > 0 ? before.trailing : op(carried(p - 1), before.leading);
    sums(p).heads = runs;
    runs += s.heads;
    before = s;
  }
  return runs;
}

// One walk over a piece's runs from its first head to its last (host_reduce_runs): at element i,
// its run's slot r, first key and running value; the key before it.
template <class K, class V>
struct RunWalk {
  std::int64_t i, end, r;
  K first_key, prev;
  V acc;
};

// Host backends' runs: the pieces' carries (host_piece_carries), then each piece writes the runs
// it closes and the key of the run it leaves open, a thread a group of pieces. From its first head
// to its last a piece's walk takes no branch on the heads: every element stores its run's first
// key and running value at the run's slot, so that the run's last element leaves the final ones;
// a group's walks go in lockstep while all have elements left, unguarded where every run they can
// find fits both outputs.
template <class V, class ExecSpace, class KeyView, class Source, class Op, class Comp, class KeyOut,
          class ValueOut, class TotalView>
void host_reduce_runs(const std::string& algo, const ExecSpace& space, const KeyView& keys,
                      const Source& source, const Op& op, const Comp& comp, const KeyOut& keys_out,
                      const ValueOut& values_out, const TotalView& total) {
  using K = typename KeyView::non_const_value_type;
  using Walk = RunWalk<K, V>;
  const HostRunPieces<ExecSpace> at{std::int64_t(keys.extent(0))};
  constexpr int ways = HostRunPieces<ExecSpace>::ways;
  const auto sums = workspace<PieceRuns<V>>(space, at.pieces, WorkspaceSlot::runs_words);
  const auto carried = workspace<V>(space, at.pieces, WorkspaceSlot::runs_carries);
  const std::int64_t runs =
      host_piece_carries<V>(algo, space, keys, source, op, comp, sums, carried);
  // Run r's slots exist in both outputs below `both`; each output alone below its extent.
  const std::int64_t key_room = keys_out.extent(0), value_room = values_out.extent(0);
  const std::int64_t both = key_room < value_room ? key_room : value_room;
  const auto store = [=](const Walk& w, auto guarded) {
    if (!decltype(guarded)::value || w.r < both) {
      keys_out(w.r) = w.first_key;
      values_out(w.r) = w.acc;
    } else {
      if (w.r < key_room) keys_out(w.r) = w.first_key;
      if (w.r < value_room) values_out(w.r) = w.acc;
    }
  };
  const auto advance = [=](Walk& w) {
    const K k = keys(++w.i);
    const V v = source(w.i);
    const bool h = differs(comp, w.prev, k);
    w.prev = k;
    w.r += h ? 1 : 0;
    w.acc = pick(h, v, op(w.acc, v));
    w.first_key = pick(h, k, w.first_key);
  };
  Kokkos::parallel_for(
      "Ordo::" + algo + "::host::runs",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, at.groups),
      [=](std::int64_t g) {
        Walk walk[ways];
        bool fits = true;
        std::int64_t steps = at.piece;
        for (int w = 0; w < ways; ++w) {
          const std::int64_t p = g * ways + w;
          Walk& wk = walk[w];
          wk = Walk{0, 0, 0, K(), K(), V()};
          if (p >= at.pieces) {  // the last group's missing pieces: no lockstep
            steps = 0;
            continue;
          }
          const std::int64_t lo = at.lo(p), hi = at.hi(p);
          const PieceRuns<V> s = sums(p);
          // The run open at the piece's start (none in piece 0) closes at its first head, or
          // at the end where the last piece has none; else in a later piece.
          if (p > 0 && (s.first < hi || hi == at.n)) {
            V acc = carried(p);
            for (std::int64_t i = lo; i < s.first; ++i) acc = op(acc, source(i));
            if (s.heads - 1 < value_room) values_out(s.heads - 1) = acc;
          }
          if (s.first == hi) {
            steps = 0;
            continue;
          }
          wk = Walk{s.first, s.last, s.heads, keys(s.first), keys(s.first), source(s.first)};
          fits = fits && wk.r + (wk.end - wk.i) <= both;
          steps = Kokkos::min(steps, wk.end - wk.i);
        }
        if (fits) {
          for (std::int64_t j = 0; j < steps; ++j) {
            unrolled<ways>([&](auto w) {
              store(walk[w], std::false_type{});
              advance(walk[w]);
            });
          }
        }
        for (int w = 0; w < ways && g * ways + w < at.pieces; ++w) {
          Walk& wk = walk[w];
          const std::int64_t p = g * ways + w;
          if (sums(p).first == at.hi(p)) continue;
          while (wk.i < wk.end) {
            store(wk, std::true_type{});
            advance(wk);
          }
          // The run from the last head on, closed here only in the last piece.
          if (wk.r < key_room) keys_out(wk.r) = keys(wk.end);
          if (at.hi(p) == at.n && wk.r < value_room) values_out(wk.r) = sums(p).trailing;
        }
      });
  Kokkos::deep_copy(space, Kokkos::subview(total, 0),
                    typename TotalView::non_const_value_type(runs));
}

// The runs' tiles over keys (values of V from source, reduced by op) on any backend, on the team
// seam Seam: RunsTuning's team_size * vt elements a tile, their look-back words and carried
// values from the workspace (the words zeroed), and make(run) the tiles' functor around the
// RunTile `run` (team/Ordo_TileRuns.hpp), launched as Ordo::<algo>::tiles (reduce_runs, and the
// scans by key's scan_runs).
template <class V, class Seam, class ExecSpace, class KeyView, class Source, class Op, class Comp,
          class Make>
void launch_run_tiles(const std::string& algo, const ExecSpace& space, const KeyView& keys,
                      const Source& source, const Op& op, const Comp& comp, const Make& make) {
  using Tuning = RunsTuning<ExecSpace>;
  constexpr int vt = Tuning::vt(sizeof(typename KeyView::non_const_value_type), sizeof(V));
  constexpr std::int64_t tile = std::int64_t(Tuning::team_size) * vt;
  const std::int64_t n = keys.extent(0), tiles = (n + tile - 1) / tile;
  const auto words = workspace<std::uint64_t>(space, tiles + 1, WorkspaceSlot::runs_words);
  using Carries = LookbackCarries<V, decltype(words)>;
  const Carries carries{
      workspace<std::uint64_t>(space, Carries::words_for(tiles), WorkspaceSlot::runs_carries)};
  // A single tile takes no ticket and reads no word: nothing to zero.
  if (tiles > 1) Kokkos::deep_copy(space, words, 0);
  using Run = RunTile<Seam, Tuning::team_size, vt, Tuning::lookback_window, ExecSpace, KeyView,
                      Source, V, Op, Comp, std::decay_t<decltype(words)>, Carries>;
  const auto functor = make(Run{keys, source, op, comp, words, carries, n, tiles});
  launch_tiles<Tuning::team_size, Tuning::min_teams>(
      "Ordo::" + algo + "::tiles", space,
      TilePlan{tiles, Tuning::team_size, decltype(functor)::scratch_bytes()}, functor);
}

// The runs of keys reduced in one pass: keys_out(r) and values_out(r) for run r (dropped past
// their extents), the number of runs to total(0). Host backends take the pieces
// (host_reduce_runs) unless `use_tiles` asks for the device's tiles, on the team seam Seam (the
// tests: every backend, and TeamSeam on CUDA).
template <class V, class ExecSpace, class KeyView, class Source, class Op, class Comp, class KeyOut,
          class ValueOut, class TotalView, class Seam = WarpSeam<ExecSpace>>
void reduce_runs(const std::string& algo, const ExecSpace& space, const KeyView& keys,
                 const Source& source, const Op& op, const Comp& comp, const KeyOut& keys_out,
                 const ValueOut& values_out, const TotalView& total,
                 bool use_tiles = !is_host_space_v<ExecSpace>, Seam = {}) {
  const std::int64_t n = keys.extent(0);
  if (n == 0) {
    Kokkos::deep_copy(space, Kokkos::subview(total, 0), 0);
    return;
  }
  if constexpr (is_host_space_v<ExecSpace>) {
    if (!use_tiles) {
      host_reduce_runs<V>(algo, space, keys, source, op, comp, keys_out, values_out, total);
      return;
    }
  }
  launch_run_tiles<V, Seam>(algo, space, keys, source, op, comp, [&](const auto& run) {
    return RunTiles<std::decay_t<decltype(run)>, KeyOut, ValueOut, TotalView>{run, keys_out,
                                                                              values_out, total};
  });
}

// ---- the entry points, with the vendor seam -----------------------------------------------------

// unique: the first element of each run of in to out, their number to total(0).
template <class ExecSpace, class InView, class OutView, class Comp, class TotalView>
void unique_dispatch(const char* fn, const ExecSpace& space, const InView& in, const OutView& out,
                     const Comp& comp, const TotalView& total) {
  using Seam = Vendor<ExecSpace>;
  const std::int64_t n = in.extent(0);
  if constexpr (Seam::template takes_unique<InView, OutView, Comp>()) {
    const auto call = [&](void* temp, std::size_t& bytes) {
      Seam::unique(fn, temp, bytes, in.data(), out.data(), total.data(), n, space);
    };
    if (vendor_call(space, RunsTuning<ExecSpace>::unique_vendor_from, VendorShape{n}, call, out))
      return;
  }
  (void)fn;
  compact_dispatch(space, in.extent(0), SelectRunHead<InView, Comp>{in, comp},
                   EmitElement<InView, OutView>{in, out}, total);
}

// run_length_encode: each run's first element and length, their number to total(0).
template <class ExecSpace, class InView, class UniqueOut, class CountsOut, class Comp,
          class TotalView>
void run_length_encode_dispatch(const char* fn, const ExecSpace& space, const InView& in,
                                const UniqueOut& unique_out, const CountsOut& counts_out,
                                const Comp& comp, const TotalView& total) {
  using C = typename CountsOut::non_const_value_type;
  using Seam = Vendor<ExecSpace>;
  const std::int64_t n = in.extent(0);
  if constexpr (Seam::template takes_run_length_encode<InView, UniqueOut, CountsOut, Comp>()) {
    const auto call = [&](void* temp, std::size_t& bytes) {
      Seam::run_length_encode(fn, temp, bytes, in.data(), unique_out.data(), counts_out.data(),
                              total.data(), n, space);
    };
    if (vendor_call(space, RunsTuning<ExecSpace>::vendor_from, VendorShape{n}, call, unique_out,
                    counts_out))
      return;
  }
  (void)fn;
  reduce_runs<C>("run_length_encode", space, in, One<C>{}, ReduceOp<plus<C>, C>{}, comp, unique_out,
                 counts_out, total);
}

// reduce_by_key: each run's first key and op over its values, their number to total(0).
template <class ExecSpace, class KeyView, class ValueView, class KeyOut, class ValueOut, class Op,
          class Comp, class TotalView>
void reduce_by_key_dispatch(const char* fn, const ExecSpace& space, const KeyView& keys,
                            const ValueView& values, const KeyOut& keys_out,
                            const ValueOut& values_out, const Op& op, const Comp& comp,
                            const TotalView& total) {
  using V = typename ValueView::non_const_value_type;
  using Seam = Vendor<ExecSpace>;
  const std::int64_t n = keys.extent(0);
  if constexpr (Seam::template takes_reduce_by_key<KeyView, ValueView, KeyOut, ValueOut, Op,
                                                   Comp>()) {
    const auto call = [&](void* temp, std::size_t& bytes) {
      Seam::reduce_by_key(fn, temp, bytes, keys.data(), keys_out.data(), values.data(),
                          values_out.data(), total.data(), op, n, space);
    };
    if (vendor_call(space, RunsTuning<ExecSpace>::vendor_from, VendorShape{n}, call, keys_out,
                    values_out))
      return;
  }
  (void)fn;
  reduce_runs<V>("reduce_by_key", space, keys, ValueOf<ValueView>{values}, ReduceOp<Op, V>{op},
                 comp, keys_out, values_out, total);
}

// ---- the entry points' argument checks (Ordo_Runs.hpp) ------------------------------------

template <class ExecSpace, class CountView, class... Named>
void check_runs_count(const char* fn, const CountView& count, std::size_t n,
                      const Named&... named) {
  check_index_output<ExecSpace>(fn, "count", count, 1, n);
  check_no_alias(fn, "count", count, named...);
}

template <class ExecSpace, class KeyView, class ValueView, class KeyOut, class ValueOut,
          class... Named>
void check_by_key(const char* fn, const KeyView& keys, const ValueView& values,
                  const KeyOut& keys_out, const ValueOut& values_out, const char* values_out_name,
                  const Named&... named) {
  static_check_views<ExecSpace, KeyView, ValueView, KeyOut, ValueOut>();
  check_size_equal(fn, "values", values, keys.extent(0), "one value per key");
  check_no_alias(fn, "keys_out", keys_out, "keys", keys, "values", values, named...);
  check_no_alias(fn, values_out_name, values_out, "keys", keys, "values", values, "keys_out",
                 keys_out, named...);
  check_all_reachable<ExecSpace>(fn, "keys", keys, "values", values, "keys_out", keys_out,
                                 values_out_name, values_out, named...);
}

template <class ExecSpace, class InView, class UniqueOut, class CountsOut, class... Named>
void check_run_length_encode(const char* fn, const InView& in, const UniqueOut& unique_out,
                             const CountsOut& counts_out, const Named&... named) {
  check_index_output<ExecSpace>(fn, "counts_out", counts_out, 0, in.extent(0));
  check_no_alias(fn, "counts_out", counts_out, "in", in, "unique_out", unique_out, named...);
  check_compaction<ExecSpace>(fn, in, unique_out, "counts_out", counts_out, named...);
}

// ---- bin_offsets -----------------------------------------------------------------------------

// Error bits of bin_offsets.
enum BinError : int { key_out_of_range = 1, keys_unsorted = 2 };

// Whether key k names one of nbins bins, [0, nbins).
template <class K>
KOKKOS_INLINE_FUNCTION bool key_in_bins(const K& k, std::int64_t nbins) {
  if constexpr (std::is_signed_v<K>) {
    if (k < 0) return false;
  }
  return std::uint64_t(k) < std::uint64_t(nbins);
}

// Position i in [0, n] writes offsets(b) = i for the bins b in (keys(i - 1), keys(i)] (from bin 0
// at i = 0, to bin nbins at i = n), clamped to [0, nbins]: every bin is written once when the
// keys are sorted and in range, and no write leaves offsets otherwise.
template <class KeyView, class OffsetView>
struct FillBinOffsets {
  KeyView keys;
  OffsetView offsets;
  std::int64_t n, nbins;

  // The key as a bin in [-1, nbins] (out-of-range keys clamp to -1 or nbins, flagged).
  KOKKOS_INLINE_FUNCTION std::int64_t bin(std::int64_t i, int& errors) const {
    const auto k = keys(i);
    if (key_in_bins(k, nbins)) return std::int64_t(k);
    errors |= key_out_of_range;
    return k < decltype(k)(1) ? -1 : nbins;
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, int& errors) const {
    const std::int64_t lo = i == 0 ? 0 : bin(i - 1, errors) + 1;
    const std::int64_t hi = i == n ? nbins : bin(i, errors);
    if (i > 0 && i < n && keys(i) < keys(i - 1)) errors |= keys_unsorted;
    using Offset = typename OffsetView::non_const_value_type;
    for (std::int64_t b = lo < 0 ? 0 : lo; b <= hi && b <= nbins; ++b) offsets(b) = Offset(i);
  }
};

// The first element that is out of range or out of order (only after bin_offsets failed).
template <class KeyView>
struct FirstBadKey {
  KeyView keys;
  std::int64_t nbins;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& first) const {
    const bool bad = !key_in_bins(keys(i), nbins) || (i > 0 && keys(i) < keys(i - 1));
    if (bad && i < first) first = i;
  }
};

template <class ExecSpace, class KeyView, class OffsetView>
void bin_offsets_impl(const char* fn, const ExecSpace& space, const KeyView& keys,
                      const OffsetView& offsets) {
  const std::int64_t n = keys.extent(0), nbins = std::int64_t(offsets.extent(0)) - 1;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  int errors = 0;
  Kokkos::parallel_reduce("Ordo::bin_offsets::fill", Range(space, 0, n + 1),
                          FillBinOffsets<KeyView, OffsetView>{keys, offsets, n, nbins},
                          Kokkos::BOr<int>(errors));
  if (errors == 0) return;
  std::int64_t first = n;
  Kokkos::parallel_reduce("Ordo::bin_offsets::check", Range(space, 0, n),
                          FirstBadKey<KeyView>{keys, nbins}, Kokkos::Min<std::int64_t>(first));
  const auto key = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(keys, Kokkos::make_pair(first, first + 1)));
  fail(fn, std::string("sorted_keys(") + std::to_string(first) + ") = " + std::to_string(key(0)) +
               (!key_in_bins(key(0), nbins)
                    ? " lies outside [0, " + std::to_string(nbins) + ")"
                    : " orders before the key before it (the keys are not sorted)") +
               "; offsets holds partial results");
}

}  // namespace Ordo::Impl

#endif
