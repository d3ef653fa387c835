// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SCANBYKEYIMPL_HPP
#define ORDO_IMPL_SCANBYKEYIMPL_HPP

// Device level of inclusive_scan_by_key and exclusive_scan_by_key (a scan that restarts at each
// run of equal keys):
//   device backends  Ordo::<algo>::tiles  one pass, a team a tile, the runs' tile and look-back
//                    with its carried values (team/Ordo_TileRuns.hpp, ScanByKeyTiles)
//   host backends    the runs' pieces summarized (Ordo_RunsImpl.hpp, host_piece_carries),
//                    then a thread's group of pieces writes their scans, walked interleaved
//                    (Ordo::<algo>::host::scan)
//   the vendor seam where it takes the call (Vendor::takes_scan_by_key: on CUDA, CUB's scans by
//                    key of integer keys under Ordo::less or greater and integer values under
//                    plus, minimum or maximum, contiguous Views) and is measured faster: from
//                    RunsTuning's vendor_from on
// Ordo's paths fix the order of every reduction by the tiles or pieces, not the threads: the same
// bits on every run (the vendor's integer scans are exact in any order). An exclusive scan folds
// init into the value of each run's first element (ScanSource) and writes, at each element, the
// reduction before it.

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_RunsImpl.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/device/Ordo_VendorCalls.hpp>
#include <impl/team/Ordo_Lookback.hpp>
#include <impl/team/Ordo_TileRuns.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// The value a scan by key reduces at element i: values(i), and for an exclusive scan
// op(init, values(i)) where i starts a run.
template <class KeyView, class ValueView, class Op, class Comp, class V>
struct ScanSource {
  KeyView keys;
  ValueView values;
  Op op;
  Comp comp;
  V init;
  bool exclusive;
  KOKKOS_INLINE_FUNCTION V operator()(std::int64_t i) const {
    const V v = values(i);
    return exclusive && SelectRunHead<KeyView, Comp>{keys, comp}(i) ? op(init, v) : v;
  }
};

// out(i) for i in [0, n): the scan of source by runs of keys (exclusive: init at each run's
// first element, else the reduction before i). Host backends take the pieces unless `use_tiles`
// asks for the device's tiles, on the team seam Seam (the tests: every backend, and TeamSeam on
// CUDA).
template <class V, class ExecSpace, class KeyView, class Source, class Op, class Comp,
          class OutView, class Seam = WarpSeam<ExecSpace>>
void scan_runs(const std::string& algo, const ExecSpace& space, const KeyView& keys,
               const Source& source, const Op& op, const Comp& comp, const OutView& out,
               const V& init, bool exclusive, bool use_tiles = !is_host_space_v<ExecSpace>,
               Seam = {}) {
  const std::int64_t n = keys.extent(0);
  if (n == 0) return;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  if constexpr (is_host_space_v<ExecSpace>) {
    if (!use_tiles) {
      using K = typename KeyView::non_const_value_type;
      const HostRunPieces<ExecSpace> at{n};
      constexpr int ways = HostRunPieces<ExecSpace>::ways;
      const auto sums = workspace<PieceRuns<V>>(space, at.pieces, WorkspaceSlot::runs_words);
      const auto carried = workspace<V>(space, at.pieces, WorkspaceSlot::runs_carries);
      host_piece_carries<V>(algo, space, keys, source, op, comp, sums, carried);
      const SelectRunHead<KeyView, Comp> head{keys, comp};
      // Element i of a walk whose running value is acc and key before it prev, without a branch
      // on the heads.
      const auto step = [=](std::int64_t i, bool h, V& acc) {
        const V v = source(i);  // read before out(i) is written: out may be values
        const V before = acc;
        acc = pick(h, v, op(acc, v));
        out(i) = exclusive ? pick(h, init, before) : acc;
      };
      const auto next = [=](std::int64_t i, K& prev, V& acc) {
        const K k = keys(i);
        const bool h = differs(comp, prev, k);
        prev = k;
        step(i, h, acc);
      };
      // Piece p's walk from its first element: the run open at its start carried in.
      const auto start = [=](std::int64_t p, K& prev, V& acc) {
        acc = p > 0 ? carried(p) : V();
        prev = keys(at.lo(p));
        step(at.lo(p), head(at.lo(p)), acc);
      };
      Kokkos::parallel_for(
          "Ordo::" + algo + "::host::scan", Range(space, 0, at.groups), [=](std::int64_t g) {
            K prev[ways];
            V acc[ways];
            if (at.whole(g)) {  // the group's pieces in lockstep
              for (int w = 0; w < ways; ++w) start(g * ways + w, prev[w], acc[w]);
              const std::int64_t lo = at.lo(g * ways);
              for (std::int64_t j = 1; j < at.piece; ++j) {
                unrolled<ways>([&](auto w) { next(lo + w * at.piece + j, prev[w], acc[w]); });
              }
              return;
            }
            for (std::int64_t p = g * ways; p < at.pieces; ++p) {
              start(p, prev[0], acc[0]);
              for (std::int64_t i = at.lo(p) + 1; i < at.hi(p); ++i) next(i, prev[0], acc[0]);
            }
          });
      return;
    }
  }
  launch_run_tiles<V, Seam>(algo, space, keys, source, op, comp, [&](const auto& run) {
    return ScanByKeyTiles<std::decay_t<decltype(run)>, OutView, V>{run, out, init, exclusive};
  });
}

