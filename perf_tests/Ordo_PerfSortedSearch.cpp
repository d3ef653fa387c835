// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf sorted_search: Ordo's searches against thrust::lower_bound (CUDA builds), a
// std::lower_bound loop (host), a device copy of the bytes the search must move, and, for the
// complete search and the equality count, Ordo's own plain lower-bound search.
//
// Modes (--mode; default: all of them):
//   lower           lower bounds of sorted A into sorted B, |A| = |B| = n/2, int32 indices
//   complete        both index outputs and both match flags (uint8_t), counts to a device View
//   equality_count  sorted_equality_count of A in B
//   unsorted        Ordo::lower_bound of n/2 needles in random order in a haystack of n/2
// --index u64 writes 64-bit indices (the primitive's name gains ":index-u64"), as sizes above
// 2^31 elements need.

#include "Ordo_PerfSortedSearch.hpp"

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#endif

namespace OrdoPerf {
namespace {

using Flag = std::uint8_t;

template <class T>
void check_equal(const std::vector<T>& expected, const Kokkos::View<T*, MemorySpace>& got,
                 const char* what) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got);
  if (!std::equal(expected.begin(), expected.end(), h.data())) {
    throw std::runtime_error(std::string("ordo-perf sorted_search --check: ") + what +
                             " differs from the std:: oracle");
  }
}

template <class T, class Index>
void run_point(const Options& o, const std::string& mode, Report& report, int log2n) {
  const ExecSpace space;
  const Ordo::less<> comp;
  const std::int64_t n = std::int64_t(1) << log2n, m = n / 2, nb = n - m;
  const bool unsorted = mode == "unsorted";
  const auto hb = sorted_keys<T>(o.dist, nb, 2);
  const auto ha =
      unsorted ? shuffled(sorted_keys<T>(o.dist, m, 1), 3) : sorted_keys<T>(o.dist, m, 1);
  auto a = to_device(ha, "a"), b = to_device(hb, "b");
  Kokkos::View<Index*, MemorySpace> a_index("a_index", m), b_index, counts;
  Kokkos::View<Flag*, MemorySpace> a_match, b_match;
  Kokkos::View<std::int64_t*, MemorySpace> match_counts("match_counts", 2);
  if (mode == "complete") {
    b_index = Kokkos::View<Index*, MemorySpace>("b_index", nb);
    a_match = Kokkos::View<Flag*, MemorySpace>("a_match", m);
    b_match = Kokkos::View<Flag*, MemorySpace>("b_match", nb);
  }

  // Bytes the search must move: read both inputs, write each wanted output once.
  double bytes = double(n) * sizeof(T) + double(m) * sizeof(Index);
  if (mode == "complete") bytes += double(nb) * sizeof(Index) + double(n) * sizeof(Flag);
  const std::string primitive =
      "sorted_search:" + mode + (std::is_same_v<Index, std::int32_t> ? "" : ":index-" + o.index);
  Point p{primitive, o.key, o.dist, "ordo", false, n, {}, bytes, 1.0};

  auto lower = [&] { Ordo::sorted_search(space, a, b, a_index, Ordo::Bounds::lower); };
  p.stats = time_device(space, o.warmup, o.reps, [&] {
    if (mode == "lower") {
      lower();
    } else if (mode == "complete") {
      Ordo::sorted_search(space, a, b, Ordo::SearchOutputs{a_index, a_match, b_index, b_match},
                          Ordo::Bounds::lower, match_counts);
    } else if (mode == "equality_count") {
      Ordo::sorted_equality_count(space, a, b, a_index);
    } else {
      Ordo::lower_bound(space, b, a, a_index);
    }
  });
  const double ordo_ms = p.stats.median_ms;
  report.point(p);

  if (o.check) {
    std::vector<Index> lb(m), ub(nb);
    for (std::int64_t i = 0; i < m; ++i) {
      const auto [lo, hi] = std::equal_range(hb.begin(), hb.end(), ha[i], comp);
      lb[i] = Index((mode == "equality_count" ? hi - lo : lo - hb.begin()));
    }
    check_equal(lb, a_index, mode == "equality_count" ? "counts" : "a_index");
    if (mode == "complete") {
      for (std::int64_t j = 0; j < nb; ++j) {
        ub[j] = Index(std::upper_bound(ha.begin(), ha.end(), hb[j], comp) - ha.begin());
      }
      check_equal(ub, b_index, "b_index");
    }
  }

  auto baseline = [&](const std::string& impl, const Stats& s) {
    report.point(Point{primitive, o.key, o.dist, impl, false, n, s, bytes, s.median_ms / ordo_ms});
  };

  // The roof: a device copy of the same number of bytes (half read, half written).
  if (wanted(o, "copy")) {
    baseline("copy", time_copy(o, bytes));
  }
  // The plain lower-bound search, for the modes that do more.
  if (mode == "complete" || mode == "equality_count") {
    baseline("ordo lower", time_device(space, o.warmup, o.reps, lower));
  }
  if ((on_host && o.baselines.empty()) || (!o.baselines.empty() && wanted(o, "std::lower_bound"))) {
    std::vector<Index> out(m);
    baseline("std::lower_bound", time_host(o.warmup, o.reps, [&] {
               for (std::int64_t i = 0; i < m; ++i) {
                 out[i] = Index(std::lower_bound(hb.begin(), hb.end(), ha[i], comp) - hb.begin());
               }
             }));
  }
#if defined(KOKKOS_ENABLE_CUDA)
  const char* thrust_name =
      unsorted ? "thrust::lower_bound (random needles)" : "thrust::lower_bound (sorted needles)";
  if (wanted(o, "thrust::lower_bound")) {
    Kokkos::View<Index*, MemorySpace> out("thrust_out", m);
    baseline(thrust_name, time_device(space, o.warmup, o.reps, [&] {
               thrust::lower_bound(thrust::cuda::par_nosync.on(space.cuda_stream()), b.data(),
                                   b.data() + nb, a.data(), a.data() + m, out.data(), comp);
             }));
  }
#endif
}

}  // namespace

void run_sorted_search(const Options& o, Report& report) {
  const std::vector<std::string> modes =
      o.mode.empty() ? std::vector<std::string>{"lower", "complete", "equality_count", "unsorted"}
                     : std::vector<std::string>{o.mode};
  const auto sizes = parse_log2n(o.log2n.empty() ? (on_host ? "22" : "24") : o.log2n);
  for (const auto& mode : modes) {
    for (int log2n : sizes) {
      for_key_type(o.key, [&](auto key) {
        if (o.index == "u64") {
          run_point<decltype(key), std::uint64_t>(o, mode, report, log2n);
        } else {
          run_point<decltype(key), std::int32_t>(o, mode, report, log2n);
        }
      });
    }
  }
}

}  // namespace OrdoPerf
