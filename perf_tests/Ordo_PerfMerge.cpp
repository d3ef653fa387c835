// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf merge: Ordo::merge / merge_by_key against std::merge (host), a device copy of the
// same bytes, and cub::DeviceMerge (CUDA builds).

#include "Ordo_PerfMerge.hpp"

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfHostBaselines.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_merge.cuh>
#endif

namespace OrdoPerf {
namespace {

template <class T>
void run_point(const Options& o, Report& report, int log2n) {
  using V = std::uint32_t;  // values of merge_by_key
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n, m = n / 2;
  const auto ha = sorted_keys<T>(o.dist, m, 1), hb = sorted_keys<T>(o.dist, n - m, 2);
  std::vector<V> hav(m), hbv(n - m);
  for (std::int64_t i = 0; i < m; ++i) hav[i] = V(i);
  for (std::int64_t j = 0; j < n - m; ++j) hbv[j] = V(m + j);
  auto a = to_device(ha, "a"), b = to_device(hb, "b");
  Kokkos::View<T*, MemorySpace> out("out", n);
  Kokkos::View<V*, MemorySpace> av, bv, outv;
  if (o.values) {
    av = to_device(hav, "a_values");
    bv = to_device(hbv, "b_values");
    outv = Kokkos::View<V*, MemorySpace>("out_values", n);
  }
  const double bytes = 2.0 * n * (sizeof(T) + (o.values ? sizeof(V) : 0));
  Point p{"merge", o.key, o.dist, "ordo", o.values, n, {}, bytes, 1.0};

  p.stats = time_device(space, o.warmup, o.reps, [&] {
    if (o.values) {
      Ordo::merge_by_key(space, a, av, b, bv, out, outv);
    } else {
      Ordo::merge(space, a, b, out);
    }
  });
  const double ordo_ms = p.stats.median_ms;
  report.point(p);

  if (o.check) {
    std::vector<T> expected(n);
    std::merge(ha.begin(), ha.end(), hb.begin(), hb.end(), expected.begin(), Ordo::less<>());
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    if (!std::equal(expected.begin(), expected.end(), got.data())) {
      throw std::runtime_error("ordo-perf merge --check: Ordo's output differs from std::merge");
    }
    if (o.values) {
      auto gv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), outv);
      std::vector<std::pair<T, V>> ap(m), bp(n - m), ep(n);
      for (std::int64_t i = 0; i < m; ++i) ap[i] = {ha[i], hav[i]};
      for (std::int64_t j = 0; j < n - m; ++j) bp[j] = {hb[j], hbv[j]};
      std::merge(ap.begin(), ap.end(), bp.begin(), bp.end(), ep.begin(),
                 [](const auto& x, const auto& y) { return Ordo::less<>()(x.first, y.first); });
      for (std::int64_t k = 0; k < n; ++k) {
        if (gv(k) != ep[k].second) {
          throw std::runtime_error("ordo-perf merge --check: merge_by_key values differ");
        }
      }
    }
  }

  auto baseline = [&](const std::string& impl, const Stats& s) {
    report.point(Point{"merge", o.key, o.dist, impl, o.values, n, s, bytes, s.median_ms / ordo_ms});
  };

  // The roof: a device copy of the same bytes.
  if (wanted(o, "copy")) {
    Kokkos::View<T*, MemorySpace> src("copy_src", n);
    Kokkos::View<V*, MemorySpace> srcv("copy_src_values", o.values ? n : 0);
    baseline("copy", time_device(space, o.warmup, o.reps, [&] {
               Kokkos::deep_copy(space, out, src);
               if (o.values) Kokkos::deep_copy(space, outv, srcv);
             }));
  }
  if ((on_host && o.baselines.empty()) || (!o.baselines.empty() && wanted(o, "std::merge"))) {
    std::vector<T> hout(n);
    std::vector<V> houtv(o.values ? n : 0);
    baseline("std::merge", time_host(o.warmup, o.reps, [&] {
               if (!o.values) {
                 std::merge(ha.begin(), ha.end(), hb.begin(), hb.end(), hout.begin(),
                            Ordo::less<>());
                 return;
               }
               // std::merge of pairs would time a different layout; merge the two arrays
               // in lockstep instead, as a sequential merge_by_key.
               std::int64_t i = 0, j = 0, k = 0;
               while (i < m && j < n - m) {
                 const bool take_b = Ordo::less<>()(hb[j], ha[i]);
                 hout[k] = take_b ? hb[j] : ha[i];
                 houtv[k++] = take_b ? hbv[j++] : hav[i++];
               }
               for (; i < m; ++i, ++k) hout[k] = ha[i], houtv[k] = hav[i];
               for (; j < n - m; ++j, ++k) hout[k] = hb[j], houtv[k] = hbv[j];
             }));
  }
  if (!o.values) {
    std::vector<T> hout(n);
    host_parallel_merges(o, ha, hb, hout, Ordo::less<>(), baseline);
  }
#if defined(KOKKOS_ENABLE_CUDA)
  const char* cub_name = o.values ? "cub::DeviceMerge::MergePairs" : "cub::DeviceMerge::MergeKeys";
  if (wanted(o, cub_name)) {
    std::size_t temp_bytes = 0;
    auto cub_call = [&](void* temp) {
      cudaError_t e;
      if (o.values) {
        e = cub::DeviceMerge::MergePairs(temp, temp_bytes, a.data(), av.data(), m, b.data(),
                                         bv.data(), n - m, out.data(), outv.data(), Ordo::less<>(),
                                         space.cuda_stream());
      } else {
        e = cub::DeviceMerge::MergeKeys(temp, temp_bytes, a.data(), m, b.data(), n - m, out.data(),
                                        Ordo::less<>(), space.cuda_stream());
      }
      cuda_check(e, cub_name);
    };
    cub_call(nullptr);
    Kokkos::View<char*, MemorySpace> temp("cub_temp", temp_bytes);
    baseline(cub_name, time_device(space, o.warmup, o.reps, [&] { cub_call(temp.data()); }));
  }
#endif
}

}  // namespace

void run_merge(const Options& o, Report& report) {
  const auto sizes = parse_log2n(o.log2n.empty() ? (on_host ? "22" : "24") : o.log2n);
  for (int log2n : sizes) {
    for_key_type(o.key, [&](auto key) { run_point<decltype(key)>(o, report, log2n); });
  }
}

}  // namespace OrdoPerf
