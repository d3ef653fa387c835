// SPDX-License-Identifier: BSD-3-Clause
// Kokkos Kernels' own CRS-sort test with its KokkosSparse::sort_* calls swapped for
// Ordo::KokkosKernels::sort_* (the swapped copy is made by CMake from the file named by
// Ordo_KOKKOSKERNELS_SORTCRS_TEST: see CMakeLists.txt), on the backend of ORDO_TEST_BACKEND_*.

#include "Ordo_TestBackend.hpp"

#include <Ordo_KokkosKernels.hpp>

#include <Kokkos_Core.hpp>

#include <gtest/gtest.h>

// What Kokkos Kernels' test harness gives its test files.
class TestCategory : public ::testing::Test {};
using TestDevice = Kokkos::Device<OrdoTest::ExecSpace, OrdoTest::MemorySpace>;

#include "Test_Sparse_SortCrs_Ordo.hpp"

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
