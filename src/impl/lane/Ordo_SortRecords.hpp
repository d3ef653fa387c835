// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTRECORDS_HPP
#define ORDO_IMPL_SORTRECORDS_HPP

// What every level of sort shares: records flow from a source (the caller's keys, encoded, with
// their values, input positions or nothing) through workspace buffers to a sink (the caller's
// Views, decoded); the record ends below read and write them. SortTypes gives a sort's tuning and
// block, SortOptions the choices a caller may force (the tests and ordo-perf's tuning
// experiments), passed down to every kernel that reads them: nothing global.

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_Slab.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Keys: the caller's View through the codec, a workspace buffer of encoded keys, or discarded
// (sort_permutation leaves the caller's keys as they are).
template <class Codec, class View>
struct CodecKeys {
  View view;
  KOKKOS_INLINE_FUNCTION typename Codec::Bits load(std::int64_t i) const {
    return Codec::encode(view(i));
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, const typename Codec::Bits& k) const {
    view(i) = Codec::decode(k);
  }
};

template <class View>
struct PlainEnd {
  View view;
  KOKKOS_INLINE_FUNCTION typename View::non_const_value_type load(std::int64_t i) const {
    return view(i);
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, const T& x) const {
    view(i) = x;
  }
};

struct NoEnd {
  KOKKOS_INLINE_FUNCTION NoValue load(std::int64_t) const { return {}; }
  template <class T>
  KOKKOS_INLINE_FUNCTION void store(std::int64_t, const T&) const {}
};

// Values that are the input positions (stable sorts, sort_permutation); stored to an index View.
template <class View>
struct PositionValues {
  View view;
  KOKKOS_INLINE_FUNCTION std::uint32_t load(std::int64_t i) const { return std::uint32_t(i); }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, std::uint32_t p) const {
    view(i) = typename View::non_const_value_type(p);
  }
};

template <class Keys, class Values>
struct Ends {
  Keys keys;
  Values values;
};

// The padding value of a register slot: the largest value of integral types (stable sorts order
// by position after the key, so padding sorts after every element), anything otherwise.
template <class V>
KOKKOS_INLINE_FUNCTION V padding_value() {
  if constexpr (std::is_integral_v<V>) {
    using U = std::make_unsigned_t<V>;
    return V(U(~U(0)) >> (std::is_signed_v<V> ? 1 : 0));
  } else {
    return V{};
  }
}

// The element type of a value buffer (char where no values move: such buffers stay empty).
template <class V>
using StoredValue = std::conditional_t<std::is_same_v<V, NoValue>, char, V>;

// The sorts' tuning rows for records of keys K and values V (NoValue: keys only).
template <class ExecSpace, class K, class V>
struct SortTypes {
  static constexpr std::size_t value_bytes = std::is_same_v<V, NoValue> ? 0 : sizeof(V);
  using Tuning = SortTuning<ExecSpace, sizeof(K), value_bytes>;
  using Radix = RadixTuning<ExecSpace, sizeof(K), value_bytes>;
  using VendorSort = VendorSortTuning<ExecSpace, sizeof(K), value_bytes>;
  using Segments = SegmentedSortTuning<ExecSpace, sizeof(K), value_bytes>;
  using Team = TeamSortTuning<ExecSpace, sizeof(K), value_bytes>;
  static constexpr std::int64_t block = std::int64_t(Tuning::slabs) * Tuning::lanes * Tuning::regs;
};

// Which slab network sorts: automatic (host backends: the standard library; CUDA: the seam for
// encoded keys), or portable (the portable network with the device merge passes on every
// backend, which the tests compare with the seam). For the radix sort: automatic takes the CUDA
// ranking seam, portable the portable ranking.
enum class SortPath { automatic, portable };

// Which sort runs: automatic (VendorSortTuning's and RadixTuning's `from` for arithmetic keys under
// Ordo::less or Ordo::greater), the slab sort (or the host sort), the radix sort (arithmetic keys
// only: other keys take the slab sort whatever is asked), the vendor radix sort (arithmetic keys
// where the build has one for the space, Ordo_SortVendorImpl.hpp: elsewhere the radix sort), or
// the vendor merge sort (the same keys where the build has one: elsewhere the slab sort).
// ordo-perf sort --algorithm.
enum class SortAlgorithm { automatic, slab, radix, vendor, vendor_merge };

// A sort's choices that the tuning makes unless the caller forces them: the path, the streaming
// merge levels (ordo-perf sort --stream-levels; -1: SortTuning's stream_levels), the vector lanes
// of the partition searches (--partition-lanes; -1: SortTuning's partition_lanes), the algorithm,
// and whether the vendor sort finds the bits that vary first (--vendor-bits; -1: SortTuning's
// VendorSortTuning's bits_from and float_bits_from).
struct SortOptions {
  SortPath path = SortPath::automatic;
  int stream_levels = -1;
  int partition_lanes = -1;
  SortAlgorithm algorithm = SortAlgorithm::automatic;
  int vendor_bits = -1;
  // The encoded keys are known to lie below 2^key_bits (the sorts by several keys and the assembly
  // pack theirs so): the vendor radix sort sorts bits [0, key_bits) and searches for none (-1: not
  // known).
  int key_bits = -1;
};

}  // namespace Ordo::Impl

#endif
