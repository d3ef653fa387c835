// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_RUNSIMPL_HPP
#define ORDO_IMPL_RUNSIMPL_HPP

// Device level of the runs of equal keys:
//   unique, unique_by_key   a stable compaction of the runs' first elements (device/
//                           Ordo_CopyIfImpl.hpp: Ordo::copy_if::tiles, or count, scan and scatter
//                           on host backends)
//   reduce_by_key,          Ordo::<algo>::tiles  one pass, a team a tile (team/Ordo_TileRuns.hpp),
//   run_length_encode       the tiles chained by the look-back's words and carried values; host
//                           backends: chunks of elements a thread at a time, their open runs
//                           carried in order between two passes (Ordo::<algo>::host::*)
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

// ---- host backends: a chunk a thread --------------------------------------------------------

// What a chunk of the elements holds: how many runs start in it, the reduction of its elements
// before its first run head (all of them where none starts), and of its elements from its last
// head on (the run it leaves open).
template <class V>
struct ChunkRuns {
  std::int64_t heads;
  V leading, trailing;
};

// Host backends, the first two passes of the runs in chunks (RunsTuning's host_chunk elements):
// each chunk summarized in parallel (sums(c)), then in order the value of the run open at each
// chunk's start (carried(c), c > 0) and the runs that start before it (sums(c).heads, replaced).
// Returns the number of runs. The chunks, not the threads, fix the order of each run's reduction.
template <class V, class ExecSpace, class KeyView, class Source, class Op, class Comp, class Sums,
          class Carried>
std::int64_t host_chunk_carries(const std::string& algo, const ExecSpace& space,
                                const KeyView& keys, const Source& source, const Op& op,
                                const Comp& comp, const Sums& sums, const Carried& carried) {
  const std::int64_t n = keys.extent(0);
  constexpr std::int64_t chunk = RunsTuning<ExecSpace>::host_chunk;
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  const SelectRunHead<KeyView, Comp> head{keys, comp};
  // The keys alone, then the values of the chunk's first and last (partial) runs.
  Kokkos::parallel_for(
      "Ordo::" + algo + "::host::chunks",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
      [=](std::int64_t c) {
        const std::int64_t lo = c * chunk, hi = n - lo < chunk ? n : lo + chunk;
        std::int64_t heads = 0, first = hi, last = hi;
        for (std::int64_t i = lo; i < hi; ++i) {
          if (head(i)) {
            if (heads++ == 0) first = i;
            last = i;
          }
        }
        ChunkRuns<V> s{heads, source(lo), source(last < hi ? last : lo)};
        for (std::int64_t i = lo + 1; i < first; ++i) s.leading = op(s.leading, source(i));
        for (std::int64_t i = last + 1; i < hi; ++i) s.trailing = op(s.trailing, source(i));
        sums(c) = s;
      });
  space.fence();
  std::int64_t runs = 0;
  ChunkRuns<V> before{};
  for (std::int64_t c = 0; c < chunks; ++c) {
    const ChunkRuns<V> s = sums(c);
    if (c > 0) carried(c) = before.heads > 0 ? before.trailing : op(carried(c - 1), before.leading);
    sums(c).heads = runs;
    runs += s.heads;
    before = s;
  }
  return runs;
}

// Host backends' runs: the chunks' carries (host_chunk_carries), then each chunk writes the runs
// it closes and starts, in parallel.
template <class V, class ExecSpace, class KeyView, class Source, class Op, class Comp, class KeyOut,
          class ValueOut, class TotalView>
void host_reduce_runs(const std::string& algo, const ExecSpace& space, const KeyView& keys,
                      const Source& source, const Op& op, const Comp& comp, const KeyOut& keys_out,
                      const ValueOut& values_out, const TotalView& total) {
  const std::int64_t n = keys.extent(0);
  constexpr std::int64_t chunk = RunsTuning<ExecSpace>::host_chunk;
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  const auto sums = workspace<ChunkRuns<V>>(space, chunks, WorkspaceSlot::runs_words);
  const auto carried = workspace<V>(space, chunks, WorkspaceSlot::runs_carries);
  const std::int64_t runs =
      host_chunk_carries<V>(algo, space, keys, source, op, comp, sums, carried);
  const SelectRunHead<KeyView, Comp> head{keys, comp};
  Kokkos::parallel_for(
      "Ordo::" + algo + "::host::runs",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
      [=](std::int64_t c) {
        const std::int64_t lo = c * chunk, hi = n - lo < chunk ? n : lo + chunk;
        std::int64_t r = sums(c).heads - 1;  // the run open at the chunk's start
        V acc = c > 0 ? carried(c) : source(0);
        auto put = [&](std::int64_t run, const V& value) {
          if (run >= 0 && run < std::int64_t(values_out.extent(0))) values_out(run) = value;
        };
        for (std::int64_t i = lo; i < hi; ++i) {
          const V v = source(i);
          if (head(i)) {
            put(r, acc);
            ++r;
            if (r < std::int64_t(keys_out.extent(0))) keys_out(r) = keys(i);
            acc = v;
          } else {
            acc = op(acc, v);
          }
        }
        if (hi == n) put(r, acc);
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
// their extents), the number of runs to total(0). Host backends take the chunks
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