// The scan by key of values into out; exclusive: from init.
template <class ExecSpace, class KeyView, class ValueView, class OutView, class Op, class Comp>
void scan_by_key_dispatch(const char* algo, const ExecSpace& space, const KeyView& keys,
                          const ValueView& values, const OutView& out,
                          const typename ValueView::non_const_value_type& init, bool exclusive,
                          const Op& op, const Comp& comp) {
  using V = typename ValueView::non_const_value_type;
  using Seam = Vendor<ExecSpace>;
  const std::int64_t n = keys.extent(0);
  if constexpr (Seam::template takes_scan_by_key<KeyView, ValueView, OutView, Op, Comp>()) {
    const auto call = [&](void* temp, std::size_t& bytes) {
      Seam::scan_by_key(algo, temp, bytes, keys.data(), values.data(), out.data(), op, exclusive,
                        init, n, space);
    };
    // Exclusive and inclusive scans are two calls of different storage.
    if (vendor_call(space, RunsTuning<ExecSpace>::vendor_from, VendorShape{n, 0, 0, 0, exclusive},
                    call, out))
      return;
  }
  const ReduceOp<Op, V> reduce{op};
  const ScanSource<KeyView, ValueView, ReduceOp<Op, V>, Comp, V> source{keys, values, reduce,
                                                                        comp, init,   exclusive};
  scan_runs<V>(algo, space, keys, source, reduce, comp, out, init, exclusive);
}

// The scans' argument checks: one value and one output per key; out may be values itself (the
// scan in place), but may not overlap keys or any other part of values.
template <class ExecSpace, class KeyView, class ValueView, class OutView>
void check_scan_by_key(const char* fn, const KeyView& keys, const ValueView& values,
                       const OutView& out) {
  static_check_views<ExecSpace, KeyView, ValueView, OutView>();
  static_assert(!std::is_const_v<typename OutView::value_type>, "Ordo: out is written");
  static_assert(std::is_assignable_v<typename OutView::reference_type,
                                     typename ValueView::non_const_value_type>,
                "Ordo: out's elements must be assignable from values'");
  check_size_equal(fn, "values", values, keys.extent(0), "one value per key");
  check_size_equal(fn, "out", out, keys.extent(0), "one output per key");
  check_all_reachable<ExecSpace>(fn, "keys", keys, "values", values, "out", out);
  check_no_alias(fn, "out", out, "keys", keys);
  const bool in_place =
      static_cast<const void*>(out.data()) == static_cast<const void*>(values.data()) &&
      out.span() == values.span() &&
      sizeof(typename OutView::value_type) == sizeof(typename ValueView::value_type) &&
      (keys.extent(0) < 2 || out.stride(0) == values.stride(0));
  if (!in_place) check_no_alias(fn, "out", out, "values", values);
}

}  // namespace Ordo::Impl

#endif
