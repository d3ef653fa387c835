// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf coo2crs, scan_by_key and sort --keys 2: sparse assembly from triplets and the core
// primitives it is built on, against the hand-written vendor pipelines (CUDA builds) and
// sequential loops (host builds), and a device copy of the bytes moved.
//
// coo2crs      the assembly of ordo's Ordo::KokkosKernels::coo2crs (the core's assemble_crs: the
//              same code, int indices, f64 values, the CRS arrays allocated in the call) from
//              Triplets of --dist uniform (30% repeats) or fem:B (FEM blocks); baselines: a CUB
//              pipeline (pack into 32- or 64-bit words, cub::DeviceRadixSort::SortPairs of the bits
//              m and n need, cub::DeviceReduce::ReduceByKey, a row-map pass), the sequential
//              std::stable_sort and loop (host). KokkosSparse::coo2crs is ordo-perf-kokkoskernels'.
// scan_by_key  inclusive_scan_by_key of u32 and f64 values over sorted u32 keys in runs of mean
//              L (--dist runs:L, default runs:4); baselines: cub::DeviceScan::InclusiveScanByKey,
//              thrust::inclusive_scan_by_key, the sequential loop
// sort --keys 2  sort_by_key(keys(row, col), values): u32 rows and columns (--dist uniform: any
//              u32; matrix: both below n / 16) with f64 values; baselines:
//              cub::DeviceRadixSort::SortPairs of the keys packed into 64 bits beforehand (the
//              bits they need), and the cub pipeline (pack, SortPairs, unpack) timed whole

#include "Ordo_PerfAssembly.hpp"

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo.hpp>
#include <impl/device/Ordo_AssemblyImpl.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#endif

