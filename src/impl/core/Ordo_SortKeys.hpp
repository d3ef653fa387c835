// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTKEYS_HPP
#define ORDO_IMPL_SORTKEYS_HPP

// Keys of sort, as the slab networks see them. Arithmetic keys under Ordo::less or
// Ordo::greater are sorted as unsigned integers of their own size through an order-preserving,
// invertible bit transform (HotSort sorts integers; the transform makes every supported key one):
//   unsigned  as is
//   signed    sign bit flipped
//   floating  negative: all bits flipped; otherwise sign bit set; then rotated down so that -inf
//             is 0 and every NaN (either sign, any payload) lies above +inf. -0.0 orders before
//             +0.0; NaNs order among themselves by their bits.
// Ordo::greater sorts the complement. The all-ones word (above every key) pads partial slabs in
// registers; it is never written out. Any other key type or comparator runs as is (Codec::encoded
// is false) on the generic path, which pads by position instead.

#include <Ordo_Comparators.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

template <std::size_t Bytes>
struct UnsignedOf;
template <>
struct UnsignedOf<4> {
  using type = std::uint32_t;
};
template <>
struct UnsignedOf<8> {
  using type = std::uint64_t;
};

template <class T>
inline constexpr bool is_transformable_key_v =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);

template <class Comp>
inline constexpr bool is_less_v = std::is_same_v<Comp, less<>>;
template <class Comp>
inline constexpr bool is_greater_v = std::is_same_v<Comp, greater<>>;
// Whether Comp is Ordo's order of Key, ascending or descending (less or greater, typed or not):
// the order the transformed keys and the vendor calls (CUB) know.
template <class Comp, class Key>
inline constexpr bool is_ordo_order_v =
    is_less_v<Comp> || is_greater_v<Comp> || std::is_same_v<Comp, less<Key>> ||
    std::is_same_v<Comp, greater<Key>>;

// Codec<Key, Comp>: Bits the networks sort, encode/decode, the comparator on Bits, and whether the
// padding word exists.
template <class Key, class Comp, class Enable = void>
struct Codec {
  static constexpr bool encoded = false;
  using Bits = Key;
  using Less = Comp;
  // The comparator the networks run: the caller's object itself (it may hold state, a View of
  // values that orders indices by them, and need not be default-constructible).
  KOKKOS_INLINE_FUNCTION static const Less& less_of(const Comp& comp) { return comp; }
  KOKKOS_INLINE_FUNCTION static Bits encode(const Key& k) { return k; }
  KOKKOS_INLINE_FUNCTION static Key decode(const Bits& b) { return b; }
};

template <class T>
struct TypedLess {
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const T& x, const T& y) const { return x < y; }
};

template <class Key, class Comp>
struct Codec<Key, Comp,
             std::enable_if_t<is_transformable_key_v<Key> && is_ordo_order_v<Comp, Key>>> {
  static constexpr bool encoded = true;
  using Original = Key;
  static constexpr bool floating = std::is_floating_point_v<Key>;
  static constexpr bool descending = is_greater_v<Comp> || std::is_same_v<Comp, greater<Key>>;
  using Bits = typename UnsignedOf<sizeof(Key)>::type;
  using Less = TypedLess<Bits>;
  static constexpr int top = 8 * sizeof(Key) - 1;
  static constexpr Bits sign = Bits(1) << top;
  // Mantissa bits of float/double: -inf's image before the rotation.
  static constexpr Bits rotation =
      sizeof(Key) == 4 ? Bits(0x007FFFFFu) : Bits(0x000FFFFFFFFFFFFFull);
  static constexpr Bits padding = ~Bits(0);
  // Ordo::less and Ordo::greater hold no state: the encoded order replaces them.
  KOKKOS_INLINE_FUNCTION static Less less_of(const Comp&) { return Less{}; }

  // k by value: a bit_cast (a memcpy) straight from a reference into a View compiles, on CUDA, to
  // byte loads (nvcc cannot see the element's alignment through the generic pointer): four
  // loads and three byte permutes per 4-byte key where a copy first loads it in one.
  KOKKOS_INLINE_FUNCTION static Bits encode(const Key k) {
    Bits b = ordered(k);
    if constexpr (std::is_floating_point_v<Key>) b -= rotation;
    return descending ? Bits(~b) : b;
  }
  // The ascending image before the rotation (floats: negative ones inverted, the sign bit of the
  // others set; signed: the sign bit flipped), the order in which the vendor radix sorts (CUB,
  // rocPRIM) sort keys' bits: it differs from encode's only by the float rotation, which orders
  // -0.0 and NaNs as Ordo does.
  KOKKOS_INLINE_FUNCTION static Bits ordered(const Key k) {
    const Bits b = Kokkos::bit_cast<Bits>(k);
    if constexpr (std::is_floating_point_v<Key>) return (b & sign) ? Bits(~b) : Bits(b | sign);
    if constexpr (std::is_signed_v<Key>) return Bits(b ^ sign);
    return b;
  }
  KOKKOS_INLINE_FUNCTION static Key decode(Bits b) {
    if (descending) b = ~b;
    if constexpr (std::is_floating_point_v<Key>) {
      b += rotation;
      b = (b & sign) ? (b ^ sign) : ~b;
    } else if constexpr (std::is_signed_v<Key>) {
      b ^= sign;
    }
    return Kokkos::bit_cast<Key>(b);
  }
};

// The radix sort's digits of an encoded key: pass p reads bits [p * radix_bits, (p + 1) *
// radix_bits).
inline constexpr int radix_bits = 8;
inline constexpr int radix_digits = 1 << radix_bits;

template <class K>
KOKKOS_INLINE_FUNCTION int radix_digit(K key, int pass) {
  return int((key >> (pass * radix_bits)) & K(radix_digits - 1));
}

}  // namespace Ordo::Impl

#endif
