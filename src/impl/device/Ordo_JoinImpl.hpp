// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_JOINIMPL_HPP
#define ORDO_IMPL_JOINIMPL_HPP

// Device level of the joins of sorted keys. A join has a primary side P (a, or b for the right
// join) whose order the output keeps, and a secondary side S:
//   Ordo::<algo>::partition, ::tiles (or ::host)  one complete sorted-search walk of P into S:
//                         lower(i), the lower bound of P(i) in S, and count(i), its equal
//                         elements in S (a galloping search from lower(i) where P(i) has a
//                         partner), and (full join) each S(j)'s lower bound in P and whether it
//                         has a partner; host backends without S's unmatched walk twice instead,
//                         the lower bounds, then the upper bounds less them (JoinUpperSink), each
//                         walk interleaved and branch-free
//   Ordo::<algo>::scan    the exclusive scan of the outputs of each P(i): count(i), or at least 1
//                         when P's unmatched elements are kept; (full join) of S's unmatched ones
//                         (Ordo_ScanImpl.hpp: one pass with the look-back on device backends)
//   the sizes are read back (the call checks its outputs' extents before writing anything), then
//   Ordo::<algo>::partition, ::tiles (or ::host)  the load-balancing search of P's outputs:
//                         output k of P(i) is the pair (i, lower(i) + rank), or (i, -1)
//   Ordo::<algo>::unmatched  (full join) S's unmatched elements, (-1, j), at their place in key
//                         order
// (Measured by ordo-perf join; perf_tests/README.md.)

#include <Ordo_Comparators.hpp>
#include <Ordo_SearchTypes.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_LoadBalanceImpl.hpp>
#include <impl/device/Ordo_ScanImpl.hpp>
#include <impl/device/Ordo_SortedSearchImpl.hpp>
#include <impl/lane/Ordo_MergePath.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

template <class ExecSpace>
using JoinWork = WorkspaceView<std::int64_t, ExecSpace>;

// What the counting phase leaves: per P(i) lower(i), count(i) and the scan of its outputs
// (p_scan, |P| + 1 entries); with S's unmatched kept, s_lower(j) (S(j)'s lower bound in P, or
// -1 when S(j) has a partner) and their scan (s_scan, |S| + 1 entries).
template <class ExecSpace>
struct JoinCounts {
  JoinWork<ExecSpace> lower, count, p_scan, s_lower, s_scan;
};

// One walk of P (X) into S (Y): X results give lower(i) and, when P(i) has a partner, count(i)
// by a galloping search from it (the S elements it reads the tile has just loaded); Y results
// give S(j)'s lower bound in P, or -1 when S(j) has a partner.
template <bool KeepS, class PView, class SView, class Work, class Comp>
struct JoinCountSink {
  PView p;
  SView s;
  Work lower, count, s_lower;
  Comp comp;
  static constexpr bool want_x = true, want_y = KeepS, match = true, count_matches = false;
  static constexpr bool plain_stores = false;

  KOKKOS_INLINE_FUNCTION void x(std::int64_t i, std::int64_t bound, bool matched) const {
    lower(i) = bound;
    if (!matched || bound >= std::int64_t(s.extent(0))) {
      count(i) = 0;
      return;
    }
    const auto key = p(i);
    count(i) = gallop_up(bound + 1, std::int64_t(s.extent(0)),
                         [&](std::int64_t q) { return !comp(key, s(q)); }) -
               bound;
  }
  KOKKOS_INLINE_FUNCTION void y(std::int64_t j, std::int64_t bound, bool matched) const {
    s_lower(j) = matched ? -1 : bound;
  }
  KOKKOS_INLINE_FUNCTION void add_counts(std::int64_t, std::int64_t) const {}
};

// Host backends' second walk, of S (X) into P (Y): its Y results are P(i)'s upper bounds in S,
// count(i) = upper - lower(i) (never below 0, on unsorted input too). Plain stores: a provisional
// result is overwritten by P(i)'s own step (search_chunk_interleaved).
template <class Work>
struct JoinUpperSink {
  Work lower, count;
  static constexpr bool want_x = false, want_y = true, match = false, count_matches = false;
  static constexpr bool plain_stores = true;

