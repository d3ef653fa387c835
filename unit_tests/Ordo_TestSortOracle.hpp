// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_TEST_SORTORACLE_HPP
#define ORDO_TEST_SORTORACLE_HPP

// The sorts' oracle (TestSort.cpp, TestSegmentedSort.cpp): the order Ordo's sorts promise, on the
// host, and the check of an unstable sort's output against its input.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace OrdoTest {

// The oracle's order: IEEE order with -0.0 before +0.0 and every NaN after +inf (NaNs equal to
// each other); integers as they are.
template <class T>
bool oracle_less(const T& x, const T& y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) return false;
    if (std::isnan(y)) return true;
    return x < y || (x == y && std::signbit(x) && !std::signbit(y));
  } else {
    return x < y;
  }
}

template <class T>
struct OracleLess {
  bool operator()(const T& x, const T& y) const { return oracle_less(x, y); }
};
template <class T>
struct OracleGreater {
  bool operator()(const T& x, const T& y) const { return oracle_less(y, x); }
};

template <class T>
std::uint64_t bits_of(const T& x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof(T));
  return b;
}

// The records sorted by their bits: equal as multisets iff equal after this.
template <class T, class V>
std::vector<std::pair<std::uint64_t, std::uint64_t>> multiset(const std::vector<T>& k,
                                                              const std::vector<V>& v) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> r(k.size());
  for (std::size_t i = 0; i < k.size(); ++i) r[i] = {bits_of(k[i]), v.empty() ? 0 : bits_of(v[i])};
  std::sort(r.begin(), r.end());
  return r;
}

// A correct unstable sort: the output is sorted under the oracle's order and holds the same
// records as the input.
template <class T, class V, class OracleComp>
::testing::AssertionResult sorted_permutation(const std::vector<T>& in_k,
                                              const std::vector<V>& in_v,
                                              const std::vector<T>& out_k,
                                              const std::vector<V>& out_v, OracleComp comp) {
  if (out_k.size() != in_k.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t i = 1; i < out_k.size(); ++i) {
    if (comp(out_k[i], out_k[i - 1])) {
      return ::testing::AssertionFailure() << "not sorted at " << i << " of " << out_k.size();
    }
  }
  if (multiset(in_k, in_v) != multiset(out_k, out_v)) {
    return ::testing::AssertionFailure() << "not a permutation of the input records";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace OrdoTest

#endif
