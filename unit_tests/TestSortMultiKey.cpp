// SPDX-License-Identifier: BSD-3-Clause
// The sorts by several keys (Ordo::keys(k0, k1, ...)) against std::stable_sort on tuples.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace OrdoTest;
using Ordo::Impl::SortAlgorithm;
using Ordo::Impl::SortOptions;

// n random keys in [lo, lo + range) (range 0: the type's whole range, from random bits).
template <class T>
std::vector<T> random_keys(std::size_t n, std::uint64_t range, std::int64_t lo,
                           std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    const std::uint64_t r = rng();
    x = range == 0 ? from_bits<T>(r) : T(lo + std::int64_t(r % range));
  }
  return v;
}

// The oracle: positions in the stable lexicographic order of the tuples (descending: reversed
// order of each key).
template <class... Ts>
std::vector<std::size_t> stable_order(bool descending, const std::vector<Ts>&... keys) {
  const std::size_t n = std::get<0>(std::tie(keys...)).size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto less = [&](std::size_t a, std::size_t b) {
    return descending ? std::tie(keys[b]...) < std::tie(keys[a]...)
                      : std::tie(keys[a]...) < std::tie(keys[b]...);
  };
  std::stable_sort(order.begin(), order.end(), less);
  return order;
}

template <class T>
std::vector<T> permuted(const std::vector<T>& v, const std::vector<std::size_t>& order) {
  std::vector<T> out(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
  return out;
}

// Keys as the sorts order them, to compare: floating keys by their bits (NaN != NaN, and -0.0
// and +0.0 are told apart), others as they are.
template <class T>
auto key_bits(const std::vector<T>& v) {
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    std::vector<U> bits(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) std::memcpy(&bits[i], &v[i], sizeof(U));
    return bits;
  } else {
    return v;
  }
}

// Sorts (a, b) with positions as values, by every form, and checks each against the oracle's
// order.
template <class A, class B, class Comp>
void check_forms(const std::vector<A>& a, const std::vector<B>& b,
                 const std::vector<std::size_t>& order, const SortOptions& options) {
  const std::size_t n = a.size();
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  const ExecSpace space;
  {  // sort_by_key: keys and values, stable
    auto da = to_device(a);
    auto db = to_device(b);
    auto dv = to_device(positions);
    Ordo::Impl::multi_key_sort<Comp>(space, Ordo::Impl::PlainEnd<decltype(dv)>{dv}, options, da,
                                     db);
    ASSERT_EQ(key_bits(to_host(da)), key_bits(permuted(a, order))) << "n = " << n;
    ASSERT_EQ(key_bits(to_host(db)), key_bits(permuted(b, order))) << "n = " << n;
    const auto v = to_host(dv);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(v[i], order[i]) << "n = " << n << ", i = " << i;
  }
  {  // the permutation form: keys unchanged
    auto da = to_device(a);
    auto db = to_device(b);
    DeviceView<std::int64_t> perm("perm", n);
    Ordo::Impl::multi_key_permutation<Comp>(space, perm, options, da, db);
    const auto p = to_host(perm);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(std::size_t(p[i]), order[i]) << "i = " << i;
    ASSERT_EQ(key_bits(to_host(da)), key_bits(a));
    ASSERT_EQ(key_bits(to_host(db)), key_bits(b));
  }
}

// check_forms against the stable lexicographic order of the tuples.
template <class A, class B, class Comp = Ordo::less<>>
void check_two_keys(const std::vector<A>& a, const std::vector<B>& b, const Comp& = Comp{},
                    const SortOptions& options = {}) {
  const auto order = stable_order(std::is_same_v<Comp, Ordo::greater<>>, a, b);
  check_forms<A, B, Comp>(a, b, order, options);
}

std::vector<SortOptions> every_sort() {
  std::vector<SortOptions> all(3);
  all[1].algorithm = SortAlgorithm::slab;
  all[2].algorithm = SortAlgorithm::radix;
  return all;
}