namespace OrdoPerf {
namespace {

int width_of(std::uint64_t x) { return int(Kokkos::bit_width(x)); }

// ---- coo2crs ----------------------------------------------------------------------------------

using RowMap = Kokkos::View<int*, MemorySpace>;
using Entries = Kokkos::View<int*, MemorySpace>;
using Values = Kokkos::View<double*, MemorySpace>;
using Arrays = Ordo::Impl::CrsArrays<RowMap, Entries, Values>;

// The oracle and the host baseline: (row, column) words stably sorted with their values, summed.
struct HostCrs {
  std::vector<int> row_map, entries;
  std::vector<double> values;
};

HostCrs sequential_coo2crs(const Triplets& t) {
  const int cb = width_of(std::uint64_t(t.n - 1));
  std::vector<std::pair<std::uint64_t, double>> words(t.row.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    words[i] = {(std::uint64_t(t.row[i]) << cb) | std::uint64_t(t.col[i]), t.data[i]};
  }
  std::stable_sort(words.begin(), words.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  HostCrs c;
  c.row_map.assign(std::size_t(t.m) + 1, 0);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0 && words[i].first == words[i - 1].first) {
      c.values.back() += words[i].second;
      continue;
    }
    ++c.row_map[(words[i].first >> cb) + 1];
    c.entries.push_back(int(words[i].first & ((std::uint64_t(1) << cb) - 1)));
    c.values.push_back(words[i].second);
  }
  for (std::size_t r = 0; r < std::size_t(t.m); ++r) c.row_map[r + 1] += c.row_map[r];
  return c;
}

template <class V>
std::vector<V> host_copy(const Kokkos::View<V*, MemorySpace>& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<V>(h.data(), h.data() + h.extent(0));
}

void check_crs(const HostCrs& e, const Arrays& got, const std::string& what) {
  check(host_copy(got.row_map) == e.row_map, what + " row map");
  check(host_copy(got.entries) == e.entries, what + " column ids");
  check(host_copy(got.values) == e.values, what + " values");
}

#if defined(KOKKOS_ENABLE_CUDA)
// A hand-written pipeline: the (row, column) words of the bits m and n need (Word: 32 or 64 bits),
// SortPairs, ReduceByKey, then the column ids, values and row map in one pass; the output
// allocated once its size is read back, as coo2crs allocates it.
template <class Word>
Stats time_cub_pipeline(const Options& o, const Triplets& t,
                        const Kokkos::View<int*, MemorySpace>& row,
                        const Kokkos::View<int*, MemorySpace>& col, const Values& data,
                        const HostCrs& expected) {
  const ExecSpace space;
  const std::int64_t count = t.row.size();
  const int cb = width_of(std::uint64_t(t.n - 1)), bits = cb + width_of(std::uint64_t(t.m - 1));
  using Words = Kokkos::View<Word*, MemorySpace>;
  const Words words("words", count), sorted("sorted", count), runs_keys("runs_keys", count);
  const Values sorted_values("sorted_values", count), run_values("run_values", count);
  Kokkos::View<int*, MemorySpace> runs("runs", 1);
  const auto stream = space.cuda_stream();
  std::size_t sort_bytes = 0, reduce_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, words.data(), sorted.data(), data.data(),
                                  sorted_values.data(), int(count), 0, bits, stream);
  cub::DeviceReduce::ReduceByKey(nullptr, reduce_bytes, sorted.data(), runs_keys.data(),
                                 sorted_values.data(), run_values.data(), runs.data(),
                                 ::cuda::std::plus<>{}, int(count), stream);
  Kokkos::View<char*, MemorySpace> temp("cub_temp", std::max(sort_bytes, reduce_bytes));
  Arrays cub_result;
  const std::int64_t m = t.m;
  auto pipeline = [&] {
    Kokkos::parallel_for(
        "cub pipeline pack", Kokkos::RangePolicy<ExecSpace>(space, 0, count),
        KOKKOS_LAMBDA(std::int64_t i) { words(i) = Word((Word(row(i)) << cb) | Word(col(i))); });
    std::size_t b = sort_bytes;
    cub::DeviceRadixSort::SortPairs(temp.data(), b, words.data(), sorted.data(), data.data(),
                                    sorted_values.data(), int(count), 0, bits, stream);
    b = reduce_bytes;
    cub::DeviceReduce::ReduceByKey(temp.data(), b, sorted.data(), runs_keys.data(),
                                   sorted_values.data(), run_values.data(), runs.data(),
                                   ::cuda::std::plus<>{}, int(count), stream);
    int found = 0;
    cuda_check(cudaMemcpyAsync(&found, runs.data(), sizeof(int), cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync");
    space.fence();
    const std::int64_t k = found;
    const RowMap row_map(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "row_map"), m + 1);
    const Entries entries(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "entries"), k);
    const Values values(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "values"), k);
    const std::uint64_t mask = (std::uint64_t(1) << cb) - 1;
    Kokkos::parallel_for(
        "cub pipeline rows", Kokkos::RangePolicy<ExecSpace>(space, 0, k + 1),
        KOKKOS_LAMBDA(std::int64_t i) {
          const std::int64_t lo = i == 0 ? 0 : std::int64_t(runs_keys(i - 1) >> cb) + 1;
          const std::int64_t hi = i == k ? m : std::int64_t(runs_keys(i) >> cb);
          for (std::int64_t r = lo; r <= hi; ++r) row_map(r) = int(i);
          if (i < k) {
            entries(i) = int(runs_keys(i) & mask);
            values(i) = run_values(i);
          }
        });
    cub_result = Arrays{row_map, entries, values};
  };
  const Stats s = time_device(space, o.warmup, o.reps, pipeline);
  if (o.check) check_crs(expected, cub_result, "cub pipeline");
  return s;
}
#endif

