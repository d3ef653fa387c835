// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf unique, run_length_encode, reduce_by_key and particle_binning: the runs of sorted keys
// against CUB (cub::DeviceSelect::Unique, cub::DeviceRunLengthEncode::Encode,
// cub::DeviceReduce::ReduceByKey: CUDA builds), std::unique and sequential loops (host), and a
// device copy of the bytes moved.
//
// unique, run_length_encode, reduce_by_key  n sorted u32 keys in runs of random lengths, mean L
//                   (--dist runs:L, default runs:4; runs:1 is all distinct); reduce_by_key sums
//                   u32 and f64 values (two rows); `ordo portable` is Ordo's own kernel where the
//                   dispatch takes the vendor seam
// particle_binning  n particles in 2^16 cells (random cell ids), a [3] position and a [3]
//                   velocity View of doubles and four double arrays: Ordo (sort_permutation,
//                   apply_permutation of all seven Views with the cell ids, bin_offsets) against
//                   Kokkos::BinSort (its constructor, create_permute_vector, sort of each View;
//                   the way users call it) and on CUDA the CUB pipeline (SortPairs of (cell,
//                   index), one gather per array, DeviceRunLengthEncode::Encode and an exclusive
//                   scan); the pipeline's steps alone as rows of their own

#include "Ordo_PerfRuns.hpp"

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo.hpp>

#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#endif

namespace OrdoPerf {
namespace {

// The mean run length of --dist runs:L (uniform: 4).
int mean_run(const std::string& dist) {
  if (dist == "uniform") return 4;
  int l = 0;
  if (std::sscanf(dist.c_str(), "runs:%d", &l) != 1 || l < 1) {
    throw std::invalid_argument("ordo-perf: the runs want --dist runs:L (L >= 1), got " + dist);
  }
  return l;
}

// Sorted keys in runs of lengths uniform in [1, 2L - 1].
std::vector<std::uint32_t> run_keys(std::int64_t n, int mean, std::uint64_t seed) {
  std::vector<std::uint32_t> v(n);
  std::uint64_t state = seed;
  std::uint32_t key = 0;
  for (std::int64_t i = 0; i < n; ++key) {
    const std::int64_t len = 1 + std::int64_t(splitmix64(state) % std::uint64_t(2 * mean - 1));
    for (std::int64_t j = 0; j < len && i < n; ++j) v[i++] = key;
  }
  return v;
}

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

// ---- particle binning -------------------------------------------------------------------------

constexpr int cell_bits = 16;

struct Particles {
  using Vec3 = Kokkos::View<double* [3], MemorySpace>;
  using Scalar = Kokkos::View<double*, MemorySpace>;
  Kokkos::View<std::uint32_t*, MemorySpace> cells;
  Vec3 x, v;
  Scalar s0, s1, s2, s3;
  Particles(std::int64_t n, const char* label)
      : cells(std::string(label) + "cells", n),
        x(std::string(label) + "x", n),
        v(std::string(label) + "v", n),
        s0(std::string(label) + "s0", n),
        s1(std::string(label) + "s1", n),
        s2(std::string(label) + "s2", n),
        s3(std::string(label) + "s3", n) {}
  void assign(const Particles& o) const {
    const ExecSpace space;
    Kokkos::deep_copy(space, cells, o.cells);
    Kokkos::deep_copy(space, x, o.x);
    Kokkos::deep_copy(space, v, o.v);
    Kokkos::deep_copy(space, s0, o.s0);
    Kokkos::deep_copy(space, s1, o.s1);
    Kokkos::deep_copy(space, s2, o.s2);
    Kokkos::deep_copy(space, s3, o.s3);
  }
};

template <class View>
struct GatherRows {
  View dst, src;
  Kokkos::View<std::uint32_t*, MemorySpace> perm;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    if constexpr (View::rank() == 2) {
      for (int c = 0; c < 3; ++c) dst(i, c) = src(perm(i), c);
    } else {
      dst(i) = src(perm(i));
    }
  }
};

void run_particle_binning_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n, ncells = std::int64_t(1) << cell_bits;
  const Particles start(n, "start_"), p(n, "");
  {
    auto hc = Kokkos::create_mirror_view(start.cells);
    std::uint64_t state = 9;
    for (std::int64_t i = 0; i < n; ++i) hc(i) = std::uint32_t(splitmix64(state) % ncells);
    Kokkos::deep_copy(start.cells, hc);
    const auto x = start.x, v = start.v;
    const auto s0 = start.s0, s1 = start.s1, s2 = start.s2, s3 = start.s3;
    Kokkos::parallel_for(
        "fill", Kokkos::RangePolicy<ExecSpace>(space, 0, n), KOKKOS_LAMBDA(std::int64_t i) {
          for (int c = 0; c < 3; ++c) x(i, c) = double(i) + c, v(i, c) = -double(i) - c;
          s0(i) = double(i), s1(i) = 2.0 * i, s2(i) = 3.0 * i, s3(i) = 4.0 * i;
        });
    space.fence();
  }
  // Bytes the pipeline must move at least: read and write every particle's 4 + 80 bytes, read
  // the cell ids again for the offsets and write the offsets.
  const double bytes = double(n) * 2 * (4 + 10 * 8) + double(n) * 4 + double(ncells + 1) * 4;
  Kokkos::View<std::uint32_t*, MemorySpace> perm("perm", n), offsets("offsets", ncells + 1);
  auto reset = [&] { p.assign(start); };
  auto ordo = [&] {
    Ordo::sort_permutation(space, p.cells, perm);
    Ordo::apply_permutation(space, perm, p.cells, p.x, p.v, p.s0, p.s1, p.s2, p.s3);
    Ordo::bin_offsets(space, p.cells, offsets);
  };
  const std::string name = "particle_binning";
  Point pt{name, "u32", "cells:2^16", "ordo", true, n, {}, bytes, 1.0};
  pt.stats = time_device(space, o.warmup, o.reps, ordo, reset);
  const double ordo_ms = pt.stats.median_ms;
  report.point(pt);
  auto row = [&](const std::string& impl, const Stats& s, double b) {
    report.point(Point{name, "u32", "cells:2^16", impl, true, n, s, b, s.median_ms / ordo_ms});
  };
  if (o.check) {
    reset();
    ordo();
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.cells);
    auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.s1);
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.x);
    auto start_cells = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), start.cells);
    auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), offsets);
    for (std::int64_t i = 0; i < n; ++i) {
      const auto j = std::int64_t(hs(i) / 2.0);
      check(hc(i) == start_cells(j) && hx(i, 2) == double(j) + 2, "particle_binning gather");
      check(i == 0 || hc(i - 1) <= hc(i), "particle_binning order");
    }
    for (std::int64_t b = 0; b <= ncells; ++b) {
      const auto want = std::lower_bound(hc.data(), hc.data() + n, std::uint32_t(b)) - hc.data();
      check(std::int64_t(ho(b)) == want, "particle_binning offsets");
    }
  }
  // The pipeline's steps alone.
  row("ordo sort_permutation alone",
      time_device(
          space, o.warmup, o.reps, [&] { Ordo::sort_permutation(space, p.cells, perm); }, reset),
      double(n) * 16);
  Ordo::sort_permutation(space, p.cells, perm);
  row("ordo apply_permutation alone",
      time_device(
          space, o.warmup, o.reps,
          [&] { Ordo::apply_permutation(space, perm, p.cells, p.x, p.v, p.s0, p.s1, p.s2, p.s3); }),
      double(n) * (2 * 84 + 84 + 4 + 84));
  // bin_offsets alone, on sorted cells: read n ids, write the offsets.
  reset();
  ordo();
  row("bin_offsets alone",
      time_device(space, o.warmup, o.reps, [&] { Ordo::bin_offsets(space, p.cells, offsets); }),
      double(n) * 4 + double(ncells + 1) * 4);
  if (wanted(o, "copy")) row("copy", time_copy(o, bytes), bytes);
  if (wanted(o, "Kokkos::BinSort")) {
    row("Kokkos::BinSort",
        time_device(
            space, o.warmup, o.reps,
            [&] {
              using Op = Kokkos::BinOp1D<decltype(p.cells)>;
              Kokkos::BinSort<decltype(p.cells), Op> bins(space, p.cells,
                                                          Op(int(ncells), 0, ncells - 1), false);
              bins.create_permute_vector(space);
              bins.sort(space, p.x);
              bins.sort(space, p.v);
              bins.sort(space, p.s0);
              bins.sort(space, p.s1);
              bins.sort(space, p.s2);
              bins.sort(space, p.s3);
              bins.sort(space, p.cells);
            },
            reset),
        bytes);
  }
