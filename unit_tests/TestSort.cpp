// SPDX-License-Identifier: BSD-3-Clause
// Ordo::sort, sort_by_key, stable_sort_by_key, sort_permutation, apply_permutation and the
// team-level sorts against std::sort / std::stable_sort.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"
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
SortOptions slab_options(SortPath path = SortPath::automatic) {
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

template <class T>
void sort_all_distributions(bool all_sizes) {
  for (std::size_t n : sort_sizes<T>(all_sizes)) {
    for (Dist d : all_distributions()) {
      check_sort<T>(d, n, Ordo::less<>{}, OracleLess<T>{});
    }
    check_sort<T>(Dist::uniform, n, Ordo::greater<>{}, OracleGreater<T>{});
    check_sort<T>(Dist::float_specials, n, Ordo::greater<>{}, OracleGreater<T>{});
    // Devices take the radix sort from SortTuning's radix_from on: the slab sort as well.
    if (!on_host)
      check_sort<T>(Dist::heavy_duplicates, n, Ordo::less<>{}, OracleLess<T>{}, slab_options());
  }
}

TEST(Sort, U32EverySizeAndDistribution) { sort_all_distributions<std::uint32_t>(true); }
TEST(Sort, I32) { sort_all_distributions<std::int32_t>(false); }
TEST(Sort, F32) { sort_all_distributions<float>(false); }
TEST(Sort, U64) { sort_all_distributions<std::uint64_t>(false); }
TEST(Sort, I64) { sort_all_distributions<std::int64_t>(false); }
TEST(Sort, F64) { sort_all_distributions<double>(false); }

// Both NaN signs and both zeros: NaNs after +inf, -0.0 before +0.0.
TEST(Sort, FloatSpecialOrder) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {nan, 0.0f, -nan, inf, -0.0f, -inf, 1.0f, -1.0f, nan, -0.0f};
  auto keys = to_device(in);
  Ordo::sort(keys);
  const auto out = to_host(keys);
  const std::vector<float> head = {-inf, -1.0f, -0.0f, -0.0f, 0.0f, 1.0f, inf};
  ASSERT_TRUE(bitwise_equal(head, std::vector<float>(out.begin(), out.begin() + 7)));
  for (std::size_t i = 7; i < out.size(); ++i) EXPECT_TRUE(std::isnan(out[i])) << i;
}

// A user key type and comparator (the generic path).
TEST(Sort, UserComparator) {
  for (std::size_t n : {std::size_t(0), std::size_t(5), std::size_t(3000), std::size_t(70001)}) {
    std::vector<Particle> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = {std::int32_t((i * 7919) % 101), float(i)};
    auto keys = to_device(in);
    Ordo::sort(keys, ByCell{});
    const auto out = to_host(keys);
    ASSERT_TRUE(std::is_sorted(out.begin(), out.end(), ByCell{})) << n;
    std::vector<float> xs_in(n), xs_out(n);
    for (std::size_t i = 0; i < n; ++i) {
      xs_in[i] = in[i].x;
      xs_out[i] = out[i].x;
    }
    std::sort(xs_in.begin(), xs_in.end());
    std::sort(xs_out.begin(), xs_out.end());
    ASSERT_EQ(xs_in, xs_out) << n;
  }
}

// Up to 2^24 keys on the GPU: merge passes over more than the L2 holds, and the keys-only passes
// that SortTuning launches with launch bounds (from bounded_merge_from on).
std::vector<std::size_t> large_sort_sizes() {
  using Tuning = Ordo::Impl::SortTypes<ExecSpace, std::uint32_t, Ordo::Impl::NoValue>::Tuning;
  std::vector<std::size_t> sizes = {on_host ? large_size() + 5 : (std::size_t(1) << 24) + 5};
  if (Tuning::bounded_merge_from < Ordo::Impl::never) {
    sizes.push_back(std::size_t(Tuning::bounded_merge_from) - 1);
    sizes.push_back(std::size_t(Tuning::bounded_merge_from) + 4099);
  }
  return sizes;
}

