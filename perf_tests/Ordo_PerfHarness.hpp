// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_HARNESS_HPP
#define ORDO_PERF_HARNESS_HPP

// ordo-perf's shared pieces: options common to every primitive, timing (CUDA events on the
// space's stream, or fence to fence on host backends), statistics, and the output records.

#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace OrdoPerf {

#if defined(KOKKOS_ENABLE_CUDA)
using ExecSpace = Kokkos::Cuda;
#else
using ExecSpace = Kokkos::DefaultExecutionSpace;
#endif
using MemorySpace = ExecSpace::memory_space;
inline constexpr bool on_host =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

// The commit this binary was built from, "-dirty" where its tracked files differed
// (Ordo_PerfBuild.cpp, stamped at build time).
const char* build_commit();

// Options every primitive takes.
struct Options {
  std::string log2n = "";  // first:last[:step]; empty: the primitive's default
  std::string key = "u32";
  bool values = false;
  std::string mode = "";      // a primitive's variant (sorted_search); empty: every one
  std::string index = "i32";  // sorted_search: the index type of its outputs (i32 or u64)
  std::string dist = "uniform";
  double fraction = 0.5;  // copy_if: the share of keys kept; retrieve_all: the map's load
  std::vector<std::string> baselines;  // empty: every baseline built in
  bool check = false;
  int reps = 30;
  int warmup = 3;
  int stream_levels = -1;    // sort: tuning experiment (streaming merge levels); -1: Ordo's tuning
  int partition_lanes = -1;  // sort: tuning experiment (lanes per partition search); -1: tuning
  std::string algorithm = "";  // sort: slab, radix or vendor; empty: Ordo's dispatch
  int vendor_bits = -1;        // sort: tuning experiment (vendor sort's bits); -1: Ordo's tuning
  std::string segments = "powerlaw";  // segmented_sort: the segments' lengths
  int keys = 1;  // sort: key Views (2: sort_by_key(keys(row, col), values), Ordo_PerfAssembly.cpp)
};

struct Stats {
  double median_ms, min_ms, max_ms;
};

inline Stats summarize(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  const double median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  return {median, ms.front(), ms.back()};
}

#if defined(KOKKOS_ENABLE_CUDA)
inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  }
}
#endif

