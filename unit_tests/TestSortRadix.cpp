// SPDX-License-Identifier: BSD-3-Clause
// Ordo's radix sort and the vendor sort (each way in), and the sort's dispatch and workspace
// bounds, against std::sort / std::stable_sort.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"
#include "Ordo_TestSortChecks.hpp"
#include "Ordo_TestSortOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace OrdoTest;

// ---- radix sort ------------------------------------------------------------------------------

constexpr bool vendor_sort = Ordo::Impl::vendor_sort_available_v<ExecSpace>;

// The radix sorts forced: Ordo's with each ranking (the CUDA seam and the portable one; host
// backends have only the portable one) and, where the build has one, the vendor sort without and
// with the search for the bits that vary, and the vendor merge sort. All are stable, so all must
// give the oracle's bits exactly.
std::vector<SortOptions> radix_options() {
  std::vector<SortOptions> all(on_host ? 1 : 2);
  for (std::size_t i = 0; i < all.size(); ++i) {
    all[i].algorithm = SortAlgorithm::radix;
    all[i].path = i == 0 ? SortPath::portable : SortPath::automatic;
  }
  for (int bits = 0; vendor_sort && bits < 2; ++bits) {
    all.emplace_back();
    all.back().algorithm = SortAlgorithm::vendor;
    all.back().vendor_bits = bits;
  }
  if (vendor_sort) {
    all.emplace_back();
    all.back().algorithm = SortAlgorithm::vendor_merge;
  }
  return all;
}

// Sizes around the radix tile (the same on the portable and the warp ranking).
template <class K, class V>
std::vector<std::size_t> radix_sizes() {
  using Tuning = typename Ordo::Impl::SortTypes<ExecSpace, K, V>::Radix;
  const std::size_t tile = std::size_t(Tuning::team_size) * Tuning::items;
  return {0, 1, 2, 33, tile - 1, tile, tile + 1, 3 * tile + 5, 100003};
}

template <class T>
void radix_all_distributions() {
  using Bits = typename Ordo::Impl::Codec<T, Ordo::less<>>::Bits;
  std::vector<Dist> dists = all_distributions();
  dists.push_back(Dist::bits20);
  for (const SortOptions& o : radix_options()) {
    for (std::size_t n : radix_sizes<Bits, Ordo::Impl::NoValue>()) {
      for (Dist d : dists) check_sort<T>(d, n, Ordo::less<>{}, OracleLess<T>{}, o);
      check_sort<T>(Dist::uniform, n, Ordo::greater<>{}, OracleGreater<T>{}, o);
      check_sort<T>(Dist::float_specials, n, Ordo::greater<>{}, OracleGreater<T>{}, o);
    }
  }
}

TEST(SortRadix, U32) { radix_all_distributions<std::uint32_t>(); }
TEST(SortRadix, I32) { radix_all_distributions<std::int32_t>(); }
TEST(SortRadix, F32) { radix_all_distributions<float>(); }
TEST(SortRadix, U64) { radix_all_distributions<std::uint64_t>(); }
TEST(SortRadix, I64) { radix_all_distributions<std::int64_t>(); }
TEST(SortRadix, F64) { radix_all_distributions<double>(); }

// With values: stable_sort_by_key and sort_permutation give std::stable_sort's order exactly
// (32- and 64-bit values, both directions), and sort_by_key a sorted permutation of the records.
TEST(SortRadix, StableWithValues) {
  for (const SortOptions& o : radix_options()) {
    for (std::size_t n : radix_sizes<std::uint32_t, std::uint32_t>()) {
      for (Dist d : {Dist::few_distinct, Dist::all_equal, Dist::bits20, Dist::uniform}) {
        check_stable<std::uint32_t, std::uint32_t>(d, n, Ordo::less<>{},
                                                   OracleLess<std::uint32_t>{}, o);
      }
      check_stable<double, std::uint64_t>(Dist::float_specials, n, Ordo::greater<>{},
                                          OracleGreater<double>{}, o);
      check_stable<std::int64_t, std::int32_t>(Dist::few_distinct, n, Ordo::less<>{},
                                               OracleLess<std::int64_t>{}, o);
      check_stable<float, std::uint32_t>(Dist::heavy_duplicates, n, Ordo::greater<>{},
                                         OracleGreater<float>{}, o);
      check_sort_by_key<std::uint32_t, std::uint32_t>(Dist::uniform, n, Ordo::less<>{},
                                                      OracleLess<std::uint32_t>{}, o);
      check_sort_by_key<std::uint64_t, std::uint64_t>(Dist::few_distinct, n, Ordo::greater<>{},
                                                      OracleGreater<std::uint64_t>{}, o);
    }
  }
}