  KOKKOS_INLINE_FUNCTION void x(std::int64_t, std::int64_t, bool) const {}
  KOKKOS_INLINE_FUNCTION void y(std::int64_t i, std::int64_t upper, bool) const {
    const std::int64_t c = upper - std::int64_t(lower(i));
    count(i) = c > 0 ? c : 0;
  }
  KOKKOS_INLINE_FUNCTION void add_counts(std::int64_t, std::int64_t) const {}
};

template <bool KeepP, class Work>
struct POutputs {
  Work count;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t i) const {
    return KeepP && count(i) == 0 ? 1 : count(i);
  }
};

template <class Work>
struct SUnmatched {
  Work s_lower;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t j) const {
    return s_lower(j) >= 0 ? 1 : 0;
  }
};

// An upper bound of the workspace of a join of m and n elements into outputs of `outputs`
// elements: the counts, with S's unmatched (n) where a join keeps them; the partitions of the
// search and of the expansion, the scans' look-back words.
inline std::size_t join_bound(std::int64_t m, std::int64_t n, std::int64_t outputs) {
  return 2 * slot_bytes<std::int64_t>(m) + slot_bytes<std::int64_t>(m + 1) +
         slot_bytes<std::int64_t>(n) + slot_bytes<std::int64_t>(n + 1) +
         tile_words_bytes(std::max(m + n, m + 1 + outputs)) +
         2 * tile_words_bytes(std::max(m, n) + 1);
}

// Counts the outputs of the join of p and s (P's unmatched kept with KeepP, S's with KeepS).
// Returns {P's outputs, S's unmatched}; fences `space`.
template <bool KeepP, bool KeepS, class ExecSpace, class PView, class SView, class Comp>
std::array<std::int64_t, 2> join_count(const std::string& algo, const ExecSpace& space,
                                       const PView& p, const SView& s, const Comp& comp,
                                       JoinCounts<ExecSpace>& w) {
  const std::int64_t m = p.extent(0), n = s.extent(0);
  w.lower = workspace<std::int64_t>(space, m, WorkspaceSlot::join_lower);
  w.count = workspace<std::int64_t>(space, m, WorkspaceSlot::join_count);
  w.p_scan = workspace<std::int64_t>(space, m + 1, WorkspaceSlot::join_scan);
  if constexpr (KeepS) {
    w.s_lower = workspace<std::int64_t>(space, n, WorkspaceSlot::join_b_lower);
    w.s_scan = workspace<std::int64_t>(space, n + 1, WorkspaceSlot::join_b_scan);
  }
  using Work = JoinWork<ExecSpace>;
  if constexpr (is_host_space_v<ExecSpace> && !KeepS) {
    // Two walks without a branch on the data (the one walk branches on each match, and gallops).
    // On unsorted input the two walks' pieces need not cover the same elements: an element one
    // of them skips keeps the zero set here (no pairs, or pairs from S's start up to its upper
    // bound), never a stale workspace value.
    Kokkos::deep_copy(space, w.lower, std::int64_t(0));
    Kokkos::deep_copy(space, w.count, std::int64_t(0));
    search_dispatch(algo, space, p, s, IndexSink<true, Work>{w.lower}, comp);
    search_dispatch(algo, space, s, p, JoinUpperSink<Work>{w.lower, w.count}, comp);
  } else {
    search_dispatch(
        algo, space, p, s,
        JoinCountSink<KeepS, PView, SView, Work, Comp>{p, s, w.lower, w.count, w.s_lower, comp},
        comp);
  }
  exclusive_scan(algo, space, m, POutputs<KeepP, Work>{w.count}, w.p_scan);
  std::array<std::int64_t, 2> sizes{0, 0};
  if constexpr (KeepS) {
    exclusive_scan(algo, space, n, SUnmatched<Work>{w.s_lower}, w.s_scan);
    sizes = read_back_scalars(space, "Ordo::" + algo + ": fence", Kokkos::subview(w.p_scan, m),
                              Kokkos::subview(w.s_scan, n));
  } else {
    sizes[0] = read_back<1>(space, Kokkos::subview(w.p_scan, std::pair(m, m + 1)),
                            "Ordo::" + algo + ": fence")[0];
  }
  return sizes;
}