// The assembly in two phases (Ordo::KokkosKernels::coo2crs_pattern and coo2crs_refill: the core's
// assemble_pattern, its map in Views of its own, and refill_values): the pattern once, then the
// refill of its values from the triplets' values (insert), against a device copy of the bytes the
// refill must move (the values in and out, the map read) and the fresh coo2crs (its times).
void run_refill_point(const Options& o, Report& report, const Triplets& t,
                      const Kokkos::View<int*, MemorySpace>& row,
                      const Kokkos::View<int*, MemorySpace>& col, const Values& data,
                      const Arrays& one_phase, const Stats& coo2crs) {
  const ExecSpace space;
  const std::int64_t count = t.row.size();
  Arrays pattern;
  Ordo::Impl::AssemblyMapViews<MemorySpace> views;
  Ordo::Impl::AssemblyMap<MemorySpace> map;
  const auto graph = [&](std::int64_t nnz) {
    pattern.row_map = RowMap("row_map", t.m + 1);
    pattern.entries = Entries("entries", nnz);
    pattern.values = Values("values", nnz);
    return pattern;
  };
  Point p{"coo2crs_pattern", "i32", o.dist, "ordo", false, count, {}, double(count) * 8, 1.0};
  p.stats = time_device(space, o.warmup, o.reps, [&] {
    map = Ordo::Impl::assemble_pattern("Ordo::KokkosKernels::coo2crs_pattern", space, t.m, t.n, row,
                                       col, graph, views);
  });
  report.point(p);
  report.point(Point{"coo2crs_pattern", "i32", o.dist, "ordo coo2crs", false, count, coo2crs,
                     p.bytes, coo2crs.median_ms / p.stats.median_ms});
  const std::int64_t nnz = pattern.entries.extent(0);
  // The values in and out, the map (positions and entry starts) read.
  const double bytes = double(count) * (8 + 4) + double(nnz) * 8 + double(nnz + 1) * 4;
  Point r{"coo2crs_refill", "i32", o.dist, "ordo", true, count, {}, bytes, 1.0};
  r.stats = time_device(space, o.warmup, o.reps, [&] {
    Ordo::Impl::refill_values(space, map, data, pattern.values, false);
  });
  report.point(r);
  if (o.check) {
    check(host_copy(pattern.row_map) == host_copy(one_phase.row_map), "refill row map");
    check(host_copy(pattern.entries) == host_copy(one_phase.entries), "refill column ids");
    check(host_copy(pattern.values) == host_copy(one_phase.values), "refill values: coo2crs' bits");
  }
  const double refill_ms = r.stats.median_ms;
  if (wanted(o, "copy")) {
    const Stats c = time_copy(o, bytes);
    report.point(Point{"coo2crs_refill", "i32", o.dist, "copy", true, count, c, bytes,
                       c.median_ms / refill_ms});
  }
  report.point(Point{"coo2crs_refill", "i32", o.dist, "ordo coo2crs", true, count, coo2crs, bytes,
                     coo2crs.median_ms / refill_ms});
}

void run_coo2crs_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const Triplets t = make_triplets(o.dist, std::int64_t(1) << log2n, 17);
  const std::int64_t count = t.row.size();
  const auto row = to_device(t.row, "row");
  const auto col = to_device(t.col, "col");
  const auto data = to_device(t.data, "data");
  const HostCrs expected = sequential_coo2crs(t);
  const std::int64_t nnz = expected.entries.size();
  // The triplets read, the matrix written.
  const double bytes = double(count) * 16 + double(nnz) * 12 + double(t.m + 1) * 4;
  Arrays result;
  auto call = [&] {
    result = Ordo::Impl::assemble_crs<Arrays>("Ordo::KokkosKernels::coo2crs", space, t.m, t.n, row,
                                              col, data);
  };
  Point p{"coo2crs", "i32", o.dist, "ordo", true, count, {}, bytes, 1.0};
  p.stats = time_device(space, o.warmup, o.reps, call);
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  if (o.check) check_crs(expected, result, "coo2crs");
  auto row_of = [&](const std::string& impl, const Stats& s) {
    report.point(
        Point{"coo2crs", "i32", o.dist, impl, true, count, s, bytes, s.median_ms / ordo_ms});
  };
  if (wanted(o, "copy")) row_of("copy", time_copy(o, bytes));
  if ((on_host && o.baselines.empty()) || (!o.baselines.empty() && wanted(o, "std::"))) {
    row_of("sequential std::stable_sort and loop",
           time_host(o.warmup, o.reps, [&] { sequential_coo2crs(t); }));
  }
#if defined(KOKKOS_ENABLE_CUDA)
  if (wanted(o, "cub pipeline")) {
    // The words of the bits m and n need: 32 where they fit.
    const int bits = width_of(std::uint64_t(t.n - 1)) + width_of(std::uint64_t(t.m - 1));
    const Stats s = bits <= 32 ? time_cub_pipeline<std::uint32_t>(o, t, row, col, data, expected)
                               : time_cub_pipeline<std::uint64_t>(o, t, row, col, data, expected);
    row_of("cub pipeline", s);
  }
