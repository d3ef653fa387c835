// SPDX-License-Identifier: BSD-3-Clause
// Ordo::segmented_sort, segmented_sort_by_key and stable_segmented_sort_by_key against
// std::sort / std::stable_sort of every segment.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"
#include "Ordo_TestSortOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;
using Ordo::Impl::SortOptions;
using Ordo::Impl::SortPath;

enum class Form { keys, by_key, stable };

// Segment lengths named after what users sort (ordo-perf segmented_sort has the same names).
std::vector<std::int64_t> lengths(const std::string& dist, std::size_t segments,
                                  std::int64_t longest, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> l(segments);
  for (auto& x : l) {
    if (dist == "tiny") {
      x = std::int64_t(rng() % 9);  // mean 4
    } else if (dist == "cells") {
      x = std::poisson_distribution<std::int64_t>(32.0)(rng);
    } else if (dist == "powerlaw") {  // Pareto(1.5) lengths: many short rows, a few long ones
      const double u = (double(rng() >> 11) + 1) / double(std::uint64_t(1) << 53);
      x = std::min<std::int64_t>(longest, std::int64_t(3.0 / std::pow(u, 1 / 1.5)) - 2);
    } else {
      x = std::stoll(dist.substr(dist.find(':') + 1));  // uniform:L
    }
  }
  return l;
}

// Every bin boundary of every backend's tuning, plus and minus one, and empty segments.
std::vector<std::int64_t> boundary_lengths() {
  std::vector<std::int64_t> l = {0, 1, 0, 2, 3};
  for (std::int64_t p = 4; p <= 8192; p *= 2) {
    for (std::int64_t d : {-1, 0, 1}) l.push_back(p + d);
  }
  l.push_back(20000);  // longer than any team's block: the long bin
  return l;
}

// offsets(0) = prefix; the keys after the last segment (suffix of them) are untouched too.
template <class Offset>
std::vector<Offset> offsets_of(const std::vector<std::int64_t>& l, std::int64_t prefix) {
  std::vector<Offset> o(1, Offset(prefix));
  for (auto x : l) o.push_back(Offset(o.back() + x));
  return o;
}

template <class K, class V, class Offset, class Comp, class OracleComp>
void check_segmented(Form form, const std::vector<K>& keys, const std::vector<V>& values,
                     const std::vector<Offset>& offsets, const Comp& comp, const OracleComp& oracle,
                     const SortOptions& options, const std::string& what) {
  auto k = to_device(keys, "keys");
  auto v = to_device(values, "values");
  const auto o = to_device(offsets, "offsets");
  const ExecSpace space;
  if (form == Form::keys) {
    Ordo::Impl::segmented_sort("test", space, k, o, comp, options);
  } else if (form == Form::by_key) {
    Ordo::Impl::segmented_sort_by_key("test", space, k, v, o, comp, options);
  } else {
    Ordo::Impl::stable_segmented_sort_by_key("test", space, k, v, o, comp, options);
  }
  space.fence();
  const auto out_k = to_host(k);
  const auto out_v = to_host(v);
  // Outside every segment: untouched.
  const std::size_t lo = offsets.front(), hi = offsets.back();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i >= lo && i < hi) continue;
    ASSERT_EQ(bits_of(keys[i]), bits_of(out_k[i])) << what << ": key " << i << " outside moved";
    ASSERT_EQ(bits_of(values[i]), bits_of(out_v[i])) << what << ": value " << i << " moved";
  }
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    const std::size_t a = offsets[s], b = offsets[s + 1];
    const std::vector<K> in_k(keys.begin() + a, keys.begin() + b);
    const std::vector<K> seg_k(out_k.begin() + a, out_k.begin() + b);
    std::vector<V> in_v, seg_v;
    if (form != Form::keys) {
      in_v.assign(values.begin() + a, values.begin() + b);
      seg_v.assign(out_v.begin() + a, out_v.begin() + b);
    }
    if (form == Form::stable) {
      std::vector<std::size_t> idx(b - a);
      for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      std::stable_sort(idx.begin(), idx.end(),
                       [&](std::size_t x, std::size_t y) { return oracle(in_k[x], in_k[y]); });
      std::vector<K> want_k;
      std::vector<V> want_v;
      for (auto i : idx) want_k.push_back(in_k[i]), want_v.push_back(in_v[i]);
      ASSERT_TRUE(bitwise_equal(want_k, seg_k)) << what << ", segment " << s << " keys";
      ASSERT_TRUE(bitwise_equal(want_v, seg_v)) << what << ", segment " << s << " values";
    } else {
      ASSERT_TRUE(sorted_permutation(in_k, in_v, seg_k, seg_v, oracle))
          << what << ", segment " << s << " of " << (b - a) << " records";
    }
  }
}

