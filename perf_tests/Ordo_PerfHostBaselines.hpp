// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_HOSTBASELINES_HPP
#define ORDO_PERF_HOSTBASELINES_HPP

// The parallel libraries a CPU user already has, as ordo-perf baselines on host builds (each
// built in where CMake found it, perf_tests/CMakeLists.txt):
//   ips4o::parallel::sort        IPS4o (ORDO_PERF_IPS4O; Debian libips4o-dev), on OpenMP threads
//   __gnu_parallel::             libstdc++'s parallel mode (ORDO_PERF_GNU_PARALLEL), on OpenMP
//   std::execution::par          the C++17 parallel algorithms (ORDO_PERF_PAR; libstdc++ runs them
//                                on TBB). TBB takes its threads from the process's affinity mask:
//                                with OMP_PROC_BIND set, OpenMP has pinned the main thread to one
//                                core and TBB runs on it alone, so time this row without binding.
// Each runs `call` on a fresh copy of the input (reset, outside the timed region).

#include "Ordo_PerfHarness.hpp"

#include <string>
#include <vector>

#if defined(ORDO_PERF_IPS4O)
#include <ips4o.hpp>
#endif
#if defined(ORDO_PERF_GNU_PARALLEL)
#include <parallel/algorithm>
#endif
#if defined(ORDO_PERF_PAR)
#include <execution>
#endif

namespace OrdoPerf {

// The parallel sorts of std::vector `data` (reset to the input before each call) under `less`,
// each reported through baseline(name, stats).
template <class T, class Less, class Reset, class Baseline>
void host_parallel_sorts(const Options& o, std::vector<T>& data, const Less& less,
                         const Reset& reset, const Baseline& baseline) {
  if (!on_host) return;
  auto timed = [&](const char* name, auto&& call) {
    if (wanted(o, name)) baseline(name, time_host_reset(o.warmup, o.reps, reset, call));
  };
#if defined(ORDO_PERF_IPS4O)
  timed("ips4o::parallel::sort", [&] { ips4o::parallel::sort(data.begin(), data.end(), less); });
#endif
#if defined(ORDO_PERF_GNU_PARALLEL)
  timed("__gnu_parallel::sort", [&] { __gnu_parallel::sort(data.begin(), data.end(), less); });
#endif
#if defined(ORDO_PERF_PAR)
  timed("std::sort(par)", [&] { std::sort(std::execution::par, data.begin(), data.end(), less); });
#endif
  (void)timed;
  (void)data;
  (void)less;
}

// The parallel merges of a and b into out under `less`.
template <class T, class Less, class Baseline>
void host_parallel_merges(const Options& o, std::vector<T> a, std::vector<T> b, std::vector<T>& out,
                          const Less& less, const Baseline& baseline) {
  // (a and b by value: libstdc++'s parallel merge does not compile on const iterators.)
  if (!on_host) return;
  auto timed = [&](const char* name, auto&& call) {
    if (wanted(o, name)) baseline(name, time_host(o.warmup, o.reps, call));
  };
#if defined(ORDO_PERF_GNU_PARALLEL)
  timed("__gnu_parallel::merge",
        [&] { __gnu_parallel::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(), less); });
#endif
#if defined(ORDO_PERF_PAR)
  timed("std::merge(par)", [&] {
    std::merge(std::execution::par, a.begin(), a.end(), b.begin(), b.end(), out.begin(), less);
  });
#endif
  (void)timed;
  (void)a;
  (void)b;
  (void)out;
  (void)less;
}

// The parallel copy_if of `in` into out (libstdc++'s parallel mode has none: std:: only).
template <class T, class Pred, class Baseline>
void host_parallel_copy_if(const Options& o, const std::vector<T>& in, std::vector<T>& out,
                           const Pred& pred, const Baseline& baseline) {
  if (!on_host) return;
#if defined(ORDO_PERF_PAR)
  if (wanted(o, "std::copy_if(par)")) {
    baseline("std::copy_if(par)", time_host(o.warmup, o.reps, [&] {
               std::copy_if(std::execution::par, in.begin(), in.end(), out.begin(), pred);
             }));
  }
#endif
  (void)o;
  (void)in;
  (void)out;
  (void)pred;
  (void)baseline;
}

// The parallel unique_copy of `in` into out.
template <class T, class Baseline>
void host_parallel_unique(const Options& o, std::vector<T> in, std::vector<T>& out,
                          const Baseline& baseline) {
  if (!on_host) return;
  auto timed = [&](const char* name, auto&& call) {
    if (wanted(o, name)) baseline(name, time_host(o.warmup, o.reps, call));
  };
#if defined(ORDO_PERF_GNU_PARALLEL)
  timed("__gnu_parallel::unique_copy",
        [&] { __gnu_parallel::unique_copy(in.begin(), in.end(), out.begin()); });
#endif
#if defined(ORDO_PERF_PAR)
  timed("std::unique_copy(par)",
        [&] { std::unique_copy(std::execution::par, in.begin(), in.end(), out.begin()); });
#endif
  (void)timed;
  (void)in;
  (void)out;
}

// The parallel set operations std::set_<op> (op: intersection, union, difference or
// symmetric_difference) of a and b into out (room for a.size() + b.size(): the parallel mode's
// operations may write more than the sequential result where keys repeat).
template <class T, class Baseline>
void host_parallel_set_ops(const Options& o, const std::string& op, std::vector<T> a,
                           std::vector<T> b, std::vector<T>& out, const Baseline& baseline) {
  if (!on_host) return;
  // call(a0, a1, b0, b1, r): one library's std::set_<op>.
  auto timed = [&](const std::string& name, auto&& call) {
    if (wanted(o, name)) {
      baseline(name, time_host(o.warmup, o.reps,
                               [&] { call(a.begin(), a.end(), b.begin(), b.end(), out.begin()); }));
    }
  };
#if defined(ORDO_PERF_GNU_PARALLEL)
  timed("__gnu_parallel::set_" + op, [&](auto a0, auto a1, auto b0, auto b1, auto r) {
    if (op == "intersection") __gnu_parallel::set_intersection(a0, a1, b0, b1, r);
    if (op == "union") __gnu_parallel::set_union(a0, a1, b0, b1, r);
    if (op == "difference") __gnu_parallel::set_difference(a0, a1, b0, b1, r);
    if (op == "symmetric_difference") __gnu_parallel::set_symmetric_difference(a0, a1, b0, b1, r);
  });
#endif
#if defined(ORDO_PERF_PAR)
  timed("std::set_" + op + "(par)", [&](auto a0, auto a1, auto b0, auto b1, auto r) {
    const auto& par = std::execution::par;
    if (op == "intersection") std::set_intersection(par, a0, a1, b0, b1, r);
    if (op == "union") std::set_union(par, a0, a1, b0, b1, r);
    if (op == "difference") std::set_difference(par, a0, a1, b0, b1, r);
    if (op == "symmetric_difference") std::set_symmetric_difference(par, a0, a1, b0, b1, r);
  });
#endif
  (void)timed;
}

}  // namespace OrdoPerf

#endif