TEST(SortMultiKey, RowsAndColumnsWithRepeats) {
  for (const auto& options : every_sort()) {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1000),
                          std::size_t(70001), large_size()}) {
      // 30% repeats or more: rows and columns from small ranges.
      const auto rows = random_keys<std::int32_t>(n, 1 + n / 8, 0, n + 1);
      const auto cols = random_keys<std::int32_t>(n, 1 + n / 16, 0, n + 2);
      check_two_keys(rows, cols, Ordo::less<>{}, options);
    }
  }
}

TEST(SortMultiKey, EveryKeyTypePairAndDescending) {
  const std::size_t n = 20000;
  check_two_keys(random_keys<std::int64_t>(n, 100, -50, 1), random_keys<std::uint32_t>(n, 0, 0, 2));
  check_two_keys(random_keys<std::uint64_t>(n, 7, 0, 3), random_keys<float>(n, 0, 0, 4));
  check_two_keys(random_keys<double>(n, 9, -4, 5), random_keys<std::int32_t>(n, 0, 0, 6));
  check_two_keys(random_keys<std::int32_t>(n, 0, 0, 7), random_keys<std::int32_t>(n, 3, -1, 8),
                 Ordo::greater<>{});
  check_two_keys(random_keys<float>(n, 5, 0, 9), random_keys<double>(n, 0, 0, 10),
                 Ordo::greater<>{});
}

// Floating keys order as the single-key sorts order them: by value, -0.0 before +0.0, then every
// NaN after +inf, the positive ones by payload, then the negative ones by payload descending; and
// that order decides before the next key. The oracle orders (that rank of the first key, the
// second key) with std::stable_sort; check_forms compares the keys as bits. A float first key
// packs into one word, a double one (NaNs span all 64 bits) takes the chained way.
template <class F, class Comp>
void check_float_bits_order(std::size_t n, const Comp&, const SortOptions& options) {
  using U = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  const U sign = U(1) << (8 * sizeof(U) - 1);
  auto bits = [](F x) {
    U u;
    std::memcpy(&u, &x, sizeof(u));
    return u;
  };
  auto rank = [&](F x) {
    const bool negative = bits(x) & sign;
    return std::isnan(x) ? std::make_tuple(1, F(0), int(negative), negative ? U(~bits(x)) : bits(x))
                         : std::make_tuple(0, x, int(!negative), U(0));
  };
  const F inf = std::numeric_limits<F>::infinity(), nan = std::numeric_limits<F>::quiet_NaN();
  F payload_nan;
  const U payload = bits(nan) | U(5);
  std::memcpy(&payload_nan, &payload, sizeof(payload));
  const F pool[] = {F(-0.0), F(0.0), nan, -nan, payload_nan, inf, -inf, F(1), F(-1), F(1e-40)};
  std::mt19937_64 rng(n);
  std::vector<F> a(n);
  for (auto& x : a) x = pool[rng() % std::size(pool)];
  const auto b = random_keys<std::int32_t>(n, 5, 0, n + 3);
  constexpr bool descending = std::is_same_v<Comp, Ordo::greater<>>;
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    const auto ki = std::make_pair(rank(a[i]), b[i]), kj = std::make_pair(rank(a[j]), b[j]);
    return descending ? kj < ki : ki < kj;
  });
  check_forms<F, std::int32_t, Comp>(a, b, order, options);
}

TEST(SortMultiKey, FloatKeysOrderByTheirBits) {
  for (const auto& options : every_sort()) {
    for (std::size_t n : {std::size_t(40), std::size_t(20000)}) {
      check_float_bits_order<float>(n, Ordo::less<>{}, options);
      check_float_bits_order<float>(n, Ordo::greater<>{}, options);
      check_float_bits_order<double>(n, Ordo::less<>{}, options);
      check_float_bits_order<double>(n, Ordo::greater<>{}, options);
    }
  }
}