std::vector<SortOptions> paths() {
  SortOptions automatic, portable;
  portable.path = SortPath::portable;
  return {automatic, portable};
}

std::string path_name(const SortOptions& o) {
  return o.path == SortPath::portable ? "portable" : "automatic";
}

template <class K, class V>
void check_every_form(const std::vector<std::int64_t>& l, Dist dist, const std::string& what) {
  const std::int64_t prefix = 5, suffix = 7;
  const auto offsets = offsets_of<std::int64_t>(l, prefix);
  const std::size_t n = offsets.back() + suffix;
  const auto keys = generate<K>(dist, n, 11);
  auto values = generate<V>(Dist::uniform, n, 12);
  for (const auto& options : paths()) {
    const std::string w = what + " " + name(dist) + " " + path_name(options);
    check_segmented(Form::keys, keys, values, offsets, Ordo::less<>{}, OracleLess<K>{}, options,
                    w + " keys");
    check_segmented(Form::by_key, keys, values, offsets, Ordo::less<>{}, OracleLess<K>{}, options,
                    w + " by_key");
    check_segmented(Form::keys, keys, values, offsets, Ordo::greater<>{}, OracleGreater<K>{},
                    options, w + " keys greater");
  }
}

TEST(SegmentedSort, BinBoundariesU32) {
  for (Dist d : {Dist::uniform, Dist::few_distinct, Dist::all_equal})
    check_every_form<std::uint32_t, double>(boundary_lengths(), d, "boundaries");
}

TEST(SegmentedSort, BinBoundariesOtherKeys) {
  check_every_form<std::int32_t, std::uint32_t>(boundary_lengths(), Dist::uniform, "i32");
  check_every_form<float, std::uint32_t>(boundary_lengths(), Dist::float_specials, "f32");
  check_every_form<std::uint64_t, std::uint64_t>(boundary_lengths(), Dist::uniform, "u64");
  check_every_form<std::int64_t, std::uint32_t>(boundary_lengths(), Dist::heavy_duplicates, "i64");
  check_every_form<double, double>(boundary_lengths(), Dist::float_specials, "f64");
}

TEST(SegmentedSort, UsersDistributions) {
  for (const std::string dist :
       {"tiny", "cells", "powerlaw", "uniform:1", "uniform:2", "uniform:24", "uniform:1024"}) {
    const std::size_t segments = dist == "uniform:1024" ? 40 : 3000;
    check_every_form<std::uint32_t, double>(lengths(dist, segments, 1 << 14, 3), Dist::uniform,
                                            dist);
  }
}

TEST(SegmentedSort, OneSegmentHoldsEverything) {
  for (std::int64_t n : {0, 1, 2, 17, 1000, 9000, 70000})
    check_every_form<std::uint32_t, std::uint32_t>({n}, Dist::uniform, std::to_string(n));
  // Many empty segments around it.
  std::vector<std::int64_t> l(1000, 0);
  l[500] = 30000;
  check_every_form<std::uint32_t, std::uint32_t>(l, Dist::few_distinct, "one among empties");
}