// Times `call` (which enqueues work on `space`) `reps` times after `warmup` untimed calls.
// `reset` runs before each call, outside the timed region (restores inputs of in-place work).
// On CUDA: events recorded on the space's stream just before and after the call, so the host's
// synchronization is not in the number (whatever the call synchronizes itself is).
template <class Space>
Stats time_device(const Space& space, int warmup, int reps, const std::function<void()>& call,
                  const std::function<void()>& reset = {}) {
  std::vector<double> ms;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    cudaEvent_t start, stop;
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
    for (int r = 0; r < warmup + reps; ++r) {
      if (reset) reset();
      space.fence();
      cuda_check(cudaEventRecord(start, space.cuda_stream()), "cudaEventRecord");
      call();
      cuda_check(cudaEventRecord(stop, space.cuda_stream()), "cudaEventRecord");
      cuda_check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      cuda_check(cudaGetLastError(), "kernel");
      float t = 0;
      cuda_check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
      if (r >= warmup) ms.push_back(t);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return summarize(ms);
  } else
#endif
  {
    for (int r = 0; r < warmup + reps; ++r) {
      if (reset) reset();
      space.fence();
      const auto t0 = std::chrono::steady_clock::now();
      call();
      space.fence();
      const auto t1 = std::chrono::steady_clock::now();
      if (r >= warmup) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    return summarize(ms);
  }
}

// Host baselines (std:: algorithms): a plain wall-clock timer.
inline Stats time_host(int warmup, int reps, const std::function<void()>& call) {
  return time_device(Kokkos::DefaultHostExecutionSpace(), warmup, reps, call);
}

// The same, with `reset` before each call (outside the timed region).
inline Stats time_host_reset(int warmup, int reps, const std::function<void()>& reset,
                             const std::function<void()>& call) {
  return time_device(Kokkos::DefaultHostExecutionSpace(), warmup, reps, call, reset);
}

#if defined(KOKKOS_ENABLE_CUDA)
// A CUB baseline: call(nullptr, bytes) sizes its temporary storage, allocated before timing;
// then call(temp, bytes) is timed on the default CUDA instance like Ordo's calls.
template <class Call>
Stats time_cub(int warmup, int reps, const char* name, const Call& call) {
  std::size_t temp_bytes = 0;
  cuda_check(call(nullptr, temp_bytes), name);
  Kokkos::View<char*, MemorySpace> temp("cub_temp", temp_bytes);
  return time_device(ExecSpace(), warmup, reps,
                     [&] { cuda_check(call(temp.data(), temp_bytes), name); });
}
#endif

struct Point {
  std::string primitive, key, dist, impl;
  bool values;
  std::int64_t n;
  Stats stats;
  double bytes;         // bytes the primitive must move
  double ordo_speedup;  // this impl's median over Ordo's median (Ordo rows: 1)
};

// Writes records as a table, CSV or JSON lines to each of its sinks. The first record of each
// sink is the run's context.
class Report {
 public:
  void add_sink(const std::string& format, std::ostream& out) {
    if (format != "table" && format != "csv" && format != "jsonl") {
      throw std::invalid_argument("ordo-perf: unknown format '" + format + "'");
    }
    sinks_.push_back({format, &out, false});
    context(sinks_.back());
  }

  void point(const Point& p) {
    for (auto& sink : sinks_) point(sink, p);
  }

 private:
  struct Sink {
    std::string format;
    std::ostream* out;
    bool header_done;
  };
  std::vector<Sink> sinks_;

  static void context(Sink& sink) {
    std::ostream& out = *sink.out;
    std::string device = "host (" + std::to_string(ExecSpace().concurrency()) + " threads)";
    int sm_khz = 0, memory_khz = 0;  // the GPU's peak clocks (0 on host backends)
#if defined(KOKKOS_ENABLE_CUDA)
    cudaDeviceProp prop{};
    int id = 0;
    cudaGetDevice(&id);
    cudaGetDeviceProperties(&prop, id);
    cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, id);
    cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, id);
    device = std::string(prop.name) + ", " + std::to_string(prop.multiProcessorCount) + " SMs";
#endif
    // The vendor sort Ordo's dispatch may take (CMake's Ordo_ENABLE_CUB in CUDA builds).
    const char* vendor = Ordo::Impl::vendor_sort_available_v<ExecSpace> ? "cub" : "none";
    const std::string kokkos = std::to_string(KOKKOS_VERSION / 10000) + "." +
                               std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                               std::to_string(KOKKOS_VERSION % 100);
    if (sink.format == "jsonl") {
      out << "{\"record\":\"context\",\"ordo_version\":\"" << ORDO_VERSION_STRING
          << "\",\"ordo_commit\":\"" << build_commit() << "\",\"kokkos_version\":\"" << kokkos
          << "\",\"execution_space\":\"" << ExecSpace::name()
          << "\",\"concurrency\":" << ExecSpace().concurrency() << ",\"device\":\"" << device
          << "\",\"sm_clock_mhz\":" << sm_khz / 1000
          << ",\"memory_clock_mhz\":" << memory_khz / 1000 << ",\"cplusplus\":" << __cplusplus
          << ",\"vendor_sort\":\"" << vendor << "\"}\n";
    } else {
      out << (sink.format == "csv" ? "# " : "") << "Ordo " << ORDO_VERSION_STRING << " ("
          << build_commit() << "), Kokkos " << kokkos << ", execution space " << ExecSpace::name()
          << " (" << ExecSpace().concurrency() << "), device: " << device;
      if (sm_khz > 0) {
        out << " (peak clocks " << sm_khz / 1000 << " / " << memory_khz / 1000 << " MHz)";
      }
      out << ", C++ " << __cplusplus << ", vendor sort: " << vendor << "\n";
    }
    out.flush();
  }

  static void point(Sink& sink, const Point& p) {
    std::ostream& out = *sink.out;
    const double s = p.stats.median_ms * 1e-3;
    const double keys_per_s = double(p.n) / s, gb_per_s = p.bytes / s * 1e-9;
    if (sink.format == "jsonl") {
      out << "{\"record\":\"point\",\"primitive\":\"" << p.primitive << "\",\"key\":\"" << p.key
          << "\",\"values\":" << (p.values ? "true" : "false") << ",\"dist\":\"" << p.dist
          << "\",\"n\":" << p.n << ",\"impl\":\"" << p.impl
          << "\",\"median_ms\":" << p.stats.median_ms << ",\"min_ms\":" << p.stats.min_ms
          << ",\"max_ms\":" << p.stats.max_ms << ",\"keys_per_s\":" << keys_per_s
          << ",\"gb_per_s\":" << gb_per_s << ",\"ordo_speedup\":" << p.ordo_speedup << "}\n";
    } else if (sink.format == "csv") {
      if (!sink.header_done) {
        out << "primitive,key,values,dist,n,impl,median_ms,min_ms,max_ms,keys_per_s,gb_per_s,"
               "ordo_speedup\n";
        sink.header_done = true;
      }
      out << p.primitive << ',' << p.key << ',' << p.values << ',' << p.dist << ',' << p.n << ','
          << p.impl << ',' << p.stats.median_ms << ',' << p.stats.min_ms << ',' << p.stats.max_ms
          << ',' << keys_per_s << ',' << gb_per_s << ',' << p.ordo_speedup << '\n';
    } else {
      char line[320];
      if (!sink.header_done) {
        std::snprintf(line, sizeof line, "%-10s %-4s %-6s %-5s %-30s %10s %10s %10s %8s %7s %8s\n",
                      "primitive", "key", "values", "log2n", "impl", "median_ms", "min_ms",
                      "max_ms", "Gkeys/s", "GB/s", "Ordo is");
        out << line;
        sink.header_done = true;
      }
      int log2n = 0;
      while ((std::int64_t(1) << (log2n + 1)) <= p.n) ++log2n;
      std::snprintf(line, sizeof line,
                    "%-10s %-4s %-6s %-5d %-30s %10.4f %10.4f %10.4f %8.3f %7.1f %7.2fx\n",
                    p.primitive.c_str(), p.key.c_str(), p.values ? "yes" : "no", log2n,
                    p.impl.c_str(), p.stats.median_ms, p.stats.min_ms, p.stats.max_ms,
                    keys_per_s * 1e-9, gb_per_s, p.ordo_speedup);
      out << line;
    }
    out.flush();
  }
};