TEST(Sort, U32Large) {
  for (std::size_t n : large_sort_sizes()) {
    check_sort<std::uint32_t>(Dist::uniform, n, Ordo::less<>{}, OracleLess<std::uint32_t>{});
  }
  check_sort<std::uint32_t>(Dist::few_distinct, large_sort_sizes()[0], Ordo::greater<>{},
                            OracleGreater<std::uint32_t>{});
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

TEST(SortByKey, U32U32) {
  std::vector<std::size_t> sizes = sort_sizes<std::uint64_t>(true);
  sizes.push_back(large_sort_sizes()[0]);
  for (std::size_t n : sizes) {
    check_sort_by_key<std::uint32_t, std::uint32_t>(Dist::uniform, n, Ordo::less<>{},
                                                    OracleLess<std::uint32_t>{});
    check_sort_by_key<std::uint32_t, std::uint32_t>(Dist::few_distinct, n, Ordo::greater<>{},
                                                    OracleGreater<std::uint32_t>{});
  }
}

TEST(SortByKey, F64I64AndF32U64) {
  for (std::size_t n : sort_sizes<double>(false)) {
    check_sort_by_key<double, std::int64_t>(Dist::float_specials, n, Ordo::less<>{},
                                            OracleLess<double>{});
    check_sort_by_key<float, std::uint64_t>(Dist::heavy_duplicates, n, Ordo::less<>{},
                                            OracleLess<float>{});
  }
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

TEST(StableSortByKey, TiesKeepInputOrder) {
  for (std::size_t n : sort_sizes<std::uint32_t>(false)) {
    for (Dist d : {Dist::few_distinct, Dist::all_equal, Dist::heavy_duplicates, Dist::uniform}) {
      check_stable<std::uint32_t, std::uint32_t>(d, n, Ordo::less<>{}, OracleLess<std::uint32_t>{});
    }
    check_stable<double, std::uint64_t>(Dist::float_specials, n, Ordo::greater<>{},
                                        OracleGreater<double>{});
    check_stable<std::int64_t, std::int32_t>(Dist::few_distinct, n, Ordo::less<>{},
                                             OracleLess<std::int64_t>{});
  }
}

TEST(StableSortByKey, UserComparator) {
  const std::size_t n = 9001;
  std::vector<Particle> in(n);
  std::vector<std::int32_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = {std::int32_t((i * 31) % 17), float(i)};
    ids[i] = std::int32_t(i);
  }
  auto expected = in;
  std::stable_sort(expected.begin(), expected.end(), ByCell{});
  auto keys = to_device(in);
  auto values = to_device(ids);
  Ordo::stable_sort_by_key(keys, values, ByCell{});
  const auto out = to_host(keys);
  const auto v = to_host(values);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[i].cell, expected[i].cell) << i;
    ASSERT_EQ(out[i].x, expected[i].x) << i;
    ASSERT_EQ(v[i], std::int32_t(expected[i].x)) << i;
  }
}

TEST(ApplyPermutation, SeveralViewsOfDifferentTypes) {
  const std::size_t n = 50001;
  const auto keys_in = generate<std::uint32_t>(Dist::uniform, n, 3);
  std::vector<double> a(n);
  std::vector<std::int16_t> b(n);
  std::vector<Particle> c(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = 0.5 * double(i);
    b[i] = std::int16_t(i % 3000);
    c[i] = {std::int32_t(i), -float(i)};
  }
  auto keys = to_device(keys_in);
  auto perm = DeviceView<std::int64_t>("perm", n);
  Ordo::sort_permutation(keys, perm);
  auto da = to_device(a);
  auto db = to_device(b);
  auto dc = to_device(c);
  Ordo::apply_permutation(perm, da, db, dc);
  const auto p = to_host(perm);
  const auto ha = to_host(da);
  const auto hb = to_host(db);
  const auto hc = to_host(dc);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(ha[i], a[p[i]]);
    ASSERT_EQ(hb[i], b[p[i]]);
    ASSERT_EQ(hc[i].cell, c[p[i]].cell);
    if (i) ASSERT_LE(keys_in[p[i - 1]], keys_in[p[i]]);
  }
}