// Keys whose ranges need more than 64 bits together: the chained way.
TEST(SortMultiKey, WideKeysTakeTheChainedWay) {
  for (const auto& options : every_sort()) {
    for (std::size_t n : {std::size_t(3), std::size_t(5000), large_size() / 4}) {
      const auto a = random_keys<std::uint64_t>(n, 4, 0, 11);  // repeats in the first key
      const auto b = random_keys<std::int64_t>(n, 0, 0, 12);
      check_two_keys(a, b, Ordo::less<>{}, options);
      check_two_keys(random_keys<double>(n, 3, 0, 13), random_keys<std::uint64_t>(n, 0, 0, 14),
                     Ordo::greater<>{}, options);
    }
  }
}

TEST(SortMultiKey, PublicFormsWithThreeKeys) {
  const std::size_t n = 50000;
  const auto a = random_keys<std::int32_t>(n, 5, 0, 21);
  const auto b = random_keys<std::int64_t>(n, 50, -25, 22);
  const auto c = random_keys<std::uint32_t>(n, 1000, 0, 23);
  const auto order = stable_order(false, a, b, c);
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = 0.5 * double(i);
  const ExecSpace space;
  {
    auto da = to_device(a);
    auto db = to_device(b);
    auto dc = to_device(c);
    auto dv = to_device(values);
    Ordo::sort_by_key(space, Ordo::keys(da, db, dc), dv);
    EXPECT_EQ(to_host(da), permuted(a, order));
    EXPECT_EQ(to_host(db), permuted(b, order));
    EXPECT_EQ(to_host(dc), permuted(c, order));
    EXPECT_EQ(to_host(dv), permuted(values, order));
  }
  {
    auto da = to_device(a);
    auto db = to_device(b);
    auto dc = to_device(c);
    Ordo::sort(Ordo::keys(da, db, dc));
    EXPECT_EQ(to_host(da), permuted(a, order));
    EXPECT_EQ(to_host(dc), permuted(c, order));
  }
  {
    auto da = to_device(a);
    auto db = to_device(b);
    auto dc = to_device(c);
    auto dv = to_device(values);
    Ordo::stable_sort_by_key(Ordo::keys(da, db, dc), dv);
    EXPECT_EQ(to_host(dv), permuted(values, order));
  }
  {
    auto da = to_device(a);
    auto db = to_device(b);
    auto dc = to_device(c);
    DeviceView<std::uint32_t> perm("perm", n);
    Kokkos::View<const std::int32_t*, MemorySpace> ca = da;
    Ordo::sort_permutation(Ordo::keys(ca, db, dc), perm);
    const auto p = to_host(perm);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(p[i], order[i]);
  }
}

TEST(SortMultiKey, BadInputLeavesKeysUnchanged) {
  const auto a = random_keys<std::int32_t>(100, 10, 0, 31);
  const auto b = random_keys<std::int32_t>(100, 10, 0, 32);
  auto da = to_device(a), db = to_device(b);
  auto shorter = to_device(random_keys<std::int32_t>(99, 10, 0, 33));
  DeviceView<double> few("few", 99);
  DeviceView<std::int32_t> perm("perm", 99);
  EXPECT_NE(error_of([&] { Ordo::sort(ExecSpace(), Ordo::keys(da, shorter)); }), "no exception");
  EXPECT_NE(error_of([&] { Ordo::sort_by_key(ExecSpace(), Ordo::keys(da, db), few); }),
            "no exception");
  EXPECT_NE(error_of([&] { Ordo::sort(ExecSpace(), Ordo::keys(da, da)); }), "no exception");
  EXPECT_NE(error_of([&] { Ordo::sort_permutation(ExecSpace(), Ordo::keys(da, db), perm); }),
            "no exception");
  EXPECT_NE(error_of([&] { Ordo::sort_by_key(ExecSpace(), Ordo::keys(da, db), db); }),
            "no exception");
  EXPECT_EQ(to_host(da), a);
  EXPECT_EQ(to_host(db), b);
}

}  // namespace
