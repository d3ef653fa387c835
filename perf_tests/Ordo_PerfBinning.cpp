// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf particle_binning: a particle code's cell list. n particles in 2^16 cells, seven
// arrays (the u32 cell ids, a [3] position and a [3] velocity View of doubles, four double
// arrays: 84 bytes a particle), double-buffered: the particles are ordered by cell into the
// second set of arrays, and the cells' CRS offsets written.
//
//   --dist uniform (or random)  random cell ids
//   --dist moved:P              a set sorted by cell after P% of its particles moved to a
//                               neighbouring cell (a re-sort between time steps)
//
// Rows: `ordo` (bin_permutation with the seven arrays: one call), `ordo records way` (that call's
// radix sort carrying the arrays, whatever its dispatch takes), `ordo bin_permutation + gather`
// (the two calls), `ordo in place` (bin_permutation, apply_permutation of the seven arrays), the
// two calls alone; baselines in the
// same run: a device copy of the bytes moved, Kokkos::BinSort as codes call it (its constructor,
// create_permute_vector, sort of each View), on CUDA the CUB pipeline (SortPairs of (cell, index)
// over 16 bits, one gather kernel per array, DeviceRunLengthEncode::Encode and an exclusive scan),
// the same pipeline with one gather kernel for every array, and its binning steps alone (the
// baseline of bin_permutation); on host backends a sequential counting sort and gather.

#include "Ordo_PerfBinning.hpp"

#include "Ordo_PerfHarness.hpp"

#include <Ordo.hpp>

#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#endif

