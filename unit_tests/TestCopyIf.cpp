// SPDX-License-Identifier: BSD-3-Clause
// Ordo::copy_if and Ordo::copy_flagged against std::copy_if.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;

// Keeps the elements whose low 32 bits fall below a threshold: with keys that are
// (random << 32 | index), a random fraction of them, and each kept key says where it came from
// (so the oracle checks stability exactly).
struct Below {
  std::uint32_t threshold;
  KOKKOS_INLINE_FUNCTION bool operator()(std::uint64_t key) const {
    return std::uint32_t(key >> 32) < threshold;
  }
};

// The tile sizes of the two stable paths (reduce then scan, single pass), which the unordered
// path shares with the first.
std::vector<std::size_t> tile_sizes() {
  using Tuning = Ordo::Impl::CompactTuning<ExecSpace>;
  return {std::size_t(Tuning::team_size) * Tuning::items_per_thread,
          std::size_t(Tuning::lookback_team_size) * Tuning::lookback_items_per_thread};
}

// Every way stable compaction runs (on CUDA, single_pass is the warp seam).
constexpr Ordo::Impl::CompactPath stable_paths[] = {Ordo::Impl::CompactPath::single_pass,
                                                    Ordo::Impl::CompactPath::single_pass_portable,
                                                    Ordo::Impl::CompactPath::reduce_then_scan};

std::size_t tile_size() { return std::max(tile_sizes()[0], tile_sizes()[1]); }

std::vector<std::uint64_t> keys_with_fraction(std::size_t n, double fraction, std::uint64_t seed,
                                              std::uint32_t& threshold) {
  std::mt19937_64 rng(seed);
  threshold = std::uint32_t(fraction * 4294967296.0 > 4294967295.0 ? 4294967295.0
                                                                   : fraction * 4294967296.0);
  std::vector<std::uint64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = (rng() << 32) | i;
  return v;
}

// copy_if (returning the count; writing it to a device View through each stable path), then
// copy_if_unordered and copy_flagged with the same selection, each against std::copy_if; out is
// one element longer than needed and its spare element must keep the poison.
void check_copy_if(const std::vector<std::uint64_t>& in, Below pred) {
  using Ordo::Impl::CompactPath;
  std::vector<std::uint64_t> expected;
  std::copy_if(in.begin(), in.end(), std::back_inserter(expected), pred);
  const std::size_t k = expected.size();
  auto din = to_device(in, "in");
  const ExecSpace space;
  const Ordo::Impl::SelectByPredicate<decltype(din), Below> select{din, pred};
  auto out = poisoned<std::uint64_t>(k + 1);
  const Ordo::Impl::EmitElement<decltype(din), decltype(out)> emit{din, out};

  EXPECT_EQ(std::int64_t(k), Ordo::copy_if(space, din, out, pred));
  EXPECT_TRUE(bitwise_equal(expected, head_checked(out, k)));

  for (CompactPath path : stable_paths) {
    SCOPED_TRACE(path == CompactPath::single_pass            ? "single pass"
                 : path == CompactPath::single_pass_portable ? "single pass, portable"
                                                             : "reduce then scan");
    Kokkos::deep_copy(out, poison_value<std::uint64_t>());
    auto count = poisoned<std::int32_t>(1);
    Ordo::Impl::compact_dispatch(space, std::int64_t(in.size()), select, emit, count, path);
    space.fence();
    EXPECT_EQ(std::int32_t(k), to_host(count)[0]);
    EXPECT_TRUE(bitwise_equal(expected, head_checked(out, k)));
  }

  // copy_if_unordered: the same set in any order, through the dispatch (on CUDA the warp seam)
  // and through the portable team version.
  auto sorted_head = [&] {
    auto head = head_checked(out, k);
    std::sort(head.begin(), head.end());
    return head;
  };
  std::vector<std::uint64_t> expected_set = expected;
  std::sort(expected_set.begin(), expected_set.end());
  Kokkos::deep_copy(out, poison_value<std::uint64_t>());
  EXPECT_EQ(std::int64_t(k), Ordo::copy_if_unordered(space, din, out, pred));
  EXPECT_TRUE(bitwise_equal(expected_set, sorted_head()));
  Kokkos::deep_copy(out, poison_value<std::uint64_t>());
  auto count = poisoned<std::int32_t>(1);
  Ordo::Impl::compact_unordered_dispatch(space, std::int64_t(in.size()), select, emit, count,
                                         false);
  space.fence();
  EXPECT_EQ(std::int32_t(k), to_host(count)[0]);
  EXPECT_TRUE(bitwise_equal(expected_set, sorted_head()));

  std::vector<std::uint8_t> flags(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) flags[i] = pred(in[i]);
  auto dflags = to_device(flags, "flags");
  Kokkos::deep_copy(out, poison_value<std::uint64_t>());
  EXPECT_EQ(std::int64_t(k), Ordo::copy_flagged(space, din, dflags, out));
  EXPECT_TRUE(bitwise_equal(expected, head_checked(out, k)));
  EXPECT_TRUE(bitwise_equal(in, to_host(din)));
}