TEST(SortErrors, ClearMessagesAndInputsUnchanged) {
  const std::vector<std::uint32_t> k = {3, 1, 2};
  auto keys = to_device(k);
  auto values = DeviceView<std::uint32_t>("values", 2);
  EXPECT_NE(error_of([&] {
              Ordo::sort_by_key(keys, values);
            }).find("Ordo::sort_by_key: values has 2 elements, needs 3"),
            std::string::npos);
  EXPECT_NE(error_of([&] { Ordo::sort_by_key(keys, keys); }).find("aliases"), std::string::npos);
  auto perm = DeviceView<std::int32_t>("perm", 2);
  EXPECT_NE(error_of([&] {
              Ordo::sort_permutation(keys, perm);
            }).find("Ordo::sort_permutation: perm has 2 elements, needs 3"),
            std::string::npos);
  auto small = DeviceView<std::int8_t>("perm8", 300);
  auto many = DeviceView<std::uint32_t>("many", 300);
  EXPECT_NE(error_of([&] { Ordo::sort_permutation(many, small); }).find("cannot hold 299"),
            std::string::npos);
  auto p3 = DeviceView<std::int32_t>("p3", 3);
  EXPECT_NE(error_of([&] {
              Ordo::apply_permutation(p3, values);
            }).find("Ordo::apply_permutation: a permuted View has 2 elements"),
            std::string::npos);
  ASSERT_TRUE(bitwise_equal(k, to_host(keys)));
}

// sort_by_key of n u32 records (ties: few distinct keys) by both slab paths (the other options
// as given): each against the oracle, and on CUDA, the seam's bits against the portable
// network's.
void check_paths_bit_identical(std::size_t n, const std::string& what,
                               SortOptions options = slab_options()) {
  const auto in_k = generate<std::uint32_t>(Dist::few_distinct, n, 5);
  std::vector<std::uint32_t> in_v(n);
  std::iota(in_v.begin(), in_v.end(), 0u);
  std::vector<std::uint32_t> out[2][2];
  for (int p = 0; p < 2; ++p) {
    auto keys = to_device(in_k);
    auto values = to_device(in_v);
    const ExecSpace space;
    options.path = p ? SortPath::portable : SortPath::automatic;
    Ordo::Impl::sort_by_key(space, keys, values, Ordo::less<>{}, options);
    space.fence();
    out[p][0] = to_host(keys);
    out[p][1] = to_host(values);
  }
  if (!on_host) {
    ASSERT_TRUE(bitwise_equal(out[0][0], out[1][0])) << n << what;
    ASSERT_TRUE(bitwise_equal(out[0][1], out[1][1])) << n << what;
  }
  for (int p = 0; p < 2; ++p) {
    ASSERT_TRUE(sorted_permutation(in_k, in_v, out[p][0], out[p][1], OracleLess<std::uint32_t>{}))
        << n << what << (p ? ", portable" : "");
  }
}

// The CUDA slab seam and the portable slab network give the same bits, ties included. Host
// backends (which sort with the standard library) run the portable network and merge passes too.
TEST(SortPaths, SeamAndPortableBitIdentical) {
  for (std::size_t n : {std::size_t(1000), std::size_t(4096), std::size_t(4097), std::size_t(8193),
                        std::size_t(300001)}) {
    check_paths_bit_identical(n, "");
    for (Dist d : {Dist::uniform, Dist::float_specials}) {
      check_sort<float>(d, n, Ordo::less<>{}, OracleLess<float>{},
                        slab_options(SortPath::portable));
      check_sort<std::uint64_t>(d, n, Ordo::greater<>{}, OracleGreater<std::uint64_t>{},
                                slab_options(SortPath::portable));
    }
  }
}

