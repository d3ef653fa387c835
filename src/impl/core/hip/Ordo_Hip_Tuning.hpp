// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_HIP_TUNING_HPP
#define ORDO_IMPL_HIP_TUNING_HPP

// The HIP backend's tuning constants: specializations of the structs of core/Ordo_Tuning.hpp, which
// includes this file after core/cuda/Ordo_Cuda_Tuning.hpp (it is not included on its own).
// Nothing here has been measured on an AMD GPU. The tiles take the H100's rows (the sm_90 rows of
// core/cuda/Ordo_Cuda_Tuning.hpp), with which the portable seam ran on the H100
// (perf_tests/README.md, the portable path): teams of 128 or 256 threads, scratch within
// ScratchTuning::team_max (48 KiB of a workgroup's 64 KiB of LDS). The host rows they replace ran
// one thread a team. An AMD row overrides what an AMD GPU measures, as the CUDA rows of other
// architectures would; the vendor switch points of those rows (CUB's) do not apply:
// Vendor<Kokkos::HIP> takes only rocPRIM's radix sort (below).

#if !defined(ORDO_IMPL_TUNING_HPP)
#error "impl/core/hip/Ordo_Hip_Tuning.hpp is included by impl/core/Ordo_Tuning.hpp only"
#endif

#if defined(KOKKOS_ENABLE_HIP)

namespace Ordo::Impl {

template <std::size_t KeyBytes, std::size_t ValueBytes>
struct SortTuning<Kokkos::HIP, KeyBytes, ValueBytes> : CudaSortTuning<90, KeyBytes, ValueBytes> {};
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct RadixTuning<Kokkos::HIP, KeyBytes, ValueBytes> : CudaRadixTuning<90, KeyBytes, ValueBytes> {
};
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct SegmentedSortTuning<Kokkos::HIP, KeyBytes, ValueBytes>
    : CudaSegmentedSortTuning<90, KeyBytes, ValueBytes> {};
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct TeamSortTuning<Kokkos::HIP, KeyBytes, ValueBytes>
    : CudaTeamSortTuning<90, KeyBytes, ValueBytes> {};
template <>
struct CompactTuning<Kokkos::HIP> : CudaCompactTuning<90> {};
template <>
struct MergePathTuning<Kokkos::HIP> : CudaMergePathTuning<90> {};
template <std::size_t KeyBytes>
struct MergeTuning<Kokkos::HIP, KeyBytes> : CudaMergeTuning<90, KeyBytes> {};
template <std::size_t KeyBytes>
struct SearchTuning<Kokkos::HIP, KeyBytes> : CudaSearchTuning<90, KeyBytes> {};
template <std::size_t KeyBytes>
struct SetOpsTuning<Kokkos::HIP, KeyBytes> : CudaSetOpsTuning<90, KeyBytes> {};
template <>
struct ScanTuning<Kokkos::HIP> : CudaScanTuning<90> {};
template <>
struct RunsTuning<Kokkos::HIP> : CudaRunsTuning<90> {};
template <std::size_t KeyBytes>
struct BinarySearchTuning<Kokkos::HIP, KeyBytes> : CudaBinarySearchTuning<90, KeyBytes> {};

}  // namespace Ordo::Impl

#endif

#if defined(ORDO_HIP_VENDOR)

namespace Ordo::Impl {

// rocPRIM's radix sort (impl/device/hip/Ordo_Hip_Rocprim.hpp) from the size where CUB's overtakes
// Ordo's sorts on an H100 (4-byte keys; a guess for AMD GPUs until one measures it), every bit
// sorted (no search for the bits that vary); everything else as on the portable path.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct VendorSortTuning<Kokkos::HIP, KeyBytes, ValueBytes>
    : VendorSortTuning<void, KeyBytes, ValueBytes> {
  static constexpr std::int64_t from = std::int64_t(1) << 20;
};

}  // namespace Ordo::Impl

#endif

#endif