TEST(SegmentedSort, ZeroSegments) {
  const std::vector<std::uint32_t> keys = {3, 2, 1};
  check_segmented(Form::by_key, keys, keys, std::vector<int>{1}, Ordo::less<>{},
                  OracleLess<std::uint32_t>{}, SortOptions{}, "zero segments");
}

TEST(SegmentedSort, StableKeepsInputOrder) {
  for (const auto& options : paths()) {
    for (Dist d : {Dist::few_distinct, Dist::all_equal, Dist::float_specials}) {
      const auto l = boundary_lengths();
      const auto offsets = offsets_of<std::uint32_t>(l, 3);
      const std::size_t n = offsets.back() + 2;
      std::vector<std::uint32_t> order(n);
      for (std::size_t i = 0; i < n; ++i) order[i] = std::uint32_t(i);
      const std::string w = "stable " + name(d) + " " + path_name(options);
      check_segmented(Form::stable, generate<std::uint32_t>(d, n, 5), order, offsets,
                      Ordo::less<>{}, OracleLess<std::uint32_t>{}, options, w + " u32");
      check_segmented(Form::stable, generate<double>(d, n, 5), order, offsets, Ordo::greater<>{},
                      OracleGreater<double>{}, options, w + " f64 greater");
    }
  }
}

TEST(SegmentedSort, UserComparator) {
  // Particles by cell: the generic network (no encoded keys), unstable and stable.
  const auto l = boundary_lengths();
  const auto offsets = offsets_of<std::int32_t>(l, 2);
  const std::size_t n = offsets.back() + 1;
  std::vector<Particle> keys(n);
  std::mt19937_64 rng(9);
  for (std::size_t i = 0; i < n; ++i) keys[i] = {std::int32_t(rng() % 50), float(i)};
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = std::uint32_t(i);
  auto by_cell = [](const Particle& p, const Particle& q) { return p.cell < q.cell; };
  for (const auto& options : paths()) {
    check_segmented(Form::keys, keys, order, offsets, ByCell{}, by_cell, options, "particles");
    check_segmented(Form::stable, keys, order, offsets, ByCell{}, by_cell, options,
                    "particles stable");
  }
}

// Bad offsets: std::invalid_argument naming the problem, keys and values unchanged.
TEST(SegmentedSort, BadOffsets) {
  const std::vector<std::uint32_t> in = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
  auto keys = to_device(in, "keys");
  auto values = to_device(in, "values");
  auto expect = [&](const std::vector<std::int32_t>& offsets, const std::string& what) {
    const auto o = to_device(offsets, "offsets");
    EXPECT_NE(error_of([&] { Ordo::segmented_sort(keys, o); }).find(what), std::string::npos)
        << what;
    EXPECT_NE(error_of([&] { Ordo::segmented_sort_by_key(keys, values, o); }).find(what),
              std::string::npos)
        << what;
    EXPECT_NE(error_of([&] { Ordo::stable_segmented_sort_by_key(keys, values, o); }).find(what),
              std::string::npos)
        << what;
    EXPECT_TRUE(bitwise_equal(in, to_host(keys))) << what;
    EXPECT_TRUE(bitwise_equal(in, to_host(values))) << what;
  };
  expect({0, 4, 3, 10}, "offsets(1) = 4, offsets(2) = 3: offsets decrease");
  expect({0, 5, 11}, "offsets(1) = 5, offsets(2) = 11: the segment runs past the end of keys");
  expect({-1, 5}, "offsets(0) = -1, offsets(1) = 5: an offset is negative");
  expect({}, "offsets has 0 elements");
  // Offsets that alias the keys.
  auto both = to_device(std::vector<std::int64_t>{0, 1, 2}, "both");
  EXPECT_NE(error_of([&] { Ordo::segmented_sort(both, both); }).find("aliases"), std::string::npos);
}

}  // namespace
