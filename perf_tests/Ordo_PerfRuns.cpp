// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf unique, run_length_encode and reduce_by_key: the runs of sorted keys
// against CUB (cub::DeviceSelect::Unique, cub::DeviceRunLengthEncode::Encode,
// cub::DeviceReduce::ReduceByKey: CUDA builds), std::unique, its parallel forms and sequential
// loops (host), and a device copy of the bytes moved.
//
// unique, run_length_encode, reduce_by_key  n sorted u32 keys in runs of random lengths, mean L
//                   (--dist runs:L, default runs:4; runs:1 is all distinct); reduce_by_key sums
//                   u32 and f64 values (two rows); `ordo portable` is Ordo's own kernel where the
//                   dispatch takes the vendor seam

#include "Ordo_PerfRuns.hpp"

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfHostBaselines.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#endif

namespace OrdoPerf {
namespace {

template <class V>
const char* value_name() {
  return std::is_same_v<V, double> ? "f64" : "u32";
}

// One point of unique, run_length_encode or reduce_by_key (V: the values; void: none).
template <class V>
void run_runs_point(const Options& o, Report& report, const std::string& primitive, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  const auto h = run_keys(n, mean_run(o.dist), 41);
  std::vector<std::uint32_t> ek;
  std::vector<std::uint32_t> elen;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i == 0 || h[i] != h[i - 1]) ek.push_back(h[i]), elen.push_back(0);
    ++elen.back();
  }
  const std::int64_t m = ek.size();
  auto keys = to_device(h, "keys");
  // Outputs as long as the input, as a caller who does not know the number of runs allocates them.
  Kokkos::View<std::uint32_t*, MemorySpace> keys_out("keys_out", n), counts_out("counts_out", n);
  Kokkos::View<std::int64_t*, MemorySpace> count("count", 1);
  using Val = std::conditional_t<std::is_void_v<V>, std::uint32_t, V>;
  std::vector<Val> hv(n);
  std::uint64_t state = 5;
  for (auto& x : hv) x = Val(splitmix64(state) % 1000) / Val(std::is_same_v<V, double> ? 7 : 1);
  auto values = to_device(hv, "values");
  Kokkos::View<Val*, MemorySpace> values_out("values_out", n);