namespace OrdoPerf {
namespace {

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
  auto all() const { return Ordo::views(cells, x, v, s0, s1, s2, s3); }
};

// The percentage P of --dist moved:P; -1 for random cells.
int moved_percent(const std::string& dist) {
  if (dist == "uniform" || dist == "random") return -1;
  int p = 0;
  if (std::sscanf(dist.c_str(), "moved:%d", &p) != 1 || p < 0 || p > 100) {
    throw std::invalid_argument(
        "ordo-perf particle_binning: --dist uniform, random or moved:P "
        "(0 <= P <= 100), got " +
        dist);
  }
  return p;
}

// Random cells, or sorted cells of which P% moved to a neighbouring cell.
std::vector<std::uint32_t> make_cells(std::int64_t n, std::int64_t ncells, int moved) {
  std::vector<std::uint32_t> c(n);
  std::uint64_t state = 9;
  for (auto& x : c) x = std::uint32_t(splitmix64(state) % ncells);
  if (moved < 0) return c;
  std::sort(c.begin(), c.end());
  for (auto& x : c) {
    const std::uint64_t r = splitmix64(state);
    if (r % 100 >= std::uint64_t(moved)) continue;
    if ((r >> 32) & 1) {
      if (x + 1 < ncells) ++x;
    } else if (x > 0) {
      --x;
    }
  }
  return c;
}

#if defined(KOKKOS_ENABLE_CUDA)
template <class View>
struct GatherArray {
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

// The gather a CUB user writes in one kernel: every array, perm read once.
struct GatherAll {
  Particles dst, src;
  Kokkos::View<std::uint32_t*, MemorySpace> perm;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::uint32_t j = perm(i);
    for (int c = 0; c < 3; ++c) dst.x(i, c) = src.x(j, c), dst.v(i, c) = src.v(j, c);
    dst.s0(i) = src.s0(j), dst.s1(i) = src.s1(j), dst.s2(i) = src.s2(j), dst.s3(i) = src.s3(j);
  }
};
#endif

void run_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n, ncells = std::int64_t(1) << cell_bits;
  const int moved = moved_percent(o.dist);
  const std::string dist = moved < 0 ? "random" : o.dist;
  const Particles p(n, "p_"), q(n, "q_"), start(n, "start_");
  {
    const auto h = make_cells(n, ncells, moved);
    Kokkos::deep_copy(p.cells, Kokkos::View<const std::uint32_t*, Kokkos::HostSpace>(h.data(), n));
    const auto x = p.x, v = p.v;
    const auto s0 = p.s0, s1 = p.s1, s2 = p.s2, s3 = p.s3;
    Kokkos::parallel_for(
        "fill", Kokkos::RangePolicy<ExecSpace>(space, 0, n), KOKKOS_LAMBDA(std::int64_t i) {
          for (int c = 0; c < 3; ++c) x(i, c) = double(i) + c, v(i, c) = -double(i) - c;
          s0(i) = double(i), s1(i) = 2.0 * i, s2(i) = 3.0 * i, s3(i) = 4.0 * i;
        });
    start.assign(p);
    space.fence();
  }
  // Bytes the cell list must move at least: read and write every particle's 84 bytes, read the
  // cell ids once more for the order, write the offsets.
  const double bytes = double(n) * (2 * 84 + 4) + double(ncells + 1) * 4;
  Kokkos::View<std::uint32_t*, MemorySpace> perm("perm", n), offsets("offsets", ncells + 1);
  auto ordo = [&] {
    Ordo::bin_permutation(space, p.cells, ncells, perm, offsets, p.all(), q.all());
  };
  const std::string name = "particle_binning";
  Point pt{name, "u32", dist, "ordo", true, n, {}, bytes, 1.0};
  pt.stats = time_device(space, o.warmup, o.reps, ordo);
  const double ordo_ms = pt.stats.median_ms;
  report.point(pt);
  auto row = [&](const std::string& impl, const Stats& s, double b) {
    report.point(Point{name, "u32", dist, impl, true, n, s, b, s.median_ms / ordo_ms});
  };
  // The records way forced (the arguments are valid: the call above checked them).
  auto records = [&] {
    Ordo::Impl::bin_records(space, p.cells, ncells, perm, offsets, p.all().views, q.all().views,
                            true);
  };
  auto check_cell_list = [&](const auto& call) {
    Kokkos::deep_copy(space, q.cells, 0);
    call();
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q.cells);
    auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q.s1);
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q.x);
    auto start_cells = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.cells);
    auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), offsets);
    auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), perm);
    for (std::int64_t i = 0; i < n; ++i) {
      const auto j = std::int64_t(hs(i) / 2.0);
      check(hc(i) == start_cells(j) && hx(i, 2) == double(j) + 2, "particle_binning gather");
      check(std::int64_t(hp(i)) == j, "particle_binning permutation");
      check(i == 0 || hc(i - 1) < hc(i) || (hc(i - 1) == hc(i) && hs(i - 1) < hs(i)),
            "particle_binning stable order");
    }
    for (std::int64_t b = 0; b <= ncells; ++b) {
      const auto want = std::lower_bound(hc.data(), hc.data() + n, std::uint32_t(b)) - hc.data();
      check(std::int64_t(ho(b)) == want, "particle_binning offsets");
    }
  };
  if (o.check) {
    check_cell_list(ordo);
    check_cell_list(records);
  }
  if constexpr (!on_host) {
    row("ordo records way", time_device(space, o.warmup, o.reps, records), bytes);
  }
  row("ordo bin_permutation + gather",
      time_device(space, o.warmup, o.reps,
                  [&] {
                    Ordo::bin_permutation(space, p.cells, ncells, perm, offsets);
                    Ordo::gather(space, perm, p.all(), q.all());
                  }),
      bytes);
  const Stats binning = time_device(space, o.warmup, o.reps, [&] {
    Ordo::bin_permutation(space, p.cells, ncells, perm, offsets);
  });
  row("ordo bin_permutation alone", binning, double(n) * 16);
  row("ordo gather alone",
      time_device(space, o.warmup, o.reps, [&] { Ordo::gather(space, perm, p.all(), q.all()); }),
      double(n) * (2 * 84 + 4));
  // In place (a code that keeps one set of arrays): the saved copy, then the gather.
  auto reset = [&] { p.assign(start); };
  row("ordo in place",
      time_device(
          space, o.warmup, o.reps,
          [&] {
            Ordo::bin_permutation(space, p.cells, ncells, perm, offsets);
            Ordo::apply_permutation(space, perm, p.cells, p.x, p.v, p.s0, p.s1, p.s2, p.s3);
          },
          reset),
      bytes);
  reset();
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
    reset();
  }
  if constexpr (on_host) {
    if (wanted(o, "sequential counting sort")) {
      // One thread: count, scan, stable scatter of the positions, gather of every array.
      auto hp = Kokkos::create_mirror_view(Kokkos::HostSpace(), perm);
      auto ho = Kokkos::create_mirror_view(Kokkos::HostSpace(), offsets);
      row("sequential counting sort",
          time_host(o.warmup, o.reps,
                    [&] {
                      std::fill(ho.data(), ho.data() + ncells + 1, 0u);
                      for (std::int64_t i = 0; i < n; ++i) ++ho(p.cells(i) + 1);
                      for (std::int64_t c = 0; c < ncells; ++c) ho(c + 1) += ho(c);
                      std::vector<std::uint32_t> next(ho.data(), ho.data() + ncells);
                      for (std::int64_t i = 0; i < n; ++i) hp(next[p.cells(i)]++) = i;
                      for (std::int64_t i = 0; i < n; ++i) {
                        const std::uint32_t j = hp(i);
                        q.cells(i) = p.cells(j);
                        for (int c = 0; c < 3; ++c) q.x(i, c) = p.x(j, c), q.v(i, c) = p.v(j, c);
                        q.s0(i) = p.s0(j), q.s1(i) = p.s1(j), q.s2(i) = p.s2(j), q.s3(i) = p.s3(j);
                      }
                    }),
          bytes);
    }
  }
