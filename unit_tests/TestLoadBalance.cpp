// SPDX-License-Identifier: BSD-3-Clause
// Ordo::load_balancing_search, interval_expand and interval_gather against a host loop over the
// items (the definition: item i owns counts(i) consecutive output positions).

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

// Counts with zeros, ones and long items.
std::vector<std::int64_t> random_counts(std::size_t items, std::uint64_t seed, int most) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> counts(items);
  for (auto& c : counts) {
    const auto r = rng() % 10;
    c = r < 3 ? 0 : r < 6 ? 1 : r < 9 ? std::int64_t(rng() % 8) : std::int64_t(rng() % most);
  }
  return counts;
}

template <class T>
std::vector<T> exclusive_scan(const std::vector<std::int64_t>& counts, std::int64_t& total) {
  std::vector<T> scan(counts.size());
  total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    scan[i] = T(total);
    total += counts[i];
  }
  return scan;
}

// The scan and out_item start `offset` elements into their allocations, out_rank (of type R)
// rank_offset; out_item is followed by one element of poison, which must stay.
template <class T, class R = std::int64_t>
void check_load_balance(Path path, const std::vector<std::int64_t>& counts, std::size_t offset = 0,
                        std::size_t rank_offset = 0) {
  const ExecSpace space;
  std::int64_t total = 0;
  const auto scan = exclusive_scan<T>(counts, total);
  std::vector<std::int64_t> item, rank;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    for (std::int64_t r = 0; r < counts[i]; ++r) item.push_back(std::int64_t(i)), rank.push_back(r);
  }
  const auto dscan = at_offset(scan, offset);
  const auto item_all = at_offset(std::vector<T>(total + 1, poison_value<T>()), offset);
  const DeviceView<T> out_item =
      Kokkos::subview(item_all, std::make_pair(std::size_t(0), std::size_t(total)));
  const auto out_rank = at_offset(std::vector<R>(total + 1, poison_value<R>()), rank_offset);
  if (path == Path::dispatch) {
    Ordo::load_balancing_search(space, dscan, out_item, out_rank);
  } else {
    const auto p =
        path == Path::fused ? Ordo::Impl::SearchPath::fused : Ordo::Impl::SearchPath::tiled;
    Ordo::Impl::load_balance(
        "load_balancing_search", space, dscan, total,
        Ordo::Impl::ItemStore<DeviceView<T>, DeviceView<R>>{out_item, out_rank}, p);
  }
  EXPECT_EQ(item, head_checked<std::int64_t>(item_all, total));
  EXPECT_EQ(rank, head_checked<std::int64_t>(out_rank, total));
  EXPECT_EQ(scan, to_host(dscan));
}

