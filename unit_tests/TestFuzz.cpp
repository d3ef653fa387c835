// SPDX-License-Identifier: BSD-3-Clause
// The fuzz driver (ordo-robustness-<backend>, without debug checks): random calls drawn from a
// seed for ORDO_FUZZ_SECONDS seconds (default 10): sizes, distributions, where the Views start in
// their allocations, comparators (Ordo::less, `<=`, contradictory, cyclic), sorted or unsorted
// input, bad scans and permutations. Every call is checked as the robustness tests check it, and
// where its input is valid (sorted, Ordo::less) merge and sort also against the standard library.
// ORDO_FUZZ_SEED replays a seed; a failure names the seed and the iteration. ORDO_FUZZ_VALID=1
// draws valid input only (sorted, Ordo::less): for tools that must see a clean run, such as
// compute-sanitizer's racecheck (on other input two threads of a tile may write one scratch slot,
// a race on an unspecified output).

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestRobustness.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

TEST(Fuzz, Bounded) {
  const std::uint64_t seconds = env_or("ORDO_FUZZ_SECONDS", 10);
  const bool valid_only = env_or("ORDO_FUZZ_VALID", 0) != 0;
  const std::uint64_t seed = env_or(
      "ORDO_FUZZ_SEED", std::uint64_t(std::chrono::system_clock::now().time_since_epoch().count()));
  std::cout << "fuzz: ORDO_FUZZ_SEED=" << seed << ", " << seconds << " s" << std::endl;
  std::mt19937_64 rng(seed);
  const auto start = std::chrono::steady_clock::now();
  const auto& dists = all_distributions();
  std::uint64_t iteration = 0;
  for (; std::chrono::steady_clock::now() - start < std::chrono::seconds(seconds); ++iteration) {
    SCOPED_TRACE("ORDO_FUZZ_SEED=" + std::to_string(seed) + ", iteration " +
                 std::to_string(iteration));
    const std::size_t n = rng() % 8 == 0 ? rng() % 200000 : rng() % 4000;
    const std::size_t m = rng() % 4 == 0 ? rng() % 200000 : rng() % 4000;
    Keys a = generate<std::uint32_t>(dists[rng() % dists.size()], n, rng());
    Keys b = generate<std::uint32_t>(dists[rng() % dists.size()], m, rng());
    const int kind = valid_only ? 0 : int(rng() % 4);
    const bool sorted = valid_only || rng() % 2;
    if (sorted) {
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
    }
    const bool valid = sorted && kind == 0;
    const Path path = Path(rng() % 3);
    switch (rng() % 8) {
      case 0: {
        const Keys out = robust_merge(a, b, {kind}, path, rng() % 5);
        if (valid) {
          Keys expected(n + m);
          std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
          EXPECT_EQ(out, expected) << "merge";
        }
        break;
      }
      case 1: robust_search(a, b, {kind}, path); break;
      case 2: robust_set_ops(a, b, {kind}, path == Path::dispatch ? path : Path::tiled); break;
      case 3: {
        Ordo::Impl::SortOptions options;
        if (rng() % 2) options.path = Ordo::Impl::SortPath::portable;
        const Keys out = robust_sorts(a, {kind}, options);
        if (kind == 0) {
          Keys expected = a;
          std::sort(expected.begin(), expected.end());
          EXPECT_EQ(out, expected) << "sort";
        }
        break;
      }
      case 4:
        robust_joins(Keys(a.begin(), a.begin() + std::min<std::size_t>(n, 3000)),
                     Keys(b.begin(), b.begin() + std::min<std::size_t>(m, 3000)), {kind});
        break;
      case 5: {
        // A scan of random counts, made bad one way or another (or left good).
        const std::size_t items = 7 + rng() % 3000;
        std::vector<std::int64_t> scan(items), starts(items);
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < items; ++i) {
          scan[i] = sum;
          sum += std::int64_t(rng() % 5);
          starts[i] = std::int64_t(rng() % (items - 6));  // inside values: counts up to 6
        }
        switch (valid_only ? 3 : rng() % 4) {
          case 0: scan[0] = std::int64_t(rng() % 10) + 1; break;
          case 1: std::reverse(scan.begin(), scan.end()); break;
          case 2: scan[rng() % items] = -std::int64_t(rng() % 100); break;
          default: break;
        }
        if (!valid_only && rng() % 2) starts[rng() % items] = std::int64_t(items) + 5;
        robust_load_balance(scan, starts, std::size_t(sum) + rng() % 3, path);
        break;
      }
      case 6: {
        // a's keys as cell ids in nbins cells (sorted keys stay sorted), at times one outside.
        const std::size_t nbins = 1 + rng() % 5000;
        std::vector<std::int32_t> cells(n);
        for (std::size_t i = 0; i < n; ++i) {
          cells[i] = std::int32_t((std::uint64_t(a[i]) * nbins) >> 32);
        }
        const bool bad = n > 0 && !valid_only && rng() % 4 == 0;
        if (bad) cells[rng() % n] = rng() % 2 ? -1 : std::int32_t(nbins);
        Guarded<std::uint32_t> perm(n, rng() % 4);
        Guarded<std::int64_t> offsets(nbins + 1, rng() % 4);
        const std::string error = error_of([&] {
          Ordo::bin_permutation(ExecSpace(), to_device(cells), std::int64_t(nbins), perm.view,
                                offsets.view);
        });
        if (bad) {
          EXPECT_NE(error.find("lies outside"), std::string::npos) << error;
          EXPECT_EQ(perm.elements(), std::vector<std::uint32_t>(n, poison_value<std::uint32_t>()));
          break;
        }
        EXPECT_EQ(error, "no exception");
        std::vector<std::uint32_t> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = std::uint32_t(i);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t x, std::uint32_t y) { return cells[x] < cells[y]; });
        EXPECT_EQ(perm.elements(), order) << "bin_permutation";
        std::vector<std::int32_t> by_cell(cells);
        std::sort(by_cell.begin(), by_cell.end());
        const auto got = offsets.elements();
        for (std::size_t c = 0; c <= nbins; ++c) {
          const auto at = std::lower_bound(by_cell.begin(), by_cell.end(), std::int32_t(c));
          ASSERT_EQ(got[c], std::int64_t(at - by_cell.begin())) << "bin_permutation offsets";
        }
        break;
      }
      default: {
        std::vector<std::int64_t> perm(n);
        for (std::size_t i = 0; i < n; ++i) perm[i] = std::int64_t(i);
        std::shuffle(perm.begin(), perm.end(), rng);
        if (n > 0 && !valid_only && rng() % 2)
          perm[rng() % n] = std::int64_t(rng() % (2 * n + 2)) - std::int64_t(n / 2);
        robust_permutation(perm);
        break;
      }
    }
    if (::testing::Test::HasFailure()) break;
  }
  std::cout << "fuzz: " << iteration << " calls" << std::endl;
}

}  // namespace
