// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_HIP_TUNING_HPP
#define ORDO_IMPL_HIP_TUNING_HPP

// The HIP backend's tuning constants where they differ from the portable ones:
// specializations of the structs of core/Ordo_Tuning.hpp, which includes this file after declaring
// them (it is not included on its own). Nothing here has been measured on an AMD GPU.

#if !defined(ORDO_IMPL_TUNING_HPP)
#error "impl/core/hip/Ordo_Hip_Tuning.hpp is included by impl/core/Ordo_Tuning.hpp only"
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