#endif
  run_refill_point(o, report, t, row, col, data, result, p.stats);
}

// ---- scan_by_key ------------------------------------------------------------------------------

template <class V>
void run_scan_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  const auto h = run_keys(n, mean_run(o.dist), 43);
  std::vector<V> hv(n);
  std::uint64_t state = 9;
  for (auto& x : hv) x = V(splitmix64(state) % 1000) / V(std::is_same_v<V, double> ? 8 : 1);
  const auto keys = to_device(h, "keys");
  const auto values = to_device(hv, "values");
  Kokkos::View<V*, MemorySpace> out("out", n);
  const double bytes = double(n) * (4 + 2 * sizeof(V));
  const std::string name =
      std::string("inclusive_scan_by_key:") + (std::is_same_v<V, double> ? "f64" : "u32");
  Point p{name, "u32", o.dist, "ordo", true, n, {}, bytes, 1.0};
  p.stats = time_device(space, o.warmup, o.reps,
                        [&] { Ordo::inclusive_scan_by_key(space, keys, values, out); });
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  auto row_of = [&](const std::string& impl, const Stats& s) {
    report.point(Point{name, "u32", o.dist, impl, true, n, s, bytes, s.median_ms / ordo_ms});
  };
  std::vector<V> expected(n);
  auto loop = [&] {
    for (std::int64_t i = 0; i < n; ++i) {
      expected[i] = i > 0 && h[i] == h[i - 1] ? expected[i - 1] + hv[i] : hv[i];
    }
  };
  loop();
  if (o.check) check(host_copy(out) == expected, name);
  if (wanted(o, "copy")) row_of("copy", time_copy(o, bytes));
  if ((on_host && o.baselines.empty()) || (!o.baselines.empty() && wanted(o, "std::"))) {
    row_of("sequential scan-by-key loop", time_host(o.warmup, o.reps, loop));
  }
#if defined(KOKKOS_ENABLE_CUDA)
  const auto stream = space.cuda_stream();
  if (wanted(o, "cub::DeviceScan::InclusiveScanByKey")) {
    row_of("cub::DeviceScan::InclusiveScanByKey",
           time_cub(o.warmup, o.reps, "cub::DeviceScan::InclusiveScanByKey",
                    [&](void* temp, std::size_t& b) {
                      return cub::DeviceScan::InclusiveScanByKey(
                          temp, b, keys.data(), values.data(), out.data(), ::cuda::std::plus<>{},
                          int(n), ::cuda::std::equal_to<>{}, stream);
                    }));
    if (o.check) check(host_copy(out) == expected, name + " (cub)");
  }
  if (wanted(o, "thrust::inclusive_scan_by_key")) {
    const auto policy = thrust::cuda::par_nosync.on(stream);
    row_of("thrust::inclusive_scan_by_key", time_device(space, o.warmup, o.reps, [&] {
             thrust::inclusive_scan_by_key(policy, keys.data(), keys.data() + n, values.data(),
                                           out.data());
           }));
  }
#endif
}

// ---- sort --keys 2 ----------------------------------------------------------------------------

