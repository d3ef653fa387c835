// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_TEST_BACKEND_HPP
#define ORDO_TEST_BACKEND_HPP

// The execution space one unit-test executable runs on: each enabled Kokkos backend builds the
// same test sources with its own ORDO_TEST_BACKEND_<NAME> definition.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace OrdoTest {

#if defined(ORDO_TEST_BACKEND_SERIAL)
using ExecSpace = Kokkos::Serial;
#elif defined(ORDO_TEST_BACKEND_OPENMP)
using ExecSpace = Kokkos::OpenMP;
#elif defined(ORDO_TEST_BACKEND_THREADS)
using ExecSpace = Kokkos::Threads;
#elif defined(ORDO_TEST_BACKEND_CUDA)
using ExecSpace = Kokkos::Cuda;
#elif defined(ORDO_TEST_BACKEND_HIP)
using ExecSpace = Kokkos::HIP;
#else
#error "define ORDO_TEST_BACKEND_<NAME> for the unit-test executable"
#endif

using MemorySpace = ExecSpace::memory_space;
template <class T>
using DeviceView = Kokkos::View<T*, MemorySpace>;

inline constexpr bool on_host =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

// Which device-level path a test drives: the dispatch a user gets, or one of the tiled paths
// (two launches, or one fused launch), which host backends can run too.
enum class Path { dispatch, tiled, fused };

// A user key type with a user comparator: particles ordered by cell only.
struct Particle {
  std::int32_t cell;
  float x;
};

struct ByCell {
  KOKKOS_INLINE_FUNCTION bool operator()(const Particle& p, const Particle& q) const {
    return p.cell < q.cell;
  }
};

// n particles, particle i in cell i * step % cells with x = sign * i, stably sorted by cell (so
// that equal cells keep their input order, which x records).
inline std::vector<Particle> sorted_particles(std::size_t n, int step, int cells, float sign) {
  std::vector<Particle> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {std::int32_t(i * step % cells), sign * float(i)};
  std::stable_sort(v.begin(), v.end(), ByCell{});
  return v;
}

// The one large size per test (CONTRIBUTING.md, tests).
inline std::size_t large_size() {
  return on_host ? (std::size_t(1) << 20) : (std::size_t(1) << 22);
}

// Sizes for the tiled paths at every alignment: under one tile, a few tiles, many; on device
// backends also one with more tiles than the device holds teams (each team runs several, its
// next tile's loads in flight while it works on the current one).
inline std::vector<std::size_t> offset_sizes(std::size_t tile) {
  std::vector<std::size_t> sizes{tile - 1, 2 * tile + 5, 70001};
  if (!on_host) sizes.push_back((std::size_t(1) << 23) + 5);
  return sizes;
}

}  // namespace OrdoTest

#endif