TEST(LoadBalance, SearchAgainstTheItemLoop) {
  for (std::size_t items : {1, 2, 97, 1000, 4096, 33333}) {
    for (int most : {2, 100, 5000}) {
      for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
        SCOPED_TRACE("items " + std::to_string(items) + " most " + std::to_string(most) + " path " +
                     std::to_string(int(path)));
        const auto counts = random_counts(items, items + most, most);
        check_load_balance<std::int64_t>(path, counts);
        check_load_balance<std::int32_t>(path, counts);
        check_load_balance<std::int32_t, std::int32_t>(path, counts);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  // Every count zero but the last; one item owning everything; the large size.
  std::vector<std::int64_t> last(1000, 0);
  last.back() = 777;
  check_load_balance<std::int32_t>(Path::dispatch, last);
  check_load_balance<std::int64_t>(Path::dispatch, {std::int64_t(large_size())});
  check_load_balance<std::int64_t>(Path::dispatch, random_counts(large_size() / 4, 3, 16));
}

// Items plus positions at the tiled path's tile boundaries +-1 (one tile, two, the most one
// launch takes and one more), with the scan and the outputs 1 to 3 elements into their
// allocations (items and ranks of one type or not, in allocations that line up alike or not),
// on every path.
TEST(LoadBalance, TileBoundariesAndOffsets) {
  using T = std::int32_t;
  using Tuning = Ordo::Impl::SearchTuning<ExecSpace, sizeof(T)>;
  const std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::vt;
  std::vector<std::int64_t> totals;
  for (std::int64_t tiles :
       {std::int64_t(1), std::int64_t(2), std::int64_t(Tuning::fused_max_tiles),
        std::int64_t(Tuning::fused_max_tiles) + 1}) {
    for (std::int64_t d : {-1, 0, 1}) {
      if (tiles * tile + d >= 2) totals.push_back(tiles * tile + d);
    }
  }
  for (std::size_t offset : {1, 2, 3}) {
    for (std::int64_t total : totals) {
      // Counts of 0 to 7, the last one making items + positions = total.
      std::mt19937_64 rng(std::uint64_t(total) * 4 + offset);
      std::vector<std::int64_t> counts;
      std::int64_t outputs = 0;
      for (;;) {
        const std::int64_t c = std::int64_t(rng() % 8);
        const std::int64_t used = std::int64_t(counts.size()) + outputs;
        const std::int64_t last = total - used - 1;
        counts.push_back(used + 1 + c >= total ? last : c);
        outputs += counts.back();
        if (used + 1 + c >= total) break;
      }
      ASSERT_EQ(total, std::int64_t(counts.size()) + outputs);
      for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
        SCOPED_TRACE("offset " + std::to_string(offset) + " total " + std::to_string(total) +
                     " path " + std::to_string(int(path)));
        check_load_balance<T>(path, counts, offset, offset);
        check_load_balance<T, T>(path, counts, offset, offset);
        check_load_balance<T, T>(path, counts, offset, offset - 1);
        check_load_balance<std::int64_t, std::int64_t>(path, counts, offset, 4 - offset);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

TEST(LoadBalance, ExpandAndGather) {
  const ExecSpace space;
  const auto counts = random_counts(5000, 11, 300);
  std::int64_t total = 0;
  const auto scan = exclusive_scan<std::int32_t>(counts, total);
  std::vector<double> values(counts.size()), pool(20000);
  std::vector<std::int32_t> starts(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    values[i] = 0.5 * double(i);
    starts[i] = std::int32_t((i * 7919) % (pool.size() - 300));
  }
  for (std::size_t j = 0; j < pool.size(); ++j) pool[j] = -double(j);
  std::vector<double> expanded, gathered;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    for (std::int64_t r = 0; r < counts[i]; ++r) {
      expanded.push_back(values[i]);
      gathered.push_back(pool[starts[i] + r]);
    }
  }
  auto dscan = to_device(scan), dstarts = to_device(starts);
  auto dvalues = to_device(values), dpool = to_device(pool);
  auto out = poisoned<double>(total, "out");
  Ordo::interval_expand(space, dscan, dvalues, out);
  EXPECT_TRUE(bitwise_equal(expanded, to_host(out)));
  Ordo::interval_gather(space, dscan, dstarts, dpool, out);
  EXPECT_TRUE(bitwise_equal(gathered, to_host(out)));
}

TEST(LoadBalance, BadInput) {
  const ExecSpace space;
  auto item = poisoned<std::int32_t>(10, "item");
  const DeviceView<std::int64_t> empty("empty", 0);
  EXPECT_NE(error_of([&] {
              Ordo::load_balancing_search(space, empty, item);
            }).find("Ordo::load_balancing_search: counts_scan is empty"),
            std::string::npos);
  auto not_from_zero = to_device(std::vector<std::int64_t>{2, 4, 6});
  EXPECT_NE(error_of([&] {
              Ordo::load_balancing_search(space, not_from_zero, item);
            }).find("counts_scan(0) = 2, must be 0"),
            std::string::npos);
  auto decreasing = to_device(std::vector<std::int64_t>{0, 4, 3});
  EXPECT_NE(error_of([&] {
              Ordo::load_balancing_search(space, decreasing, item);
            }).find("counts_scan is not sorted"),
            std::string::npos);
  auto past_end = to_device(std::vector<std::int64_t>{0, 4, 11});
  EXPECT_NE(error_of([&] {
              Ordo::load_balancing_search(space, past_end, item);
            }).find("is past the output's end (10)"),
            std::string::npos);
  const auto h = to_host(item);
  for (auto x : h) EXPECT_EQ(poison_value<std::int32_t>(), x);
}

}  // namespace