// Every number of streaming merge levels (ordo-perf's --stream-levels experiment), over whole
// groups of blocks (the last level's half merge writes the caller's Views), partial groups, and
// merge passes after the levels; records with values on both paths, and plain keys (min / max
// compare-exchanges) on both paths.
TEST(SortPaths, StreamingLevels) {
  using Pairs = Ordo::Impl::SortTypes<ExecSpace, std::uint32_t, std::uint32_t>;
  using Keys = Ordo::Impl::SortTypes<ExecSpace, std::uint32_t, Ordo::Impl::NoValue>;
  static_assert(Pairs::Tuning::stream_max_group == Keys::Tuning::stream_max_group);
  // Whole groups of blocks, partial groups and passes after the levels, for a block of `block`.
  auto sizes = [](std::size_t group, std::size_t block) {
    return std::vector<std::size_t>{group * block, group * block + 1, 3 * group * block - 5,
                                    (2 * group + 1) * block + 7};
  };
  for (int levels = 0; (1 << levels) <= Keys::Tuning::stream_max_group; ++levels) {
    SortOptions options = slab_options();
    options.stream_levels = levels;
    const std::size_t group = std::size_t(1) << levels;
    const std::string what = ", " + std::to_string(levels) + " streaming levels";
    SCOPED_TRACE(what);
    for (std::size_t n : sizes(group, Pairs::block)) check_paths_bit_identical(n, what, options);
    for (std::size_t n : sizes(group, Keys::block)) {
      for (SortPath path : {SortPath::automatic, SortPath::portable}) {
        options.path = path;
        check_sort<std::uint32_t>(Dist::uniform, n, Ordo::less<>{}, OracleLess<std::uint32_t>{},
                                  options);
      }
    }
  }
}

// Every width of the partition kernels' searches (ordo-perf's --partition-lanes experiment): sorts
// with several sampled passes of more tiles than a fused launch takes (no streaming levels), u32
// pairs bit-identical on both slab paths, u32 and u64 keys (heavy duplicates, descending) against
// the oracle. (Host backends run the lanes' probes one after another.)
TEST(SortPaths, PartitionLanes) {
  const std::vector<std::size_t> sizes =
      on_host ? std::vector<std::size_t>{20011, 100003}
              : std::vector<std::size_t>{300001, (std::size_t(1) << 21) + 4097};
  for (int lanes : {1, 4, 32}) {
    SortOptions options = slab_options();
    options.stream_levels = 0;
    options.partition_lanes = lanes;
    const std::string what = ", " + std::to_string(lanes) + " partition lanes";
    SCOPED_TRACE(what);
    for (std::size_t n : sizes) {
      check_paths_bit_identical(n, what, options);
      for (SortPath path : {SortPath::automatic, SortPath::portable}) {
        options.path = path;
        check_sort<std::uint32_t>(Dist::uniform, n, Ordo::less<>{}, OracleLess<std::uint32_t>{},
                                  options);
        check_sort<std::uint64_t>(Dist::heavy_duplicates, n, Ordo::greater<>{},
                                  OracleGreater<std::uint64_t>{}, options);
      }
    }
  }
}

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

// Sizes around the radix tile of the ranking `options` chooses.
template <class K, class V>
std::vector<std::size_t> radix_sizes(const SortOptions& options) {
  using Tuning = typename Ordo::Impl::SortTypes<ExecSpace, K, V>::Tuning;
  const std::size_t team = options.path == SortPath::portable ? Tuning::radix_portable_team_size
                                                              : Tuning::radix_team_size;
  const std::size_t tile = team * Tuning::radix_items;
  return {0, 1, 2, 33, tile - 1, tile, tile + 1, 3 * tile + 5, 100003};
}

