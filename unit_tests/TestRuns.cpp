// SPDX-License-Identifier: BSD-3-Clause
// Ordo::unique, unique_by_key, run_length_encode, reduce_by_key and bin_offsets against
// std::unique and sequential loops.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;

// The tile of the runs' one-pass kernel for keys of K and values of V.
template <class K, class V>
std::size_t runs_tile() {
  using Tuning = Ordo::Impl::RunsTuning<ExecSpace>;
  return std::size_t(Tuning::team_size) * Tuning::vt(sizeof(K), sizeof(V));
}

template <class K, class V>
std::vector<std::size_t> runs_sizes() {
  using Tuning = Ordo::Impl::CompactTuning<ExecSpace>;
  return test_sizes({runs_tile<K, V>(),
                     std::size_t(Tuning::lookback_team_size) * Tuning::lookback_items_per_thread,
                     // the host backends' group of pieces a thread walks interleaved
                     std::size_t(Ordo::Impl::HostRunPieces<ExecSpace>::group)},
                    large_size());
}

// The oracle: the runs of v under comp, as (first index, length).
template <class T, class Comp>
std::vector<std::pair<std::size_t, std::size_t>> runs(const std::vector<T>& v, const Comp& comp) {
  std::vector<std::pair<std::size_t, std::size_t>> r;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i == 0 || comp(v[i - 1], v[i]) || comp(v[i], v[i - 1])) r.push_back({i, 0});
    ++r.back().second;
  }
  return r;
}

// unique, unique through every stable compaction path, and run_length_encode, against the
// oracle; outputs one longer than needed keep their poison.
template <class T, class Comp>
void check_unique_and_encode(const std::vector<T>& in, const Comp& comp) {
  const auto r = runs(in, comp);
  const std::size_t m = r.size();
  std::vector<T> firsts(m);
  std::vector<std::int32_t> lengths(m);
  for (std::size_t k = 0; k < m; ++k) {
    firsts[k] = in[r[k].first];
    lengths[k] = std::int32_t(r[k].second);
  }
  if constexpr (std::is_same_v<Comp, Ordo::less<>> && !std::is_floating_point_v<T>) {
    std::vector<T> u = in;
    u.erase(std::unique(u.begin(), u.end()), u.end());
    ASSERT_EQ(u, firsts) << "the oracle agrees with std::unique";
  }
  const ExecSpace space;
  auto din = to_device(in, "in");
  auto out = poisoned<T>(m + 1);
  EXPECT_EQ(std::int64_t(m), Ordo::unique(space, din, out, comp));
  EXPECT_TRUE(bitwise_equal(firsts, head_checked(out, m)));

  using Ordo::Impl::CompactPath;
  for (CompactPath path : {CompactPath::single_pass, CompactPath::single_pass_portable,
                           CompactPath::reduce_then_scan}) {
    Kokkos::deep_copy(out, poison_value<T>());
    auto count = poisoned<std::int64_t>(1);
    Ordo::Impl::compact_dispatch(
        space, std::int64_t(in.size()), Ordo::Impl::SelectRunHead<decltype(din), Comp>{din, comp},
        Ordo::Impl::EmitElement<decltype(din), decltype(out)>{din, out}, count, path);
    EXPECT_EQ(std::int64_t(m), to_host(count)[0]);
    EXPECT_TRUE(bitwise_equal(firsts, head_checked(out, m)));
  }

  Kokkos::deep_copy(out, poison_value<T>());
  auto counts = poisoned<std::int32_t>(m + 1);
  EXPECT_EQ(std::int64_t(m), Ordo::run_length_encode(space, din, out, counts, comp));
  EXPECT_TRUE(bitwise_equal(firsts, head_checked(out, m)));
  EXPECT_EQ(lengths, head_checked(counts, m));
  EXPECT_TRUE(bitwise_equal(in, to_host(din))) << "the input is unchanged";
}

template <class T>
class RunsTyped : public ::testing::Test {};

using KeyTypes =
    ::testing::Types<std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(RunsTyped, KeyTypes);

