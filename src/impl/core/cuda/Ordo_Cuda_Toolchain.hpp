// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_TOOLCHAIN_HPP
#define ORDO_IMPL_CUDA_TOOLCHAIN_HPP

// CUDA seam of the build: a toolchain that would hand every kernel corrupted arguments is refused
// at compile time.
//
// nvcc from CUDA 12.9 on (13.0 included), as C++20, lays out a class whose member is an empty
// class holding only [[no_unique_address]] members one word shorter in device code than the host
// compiler and nvcc's own front end (sizeof, offsetof) do. Kokkos' View (the mdspan-based View of
// Kokkos 4.6 and later) has such a member, its accessor, and the mdspan bundled with Kokkos marks
// it [[no_unique_address]] under nvcc in C++20 unless it carries the fix of Kokkos 5.0.0 (Kokkos
// pull request 8615). The host copies a kernel's functor and launch state in the host layout; the
// device reads every member after a View one word early (the PTX parameter of a TeamPolicy
// kernel holding one View is 184 bytes where the host passes 192). Seen with nvcc 13.0: a
// 4-byte atomic on address 0 in the first block of Ordo::merge's tiles (Kokkos' level-1 scratch
// lock, taken because the scratch size it read was another word), illegal addresses in every Ordo
// kernel, and Kokkos-only TeamPolicy kernels holding one or two Views writing wrong results. The
// fault is the compiler's; no Ordo construct triggers or avoids it, since every kernel argument
// holds Views. Build Kokkos 5.0 or later, a Kokkos 4.6 snapshot whose
// tpls/mdspan/include/experimental/__p0009_bits/config.hpp does not use [[no_unique_address]]
// under nvcc 12.9 and later (README: CUDA build), or C++17.

#include <Kokkos_Core.hpp>

#if defined(__NVCC__) && defined(KOKKOS_ENABLE_IMPL_MDSPAN) &&            \
    !defined(KOKKOS_ENABLE_IMPL_VIEW_LEGACY) && __cplusplus >= 202002L && \
    (__CUDACC_VER_MAJOR__ * 100 + __CUDACC_VER_MINOR__ >= 1209) &&        \
    ((defined(MDSPAN_IMPL_USE_ATTRIBUTE_NO_UNIQUE_ADDRESS) &&             \
      !defined(MDSPAN_IMPL_USE_FAKE_ATTRIBUTE_NO_UNIQUE_ADDRESS)) ||      \
     !defined(MDSPAN_IMPL_NO_UNIQUE_ADDRESS))
#error \
    "Ordo: this Kokkos marks View members [[no_unique_address]] under nvcc 12.9 or later in C++20, which lays them out differently in device code than on the host, so every kernel would read corrupted arguments. Use Kokkos 5.0 or later, a Kokkos 4.6 snapshot patched as Ordo's docs/BUILDING.md (CUDA build) says, or C++17."
#endif

#endif