// Keys whose digits vary in some passes only: one pass (which then writes a buffer, copied to the
// caller's Views), none (all equal), alternate passes, the low three of four (bits20). Each
// against std::sort, keys and pairs.
template <class K>
void check_radix_digits(const std::vector<K>& in, const SortOptions& o, const std::string& what) {
  auto expected = in;
  std::sort(expected.begin(), expected.end());
  auto keys = to_device(in, "keys");
  std::vector<std::uint32_t> ids(in.size());
  std::iota(ids.begin(), ids.end(), 0u);
  auto values = to_device(ids, "values");
  const ExecSpace space;
  Ordo::Impl::stable_sort_by_key(space, keys, values, Ordo::less<>{}, o);
  space.fence();
  ASSERT_TRUE(bitwise_equal(expected, to_host(keys))) << what;
  const auto v = to_host(values);
  for (std::size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(in[v[i]], expected[i]) << what << " at " << i;
    if (i > 0 && expected[i] == expected[i - 1]) ASSERT_LT(v[i - 1], v[i]) << what << " at " << i;
  }
  auto plain = to_device(in, "plain");
  Ordo::Impl::sort(space, plain, Ordo::less<>{}, o);
  space.fence();
  ASSERT_TRUE(bitwise_equal(expected, to_host(plain))) << what << ", keys only";
}

TEST(SortRadix, SkippedDigits) {
  const std::size_t n = 70001;
  std::mt19937_64 rng(5);
  std::vector<std::uint32_t> one(n), none(n, 0xdeadbeefu), alternate(n);
  std::vector<std::uint64_t> one64(n), high64(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    one[i] = 0x12000034u | std::uint32_t((r & 0xff) << 8);
    alternate[i] =
        0x00ab00cdu | std::uint32_t((r & 0xff) << 8) | std::uint32_t(((r >> 8) & 0xff) << 24);
    one64[i] = 0x0123456789abcdefull ^ ((r & 0xff) << 40);
    high64[i] = (r >> 8) << 8;
  }
  for (const SortOptions& o : radix_options()) {
    check_radix_digits(one, o, "one pass");
    check_radix_digits(none, o, "no pass");
    check_radix_digits(alternate, o, "alternate passes");
    check_radix_digits(generate<std::uint32_t>(Dist::bits20, n, 9), o, "bits20");
    check_radix_digits(one64, o, "one of eight passes");
    check_radix_digits(high64, o, "seven of eight passes");
  }
}

// Buckets of the top digit larger than HostRadixTuning's split_bytes with six digits below them:
// 16 buckets of 37500 keys (300 KB), each within a thread's share up to 16 threads, so that host
// backends take each bucket's most significant digit first on its thread. Each key's low bits
// repeat about nine times in its bucket (the order of equal keys).
TEST(SortRadix, LargeBuckets) {
  const std::size_t n = 600000;
  std::mt19937_64 rng(11);
  std::vector<std::uint64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t low =
        ((rng() % 4096) * 0x9e3779b97f4a7c1ull) & ((std::uint64_t(1) << 52) - 1);
    keys[i] = (std::uint64_t(i % 16) << 60) | low;
  }
  for (const SortOptions& o : radix_options()) check_radix_digits(keys, o, "large buckets");
}

// ---- the vendor sort's ways in and the dispatch ---------------------------------------------