// Output k of P(i): (i, lower(i) + rank), or (i, -1) for an unmatched P(i); with S's unmatched
// kept, shifted past those that order before P(i).
template <bool KeepS, class Work, class POut, class SOut>
struct JoinPairStore {
  static constexpr bool writes_at_k = !KeepS;  // KeepS: at k plus the unmatched S before it
  Work lower, count, s_scan;
  POut p_out;
  SOut s_out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k, std::int64_t i, std::int64_t rank) const {
    const std::int64_t pos = KeepS ? k + s_scan(lower(i)) : k;
    using PI = typename POut::non_const_value_type;
    using SI = typename SOut::non_const_value_type;
    p_out(pos) = PI(i);
    s_out(pos) = count(i) ? SI(lower(i) + rank) : SI(-1);
  }
};

template <class Work, class POut, class SOut>
struct JoinUnmatched {
  Work s_lower, s_scan, p_scan;
  POut p_out;
  SOut s_out;
  KOKKOS_FUNCTION void operator()(std::int64_t j) const {
    if (s_lower(j) < 0) return;
    const std::int64_t pos = s_scan(j) + p_scan(s_lower(j));
    p_out(pos) = typename POut::non_const_value_type(-1);
    s_out(pos) = typename SOut::non_const_value_type(j);
  }
};

// The join after its checks: counts, checks the outputs' extents, expands. Returns the size.
template <bool KeepP, bool KeepS, class ExecSpace, class PView, class SView, class POut, class SOut,
          class Comp>
std::int64_t join_dispatch(const char* fn, const std::string& algo, const ExecSpace& space,
                           const PView& p, const SView& s, const POut& p_out, const SOut& s_out,
                           const char* p_name, const char* s_name, const Comp& comp) {
  JoinCounts<ExecSpace> w;
  const auto sizes = join_count<KeepP, KeepS>(algo, space, p, s, comp, w);
  const std::int64_t total = sizes[0] + sizes[1];
  check_size_at_least(fn, p_name, p_out, std::size_t(total));
  check_size_at_least(fn, s_name, s_out, std::size_t(total));
  using Work = JoinWork<ExecSpace>;
  load_balance(algo, space, w.p_scan, sizes[0],
               JoinPairStore<KeepS, Work, POut, SOut>{w.lower, w.count, w.s_scan, p_out, s_out});
  if constexpr (KeepS) {
    Kokkos::parallel_for(
        "Ordo::" + algo + "::unmatched",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, s.extent(0)),
        JoinUnmatched<Work, POut, SOut>{w.s_lower, w.s_scan, w.p_scan, p_out, s_out});
  }
  space.fence(std::string(fn) + ": fence");
  return total;
}

// ---- argument checks (Ordo_Join.hpp)

template <class ExecSpace, class AView, class BView, class Comp>
void check_join_inputs(const char* fn, const ExecSpace& space, const AView& a, const BView& b,
                       const Comp& comp) {
  static_check_views<ExecSpace, AView, BView>();
  static_assert(
      std::is_same_v<typename AView::non_const_value_type, typename BView::non_const_value_type>,
      "Ordo: a join takes a and b of one key type");
  check_all_reachable<ExecSpace>(fn, "a_keys", a, "b_keys", b);
  if constexpr (debug_checks) {
    check_sorted(fn, "a_keys", space, a, comp);
    check_sorted(fn, "b_keys", space, b, comp);
  }
}

template <bool Signed, class ExecSpace, class AView, class BView, class AOut, class BOut>
void check_join_outputs(const char* fn, const AView& a, const BView& b, const AOut& a_out,
                        const BOut& b_out) {
  static_check_views<ExecSpace, AOut, BOut>();
  if constexpr (Signed) {
    static_assert(std::is_signed_v<typename AOut::non_const_value_type> &&
                      std::is_signed_v<typename BOut::non_const_value_type>,
                  "Ordo: left, right and full joins write -1 for a missing side: signed indices");
  }
  check_index_capacity(fn, "a_out", a_out, largest_index(a.extent(0)));
  check_index_capacity(fn, "b_out", b_out, largest_index(b.extent(0)));
  check_all_reachable<ExecSpace>(fn, "a_out", a_out, "b_out", b_out);
  check_no_alias(fn, "a_out", a_out, "a_keys", a, "b_keys", b);
  check_no_alias(fn, "b_out", b_out, "a_keys", a, "b_keys", b, "a_out", a_out);
}

}  // namespace Ordo::Impl

#endif
