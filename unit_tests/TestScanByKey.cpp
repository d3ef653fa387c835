// SPDX-License-Identifier: BSD-3-Clause
// Ordo::inclusive_scan_by_key and exclusive_scan_by_key against sequential loops.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;

// The oracle: the scan restarted at each run of keys equal under comp, left to right.
template <class K, class V, class Op, class Comp = Ordo::less<>>
std::vector<V> sequential_scan(const std::vector<K>& keys, const std::vector<V>& values,
                               const Op& op, bool exclusive, const V& init,
                               const Comp& comp = Comp{}) {
  std::vector<V> out(keys.size());
  V acc{};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const bool head = i == 0 || comp(keys[i - 1], keys[i]) || comp(keys[i], keys[i - 1]);
    if (exclusive) {
      if (head) acc = init;
      out[i] = acc;
      acc = op(acc, values[i]);
    } else {
      acc = head ? values[i] : op(acc, values[i]);
      out[i] = acc;
    }
  }
  return out;
}

// Both scans through the public calls, and through the device's tiles on every backend
// (use_tiles), against the oracle.
template <class K, class V, class Op>
void check_scans(const std::vector<K>& keys, const std::vector<V>& values, const Op& op,
                 const V& init) {
  const ExecSpace space;
  const auto dk = to_device(keys);
  const auto dv = to_device(values);
  const std::size_t n = keys.size();
  const auto inclusive = sequential_scan(keys, values, op, false, init);
  const auto exclusive = sequential_scan(keys, values, op, true, init);
  auto out = poisoned<V>(n);
  Ordo::inclusive_scan_by_key(space, dk, dv, out, op);
  EXPECT_TRUE(bitwise_equal(inclusive, to_host(out))) << "inclusive, n = " << n;
  Ordo::exclusive_scan_by_key(space, dk, dv, out, init, op);
  EXPECT_TRUE(bitwise_equal(exclusive, to_host(out))) << "exclusive, n = " << n;
  using Ordo::Impl::ReduceOp;
  const ReduceOp<Op, V> reduce{op};
  // The tiles on the space's team seam and on the portable one.
  auto tiles = [&](auto seam, const char* name) {
    for (bool ex : {false, true}) {
      Kokkos::deep_copy(out, poison_value<V>());
      const Ordo::Impl::ScanSource<decltype(dk), decltype(dv), ReduceOp<Op, V>, Ordo::less<>, V>
          source{dk, dv, reduce, Ordo::less<>{}, init, ex};
      Ordo::Impl::scan_runs<V>("scan_by_key", space, dk, source, reduce, Ordo::less<>{}, out, init,
                               ex, true, seam);
      EXPECT_TRUE(bitwise_equal(ex ? exclusive : inclusive, to_host(out)))
          << name << " tiles, exclusive " << ex << ", n = " << n;
    }
  };
  tiles(Ordo::Impl::WarpSeam<ExecSpace>{}, "space seam");
  tiles(Ordo::Impl::TeamSeam{}, "portable seam");
  EXPECT_TRUE(bitwise_equal(values, to_host(dv))) << "values unchanged";
}

std::vector<std::size_t> scan_sizes() {
  using Tuning = Ordo::Impl::RunsTuning<ExecSpace>;
  const std::size_t tile = std::size_t(Tuning::team_size) * Tuning::vt(4, 8);
  std::vector<std::size_t> sizes{0, 1, 2};
  for (std::size_t n : offset_sizes(tile)) sizes.push_back(n);
  // The host backends' groups of pieces (a thread's walks interleaved): one, and three and a
  // part of one.
  using Pieces = Ordo::Impl::HostRunPieces<ExecSpace>;
  const std::size_t group = Pieces::group;
  sizes.push_back(group);
  sizes.push_back(3 * group + Pieces::piece + 17);
  return sizes;
}

TEST(ScanByKey, IntegersAcrossTilesAndPieces) {
  for (std::size_t n : scan_sizes()) {
    for (std::size_t longest : {std::size_t(1), std::size_t(7), std::size_t(5000), n + 1}) {
      SCOPED_TRACE("runs up to " + std::to_string(longest) + " n=" + std::to_string(n));
      const auto keys = runs_of<std::int32_t>(n, longest, n + longest);
      std::vector<std::int64_t> values(n);
      std::mt19937_64 rng(n);
      for (auto& x : values) x = std::int64_t(rng() % 1000) - 500;
      check_scans(keys, values, Ordo::plus<>{}, std::int64_t(3));
      check_scans(keys, values, Ordo::maximum<>{}, std::int64_t(-1000));
    }
  }
}