void run_sort_keys2_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  const bool matrix = o.dist == "matrix";
  if (!matrix && o.dist != "uniform") {
    throw std::invalid_argument("ordo-perf: sort --keys 2 wants --dist uniform or matrix");
  }
  const std::uint64_t range = matrix ? std::uint64_t(std::max<std::int64_t>(n / 16, 1024)) : 0;
  std::vector<std::uint32_t> hr(n), hc(n);
  std::vector<double> hv(n);
  std::uint64_t state = 21;
  for (std::int64_t i = 0; i < n; ++i) {
    hr[i] = std::uint32_t(range ? splitmix64(state) % range : splitmix64(state));
    hc[i] = std::uint32_t(range ? splitmix64(state) % range : splitmix64(state));
    hv[i] = double(i);
  }
  const auto in_r = to_device(hr, "rows_in");
  const auto in_c = to_device(hc, "cols_in");
  const auto in_v = to_device(hv, "values_in");
  Kokkos::View<std::uint32_t*, MemorySpace> rows("rows", n), cols("cols", n);
  Kokkos::View<double*, MemorySpace> values("values", n);
  auto reset = [&] {
    Kokkos::deep_copy(space, rows, in_r);
    Kokkos::deep_copy(space, cols, in_c);
    Kokkos::deep_copy(space, values, in_v);
  };
  const double bytes = double(n) * 16 * 2;
  const std::string name = "sort_by_key:keys2";
  Point p{name, "u32", o.dist, "ordo", true, n, {}, bytes, 1.0};
  p.stats = time_device(
      space, o.warmup, o.reps, [&] { Ordo::sort_by_key(space, Ordo::keys(rows, cols), values); },
      reset);
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  auto row_of = [&](const std::string& impl, const Stats& s) {
    report.point(Point{name, "u32", o.dist, impl, true, n, s, bytes, s.median_ms / ordo_ms});
  };
  if (o.check) {
    std::vector<std::int64_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
      return std::tie(hr[a], hc[a]) < std::tie(hr[b], hc[b]);
    });
    const auto gr = host_copy(rows), gc = host_copy(cols);
    const auto gv = host_copy(values);
    for (std::int64_t i = 0; i < n; ++i) {
      const auto j = order[i];
      check(gr[i] == hr[j] && gc[i] == hc[j] && gv[i] == hv[j], name);
    }
  }
  if (wanted(o, "copy")) row_of("copy", time_copy(o, bytes));
#if defined(KOKKOS_ENABLE_CUDA)
  const int cb = range ? width_of(range - 1) : 32;
  const int bits = 2 * cb;
  using Words = Kokkos::View<std::uint64_t*, MemorySpace>;
  const Words words("words", n), sorted("sorted", n);
  Kokkos::View<double*, MemorySpace> sorted_values("sorted_values", n);
  const auto stream = space.cuda_stream();
  auto pack = [&] {
    Kokkos::parallel_for(
        "cub pipeline pack", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
        KOKKOS_LAMBDA(std::int64_t i) {
          words(i) = (std::uint64_t(in_r(i)) << cb) | std::uint64_t(in_c(i));
        });
  };
  auto sort_pairs = [&](void* temp, std::size_t& b) {
    return cub::DeviceRadixSort::SortPairs(temp, b, words.data(), sorted.data(), in_v.data(),
                                           sorted_values.data(), int(n), 0, bits, stream);
  };
  if (wanted(o, "cub::DeviceRadixSort::SortPairs")) {
    pack();
    row_of("cub::DeviceRadixSort::SortPairs (packed beforehand)",
           time_cub(o.warmup, o.reps, "cub::DeviceRadixSort::SortPairs", sort_pairs));
  }
  if (wanted(o, "cub pipeline")) {
    std::size_t temp_bytes = 0;
    sort_pairs(nullptr, temp_bytes);
    Kokkos::View<char*, MemorySpace> temp("cub_temp", temp_bytes);
    const std::uint64_t mask = cb >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << cb) - 1;
    row_of("cub pipeline", time_device(space, o.warmup, o.reps, [&] {
             pack();
             std::size_t b = temp_bytes;
             sort_pairs(temp.data(), b);
             Kokkos::parallel_for(
                 "cub pipeline unpack", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                 KOKKOS_LAMBDA(std::int64_t i) {
                   rows(i) = std::uint32_t(sorted(i) >> cb);
                   cols(i) = std::uint32_t(sorted(i) & mask);
                 });
           }));
  }
#endif
}

}  // namespace

void run_coo2crs(const Options& o, Report& report) {
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "22" : "24") : o.log2n)) {
    run_coo2crs_point(o, report, log2n);
  }
}

void run_scan_by_key(const Options& o, Report& report) {
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "24" : "26") : o.log2n)) {
    run_scan_point<std::uint32_t>(o, report, log2n);
    run_scan_point<double>(o, report, log2n);
  }
}

void run_sort_keys2(const Options& o, Report& report) {
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "20" : "24") : o.log2n)) {
    run_sort_keys2_point(o, report, log2n);
  }
}

}  // namespace OrdoPerf