template <class T>
void radix_all_distributions() {
  using Bits = typename Ordo::Impl::Codec<T, Ordo::less<>>::Bits;
  std::vector<Dist> dists = all_distributions();
  dists.push_back(Dist::bits20);
  for (const SortOptions& o : radix_options()) {
    for (std::size_t n : radix_sizes<Bits, Ordo::Impl::NoValue>(o)) {
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
    for (std::size_t n : radix_sizes<std::uint32_t, std::uint32_t>(o)) {
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

// Each bound of the dispatch that this backend has up to 2^23 (radix_from, vendor_from,
// vendor_bits_from, vendor_merge_from of 4-byte keys with and without 4-byte values;
// vendor_float_bits_from of
// floats) and one either side: the automatic dispatch and every path forced, each against
// std::stable_sort (stable_sort_by_key, sort_permutation) or std::sort (sort), so that the paths
// agree bit for bit.
TEST(SortDispatch, BoundsAgreeWithEveryPath) {
  using Keys = Ordo::Impl::SortTypes<ExecSpace, std::uint32_t, Ordo::Impl::NoValue>::Tuning;
  using Pairs = Ordo::Impl::SortTypes<ExecSpace, std::uint32_t, std::uint32_t>::Tuning;
  std::vector<SortOptions> paths = radix_options();
  paths.push_back(slab_options());
  paths.push_back(SortOptions{});
  int bounds = 0;
  for (std::int64_t bound :
       {Keys::radix_from, Keys::vendor_from, Keys::vendor_bits_from, Keys::vendor_merge_from,
        Pairs::radix_from, Pairs::vendor_from, Pairs::vendor_bits_from, Pairs::vendor_merge_from}) {
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
  using Floats = Ordo::Impl::SortTypes<ExecSpace, std::uint32_t, Ordo::Impl::NoValue>::Tuning;
  for (std::int64_t bound : {Floats::vendor_float_bits_from}) {
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

// ---- comparator objects and Kokkos' forms ---------------------------------------------------

// An argsort comparator: orders indices by the values they name. It holds a View and has no
// default constructor, so a sort that rebuilt it from its type would not compile, and one that
// built a new one would order by nothing.
struct ByValue {
  Kokkos::View<const float*, MemorySpace> values;
  explicit ByValue(Kokkos::View<const float*, MemorySpace> v) : values(v) {}
  KOKKOS_INLINE_FUNCTION bool operator()(std::int32_t a, std::int32_t b) const {
    return values(a) < values(b);
  }
};

// Indices 0..n-1 and distinct values (a shuffled ramp), so that the argsort order is unique.
std::vector<float> distinct_values(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float(i);
  std::shuffle(v.begin(), v.end(), std::mt19937_64(3));
  return v;
}

// Sorts each segment of `seg` indices of d by `comp`: level 0 with sort_team, 1 with sort_thread.
template <class View, class Comp>
void argsort_segments(const View& d, std::size_t seg, std::size_t segs, const Comp& comp,
                      int level) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  Kokkos::parallel_for(
      "test::argsort", Policy(ExecSpace(), int(segs), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Policy::member_type& m) {
        const auto s = Kokkos::subview(
            d, Kokkos::make_pair(m.league_rank() * seg, (m.league_rank() + 1) * seg));
        if (level == 0) {
          Ordo::sort_team(m, s, comp);
        } else {
          if (m.team_rank() == 0) Ordo::sort_thread(m, s, comp);
        }
      });
  Kokkos::fence();
}

// Sorts each segment of `seg` keys and their values, descending, with sort_by_key_thread.
template <class Keys, class Values>
void sort_by_key_thread_segments(const Keys& k, const Values& v, std::size_t seg,
                                 std::size_t segs) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  Kokkos::parallel_for(
      "test::sort_by_key_thread", Policy(ExecSpace(), int(segs), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Policy::member_type& m) {
        const auto r = Kokkos::make_pair(m.league_rank() * seg, (m.league_rank() + 1) * seg);
        if (m.team_rank() == 0) {
          Ordo::sort_by_key_thread(m, Kokkos::subview(k, r), Kokkos::subview(v, r),
                                   Ordo::greater<>{});
        }
      });
  Kokkos::fence();
}

TEST(SortComparatorObjects, ArgsortDeviceTeamThread) {
  const std::size_t seg = 300, segs = 40, n = seg * segs;
  const auto hv = distinct_values(n);
  const auto dv = to_device(hv, "values");
  const ByValue by_value(dv);
  std::vector<std::int32_t> idx(n);
  // Device level: all n indices; team and thread level: each segment's own indices.
  auto expected = [&](std::size_t first, std::size_t count) {
    std::vector<std::int32_t> e(count);
    std::iota(e.begin(), e.end(), std::int32_t(first));
    std::sort(e.begin(), e.end(), [&](std::int32_t a, std::int32_t b) { return hv[a] < hv[b]; });
    return e;
  };
  std::iota(idx.begin(), idx.end(), 0);
  auto all = to_device(idx, "idx");
  Ordo::sort(all, by_value);
  ASSERT_EQ(to_host(all), expected(0, n));
  for (int level = 0; level < 2; ++level) {
    auto d = to_device(idx, "idx");
    argsort_segments(d, seg, segs, by_value, level);
    const auto out = to_host(d);
    for (std::size_t g = 0; g < segs; ++g) {
      const auto e = expected(g * seg, seg);
      ASSERT_TRUE(std::equal(e.begin(), e.end(), out.begin() + g * seg))
          << (level ? "sort_thread" : "sort_team") << ", segment " << g;
    }
  }
}

// sort_by_key_thread (Kokkos has it): one segment per team, its keys and values by the first
// thread's vector lanes, against std::sort of the pairs (distinct keys).
TEST(SortComparatorObjects, SortByKeyThread) {
  const std::size_t seg = 200, segs = 16, n = seg * segs;
  const auto hk = distinct_values(n);
  std::vector<std::uint32_t> hv(n);
  std::iota(hv.begin(), hv.end(), 0u);
  auto k = to_device(hk, "keys");
  auto v = to_device(hv, "values");
  sort_by_key_thread_segments(k, v, seg, segs);
  const auto ok = to_host(k);
  const auto ov = to_host(v);
  for (std::size_t g = 0; g < segs; ++g) {
    std::vector<std::pair<float, std::uint32_t>> e(seg);
    for (std::size_t i = 0; i < seg; ++i) e[i] = {hk[g * seg + i], hv[g * seg + i]};
    std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = 0; i < seg; ++i) {
      ASSERT_EQ(ok[g * seg + i], e[i].first) << g << ", " << i;
      ASSERT_EQ(ov[g * seg + i], e[i].second) << g << ", " << i;
    }
  }
}

// Kokkos::sort's range form: [begin, end) sorted, the rest untouched; a bad range throws before
// anything runs.
TEST(SortComparatorObjects, RangeForm) {
  const std::size_t n = 5000;
  const auto in = generate<std::uint32_t>(Dist::uniform, n, 21);
  auto keys = to_device(in, "keys");
  Ordo::sort(keys, 100, std::size_t(4321));
  auto expected = in;
  std::sort(expected.begin() + 100, expected.begin() + 4321);
  ASSERT_EQ(to_host(keys), expected);
  Ordo::sort(ExecSpace(), keys, 0, 50, Ordo::greater<>{});
  ExecSpace().fence();
  std::sort(expected.begin(), expected.begin() + 50, std::greater<>());
  ASSERT_EQ(to_host(keys), expected);
  EXPECT_NE(error_of([&] { Ordo::sort(keys, 10, 5); }).find("[10, 5) is not inside keys"),
            std::string::npos);
  EXPECT_NE(error_of([&] { Ordo::sort(keys, 0, n + 1); }).find("which has 5000 elements"),
            std::string::npos);
  ASSERT_EQ(to_host(keys), expected);
}

// ---- team level ------------------------------------------------------------------------------

// Segments of the given lengths, one team each; mode 0: sort_team, 1: sort_by_key_team on global
// Views, 2: sort_team on a scratch copy, 3: sort_thread, one segment per team thread.
template <class T>
void check_team(const std::vector<std::size_t>& lengths, int mode, int team_size) {
  std::vector<std::int64_t> offsets(lengths.size() + 1, 0);
  for (std::size_t s = 0; s < lengths.size(); ++s) offsets[s + 1] = offsets[s] + lengths[s];
  const std::size_t n = offsets.back();
  const auto in = generate<T>(Dist::uniform, n, 17);
  std::vector<std::uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  auto keys = to_device(in);
  auto values = to_device(ids);
  auto off = to_device(offsets);
  const std::int64_t segments = lengths.size();
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = Policy::member_type;
  using Scratch =
      Kokkos::View<T*, ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const std::size_t longest = *std::max_element(lengths.begin(), lengths.end());
  const int ts = on_host ? 1 : team_size;
  if (mode == 3) {
    Kokkos::parallel_for(
        Policy(ExecSpace(), (segments + ts - 1) / ts, ts, on_host ? 1 : 4),
        KOKKOS_LAMBDA(const Member& m) {
          const std::int64_t s = std::int64_t(m.league_rank()) * m.team_size() + m.team_rank();
          if (s >= segments) return;
          Ordo::sort_thread(m, Kokkos::subview(keys, Kokkos::make_pair(off(s), off(s + 1))));
        });
  } else {
    Kokkos::parallel_for(
        Policy(ExecSpace(), segments, ts)
            .set_scratch_size(0, Kokkos::PerTeam(Ordo::segment_scratch_size<T>(longest))),
        KOKKOS_LAMBDA(const Member& m) {
          const std::int64_t s = m.league_rank();
          const auto seg = Kokkos::make_pair(off(s), off(s + 1));
          const auto k = Kokkos::subview(keys, seg);
          if (mode == 1) {
            Ordo::sort_by_key_team(m, k, Kokkos::subview(values, seg));
          } else if (mode == 2) {
            Scratch tile(m.team_scratch(0), k.extent(0));
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, k.extent(0)),
                                 [&](std::int64_t i) { tile(i) = k(i); });
            Ordo::sort_team(m, tile);
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, k.extent(0)),
                                 [&](std::int64_t i) { k(i) = tile(i); });
          } else {
            Ordo::sort_team(m, k, Ordo::less<>{});
          }
        });
  }
  Kokkos::fence();
  const auto out_k = to_host(keys);
  const auto out_v = to_host(values);
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    const auto b = offsets[s], e = offsets[s + 1];
    std::vector<T> ik(in.begin() + b, in.begin() + e), ok(out_k.begin() + b, out_k.begin() + e);
    std::vector<std::uint32_t> iv, ov;
    if (mode == 1) {
      iv.assign(ids.begin() + b, ids.begin() + e);
      ov.assign(out_v.begin() + b, out_v.begin() + e);
    }
    ASSERT_TRUE(sorted_permutation(ik, iv, ok, ov, OracleLess<T>{}))
        << "segment " << s << " of length " << lengths[s] << ", mode " << mode;
    if (mode == 1) {
      for (std::size_t i = 0; i < ok.size(); ++i)
        ASSERT_TRUE(bitwise_equal(std::vector<T>{in[ov[i]]}, std::vector<T>{ok[i]}));
    }
  }
}

TEST(SortTeam, SegmentsInsideAUserKernel) {
  const std::vector<std::size_t> lengths = {1, 0, 7, 100, 512, 1000, 1024, 1025, 2048, 3000, 33};
  for (int mode : {0, 1, 2}) check_team<std::uint32_t>(lengths, mode, 128);
  check_team<double>(lengths, 0, 64);
  check_team<std::int64_t>(lengths, 1, 96);  // three warps taking runs in turn
  // One warp: one slab of up to 32 registers per lane, else runs of 512 one after the other, then
  // the portable network.
  check_team<std::uint32_t>({1024, 999, 31, 4096, 1500}, 0, 32);
  check_team<float>({5, 64, 200, 17, 0, 1}, 3, 8);
}

}  // namespace
