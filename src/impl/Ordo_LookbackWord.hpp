// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_LOOKBACKWORD_HPP
#define ORDO_IMPL_LOOKBACKWORD_HPP

// The per-tile word of a decoupled look-back (single-pass compaction): a state in the top two bits
// (0: nothing published yet, aggregate: the tile's own count, inclusive: the count of this tile
// and every earlier one) and a count below.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// The words are read and written as single aligned 64-bit volatile accesses (one load or store
// instruction, coherent at the device's L2 on GPUs), not as Kokkos atomics: desul implements
// atomic_load and atomic_store as compare-and-swap loops, which serialize a window's readers.
struct LookbackWord {
  static constexpr std::uint64_t aggregate = std::uint64_t(1) << 62;
  static constexpr std::uint64_t inclusive = std::uint64_t(2) << 62;
  static constexpr std::uint64_t value_mask = (std::uint64_t(1) << 62) - 1;

  KOKKOS_FORCEINLINE_FUNCTION static std::uint64_t read(const std::uint64_t& word) {
    return *static_cast<const volatile std::uint64_t*>(&word);
  }
  KOKKOS_FORCEINLINE_FUNCTION static void publish(std::uint64_t& word, std::uint64_t value) {
    *static_cast<volatile std::uint64_t*>(&word) = value;
  }
};

}  // namespace Ordo::Impl

#endif
