// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_LOOKBACKWORD_HPP
#define ORDO_IMPL_LOOKBACKWORD_HPP

// The per-tile word of a decoupled look-back (single-pass compaction, the radix sort's digit
// passes): a state in the top two bits (0: nothing published yet, aggregate: the tile's own count,
// inclusive: the count of this tile and every earlier one) and a count below. Look-backs that
// reuse one array of words (the radix passes: one chain per digit, the array zeroed once per
// sort) tag each word with their use in bits [40, 62), so that a word an earlier use left reads as
// unpublished; their counts then have 40 bits.

#include <impl/core/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// The words are read and written as single aligned 64-bit accesses (one load or store
// instruction, coherent at the device's L2 on GPUs; on CUDA relaxed at device scope, elsewhere
// volatile), not as Kokkos atomics: desul implements atomic_load and atomic_store as
// compare-and-swap loops, which serialize a window's readers.
struct LookbackWord {
  static constexpr std::uint64_t aggregate = std::uint64_t(1) << 62;
  static constexpr std::uint64_t inclusive = std::uint64_t(2) << 62;
  static constexpr std::uint64_t value_mask = (std::uint64_t(1) << 62) - 1;

  KOKKOS_FORCEINLINE_FUNCTION static std::uint64_t read(const std::uint64_t& word) {
    return Seam::load_relaxed(word);
  }
  KOKKOS_FORCEINLINE_FUNCTION static void publish(std::uint64_t& word, std::uint64_t value) {
    Seam::store_relaxed(word, value);
  }

  static constexpr int tag_shift = 40;
  static constexpr std::uint64_t tagged_value_mask = (std::uint64_t(1) << tag_shift) - 1;
  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::uint64_t tag(std::uint64_t use) {
    return use << tag_shift;
  }

  // The exclusive prefix of tile `id` on one chain of tagged words, walked by one thread Window
  // words at a time (their loads in flight together): word_of(t) is tile t's word; the counts are
  // summed back to the nearest inclusive word, and a word that does not carry `tag` yet is read
  // again (with the words after it). Tiles number in the order they start (a ticket), so every
  // word awaited belongs to a tile that is running: the wait ends.
  template <int Window, class WordOf>
  KOKKOS_INLINE_FUNCTION static std::uint64_t tagged_prefix(const WordOf& word_of, std::int64_t id,
                                                            std::uint64_t use_tag) {
    constexpr std::uint64_t tag_bits = ~tagged_value_mask & value_mask;
    std::uint64_t prefix = 0;
    std::int64_t t = id - 1;
    while (true) {
      std::uint64_t word[Window];
      for (int i = 0; i < Window; ++i) {
        word[i] = t - i >= 0 ? read(word_of(t - i)) : inclusive | use_tag;  // before tile 0: 0
      }
      for (int i = 0; i < Window; ++i) {
        if ((word[i] & tag_bits) != use_tag || (word[i] & (aggregate | inclusive)) == 0) {
          t -= i;
          break;
        }
        prefix += word[i] & tagged_value_mask;
        if (word[i] & inclusive) return prefix;
        if (i == Window - 1) t -= Window;
      }
    }
  }
};

}  // namespace Ordo::Impl

#endif