// The vendor sorts' forced options: the radix sort without and with the bits, the merge sort (none
// where the build has no vendor sort).
std::vector<SortOptions> vendor_options() {
  std::vector<SortOptions> all = radix_options();
  all.erase(std::remove_if(all.begin(), all.end(),
                           [](const SortOptions& o) {
                             return o.algorithm != SortAlgorithm::vendor &&
                                    o.algorithm != SortAlgorithm::vendor_merge;
                           }),
            all.end());
  return all;
}

// std::stable_sort's order of in under oracle.
template <class K, class OracleComp>
std::vector<std::size_t> stable_order(const std::vector<K>& in, OracleComp oracle) {
  std::vector<std::size_t> order(in.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return oracle(in[a], in[b]); });
  return order;
}

// Keys and values in every other element of their buffers (LayoutStride Views, which CUB cannot
// take as they are: staged), and out of place from Views of const (sort_into and
// stable_sort_by_key_into, Ordo::MPI's local sorts: CUB reads the input and writes the output),
// against std::stable_sort; the elements between and the inputs untouched.
template <class K, class Comp, class OracleComp>
void check_vendor_ways(Dist dist, std::size_t n, const Comp& comp, OracleComp oracle,
                       const SortOptions& o) {
  const auto in = generate<K>(dist, n, 17);
  const auto order = stable_order(in, oracle);
  std::vector<K> buffer(2 * n), expected(n);
  std::vector<std::uint32_t> vbuffer(2 * n);
  for (std::size_t i = 0; i < 2 * n; ++i) {
    buffer[i] = i % 2 ? K(7) : in[i / 2];
    vbuffer[i] = std::uint32_t(i % 2 ? 5 : i / 2);
  }
  for (std::size_t i = 0; i < n; ++i) expected[i] = in[order[i]];
  const ExecSpace space;
  auto kb = to_device(buffer, "strided keys");
  auto vb = to_device(vbuffer, "strided values");
  using Strided = Kokkos::View<K*, Kokkos::LayoutStride, MemorySpace>;
  using StridedValues = Kokkos::View<std::uint32_t*, Kokkos::LayoutStride, MemorySpace>;
  Ordo::Impl::stable_sort_by_key(space, Strided(kb.data(), Kokkos::LayoutStride(n, 2)),
                                 StridedValues(vb.data(), Kokkos::LayoutStride(n, 2)), comp, o);
  space.fence();
  const auto hk = to_host(kb);
  const auto hv = to_host(vb);
  for (std::size_t i = 0; i < 2 * n; ++i) {
    if (i % 2) {
      ASSERT_TRUE(bitwise_equal(std::vector<K>{hk[i]}, std::vector<K>{K(7)})) << i;
      ASSERT_EQ(hv[i], 5u) << i;
    } else {
      ASSERT_TRUE(bitwise_equal(std::vector<K>{hk[i]}, std::vector<K>{expected[i / 2]}))
          << "strided, n = " << n << ", " << name(dist) << ", at " << i / 2;
      ASSERT_EQ(hv[i], std::uint32_t(order[i / 2])) << "strided, n = " << n << ", at " << i / 2;
    }
  }
  const auto keys = to_device(in, "in");
  std::vector<std::uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  const auto values = to_device(ids, "ids");
  auto out = poisoned<K>(n, "out");
  auto out_values = poisoned<std::uint32_t>(n, "out values");
  Ordo::Impl::sort_into(space, Kokkos::View<const K*, MemorySpace>(keys), out, comp, o);
  space.fence();
  ASSERT_TRUE(bitwise_equal(expected, to_host(out)))
      << "sort_into, n = " << n << ", " << name(dist);
  auto out2 = poisoned<K>(n, "out2");
  Ordo::Impl::stable_sort_by_key_into(space, Kokkos::View<const K*, MemorySpace>(keys),
                                      Kokkos::View<const std::uint32_t*, MemorySpace>(values), out2,
                                      out_values, comp, o);
  space.fence();
  ASSERT_TRUE(bitwise_equal(expected, to_host(out2))) << "by key into, n = " << n;
  const auto hov = to_host(out_values);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hov[i], std::uint32_t(order[i])) << i;
  ASSERT_TRUE(bitwise_equal(in, to_host(keys)));
  ASSERT_TRUE(bitwise_equal(ids, to_host(values)));
}

