// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTCHECKS_HPP
#define ORDO_IMPL_SORTCHECKS_HPP

// The sorts' argument checks (Ordo_Sort.hpp's calls make them before anything runs).

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// Sorts carry 32-bit input positions (stable forms, sort_permutation).
template <class KeyView>
void check_sort_size(const char* fn, const KeyView& keys) {
  if (keys.extent(0) >= (std::size_t(1) << 32) - 1) {
    fail(fn, "keys has " + std::to_string(keys.extent(0)) +
                 " elements, at most 2^32 - 2 are supported");
  }
}

// The range form's [begin, end) lies inside keys.
template <class KeyView, class Begin, class End>
void check_sort_range(const char* fn, const KeyView& keys, Begin begin, End end) {
  const long long b = (long long)begin, e = (long long)end;
  if (b < 0 || e < b || std::size_t(e) > keys.extent(0)) {
    fail(fn, "the range [" + std::to_string(begin) + ", " + std::to_string(end) +
                 ") is not inside keys, which has " + std::to_string(keys.extent(0)) + " elements");
  }
}

template <class ExecSpace, class KeyView>
void check_sort_keys(const char* fn, const KeyView& keys) {
  static_check_views<ExecSpace, KeyView>();
  static_assert(!std::is_const_v<typename KeyView::value_type>, "Ordo: keys are sorted in place");
  check_all_reachable<ExecSpace>(fn, "keys", keys);
  check_sort_size(fn, keys);
}

template <class ExecSpace, class KeyView, class ValueView>
void check_sort_values(const char* fn, const KeyView& keys, const ValueView& values) {
  static_check_views<ExecSpace, ValueView>();
  static_assert(!std::is_const_v<typename ValueView::value_type>, "Ordo: values move in place");
  static_assert(std::is_trivially_copyable_v<typename ValueView::value_type>,
                "Ordo: values are trivially copyable");
  check_size_equal(fn, "values", values, keys.extent(0), "one value per key");
  check_no_alias(fn, "values", values, "keys", keys);
  check_all_reachable<ExecSpace>(fn, "values", values);
}

}  // namespace Ordo::Impl

#endif