#if defined(KOKKOS_ENABLE_CUDA)
  if (wanted(o, "cub pipeline")) {
    const Particles out(n, "cub_");
    Kokkos::View<std::uint32_t*, MemorySpace> iota("iota", n), unique("unique", ncells),
        counts("counts", ncells + 1), cub_offsets("cub_offsets", ncells + 1);
    Kokkos::View<int*, MemorySpace> runs("runs", 1);
    Kokkos::parallel_for(
        "iota", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
        KOKKOS_LAMBDA(std::int64_t i) { iota(i) = std::uint32_t(i); });
    const auto stream = space.cuda_stream();
    std::size_t sort_bytes = 0, rle_bytes = 0, scan_bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, p.cells.data(), out.cells.data(),
                                    iota.data(), perm.data(), int(n), 0, cell_bits, stream);
    cub::DeviceRunLengthEncode::Encode(nullptr, rle_bytes, out.cells.data(), unique.data(),
                                       counts.data(), runs.data(), int(n), stream);
    cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts.data(), cub_offsets.data(),
                                  int(ncells + 1), stream);
    Kokkos::View<char*, MemorySpace> temp("cub_temp",
                                          std::max({sort_bytes, rle_bytes, scan_bytes}));
    auto gather = [&](auto dst, auto src) {
      Kokkos::parallel_for("gather", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                           GatherRows<decltype(dst)>{dst, src, perm});
    };
    row("cub pipeline",
        time_device(
            space, o.warmup, o.reps,
            [&] {
              std::size_t b = sort_bytes;
              cub::DeviceRadixSort::SortPairs(temp.data(), b, p.cells.data(), out.cells.data(),
                                              iota.data(), perm.data(), int(n), 0, cell_bits,
                                              stream);
              gather(out.x, p.x);
              gather(out.v, p.v);
              gather(out.s0, p.s0);
              gather(out.s1, p.s1);
              gather(out.s2, p.s2);
              gather(out.s3, p.s3);
              b = rle_bytes;
              cub::DeviceRunLengthEncode::Encode(temp.data(), b, out.cells.data(), unique.data(),
                                                 counts.data(), runs.data(), int(n), stream);
              b = scan_bytes;
              cub::DeviceScan::ExclusiveSum(temp.data(), b, counts.data(), cub_offsets.data(),
                                            int(ncells + 1), stream);
            },
            reset),
        bytes);
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

void run_particle_binning(const Options& o, Report& report) {
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "20" : "24") : o.log2n)) {
    run_particle_binning_point(o, report, log2n);
  }
}

}  // namespace OrdoPerf
