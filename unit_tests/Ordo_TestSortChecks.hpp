// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_TEST_SORTCHECKS_HPP
#define ORDO_TEST_SORTCHECKS_HPP

// The sort tests' checks (TestSort.cpp, TestSortRadix.cpp): a sort, a sort by key and a stable
// sort with its permutation, each of generated keys against the oracle (Ordo_TestSortOracle.hpp,
// std::stable_sort), under SortOptions that force a path.

#include "Ordo_TestBackend.hpp"
#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"
#include "Ordo_TestSortOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace OrdoTest {

template <class T>
using KeySortTypes =
    Ordo::Impl::SortTypes<ExecSpace, typename Ordo::Impl::Codec<T, Ordo::less<>>::Bits,
                          Ordo::Impl::NoValue>;

template <class T>
std::size_t block_of() {
  return std::size_t(KeySortTypes<T>::block);
}

// Sizes across the slab, block and merge-pass boundaries (and the host chunk grain).
template <class T>
std::vector<std::size_t> sort_sizes(bool all) {
  using Tuning = typename KeySortTypes<T>::Tuning;
  const std::size_t block = block_of<T>();
  const std::size_t slab = on_host ? 512 : std::size_t(Tuning::lanes) * Tuning::regs;
  if (!all) return {0, 1, 2, 31, 33, slab + 1, block - 1, block + 1, 5 * block + 3, 100003};
  return test_sizes({slab, block, 4 * block, std::size_t(1) << 15}, large_size());
}

using Ordo::Impl::SortAlgorithm;
using Ordo::Impl::SortOptions;
using Ordo::Impl::SortPath;

// The slab sort forced (the tests of its paths and tuning experiments), on the given path.
inline SortOptions slab_options(SortPath path = SortPath::automatic) {
  SortOptions o;
  o.algorithm = SortAlgorithm::slab;
  o.path = path;
  return o;
}

template <class T, class Comp, class OracleComp>
void check_sort(Dist dist, std::size_t n, const Comp& comp, OracleComp oracle,
                const SortOptions& options = {}) {
  const auto in = generate<T>(dist, n, 7);
  auto keys = to_device(in, "keys");
  const ExecSpace space;
  Ordo::Impl::sort(space, keys, comp, options);
  space.fence();
  ASSERT_TRUE(sorted_permutation(in, std::vector<int>{}, to_host(keys), std::vector<int>{}, oracle))
      << "n = " << n << ", " << name(dist);
}

template <class K, class V, class Comp, class OracleComp>
void check_sort_by_key(Dist dist, std::size_t n, const Comp& comp, OracleComp oracle,
                       const SortOptions& options = {}) {
  const auto in_k = generate<K>(dist, n, 11);
  std::vector<V> in_v(n);
  for (std::size_t i = 0; i < n; ++i) in_v[i] = V(i * 3 + 1);
  auto keys = to_device(in_k, "keys");
  auto values = to_device(in_v, "values");
  const ExecSpace space;
  Ordo::Impl::sort_by_key(space, keys, values, comp, options);
  space.fence();
  ASSERT_TRUE(sorted_permutation(in_k, in_v, to_host(keys), to_host(values), oracle))
      << "n = " << n << ", " << name(dist);
}

template <class K, class V, class Comp, class OracleComp>
void check_stable(Dist dist, std::size_t n, const Comp& comp, OracleComp oracle,
                  const SortOptions& options = {}) {
  const auto in_k = generate<K>(dist, n, 13);
  std::vector<V> in_v(n);
  for (std::size_t i = 0; i < n; ++i) in_v[i] = V(i);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return oracle(in_k[a], in_k[b]); });
  std::vector<K> exp_k(n);
  std::vector<V> exp_v(n);
  for (std::size_t i = 0; i < n; ++i) {
    exp_k[i] = in_k[order[i]];
    exp_v[i] = in_v[order[i]];
  }
  auto keys = to_device(in_k, "keys");
  auto values = to_device(in_v, "values");
  const ExecSpace space;
  Ordo::Impl::stable_sort_by_key(space, keys, values, comp, options);
  space.fence();
  ASSERT_TRUE(bitwise_equal(exp_k, to_host(keys))) << "n = " << n << ", " << name(dist);
  ASSERT_TRUE(bitwise_equal(exp_v, to_host(values))) << "n = " << n << ", " << name(dist);

  // sort_permutation: the same order, keys untouched.
  auto keys2 = to_device(in_k, "keys2");
  auto perm = poisoned<std::int32_t>(n + 1, "perm");
  Ordo::Impl::stable_permutation(space, keys2,
                                 Kokkos::subview(perm, std::make_pair(std::size_t(0), n)),
                                 Ordo::Impl::NoEnd{}, comp, options);
  space.fence();
  const auto p = head_checked(perm, n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(std::size_t(p[i]), order[i]) << i;
  ASSERT_TRUE(bitwise_equal(in_k, to_host(keys2)));
}

}  // namespace OrdoTest

#endif