TYPED_TEST(RunsTyped, UniqueAndRunLengthEncode) {
  using T = TypeParam;
  for (std::size_t n : runs_sizes<T, std::int32_t>()) {
    for (Dist d : {Dist::uniform, Dist::all_equal, Dist::few_distinct, Dist::heavy_duplicates,
                   Dist::float_specials}) {
      SCOPED_TRACE(name(d) + " n=" + std::to_string(n));
      check_unique_and_encode(generate<T>(d, n, 3), Ordo::less<>{});
      if (::testing::Test::HasFailure()) return;
    }
    for (std::size_t longest : {2, 40, 5000}) {
      SCOPED_TRACE("runs up to " + std::to_string(longest) + " n=" + std::to_string(n));
      check_unique_and_encode(runs_of<T>(n, longest, n + longest), Ordo::less<>{});
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// Descending input under Ordo::greater<>, and a user comparator whose classes are 16 keys wide.
struct HighBits {
  KOKKOS_INLINE_FUNCTION bool operator()(std::uint32_t a, std::uint32_t b) const {
    return (a >> 4) < (b >> 4);
  }
};

TEST(Runs, ComparatorsAndDescendingInput) {
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(70001)}) {
    auto v = runs_of<std::uint32_t>(n, 9, n);
    std::reverse(v.begin(), v.end());
    check_unique_and_encode(v, Ordo::greater<>{});
    std::vector<std::uint32_t> w(n);
    std::mt19937 rng(n);
    for (std::size_t i = 0; i < n; ++i) w[i] = std::uint32_t(i / 3 + rng() % 40);
    check_unique_and_encode(w, HighBits{});
  }
}

TEST(Runs, UniqueByKey) {
  for (std::size_t n : runs_sizes<std::uint32_t, std::uint64_t>()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto keys = runs_of<std::uint32_t>(n, 7, n);
    std::vector<std::uint64_t> values(n);
    std::iota(values.begin(), values.end(), std::uint64_t(1) << 40);
    const auto r = runs(keys, Ordo::less<>{});
    std::vector<std::uint32_t> ek;
    std::vector<std::uint64_t> ev;
    for (auto [first, len] : r) ek.push_back(keys[first]), ev.push_back(values[first]);
    auto dk = to_device(keys);
    auto dv = to_device(values);
    auto ko = poisoned<std::uint32_t>(r.size() + 1);
    auto vo = poisoned<std::uint64_t>(r.size() + 1);
    EXPECT_EQ(std::int64_t(r.size()), Ordo::unique_by_key(ExecSpace(), dk, dv, ko, vo));
    EXPECT_EQ(ek, head_checked(ko, r.size()));
    EXPECT_EQ(ev, head_checked(vo, r.size()));
    auto count = poisoned<std::int64_t>(1);
    Kokkos::deep_copy(ko, poison_value<std::uint32_t>());
    Ordo::unique_by_key(ExecSpace(), dk, dv, ko, vo, count);
    EXPECT_EQ(std::int64_t(r.size()), to_host(count)[0]);
    EXPECT_EQ(ek, head_checked(ko, r.size()));
    if (::testing::Test::HasFailure()) return;
  }
}

// reduce_by_key of keys and values through op against a sequential reduction by key (the same
// order of op, so exact for integer and non-commutative ops); returns the device's values.
template <class K, class V, class Op, class Comp = Ordo::less<>>
std::vector<V> check_reduce(const std::vector<K>& keys, const std::vector<V>& values, const Op& op,
                            bool exact, const Comp& comp = Comp{}) {
  const auto r = runs(keys, comp);
  std::vector<K> ek;
  std::vector<V> ev;
  for (auto [first, len] : r) {
    V acc = values[first];
    for (std::size_t i = first + 1; i < first + len; ++i) acc = op(acc, values[i]);
    ek.push_back(keys[first]);
    ev.push_back(acc);
  }
  auto dk = to_device(keys);
  auto dv = to_device(values);
  auto ko = poisoned<K>(r.size() + 1);
  auto vo = poisoned<V>(r.size() + 1);
  EXPECT_EQ(std::int64_t(r.size()), Ordo::reduce_by_key(ExecSpace(), dk, dv, ko, vo, op, comp));
  EXPECT_TRUE(bitwise_equal(ek, head_checked(ko, r.size())));
  const auto got = head_checked(vo, r.size());
  if (exact) {
    EXPECT_TRUE(bitwise_equal(ev, got));
  } else if constexpr (std::is_floating_point_v<V>) {
    for (std::size_t k = 0; k < r.size(); ++k) {
      EXPECT_NEAR(ev[k], got[k], 1e-9 * (1.0 + std::abs(ev[k]))) << "run " << k;
      if (::testing::Test::HasFailure()) break;
    }
  }
  return got;
}

TEST(Runs, ReduceByKeyIntegerOps) {
  for (std::size_t n : runs_sizes<std::uint32_t, std::uint32_t>()) {
    for (std::size_t longest : {1, 3, 300, 100000}) {
      SCOPED_TRACE("runs up to " + std::to_string(longest) + " n=" + std::to_string(n));
      const auto keys = runs_of<std::uint32_t>(n, longest, n * 7 + longest);
      std::vector<std::uint32_t> values(n);
      std::mt19937 rng(n);
      for (auto& x : values) x = rng();
      check_reduce(keys, values, Ordo::plus<>{}, true);
      check_reduce(keys, values, Ordo::minimum<>{}, true);
      check_reduce(keys, values, Ordo::maximum<std::uint32_t>{}, true);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(Runs, ReduceByKeyNonCommutativeOp) {
  for (std::size_t n : {std::size_t(2), std::size_t(4097), std::size_t(70001), large_size()}) {
    for (std::size_t longest : {std::size_t(2), std::size_t(5000), n}) {
      SCOPED_TRACE("runs up to " + std::to_string(longest) + " n=" + std::to_string(n));
      const auto keys = runs_of<std::uint32_t>(n, longest, n + longest);
      std::vector<Affine> values(n);
      std::mt19937_64 rng(n);
      for (auto& f : values) f = {rng() | 1, rng()};
      check_reduce(keys, values, Compose{}, true);
    }
  }
}

// The device's run tiles on every backend (host backends take chunks of the elements): the same
// runs and the same values, against the sequential fold.
TEST(Runs, TilesOnEveryBackend) {
  for (std::size_t n : {std::size_t(4097), std::size_t(70001)}) {
    const auto keys = runs_of<std::uint32_t>(n, 5000, n + 3);
    std::vector<Affine> values(n);
    std::mt19937_64 rng(n + 1);
    for (auto& f : values) f = {rng() | 1, rng()};
    const auto r = runs(keys, Ordo::less<>{});
    std::vector<std::uint32_t> ek;
    std::vector<Affine> ev;
    for (auto [first, len] : r) {
      Affine acc = values[first];
      for (std::size_t i = first + 1; i < first + len; ++i) acc = Compose{}(acc, values[i]);
      ek.push_back(keys[first]);
      ev.push_back(acc);
    }
    const auto dk = to_device(keys);
    const auto dv = to_device(values);
    // The space's team seam and the portable one (the same on backends without a warp seam).
    auto check = [&](auto seam) {
      auto ko = poisoned<std::uint32_t>(r.size());
      auto vo = poisoned<Affine>(r.size());
      auto count = poisoned<std::int64_t>(1);
      Ordo::Impl::reduce_runs<Affine>("reduce_by_key", ExecSpace(), dk,
                                      Ordo::Impl::ValueOf<decltype(dv)>{dv},
                                      Ordo::Impl::ReduceOp<Compose, Affine>{Compose{}},
                                      Ordo::less<>{}, ko, vo, count, true, seam);
      EXPECT_EQ(std::int64_t(r.size()), to_host(count)[0]);
      EXPECT_TRUE(bitwise_equal(ek, to_host(ko)));
      EXPECT_TRUE(bitwise_equal(ev, to_host(vo)));
    };
    check(Ordo::Impl::WarpSeam<ExecSpace>{});
    check(Ordo::Impl::TeamSeam{});
  }
}

// f64 sums of the tiles on each team seam against the oracle: values that are multiples of 2^-10
// below 2^20 in magnitude, so that every sum of a run is exact in any order.
TEST(Runs, TilesSumDoublesOnEachSeam) {
  const std::size_t n = 300001;
  const auto keys = runs_of<std::int64_t>(n, 3000, 7);
  std::vector<double> values(n);
  std::mt19937_64 rng(n);
  for (auto& x : values) x = (double(rng() % (std::uint64_t(1) << 30)) - double(1 << 29)) / 1024;
  std::vector<double> expected;
  for (auto [first, len] : runs(keys, Ordo::less<>{})) {
    double acc = values[first];
    for (std::size_t i = first + 1; i < first + len; ++i) acc += values[i];
    expected.push_back(acc);
  }
  const auto dk = to_device(keys);
  const auto dv = to_device(values);
  auto check = [&](auto seam, const char* name) {
    auto ko = poisoned<std::int64_t>(n);
    auto vo = poisoned<double>(n);
    auto count = poisoned<std::int64_t>(1);
    Ordo::Impl::reduce_runs<double>("reduce_by_key", ExecSpace(), dk,
                                    Ordo::Impl::ValueOf<decltype(dv)>{dv},
                                    Ordo::Impl::ReduceOp<Ordo::plus<>, double>{Ordo::plus<>{}},
                                    Ordo::less<>{}, ko, vo, count, true, seam);
    ASSERT_EQ(std::int64_t(expected.size()), to_host(count)[0]) << name;
    EXPECT_TRUE(bitwise_equal(expected, head_checked(vo, expected.size()))) << name;
  };
  check(Ordo::Impl::WarpSeam<ExecSpace>{}, "space seam");
  check(Ordo::Impl::TeamSeam{}, "portable seam");
}

TEST(Runs, ReduceByKeyDoublesAreDeterministic) {
  for (std::size_t n : {std::size_t(70001), large_size()}) {
    for (std::size_t longest : {std::size_t(1), std::size_t(30), n}) {
      SCOPED_TRACE("runs up to " + std::to_string(longest) + " n=" + std::to_string(n));
      const auto keys = runs_of<std::int64_t>(n, longest, n + longest);
      std::vector<double> values(n);
      std::mt19937_64 rng(n);
      for (auto& x : values) x = from_bits<double>(rng()) * 1e-3;
      const auto first = check_reduce(keys, values, Ordo::plus<>{}, false);
      for (int rep = 0; rep < 3; ++rep) {
        EXPECT_TRUE(bitwise_equal(first, check_reduce(keys, values, Ordo::plus<>{}, false)));
      }
      // A Kokkos reducer as the op: the same sums, in the same order.
      double unused = 0;
      auto dk = to_device(keys);
      auto dv = to_device(values);
      auto ko = poisoned<std::int64_t>(n);
      auto vo = poisoned<double>(n);
      const auto m = Ordo::reduce_by_key(ExecSpace(), dk, dv, ko, vo,
                                         Kokkos::Sum<double, Kokkos::HostSpace>(unused));
      EXPECT_TRUE(bitwise_equal(first, head_checked(vo, std::size_t(m))));
    }
  }
}

TEST(Runs, AsynchronousFormsWriteTheCount) {
  const auto keys = runs_of<std::uint32_t>(70001, 5, 1);
  const auto r = runs(keys, Ordo::less<>{});
  std::vector<std::uint32_t> values(keys.size(), 1), lengths;
  for (auto [first, len] : r) lengths.push_back(std::uint32_t(len));
  auto dk = to_device(keys);
  auto dv = to_device(values);
  auto ko = poisoned<std::uint32_t>(r.size()), vo = poisoned<std::uint32_t>(r.size());
  auto count = poisoned<std::int32_t>(1);
  const ExecSpace space;
  Ordo::reduce_by_key(space, dk, dv, ko, vo, Ordo::plus<>{}, count);
  EXPECT_EQ(std::int32_t(r.size()), to_host(count)[0]);
  EXPECT_EQ(lengths, to_host(vo));
  Kokkos::deep_copy(vo, 0);
  Kokkos::deep_copy(count, -1);
  Ordo::run_length_encode(space, dk, ko, vo, count);
  EXPECT_EQ(std::int32_t(r.size()), to_host(count)[0]);
  EXPECT_EQ(lengths, to_host(vo));
  Kokkos::deep_copy(count, -1);
  Ordo::unique(space, dk, ko, count);
  EXPECT_EQ(std::int32_t(r.size()), to_host(count)[0]);
  // The forms without a space.
  EXPECT_EQ(std::int64_t(r.size()), Ordo::unique(dk, ko));
  EXPECT_EQ(std::int64_t(r.size()), Ordo::run_length_encode(dk, ko, vo));
  EXPECT_EQ(std::int64_t(r.size()), Ordo::reduce_by_key(dk, dv, ko, vo, Ordo::plus<>{}));
  EXPECT_EQ(std::int64_t(r.size()), Ordo::unique_by_key(dk, dv, ko, vo));
}

// Outputs as long as the input: on CUDA builds with CUB, integer keys and values take the vendor
// seam from its sizes on (the same results bit for bit); elsewhere Ordo's kernels.
TEST(Runs, OutputsAsLongAsTheInput) {
  std::vector<std::size_t> sizes{1, 2047, 2048, 70001};
  if (!on_host) sizes.push_back((std::size_t(1) << 22) + 5);
  for (std::size_t n : sizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto keys = runs_of<std::uint32_t>(n, 6, n + 1);
    const auto r = runs(keys, Ordo::less<>{});
    std::vector<std::uint32_t> values(n), ek, sums, mins, lengths;
    std::mt19937 rng(n);
    for (auto& x : values) x = rng() % 1000;
    for (auto [first, len] : r) {
      ek.push_back(keys[first]);
      lengths.push_back(std::uint32_t(len));
      sums.push_back(std::accumulate(values.begin() + first, values.begin() + first + len, 0u));
      mins.push_back(*std::min_element(values.begin() + first, values.begin() + first + len));
    }
    const std::size_t m = r.size();
    auto dk = to_device(keys);
    auto dv = to_device(values);
    auto ko = poisoned<std::uint32_t>(n), vo = poisoned<std::uint32_t>(n);
    const ExecSpace space;
    EXPECT_EQ(std::int64_t(m), Ordo::unique(space, dk, ko));
    EXPECT_EQ(ek, head_checked(ko, m));
    Kokkos::deep_copy(ko, poison_value<std::uint32_t>());
    EXPECT_EQ(std::int64_t(m), Ordo::run_length_encode(space, dk, ko, vo));
    EXPECT_EQ(ek, head_checked(ko, m));
    EXPECT_EQ(lengths, head_checked(vo, m));
    Kokkos::deep_copy(vo, poison_value<std::uint32_t>());
    EXPECT_EQ(std::int64_t(m), Ordo::reduce_by_key(space, dk, dv, ko, vo, Ordo::plus<>{}));
    EXPECT_EQ(sums, head_checked(vo, m));
    auto count = poisoned<std::int32_t>(1);
    Ordo::reduce_by_key(space, dk, dv, ko, vo, Ordo::minimum<>{}, count);
    EXPECT_EQ(std::int32_t(m), to_host(count)[0]);
    EXPECT_EQ(mins, head_checked(vo, m));
  }
}

TEST(Runs, BadInput) {
  const auto keys = runs_of<std::uint32_t>(9000, 3, 2);
  const auto r = runs(keys, Ordo::less<>{});
  const std::size_t m = r.size();
  auto dk = to_device(keys);
  auto dv = to_device(std::vector<std::uint32_t>(keys.size(), 1));
  const ExecSpace space;
  // Outputs too short: the first runs written, nothing past the end.
  auto buffer = poisoned<std::uint32_t>(m);
  auto values = poisoned<std::uint32_t>(m);
  auto short_out = Kokkos::subview(buffer, Kokkos::pair<std::size_t, std::size_t>(0, m / 2));
  EXPECT_EQ(error_of([&] { Ordo::unique(space, dk, short_out); }),
            "Ordo::unique: out has " + std::to_string(m / 2) + " elements, needs " +
                std::to_string(m) + " (the first " + std::to_string(m / 2) +
                " outputs were written)");
  std::vector<std::uint32_t> firsts;
  for (auto [first, len] : r) firsts.push_back(keys[first]);
  firsts.resize(m / 2);
  EXPECT_EQ(firsts, head_checked(buffer, m / 2));
  Kokkos::deep_copy(buffer, poison_value<std::uint32_t>());
  EXPECT_EQ(
      error_of([&] { Ordo::reduce_by_key(space, dk, dv, short_out, values, Ordo::plus<>{}); }),
      "Ordo::reduce_by_key: keys_out or values_out has " + std::to_string(m / 2) +
          " elements, needs " + std::to_string(m) + " (the first " + std::to_string(m / 2) +
          " outputs were written)");
  EXPECT_EQ(firsts, head_checked(buffer, m / 2));
  // Aliasing and sizes.
  EXPECT_EQ(error_of([&] { Ordo::reduce_by_key(space, dk, dv, dk, values, Ordo::plus<>{}); }),
            "Ordo::reduce_by_key: keys_out aliases keys (an output may not overlap another View)");
  EXPECT_EQ(error_of([&] { Ordo::unique(space, dk, dk); }),
            "Ordo::unique: out aliases in (an output may not overlap another View)");
  auto short_values = Kokkos::subview(dv, Kokkos::pair<std::size_t, std::size_t>(0, 5));
  EXPECT_EQ(error_of([&] {
              Ordo::reduce_by_key(space, dk, short_values, buffer, values, Ordo::plus<>{});
            }),
            "Ordo::reduce_by_key: values has 5 elements, needs " + std::to_string(keys.size()) +
                " (one value per key)");
  auto narrow = poisoned<std::int8_t>(m);
  EXPECT_EQ(error_of([&] { Ordo::run_length_encode(space, dk, buffer, narrow); }),
            "Ordo::run_length_encode: counts_out's value type cannot hold " +
                std::to_string(keys.size()) + " (use a 64-bit index View)");
  EXPECT_TRUE(bitwise_equal(keys, to_host(dk)));
}

// ---- bin_offsets -------------------------------------------------------------------------------

std::vector<std::int64_t> offsets_oracle(const std::vector<std::int32_t>& keys, std::size_t nbins) {
  std::vector<std::int64_t> o(nbins + 1);
  for (std::size_t b = 0; b <= nbins; ++b) {
    o[b] = std::lower_bound(keys.begin(), keys.end(), std::int32_t(b)) - keys.begin();
  }
  return o;
}

TEST(Runs, BinOffsets) {
  std::mt19937 rng(5);
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), large_size()}) {
    for (std::size_t nbins : {std::size_t(1), std::size_t(7), std::size_t(65536)}) {
      for (int shape = 0; shape < 3; ++shape) {
        SCOPED_TRACE("n=" + std::to_string(n) + " bins=" + std::to_string(nbins) + " shape " +
                     std::to_string(shape));
        // 0: uniform; 1: every key in the last bin; 2: the middle bins empty.
        std::vector<std::int32_t> keys(n);
        for (auto& k : keys) {
          k = shape == 1 ? std::int32_t(nbins - 1) : std::int32_t(rng() % nbins);
          if (shape == 2 && k > std::int32_t(nbins / 4) && k < std::int32_t(3 * nbins / 4)) k = 0;
        }
        std::sort(keys.begin(), keys.end());
        auto offsets = poisoned<std::int64_t>(nbins + 1);
        Ordo::bin_offsets(ExecSpace(), to_device(keys), offsets);
        EXPECT_EQ(offsets_oracle(keys, nbins), to_host(offsets));
      }
    }
  }
  auto offsets32 = poisoned<std::uint32_t>(4);
  Ordo::bin_offsets(to_device(std::vector<std::int32_t>{1, 1, 2}), offsets32);
  EXPECT_EQ((std::vector<std::uint32_t>{0, 0, 2, 3}), to_host(offsets32));
}

TEST(Runs, BinOffsetsErrors) {
  auto offsets = poisoned<std::int64_t>(5);
  EXPECT_EQ(
      error_of([&] {
        Ordo::bin_offsets(ExecSpace(), to_device(std::vector<std::int32_t>{0, 1, 4, 4}), offsets);
      }),
      "Ordo::bin_offsets: sorted_keys(2) = 4 lies outside [0, 4); offsets holds partial "
      "results");
  EXPECT_EQ(
      error_of([&] {
        Ordo::bin_offsets(ExecSpace(), to_device(std::vector<std::int32_t>{0, -1, 2}), offsets);
      }),
      "Ordo::bin_offsets: sorted_keys(1) = -1 lies outside [0, 4); offsets holds partial "
      "results");
  EXPECT_EQ(
      error_of([&] {
        Ordo::bin_offsets(ExecSpace(), to_device(std::vector<std::int32_t>{0, 3, 2, 3}), offsets);
      }),
      "Ordo::bin_offsets: sorted_keys(2) = 2 orders before the key before it (the keys are "
      "not sorted); offsets holds partial results");
  auto none = poisoned<std::int64_t>(0);
  EXPECT_EQ(error_of([&] {
              Ordo::bin_offsets(ExecSpace(), to_device(std::vector<std::int32_t>{0}), none);
            }),
            "Ordo::bin_offsets: offsets has 0 elements, needs 1");
}

}  // namespace