TEST(SortVendor, WaysIn) {
  if (!vendor_sort) GTEST_SKIP() << "no vendor sort in this build";
  for (const SortOptions& o : vendor_options()) {
    for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(1000), std::size_t(70001)}) {
      for (Dist d : {Dist::uniform, Dist::all_equal, Dist::few_distinct, Dist::bits20}) {
        check_vendor_ways<std::uint32_t>(d, n, Ordo::less<>{}, OracleLess<std::uint32_t>{}, o);
        check_vendor_ways<std::int64_t>(d, n, Ordo::greater<>{}, OracleGreater<std::int64_t>{}, o);
      }
      for (Dist d : {Dist::uniform, Dist::float_specials, Dist::heavy_duplicates}) {
        check_vendor_ways<float>(d, n, Ordo::less<>{}, OracleLess<float>{}, o);
        check_vendor_ways<double>(d, n, Ordo::greater<>{}, OracleGreater<double>{}, o);
      }
    }
  }
}

// The search for the bits that vary stops reading once no digit pass can be saved: keys whose
// first tiles already span more bits than that, with keys far above them later, sort every bit
// (more tiles than the device runs teams at once, so that teams stop between tiles).
TEST(SortVendor, BitsSeenLate) {
  if (!vendor_sort) GTEST_SKIP() << "no vendor sort in this build";
  const std::size_t n = (std::size_t(1) << 23) + 5;
  std::vector<std::uint32_t> k32 = generate<std::uint32_t>(Dist::uniform, n, 19);
  std::vector<std::uint64_t> k64 = generate<std::uint64_t>(Dist::uniform, n, 23);
  for (std::size_t i = 0; i < n; ++i) {
    k32[i] &= (1u << 20) - 1;
    k64[i] &= (std::uint64_t(1) << 52) - 1;
  }
  k32[n - 1] |= 1u << 31;
  k32[n / 2] |= 1u << 27;
  k64[n - 1] |= std::uint64_t(1) << 63;
  SortOptions o;
  o.algorithm = SortAlgorithm::vendor;
  o.vendor_bits = 1;
  for (bool descending : {false, true}) {
    auto e32 = k32;
    auto e64 = k64;
    std::sort(e32.begin(), e32.end());
    std::sort(e64.begin(), e64.end());
    if (descending) {
      std::reverse(e32.begin(), e32.end());
      std::reverse(e64.begin(), e64.end());
    }
    auto d32 = to_device(k32);
    auto d64 = to_device(k64);
    const ExecSpace space;
    if (descending) {
      Ordo::Impl::sort(space, d32, Ordo::greater<>{}, o);
      Ordo::Impl::sort(space, d64, Ordo::greater<>{}, o);
    } else {
      Ordo::Impl::sort(space, d32, Ordo::less<>{}, o);
      Ordo::Impl::sort(space, d64, Ordo::less<>{}, o);
    }
    space.fence();
    ASSERT_TRUE(bitwise_equal(e32, to_host(d32))) << (descending ? "descending" : "ascending");
    ASSERT_TRUE(bitwise_equal(e64, to_host(d64))) << (descending ? "descending" : "ascending");
  }
}