  const bool rbk = primitive == "reduce_by_key", rle = primitive == "run_length_encode";
  const double bytes = rbk   ? double(n + m) * (4 + sizeof(Val))
                       : rle ? double(n) * 4 + double(m) * 8
                             : double(n + m) * 4;
  const std::string name = rbk ? primitive + ":" + value_name<Val>() : primitive;
  const std::string key = "u32";
  auto call_ordo = [&](bool fencing) {
    if (rbk) {
      if (fencing) {
        Ordo::reduce_by_key(space, keys, values, keys_out, values_out, Ordo::plus<>{});
      } else {
        Ordo::reduce_by_key(space, keys, values, keys_out, values_out, Ordo::plus<>{}, count);
      }
    } else if (rle) {
      if (fencing) {
        Ordo::run_length_encode(space, keys, keys_out, counts_out);
      } else {
        Ordo::run_length_encode(space, keys, keys_out, counts_out, count);
      }
    } else if (fencing) {
      Ordo::unique(space, keys, keys_out);
    } else {
      Ordo::unique(space, keys, keys_out, count);
    }
  };
  Point p{name, key, o.dist, "ordo", rbk, n, {}, bytes, 1.0};
  p.stats = time_device(space, o.warmup, o.reps, [&] { call_ordo(false); });
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  auto row = [&](const std::string& impl, const Stats& s) {
    report.point(Point{name, key, o.dist, impl, rbk, n, s, bytes, s.median_ms / ordo_ms});
  };
  // Sequential oracles and host baselines.
  std::vector<Val> esum(m);
  auto reduce_loop = [&](std::vector<std::uint32_t>& kout, std::vector<Val>& vout) {
    std::int64_t r = -1;
    for (std::int64_t i = 0; i < n; ++i) {
      if (i == 0 || h[i] != h[i - 1]) {
        kout[++r] = h[i];
        vout[r] = hv[i];
      } else {
        vout[r] += hv[i];
      }
    }
  };
  std::vector<std::uint32_t> scratch_keys(m);
  reduce_loop(scratch_keys, esum);
  if (o.check) {
    check(
        std::vector<std::uint32_t>(ek) ==
            [&] {
              auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys_out);
              return std::vector<std::uint32_t>(got.data(), got.data() + m);
            }(),
        primitive + " keys");
    if (rle) {
      auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts_out);
      check(std::equal(elen.begin(), elen.end(), got.data()), "run_length_encode counts");
    }
    if (rbk) {
      auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values_out);
      for (std::int64_t r = 0; r < m; ++r) {
        check(std::abs(double(got(r)) - double(esum[r])) <= 1e-9 * (1 + std::abs(double(esum[r]))),
              "reduce_by_key values");
      }
    }
  }
  row("ordo count returned", time_device(space, o.warmup, o.reps, [&] { call_ordo(true); }));
  // Ordo's own kernels where the dispatch takes the vendor seam (CUDA, integer keys and values).
  row("ordo portable", time_device(space, o.warmup, o.reps, [&] {
        if (rbk) {
          Ordo::Impl::reduce_runs<Val>("reduce_by_key", space, keys,
                                       Ordo::Impl::ValueOf<decltype(values)>{values},
                                       Ordo::Impl::ReduceOp<Ordo::plus<>, Val>{}, Ordo::less<>{},
                                       keys_out, values_out, count);
        } else if (rle) {
          Ordo::Impl::reduce_runs<std::uint32_t>(
              "run_length_encode", space, keys, Ordo::Impl::One<std::uint32_t>{},
              Ordo::Impl::ReduceOp<Ordo::plus<>, std::uint32_t>{}, Ordo::less<>{}, keys_out,
              counts_out, count);
        } else {
          Ordo::Impl::compact_dispatch(
              space, n, Ordo::Impl::SelectRunHead<decltype(keys), Ordo::less<>>{keys, {}},
              Ordo::Impl::EmitElement<decltype(keys), decltype(keys_out)>{keys, keys_out}, count);
        }
      }));
  if (o.check && rbk) {
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values_out);
    for (std::int64_t r = 0; r < m; ++r) {
      check(std::abs(double(got(r)) - double(esum[r])) <= 1e-9 * (1 + std::abs(double(esum[r]))),
            "reduce_by_key values (portable)");
    }
  }
  if (wanted(o, "copy")) row("copy", time_copy(o, bytes));
  if ((on_host && o.baselines.empty()) || (!o.baselines.empty() && wanted(o, "std::"))) {
    std::vector<std::uint32_t> kout(m), lout(m);
    std::vector<Val> vout(m);
    if (rbk) {
      row("sequential reduce_by_key",
          time_host(o.warmup, o.reps, [&] { reduce_loop(kout, vout); }));
    } else if (rle) {
      row("sequential run-length loop", time_host(o.warmup, o.reps, [&] {
            std::int64_t r = -1;
            for (std::int64_t i = 0; i < n; ++i) {
              if (i == 0 || h[i] != h[i - 1]) {
                kout[++r] = h[i];
                lout[r] = 0;
              }
              ++lout[r];
            }
          }));
    } else {
      std::vector<std::uint32_t> copy(n);
      row("std::unique",
          time_host(o.warmup, o.reps, [&] { std::unique_copy(h.begin(), h.end(), copy.begin()); }));
    }
  }
  if (!rbk && !rle) {
    std::vector<std::uint32_t> copy(n);
    host_parallel_unique(o, h, copy, row);
  }
#if defined(KOKKOS_ENABLE_CUDA)
  Kokkos::View<int*, MemorySpace> runs("cub_runs", 1);
  const auto stream = space.cuda_stream();
  if (!rbk && !rle && wanted(o, "cub::DeviceSelect::Unique")) {
    row("cub::DeviceSelect::Unique",
        time_cub(o.warmup, o.reps, "cub::DeviceSelect::Unique", [&](void* t, std::size_t& b) {
          return cub::DeviceSelect::Unique(t, b, keys.data(), keys_out.data(), runs.data(), int(n),
                                           stream);
        }));
  }
  if (rle && wanted(o, "cub::DeviceRunLengthEncode::Encode")) {
    row("cub::DeviceRunLengthEncode::Encode",
        time_cub(o.warmup, o.reps, "cub::DeviceRunLengthEncode::Encode",
                 [&](void* t, std::size_t& b) {
                   return cub::DeviceRunLengthEncode::Encode(t, b, keys.data(), keys_out.data(),
                                                             counts_out.data(), runs.data(), int(n),
                                                             stream);
                 }));
  }
  if (rbk && wanted(o, "cub::DeviceReduce::ReduceByKey")) {
    row("cub::DeviceReduce::ReduceByKey",
        time_cub(o.warmup, o.reps, "cub::DeviceReduce::ReduceByKey", [&](void* t, std::size_t& b) {
          return cub::DeviceReduce::ReduceByKey(t, b, keys.data(), keys_out.data(), values.data(),
                                                values_out.data(), runs.data(), Ordo::plus<Val>{},
                                                int(n), stream);
        }));
  }
#endif
}

}  // namespace

void run_runs(const Options& o, Report& report, const std::string& primitive) {
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "24" : "26") : o.log2n)) {
    if (primitive == "reduce_by_key") {
      run_runs_point<std::uint32_t>(o, report, primitive, log2n);
      run_runs_point<double>(o, report, primitive, log2n);
    } else {
      run_runs_point<void>(o, report, primitive, log2n);
    }
  }
}

}  // namespace OrdoPerf
