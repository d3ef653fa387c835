// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_COMPARATORS_HPP
#define ORDO_COMPARATORS_HPP

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace Ordo {

/// Strict weak ordering used by every Ordo algorithm unless the caller passes another.
/// For floating-point keys it is a total order: NaNs compare equal to each other and order after
/// +inf, so that arrays holding NaNs are still sorted inputs for merge and search. Ordo's sorts of
/// float and double keys under less (or greater) order by the keys' bits, which refines it: -0.0
/// before +0.0 (equal here), NaNs by sign and payload (all equal here), so that every path
/// gives the same output; their stable forms keep the input order of keys with identical bits.
template <class T = void>
struct less {
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const T& x, const T& y) const {
    if constexpr (std::is_floating_point_v<T>) {
      return x < y || (y != y && x == x);
    } else {
      return x < y;
    }
  }
};

template <>
struct less<void> {
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const T& x, const T& y) const {
    return less<T>{}(x, y);
  }
};

/// The reverse of Ordo::less: descending order, NaNs first.
template <class T = void>
struct greater {
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const T& x, const T& y) const {
    return less<T>{}(y, x);
  }
};

template <>
struct greater<void> {
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const T& x, const T& y) const {
    return less<T>{}(y, x);
  }
};

/// Reductions for reduce_by_key (any associative binary function object, or a Kokkos reducer such
/// as Kokkos::Sum<T>, works as well).
template <class T = void>
struct plus {
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const { return a + b; }
};
template <>
struct plus<void> {
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

template <class T = void>
struct minimum {
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
template <>
struct minimum<void> {
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

template <class T = void>
struct maximum {
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};
template <>
struct maximum<void> {
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

}  // namespace Ordo

#endif
