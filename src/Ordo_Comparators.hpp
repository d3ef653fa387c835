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
  /// Whether x orders before y.
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const T& x, const T& y) const {
    if constexpr (std::is_floating_point_v<T>) {
      return x < y || (y != y && x == x);
    } else {
      return x < y;
    }
  }
};

/// Ordo::less of any type, deduced at the call.
template <>
struct less<void> {
  /// Whether x orders before y under Ordo::less<T>.
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const T& x, const T& y) const {
    return less<T>{}(x, y);
  }
};

/// The reverse of Ordo::less: descending order, NaNs first.
template <class T = void>
struct greater {
  /// Whether y orders before x under Ordo::less.
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const T& x, const T& y) const {
    return less<T>{}(y, x);
  }
};

/// Ordo::greater of any type, deduced at the call.
template <>
struct greater<void> {
  /// Whether y orders before x under Ordo::less<T>.
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr bool operator()(const T& x, const T& y) const {
    return less<T>{}(y, x);
  }
};

/// Reductions for reduce_by_key (any associative binary function object, or a Kokkos reducer such
/// as Kokkos::Sum<T>, works as well). plus: a + b.
template <class T = void>
struct plus {
  /// a + b.
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const { return a + b; }
};
/// Ordo::plus of any type, deduced at the call.
template <>
struct plus<void> {
  /// a + b.
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

/// The smaller of two values (the first of two equal ones).
template <class T = void>
struct minimum {
  /// b < a ? b : a.
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
/// Ordo::minimum of any type, deduced at the call.
template <>
struct minimum<void> {
  /// b < a ? b : a.
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

/// The larger of two values (the first of two equal ones).
template <class T = void>
struct maximum {
  /// a < b ? b : a.
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};
/// Ordo::maximum of any type, deduced at the call.
template <>
struct maximum<void> {
  /// a < b ? b : a.
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

}  // namespace Ordo

#endif