// "first:last[:step]" in log2 units.
inline std::vector<int> parse_log2n(const std::string& spec) {
  int first = 0, last = 0, step = 1;
  const int got = std::sscanf(spec.c_str(), "%d:%d:%d", &first, &last, &step);
  if (got == 1) last = first;
  if (got < 1 || step < 1 || first < 0 || last < first || last > 40) {
    throw std::invalid_argument("ordo-perf: --log2n wants first:last[:step], got '" + spec + "'");
  }
  std::vector<int> out;
  for (int l = first; l <= last; l += step) out.push_back(l);
  return out;
}

inline bool wanted(const Options& o, const std::string& baseline) {
  return o.baselines.empty() ||
         std::find(o.baselines.begin(), o.baselines.end(), baseline) != o.baselines.end();
}

// --check: a result that differs from the oracle stops the run.
inline void check(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("ordo-perf --check: " + what + " differs from the oracle");
}

// The roof of a primitive that must move `bytes` bytes: a device copy of as many (half read, half
// written).
inline Stats time_copy(const Options& o, double bytes) {
  Kokkos::View<std::uint32_t*, MemorySpace> src("copy_src", std::size_t(bytes / 8)),
      dst("copy_dst", std::size_t(bytes / 8));
  const ExecSpace space;
  return time_device(space, o.warmup, o.reps, [&] { Kokkos::deep_copy(space, dst, src); });
}

// splitmix64: a fast, good-enough generator for large perf inputs.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace OrdoPerf

#endif
