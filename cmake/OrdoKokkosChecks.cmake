# SPDX-License-Identifier: BSD-3-Clause
# Checks of the Kokkos found, run once per Kokkos and compiler (the result is cached).
#
# A default-constructed Kokkos::View must be destructible. The mdspan-based View of Kokkos
# 4.6.99 to 4.7.0 (the default before Kokkos 4.7.1 made the legacy View the default again) is
# miscompiled by g++ 12: the default constructor leaves the View's reference-count word zero, and
# its destructor then dereferences a null allocation record (Kokkos issue 7464). Every program
# that destroys a default-constructed View crashes, Ordo's own tests and ordo-perf among them.
# The check builds and runs cmake/checks/kokkos_default_view.cpp against the Kokkos found and
# stops the configuration with what to do. Where the program cannot run here (cross builds, a
# CUDA build on a machine without the driver) it says so and goes on.

set(_ordo_checks_dir ${CMAKE_CURRENT_LIST_DIR}/checks)

function(ordo_check_kokkos_default_view)
  set(_key "${Kokkos_DIR};${Kokkos_VERSION};${CMAKE_CXX_COMPILER};${CMAKE_CXX_COMPILER_VERSION}")
  if(DEFINED ORDO_KOKKOS_VIEW_CHECKED AND ORDO_KOKKOS_VIEW_CHECKED STREQUAL _key)
    return()
  endif()
  # Only GCC builds of the mdspan-based View (Kokkos 4.6.99 on, without the legacy View) can hit it.
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR Kokkos_VERSION VERSION_LESS 4.6.99
     OR "IMPL_VIEW_LEGACY" IN_LIST Kokkos_OPTIONS)
    return()
  endif()
  if(CMAKE_CROSSCOMPILING)
    message(STATUS "Ordo: Kokkos' default View not checked (cross build)")
    return()
  endif()
  try_run(_run _compiled ${CMAKE_CURRENT_BINARY_DIR}/ordo-kokkos-check
          ${_ordo_checks_dir}/kokkos_default_view.cpp
          LINK_LIBRARIES Kokkos::kokkos
          COMPILE_OUTPUT_VARIABLE _compile_log RUN_OUTPUT_VARIABLE _run_log)
  if(NOT _compiled)
    message(FATAL_ERROR "Ordo: a ten-line program including Kokkos_Core.hpp does not build "
                        "against the Kokkos in ${Kokkos_DIR}:\n${_compile_log}")
  endif()
  if(NOT _run_log MATCHES "ordo-kokkos-check: started")
    message(STATUS "Ordo: Kokkos' default View not checked (the check could not run here: "
                   "${_run})")
  elseif(NOT _run EQUAL 0 OR NOT _run_log MATCHES "ordo-kokkos-check: passed")
    message(FATAL_ERROR
      "Ordo: with ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}, destroying a "
      "default-constructed Kokkos::View of the Kokkos ${Kokkos_VERSION} in ${Kokkos_DIR} crashes "
      "(cmake/checks/kokkos_default_view.cpp: ${_run}). This is the mdspan-based View of Kokkos "
      "4.6.99-4.7.0 miscompiled by g++ 12 (Kokkos issue 7464); every Kokkos program that "
      "destroys an empty View crashes with it, not only Ordo. Rebuild that Kokkos with "
      "-DKokkos_ENABLE_IMPL_VIEW_LEGACY=ON (the default of Kokkos 4.7.1 and later 4.7 releases), "
      "use a Kokkos release whose View is the legacy one (4.5, 4.6, 4.7.1 or later 4.7), or "
      "another compiler. docs/BUILDING.md: Toolchains.")
  else()
    message(STATUS "Ordo: Kokkos' default View checked (destructible)")
  endif()
  set(ORDO_KOKKOS_VIEW_CHECKED "${_key}" CACHE INTERNAL "Kokkos and compiler the View check passed")
endfunction()
