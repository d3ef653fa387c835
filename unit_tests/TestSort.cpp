// SPDX-License-Identifier: BSD-3-Clause
// Ordo::sort, sort_by_key, stable_sort_by_key, sort_permutation and apply_permutation (the slab
// sort and its paths, the errors) against std::sort / std::stable_sort.

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

template <class T>
void sort_all_distributions(bool all_sizes) {
  for (std::size_t n : sort_sizes<T>(all_sizes)) {
    for (Dist d : all_distributions()) {
      check_sort<T>(d, n, Ordo::less<>{}, OracleLess<T>{});
    }
    check_sort<T>(Dist::uniform, n, Ordo::greater<>{}, OracleGreater<T>{});
    check_sort<T>(Dist::float_specials, n, Ordo::greater<>{}, OracleGreater<T>{});
    // Devices take the radix sort from RadixTuning's `from` on: the slab sort as well.
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

}  // namespace
