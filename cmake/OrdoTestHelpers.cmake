# SPDX-License-Identifier: BSD-3-Clause
# Helpers for Ordo's unit and performance tests.

# The Kokkos backends that get a unit-test executable of their own, in the order Kokkos lists them.
set(ORDO_TEST_BACKENDS "")
foreach(_backend SERIAL OPENMP THREADS CUDA HIP)
  if(_backend IN_LIST Kokkos_DEVICES)
    list(APPEND ORDO_TEST_BACKENDS ${_backend})
  endif()
endforeach()
message(STATUS "Ordo: test backends: ${ORDO_TEST_BACKENDS}")

# The thread count of the host backends' second run of the test suites (above the cores of a
# CI machine: the host paths must be right whatever the threads a chunk).
set(ORDO_TEST_THREADS 16 CACHE STRING "Threads of the OpenMP and Threads backends' second test run")

# The backend that ordo-perf and the perf smoke test time: the device one when there is one.
list(GET ORDO_TEST_BACKENDS -1 ORDO_PERF_BACKEND)

find_package(GTest QUIET)
