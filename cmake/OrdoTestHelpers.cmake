# SPDX-License-Identifier: BSD-3-Clause
# Helpers for Ordo's unit and performance tests.

# The Kokkos backends that get a unit-test executable of their own, in the order Kokkos lists them:
# every backend the Kokkos has, or those Ordo_TEST_BACKENDS names (each must be one it has).
set(Ordo_TEST_BACKENDS "" CACHE STRING
    "Kokkos backends to build the tests for, e.g. OPENMP (default: every backend Kokkos has)")
foreach(_backend ${Ordo_TEST_BACKENDS})
  if(NOT _backend IN_LIST Kokkos_DEVICES)
    message(FATAL_ERROR "Ordo_TEST_BACKENDS names ${_backend}, which this Kokkos does not have "
                        "(it has: ${Kokkos_DEVICES})")
  endif()
endforeach()
set(ORDO_TEST_BACKENDS "")
foreach(_backend SERIAL OPENMP THREADS CUDA HIP)
  if(_backend IN_LIST Kokkos_DEVICES
     AND (NOT Ordo_TEST_BACKENDS OR _backend IN_LIST Ordo_TEST_BACKENDS))
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