#if defined(KOKKOS_ENABLE_CUDA)
  Kokkos::View<std::uint32_t*, MemorySpace> iota("iota", n), unique("unique", ncells),
      counts("counts", ncells + 1), cub_offsets("cub_offsets", ncells + 1);
  Kokkos::View<int*, MemorySpace> runs("runs", 1);
  Kokkos::parallel_for(
      "iota", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) { iota(i) = std::uint32_t(i); });
  const auto stream = space.cuda_stream();
  std::size_t sort_bytes = 0, rle_bytes = 0, scan_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, p.cells.data(), q.cells.data(), iota.data(),
                                  perm.data(), int(n), 0, cell_bits, stream);
  cub::DeviceRunLengthEncode::Encode(nullptr, rle_bytes, q.cells.data(), unique.data(),
                                     counts.data(), runs.data(), int(n), stream);
  cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts.data(), cub_offsets.data(),
                                int(ncells + 1), stream);
  Kokkos::View<char*, MemorySpace> temp("cub_temp", std::max({sort_bytes, rle_bytes, scan_bytes}));
  // SortPairs, RunLengthEncode and the scan: the binning a CUB user writes.
  auto cub_bins = [&] {
    std::size_t b = sort_bytes;
    cub::DeviceRadixSort::SortPairs(temp.data(), b, p.cells.data(), q.cells.data(), iota.data(),
                                    perm.data(), int(n), 0, cell_bits, stream);
    b = rle_bytes;
    cub::DeviceRunLengthEncode::Encode(temp.data(), b, q.cells.data(), unique.data(), counts.data(),
                                       runs.data(), int(n), stream);
    b = scan_bytes;
    cub::DeviceScan::ExclusiveSum(temp.data(), b, counts.data(), cub_offsets.data(),
                                  int(ncells + 1), stream);
  };
  auto gather = [&](auto dst, auto src) {
    Kokkos::parallel_for("gather", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                         GatherArray<decltype(dst)>{dst, src, perm});
  };
  if (wanted(o, "cub pipeline")) {
    row("cub pipeline",
        time_device(space, o.warmup, o.reps,
                    [&] {
                      cub_bins();
                      gather(q.x, p.x);
                      gather(q.v, p.v);
                      gather(q.s0, p.s0);
                      gather(q.s1, p.s1);
                      gather(q.s2, p.s2);
                      gather(q.s3, p.s3);
                    }),
        bytes);
    row("cub pipeline, one gather",
        time_device(space, o.warmup, o.reps,
                    [&] {
                      cub_bins();
                      Kokkos::parallel_for("gather_all",
                                           Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                                           GatherAll{q, p, perm});
                    }),
        bytes);
    const Stats alone = time_device(space, o.warmup, o.reps, cub_bins);
    report.point(Point{name, "u32", dist, "cub binning alone (vs ordo bin_permutation)", true, n,
                       alone, double(n) * 16, alone.median_ms / binning.median_ms});
  }
#endif
}

}  // namespace

void run_particle_binning(const Options& o, Report& report) {
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "20" : "24") : o.log2n)) {
    run_point(o, report, log2n);
  }
}

}  // namespace OrdoPerf