// Each bound of the dispatch that this backend has up to 2^23 (RadixTuning's from,
// VendorSortTuning's from, bits_from and merge_from of 4-byte keys with and without 4-byte values;
// float_bits_from of floats) and one either side: the automatic dispatch and every path forced,
// each against std::stable_sort (stable_sort_by_key, sort_permutation) or std::sort (sort), so that
// the paths agree bit for bit.
TEST(SortDispatch, BoundsAgreeWithEveryPath) {
  using Keys = Ordo::Impl::SortTypes<ExecSpace, std::uint32_t, Ordo::Impl::NoValue>;
  using Pairs = Ordo::Impl::SortTypes<ExecSpace, std::uint32_t, std::uint32_t>;
  std::vector<SortOptions> paths = radix_options();
  paths.push_back(slab_options());
  paths.push_back(SortOptions{});
  int bounds = 0;
  for (std::int64_t bound :
       {Keys::Radix::from, Keys::VendorSort::from, Keys::VendorSort::bits_from,
        Keys::VendorSort::merge_from, Pairs::Radix::from, Pairs::VendorSort::from,
        Pairs::VendorSort::bits_from, Pairs::VendorSort::merge_from}) {
    if (bound >= Ordo::Impl::never || bound > (std::int64_t(1) << 23)) continue;
    ++bounds;
    for (std::int64_t n : {bound - 1, bound, bound + 1}) {
      for (const SortOptions& o : paths) {
        check_sort<std::uint32_t>(Dist::bits20, std::size_t(n), Ordo::less<>{},
                                  OracleLess<std::uint32_t>{}, o);
        check_stable<std::uint32_t, std::uint32_t>(Dist::few_distinct, std::size_t(n),
                                                   Ordo::less<>{}, OracleLess<std::uint32_t>{}, o);
      }
    }
  }
  // Floats take the direct way only with the search for the bits (and -0.0, NaNs).
  using Floats = Ordo::Impl::SortTypes<ExecSpace, std::uint32_t, Ordo::Impl::NoValue>::VendorSort;
  for (std::int64_t bound : {Floats::float_bits_from}) {
    if (bound >= Ordo::Impl::never || bound > (std::int64_t(1) << 23)) continue;
    ++bounds;
    for (std::int64_t n : {bound - 1, bound, bound + 1}) {
      for (Dist d : {Dist::uniform, Dist::float_specials}) {
        check_sort<float>(d, std::size_t(n), Ordo::less<>{}, OracleLess<float>{});
        check_stable<float, std::uint32_t>(d, std::size_t(n), Ordo::greater<>{},
                                           OracleGreater<float>{});
      }
    }
  }
  if (!on_host) EXPECT_GT(bounds, 0) << "a device backend has dispatch bounds to test";
}

// A workspace the vendor sort cannot allocate (u64 keys and 16-byte values, 2^32 - 2 records
// claimed over a small allocation): the error names the workspace, before any kernel reads past
// the allocation, and the inputs are unchanged.
struct Value16 {
  std::uint64_t a, b;
};

TEST(SortVendor, AllocationFailureLeavesInputs) {
  if (!vendor_sort) GTEST_SKIP() << "no vendor sort in this build";
  const std::size_t small = 4096, claimed = (std::size_t(1) << 32) - 2;
  const auto k = generate<std::uint64_t>(Dist::uniform, small, 3);
  std::vector<Value16> v(small);
  for (std::size_t i = 0; i < small; ++i) v[i] = {i, ~i};
  auto keys = to_device(k);
  auto values = to_device(v);
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  SortOptions o;
  o.algorithm = SortAlgorithm::vendor;
  for (int bits = 0; bits < 2; ++bits) {
    o.vendor_bits = bits;
    std::string message = "no exception";
    try {
      Ordo::Impl::sort_by_key(
          ExecSpace(), Kokkos::View<std::uint64_t*, MemorySpace, Unmanaged>(keys.data(), claimed),
          Kokkos::View<Value16*, MemorySpace, Unmanaged>(values.data(), claimed), Ordo::less<>{},
          o);
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    EXPECT_EQ(message.rfind("Ordo: could not allocate", 0), 0u) << message;
    ExecSpace().fence();
    EXPECT_TRUE(bitwise_equal(k, to_host(keys)));
    const auto hv = to_host(values);
    for (std::size_t i = 0; i < small; ++i) ASSERT_EQ(hv[i].a, i);
    Ordo::release_workspaces<MemorySpace>();
  }
  // The next call allocates anew and sorts.
  Ordo::Impl::sort_by_key(ExecSpace(), keys, values, Ordo::less<>{}, o);
  auto expected = k;
  std::sort(expected.begin(), expected.end());
  ASSERT_TRUE(bitwise_equal(expected, to_host(keys)));
}

}  // namespace