TEST(ScanByKey, NonCommutativeOp) {
  for (std::size_t n : {std::size_t(4097), std::size_t(70001), std::size_t(300001)}) {
    for (std::size_t longest : {std::size_t(3), std::size_t(5000), n}) {
      SCOPED_TRACE("runs up to " + std::to_string(longest) + " n=" + std::to_string(n));
      const auto keys = runs_of<std::uint64_t>(n, longest, n + longest);
      std::vector<Affine> values(n);
      std::mt19937_64 rng(n);
      for (auto& f : values) f = {rng() | 1, rng()};
      check_scans(keys, values, Compose{}, Affine{3, 5});
    }
  }
}

TEST(ScanByKey, DoublesAreDeterministicAndInPlace) {
  const std::size_t n = large_size();
  const auto keys = runs_of<std::int32_t>(n, 3000, 7);
  std::vector<double> values(n);
  std::mt19937_64 rng(8);
  for (auto& x : values) x = from_bits<double>(rng()) * 1e-3;
  const auto dk = to_device(keys);
  const auto dv = to_device(values);
  auto first = poisoned<double>(n);
  Ordo::inclusive_scan_by_key(dk, dv, first);
  const auto expected = to_host(first);
  for (int rep = 0; rep < 3; ++rep) {
    auto again = poisoned<double>(n);
    Ordo::inclusive_scan_by_key(dk, dv, again);
    EXPECT_TRUE(bitwise_equal(expected, to_host(again)));
  }
  // In place: out is values itself.
  auto inplace = to_device(values);
  Ordo::inclusive_scan_by_key(dk, inplace, inplace);
  EXPECT_TRUE(bitwise_equal(expected, to_host(inplace)));
  auto ex = to_device(values);
  Ordo::exclusive_scan_by_key(dk, ex, ex, 0.0);
  auto ex_out = poisoned<double>(n);
  Ordo::exclusive_scan_by_key(dk, dv, ex_out, 0.0);
  EXPECT_TRUE(bitwise_equal(to_host(ex_out), to_host(ex)));
}

// Keys equal under the comparator, not by bits: runs of keys with one quotient by 10.
struct ByTens {
  KOKKOS_INLINE_FUNCTION bool operator()(std::int32_t a, std::int32_t b) const {
    return a / 10 < b / 10;
  }
};

TEST(ScanByKey, Comparator) {
  const std::size_t n = 50000;
  std::vector<std::int32_t> keys(n);
  std::vector<std::int32_t> values(n);
  for (std::size_t i = 0; i < n; ++i)
    keys[i] = std::int32_t(i / 3), values[i] = std::int32_t(i % 7);
  const auto expected =
      sequential_scan(keys, values, Ordo::plus<>{}, false, std::int32_t(0), ByTens{});
  const auto dk = to_device(keys);
  const auto dv = to_device(values);
  auto out = poisoned<std::int32_t>(n);
  Ordo::inclusive_scan_by_key(ExecSpace(), dk, dv, out, Ordo::plus<>{}, ByTens{});
  EXPECT_EQ(expected, to_host(out));
}

TEST(ScanByKey, BadInput) {
  const auto dk = to_device(runs_of<std::int32_t>(100, 5, 1));
  const auto dv = to_device(std::vector<double>(100, 1.0));
  auto out = poisoned<double>(100);
  auto short_out = poisoned<double>(99);
  const auto short_values = to_device(std::vector<double>(99, 1.0));
  EXPECT_NE(error_of([&] { Ordo::inclusive_scan_by_key(ExecSpace(), dk, dv, short_out); }),
            "no exception");
  EXPECT_NE(error_of([&] { Ordo::inclusive_scan_by_key(ExecSpace(), dk, short_values, out); }),
            "no exception");
  // out over keys, or over part of values (shifted by one): not in place.
  const Kokkos::View<std::int32_t*, MemorySpace> keys_as_out = dk;
  EXPECT_NE(error_of([&] { Ordo::inclusive_scan_by_key(ExecSpace(), dk, dk, keys_as_out); }),
            "no exception");
  auto both = to_device(std::vector<double>(101, 1.0));
  const auto head = Kokkos::subview(both, Kokkos::make_pair(0, 100));
  const auto tail = Kokkos::subview(both, Kokkos::make_pair(1, 101));
  EXPECT_NE(error_of([&] { Ordo::exclusive_scan_by_key(ExecSpace(), dk, head, tail, 0.0); }),
            "no exception");
  EXPECT_TRUE(bitwise_equal(std::vector<double>(101, 1.0), to_host(both)));
  EXPECT_TRUE(bitwise_equal(std::vector<double>(100, poison_value<double>()), to_host(out)));
}

}  // namespace