TEST(CopyIf, FractionsAndBoundarySizes) {
  for (double fraction : {0.0, 0.01, 0.5, 0.99, 1.0}) {
    for (std::size_t n : test_sizes(tile_sizes(), 3 * tile_size() + 5)) {
      SCOPED_TRACE("fraction " + std::to_string(fraction) + " n=" + std::to_string(n));
      std::uint32_t threshold = 0;
      const auto in = keys_with_fraction(n, fraction, 7 + n, threshold);
      check_copy_if(in, Below{threshold});
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(CopyIf, AlternatingAndLarge) {
  const std::size_t n = 2 * tile_size() + 3;
  std::vector<std::uint64_t> in(n);
  // Alternating: even positions get a high word below the threshold.
  for (std::size_t i = 0; i < n; ++i) in[i] = (std::uint64_t(i % 2 ? 9 : 1) << 32) | i;
  check_copy_if(in, Below{5});
  std::uint32_t threshold = 0;
  check_copy_if(keys_with_fraction(large_size(), 0.5, 3, threshold), Below{threshold});
}

// Where out holds the whole input, from CompactTuning's vendor_from on, copy_if takes the vendor's
// selection (cub::DeviceSelect::If on CUDA builds with CUB; Ordo's compaction elsewhere): both
// forms against std::copy_if, out's spare element untouched, and the same input with out one
// element shorter than the input (Ordo's compaction) giving the same result.
TEST(CopyIf, OutAsLongAsTheInput) {
  using Tuning = Ordo::Impl::CompactTuning<ExecSpace>;
  using View = Kokkos::View<std::uint64_t*, ExecSpace>;
  const bool vendor = Ordo::Impl::Vendor<ExecSpace>::template takes_select<View, View>();
  const std::size_t n = vendor ? std::size_t(Tuning::vendor_from) + 5 : 3 * tile_size() + 5;
  for (double fraction : {0.0, 0.3, 1.0}) {
    SCOPED_TRACE("fraction " + std::to_string(fraction));
    std::uint32_t threshold = 0;
    const auto in = keys_with_fraction(n, fraction, 21, threshold);
    std::vector<std::uint64_t> expected;
    std::copy_if(in.begin(), in.end(), std::back_inserter(expected), Below{threshold});
    const std::size_t k = expected.size();
    auto din = to_device(in);
    auto out = poisoned<std::uint64_t>(n + 1);
    EXPECT_EQ(std::int64_t(k), Ordo::copy_if(ExecSpace(), din, out, Below{threshold}));
    EXPECT_TRUE(bitwise_equal(expected, head_checked(out, k)));
    Kokkos::deep_copy(out, poison_value<std::uint64_t>());
    auto count = poisoned<std::int32_t>(1);
    Ordo::copy_if(ExecSpace(), din, out, Below{threshold}, count);
    EXPECT_EQ(std::int32_t(k), to_host(count)[0]);
    EXPECT_TRUE(bitwise_equal(expected, head_checked(out, k)));
    if (k < n) {  // out shorter than the input but long enough: Ordo's compaction
      auto shorter = Kokkos::subview(out, Kokkos::pair<std::size_t, std::size_t>(0, n - 1));
      Kokkos::deep_copy(out, poison_value<std::uint64_t>());
      EXPECT_EQ(std::int64_t(k), Ordo::copy_if(ExecSpace(), din, shorter, Below{threshold}));
      EXPECT_TRUE(bitwise_equal(expected, head_checked(out, k)));
    }
    EXPECT_TRUE(bitwise_equal(in, to_host(din)));
  }
}

TEST(CopyIf, OutTooSmallWritesNothingPastItsEnd) {
  using Ordo::Impl::CompactPath;
  std::uint32_t threshold = 0;
  const auto in = keys_with_fraction(3 * tile_size() + 77, 0.5, 11, threshold);
  std::vector<std::uint64_t> expected;
  std::copy_if(in.begin(), in.end(), std::back_inserter(expected), Below{threshold});
  auto din = to_device(in);
  auto buffer = poisoned<std::uint64_t>(expected.size());
  const std::size_t room = expected.size() / 2;
  auto out = Kokkos::subview(buffer, Kokkos::pair<std::size_t, std::size_t>(0, room));
  EXPECT_EQ(error_of([&] { Ordo::copy_if(ExecSpace(), din, out, Below{threshold}); }),
            "Ordo::copy_if: out has " + std::to_string(room) + " elements, the selection has " +
                std::to_string(expected.size()) + " (nothing was written past out's end)");
  expected.resize(room);
  EXPECT_TRUE(bitwise_equal(expected, head_checked(buffer, room)));
  for (CompactPath path : stable_paths) {
    Kokkos::deep_copy(buffer, poison_value<std::uint64_t>());
    auto count = poisoned<std::int64_t>(1);
    Ordo::Impl::compact_dispatch(
        ExecSpace(), std::int64_t(in.size()),
        Ordo::Impl::SelectByPredicate<decltype(din), Below>{din, Below{threshold}},
        Ordo::Impl::EmitElement<decltype(din), decltype(out)>{din, out}, count, path);
    EXPECT_TRUE(bitwise_equal(expected, head_checked(buffer, room)));
  }
}

TEST(CopyIf, UnorderedOutTooSmallWritesNothingPastItsEnd) {
  std::uint32_t threshold = 0;
  const auto in = keys_with_fraction(70001, 0.3, 12, threshold);
  std::vector<std::uint64_t> expected;
  std::copy_if(in.begin(), in.end(), std::back_inserter(expected), Below{threshold});
  auto din = to_device(in);
  auto buffer = poisoned<std::uint64_t>(expected.size());
  const std::size_t room = expected.size() / 3;
  auto out = Kokkos::subview(buffer, Kokkos::pair<std::size_t, std::size_t>(0, room));
  EXPECT_EQ(error_of([&] { Ordo::copy_if_unordered(ExecSpace(), din, out, Below{threshold}); }),
            "Ordo::copy_if_unordered: out has " + std::to_string(room) +
                " elements, the selection has " + std::to_string(expected.size()) +
                " (nothing was written past out's end)");
  const auto got = to_host(buffer);
  std::sort(expected.begin(), expected.end());
  for (std::size_t k = 0; k < room; ++k) {
    ASSERT_TRUE(std::binary_search(expected.begin(), expected.end(), got[k])) << k;
  }
  for (std::size_t k = room; k < got.size(); ++k) {
    ASSERT_EQ(poison_value<std::uint64_t>(), got[k]) << "written past out's end at " << k;
  }
}

template <class T>
struct KeepBelow {
  T threshold;
  KOKKOS_INLINE_FUNCTION bool operator()(const T& x) const { return x < threshold; }
};

// in = all[offset, offset + n) through copy_if and copy_if_unordered, against std::copy_if.
template <class T, class InView>
void check_view(const std::vector<T>& all, std::size_t offset, std::size_t n, const InView& in) {
  const KeepBelow<T> pred{T(1) << 23};
  std::vector<T> expected;
  std::copy_if(all.begin() + offset, all.begin() + offset + n, std::back_inserter(expected), pred);
  const std::size_t k = expected.size();
  auto out = poisoned<T>(k + 1);
  EXPECT_EQ(std::int64_t(k), Ordo::copy_if(ExecSpace(), in, out, pred));
  EXPECT_TRUE(bitwise_equal(expected, head_checked(out, k)));
  Kokkos::deep_copy(out, poison_value<T>());
  EXPECT_EQ(std::int64_t(k), Ordo::copy_if_unordered(ExecSpace(), in, out, pred));
  auto got = head_checked(out, k);
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_TRUE(bitwise_equal(expected, got));
}

// 4- and 8-byte elements load as 16-byte vectors where `in` starts on a vector (CUDA's warp
// seam): subviews from offsets 0 to 3 take the vector path and the element-wise one, a strided
// View (LayoutStride) the element-wise one; sizes around the tile (the last tile runs element by
// element).
template <class T>
void check_alignments_and_strides() {
  const std::size_t tile = tile_size();
  for (std::size_t n : {std::size_t(1), tile - 1, tile, tile + 1, 3 * tile + 5}) {
    std::mt19937_64 rng(n);
    std::vector<T> all(2 * n + 8);
    for (auto& x : all) x = T(rng() >> 40);  // below 2^24: about half below 2^23
    auto dall = to_device(all);
    for (std::size_t offset = 0; offset < 4; ++offset) {
      SCOPED_TRACE("n=" + std::to_string(n) + " offset " + std::to_string(offset));
      check_view(all, offset, n,
                 Kokkos::subview(dall, Kokkos::pair<std::size_t, std::size_t>(offset, offset + n)));
    }
    // Every other element of `all`: column 0 of an n x 2 View.
    Kokkos::View<T**, Kokkos::LayoutRight, MemorySpace> pairs(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "pairs"), n, 2);
    Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace,
                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>
        host_pairs(all.data(), n, 2);
    Kokkos::deep_copy(pairs, host_pairs);
    auto column = Kokkos::subview(pairs, Kokkos::ALL, 0);
    static_assert(std::is_same_v<typename decltype(column)::array_layout, Kokkos::LayoutStride>);
    std::vector<T> evens(n);
    for (std::size_t i = 0; i < n; ++i) evens[i] = all[2 * i];
    SCOPED_TRACE("n=" + std::to_string(n) + " strided");
    check_view(evens, 0, n, column);
  }
}

TEST(CopyIf, VectorLoadsAtEveryAlignmentAndStride) {
  check_alignments_and_strides<std::uint32_t>();
  check_alignments_and_strides<std::uint64_t>();
}

TEST(CopyIf, ArgumentErrors) {
  auto in = to_device(std::vector<std::uint64_t>{1, 2, 3, 4});
  auto flags = to_device(std::vector<std::uint8_t>{1, 0, 1});
  auto out = poisoned<std::uint64_t>(4);
  EXPECT_EQ(error_of([&] { Ordo::copy_flagged(ExecSpace(), in, flags, out); }),
            "Ordo::copy_flagged: flags has 3 elements, needs 4 (one flag per element of in)");
  auto head = Kokkos::subview(in, Kokkos::pair<int, int>(0, 2));
  EXPECT_EQ(error_of([&] { Ordo::copy_if(ExecSpace(), in, head, Below{100}); }),
            "Ordo::copy_if: out aliases in (an output may not overlap another View)");
  EXPECT_TRUE(bitwise_equal(std::vector<std::uint64_t>{1, 2, 3, 4}, to_host(in)));
}

}  // namespace
