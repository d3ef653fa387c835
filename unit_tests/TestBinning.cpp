// SPDX-License-Identifier: BSD-3-Clause
// Ordo::bin_permutation against a sequential counting sort (stable: equal cells keep their input
// order, so the permutation is unique), and Ordo::gather and apply_permutation of every View type
// against host loops.

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

// The oracle: a sequential stable counting sort of ids in [0, nbins).
template <class Cell, class Index>
void counting_sort(const std::vector<Cell>& cells, std::size_t nbins, std::vector<Index>& perm,
                   std::vector<std::int64_t>& offsets) {
  offsets.assign(nbins + 1, 0);
  for (const Cell c : cells) ++offsets[std::size_t(c) + 1];
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  std::vector<std::int64_t> next(offsets.begin(), offsets.end() - 1);
  perm.assign(cells.size(), Index(0));
  for (std::size_t i = 0; i < cells.size(); ++i) perm[next[std::size_t(cells[i])]++] = Index(i);
}

// The inputs particle codes bin.
enum class Cells { random, one_cell, middle_only, sorted, moved1, moved10, descending };

template <class Cell>
std::vector<Cell> make_cells(Cells shape, std::size_t n, std::size_t nbins, std::mt19937& rng) {
  std::vector<Cell> c(n);
  const std::size_t lo = nbins / 4, hi = std::max(lo + 1, 3 * nbins / 4);
  for (auto& x : c) {
    x = shape == Cells::one_cell      ? Cell(nbins / 2)
        : shape == Cells::middle_only ? Cell(lo + rng() % (hi - lo))
                                      : Cell(rng() % nbins);
  }
  if (shape == Cells::sorted || shape == Cells::moved1 || shape == Cells::moved10) {
    std::sort(c.begin(), c.end());
    // P% of the particles move to a neighbouring cell.
    const unsigned percent = shape == Cells::moved1 ? 1 : shape == Cells::moved10 ? 10 : 0;
    for (auto& x : c) {
      if (rng() % 100 >= percent) continue;
      if (rng() % 2 && std::size_t(x) + 1 < nbins)
        ++x;
      else if (x > 0)
        --x;
    }
  }
  if (shape == Cells::descending) std::sort(c.begin(), c.end(), std::greater<Cell>());
  return c;
}

template <class Cell, class Index>
void check_bins(const std::vector<Cell>& cells, std::size_t nbins, const std::string& what) {
  SCOPED_TRACE(what + ": n=" + std::to_string(cells.size()) + " nbins=" + std::to_string(nbins));
  std::vector<Index> want_perm;
  std::vector<std::int64_t> want_offsets;
  counting_sort(cells, nbins, want_perm, want_offsets);
  const auto perm = poisoned<Index>(cells.size());
  const auto offsets = poisoned<std::int64_t>(nbins + 1);
  Ordo::bin_permutation(ExecSpace(), to_device(cells), std::int64_t(nbins), perm, offsets);
  EXPECT_EQ(want_perm, to_host(perm));
  EXPECT_EQ(want_offsets, to_host(offsets));
}

// Sizes: none, one, the host counting sort's chunk bound +-1, a few thousand, the large size.
std::vector<std::size_t> bin_sizes() {
  const std::size_t grain = Ordo::Impl::BinningTuning<ExecSpace>::host_grain;
  return {0, 1, 2 * grain - 1, 2 * grain, 2 * grain + 1, 5000, large_size()};
}

TEST(Binning, AgainstCountingSort) {
  std::mt19937 rng(11);
  const Cells shapes[] = {Cells::random, Cells::one_cell, Cells::middle_only, Cells::sorted,
                          Cells::moved1, Cells::moved10,  Cells::descending};
  for (std::size_t nbins :
       {std::size_t(1), std::size_t(2), std::size_t(1) << 16, std::size_t(1) << 20}) {
    for (std::size_t n : bin_sizes()) {
      for (Cells shape : shapes) {
        const std::string what = "shape " + std::to_string(int(shape));
        check_bins<std::int32_t, std::uint32_t>(make_cells<std::int32_t>(shape, n, nbins, rng),
                                                nbins, what);
      }
    }
  }
}

TEST(Binning, IdAndIndexTypes) {
  std::mt19937 rng(12);
  for (std::size_t n : {std::size_t(3000), large_size()}) {
    check_bins<std::uint32_t, std::int64_t>(make_cells<std::uint32_t>(Cells::random, n, 1000, rng),
                                            1000, "u32 ids, i64 perm");
    check_bins<std::int64_t, std::int32_t>(make_cells<std::int64_t>(Cells::moved10, n, 777, rng),
                                           777, "i64 ids, i32 perm");
  }
}

TEST(Binning, StridedAndUnmanagedViews) {
  std::mt19937 rng(13);
  const std::size_t n = 40000, nbins = 300;
  const auto cells = make_cells<std::int32_t>(Cells::random, n, nbins, rng);
  std::vector<std::uint32_t> want_perm;
  std::vector<std::int64_t> want_offsets;
  counting_sort(cells, nbins, want_perm, want_offsets);
  // The ids in a column of a LayoutRight 2-D View, the outputs unmanaged Views.
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> table("table", n, 2);
  auto column = Kokkos::subview(table, Kokkos::ALL, 1);
  Kokkos::deep_copy(column, to_device(cells));
  const auto perm_alloc = poisoned<std::uint32_t>(n);
  const auto offsets_alloc = poisoned<std::int64_t>(nbins + 1);
  Kokkos::View<std::uint32_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> perm(
      perm_alloc.data(), n);
  Kokkos::View<std::int64_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> offsets(
      offsets_alloc.data(), nbins + 1);
  Ordo::bin_permutation(column, std::int64_t(nbins), perm, offsets);
  EXPECT_EQ(want_perm, to_host(perm_alloc));
  EXPECT_EQ(want_offsets, to_host(offsets_alloc));
}

TEST(Binning, Errors) {
  const auto perm = poisoned<std::uint32_t>(4);
  const auto offsets = poisoned<std::int64_t>(5);
  const auto poison_perm = to_host(perm);
  const auto poison_offsets = to_host(offsets);
  auto bin = [&](std::vector<std::int32_t> cells, std::int64_t nbins) {
    return error_of(
        [&] { Ordo::bin_permutation(ExecSpace(), to_device(cells), nbins, perm, offsets); });
  };
  EXPECT_EQ(bin({0, 3, 4, 1}, 4),
            "Ordo::bin_permutation: cells(2) = 4 lies outside [0, 4); perm and offsets are "
            "unchanged");
  EXPECT_EQ(bin({0, 3, 2, -1}, 4),
            "Ordo::bin_permutation: cells(3) = -1 lies outside [0, 4); perm and offsets are "
            "unchanged");
  EXPECT_EQ(to_host(perm), poison_perm);
  EXPECT_EQ(to_host(offsets), poison_offsets);
  EXPECT_EQ(bin({0, 1, 2, 3}, -1), "Ordo::bin_permutation: nbins is -1, needs at least 0");
  EXPECT_EQ(bin({0, 1, 2, 3}, 3),
            "Ordo::bin_permutation: offsets has 5 elements, needs 4 (nbins + 1 offsets)");
  EXPECT_EQ(bin({0, 1, 2}, 4),
            "Ordo::bin_permutation: perm has 4 elements, needs 3 (one position per cell id)");
  const auto cells = to_device(std::vector<std::int32_t>{0, 1, 2, 3});
  EXPECT_EQ(
      error_of([&] {
        Ordo::bin_permutation(
            ExecSpace(), cells, 4,
            Kokkos::View<std::uint32_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                reinterpret_cast<std::uint32_t*>(cells.data()), 4),
            offsets);
      }),
      "Ordo::bin_permutation: perm aliases cells (an output may not overlap another View)");
  // Every input accepted and nothing written by the refusals above.
  EXPECT_EQ(to_host(perm), poison_perm);
  EXPECT_EQ(to_host(offsets), poison_offsets);
}

// ---- gather ------------------------------------------------------------------------------------

// Rows that say where they come from: x(i, c) = i + 0.25 c ([3] doubles), v(i, c) = i - 0.5 c (two
// floats), id(i) = i.
template <class Layout>
struct Rows {
  Kokkos::View<double* [3], Layout, MemorySpace> x;
  Kokkos::View<float**, Layout, MemorySpace> v;
  DeviceView<std::int32_t> id;
  explicit Rows(std::size_t n) : x("x", n), v("v", n, 2), id("id", n) {
    auto hx = Kokkos::create_mirror_view(x);
    auto hv = Kokkos::create_mirror_view(v);
    auto hid = Kokkos::create_mirror_view(id);
    for (std::size_t i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) hx(i, c) = double(i) + 0.25 * c;
      for (int c = 0; c < 2; ++c) hv(i, c) = float(i) - 0.5f * c;
      hid(i) = std::int32_t(i);
    }
    Kokkos::deep_copy(x, hx);
    Kokkos::deep_copy(v, hv);
    Kokkos::deep_copy(id, hid);
  }
};

// Whether row i of host copies of x and v holds Rows' row j.
template <class HX, class HV>
::testing::AssertionResult rows_from(const HX& hx, const HV& hv, std::size_t i, std::size_t j) {
  for (int c = 0; c < 3; ++c) {
    if (hx(i, c) != double(j) + 0.25 * c) return ::testing::AssertionFailure() << "x column " << c;
  }
  for (int c = 0; c < 2; ++c) {
    if (hv(i, c) != float(j) - 0.5f * c) return ::testing::AssertionFailure() << "v column " << c;
  }
  return ::testing::AssertionSuccess();
}

template <class Layout>
void check_gather(std::size_t n, std::size_t rows) {
  SCOPED_TRACE("n=" + std::to_string(n) + " source rows=" + std::to_string(rows));
  std::mt19937 rng(std::uint32_t(n + rows));
  std::vector<std::int64_t> perm(n);
  for (auto& p : perm) p = std::int64_t(rng() % std::max<std::size_t>(rows, 1));
  const Rows<Layout> src(rows);
  const auto x = src.x;
  Kokkos::View<double* [3], Layout, MemorySpace> gx("gx", n);
  Kokkos::View<float**, Layout, MemorySpace> gv("gv", n, 2);
  // A strided destination: column 1 of a LayoutRight table.
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> table("table", n, 3);
  auto gid = Kokkos::subview(table, Kokkos::ALL, 1);
  Kokkos::deep_copy(table, -7);
  // Sources as const Views: gather never writes them.
  Kokkos::View<const double* [3], Layout, MemorySpace> cx = x;
  Ordo::gather(to_device(perm), Ordo::views(cx, src.v, src.id), Ordo::views(gx, gv, gid));
  auto hgx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gx);
  auto hgv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gv);
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), table);
  for (std::size_t i = 0; i < n; ++i) {
    const auto j = std::size_t(perm[i]);
    ASSERT_EQ(std::int32_t(j), ht(i, 1)) << i;
    ASSERT_EQ(-7, ht(i, 0)) << i;
    ASSERT_EQ(-7, ht(i, 2)) << i;
    ASSERT_TRUE(rows_from(hgx, hgv, i, j)) << i;
  }
  // The sources are unchanged.
  auto hx2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  for (std::size_t i = 0; i < rows; ++i) ASSERT_EQ(double(i), hx2(i, 0));
}

TEST(Binning, GatherEveryViewType) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(70001)}) {
    check_gather<Kokkos::LayoutLeft>(n, n);
    check_gather<Kokkos::LayoutRight>(n, n);
  }
  // Sources longer than the permutation (a gather of a subset).
  check_gather<Kokkos::LayoutRight>(500, 3000);
}

TEST(Binning, GatherAfterBinPermutation) {
  // The cell list of a double-buffered particle set: bin, gather into the second set, swap.
  std::mt19937 rng(14);
  const std::size_t n = 30000, nbins = 64;
  const auto cells = make_cells<std::int32_t>(Cells::random, n, nbins, rng);
  // The second buffer an unmanaged View over the code's own allocation.
  DeviceView<std::int32_t> c0 = to_device(cells), c1_alloc("c1", n);
  Kokkos::View<std::int32_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> c1(
      c1_alloc.data(), n);
  DeviceView<std::uint32_t> perm("perm", n);
  DeviceView<std::int64_t> offsets("offsets", nbins + 1);
  Ordo::bin_permutation(c0, std::int64_t(nbins), perm, offsets);
  Ordo::gather(perm, Ordo::views(c0), Ordo::views(c1));
  std::vector<std::int32_t> want = cells;
  std::stable_sort(want.begin(), want.end());
  EXPECT_EQ(want, to_host(c1));
}

// ---- bin_permutation with the arrays -----------------------------------------------------------

// bin(ids, nbins, perm, offsets, sources, destinations) on the ids and Rows, against the counting
// sort and the rows it names.
template <class Layout, class Bin>
void check_bin_arrays(const std::vector<std::int32_t>& cells, std::size_t nbins,
                      const std::string& what, const Bin& bin) {
  const std::size_t n = cells.size();
  SCOPED_TRACE(what + ": n=" + std::to_string(n) + " nbins=" + std::to_string(nbins));
  std::vector<std::uint32_t> want_perm;
  std::vector<std::int64_t> want_offsets;
  counting_sort(cells, nbins, want_perm, want_offsets);
  const Rows<Layout> src(n), dst(n);
  const auto ids = to_device(cells);
  DeviceView<std::int32_t> sorted_ids("sorted_ids", n);
  const auto perm = poisoned<std::uint32_t>(n);
  const auto offsets = poisoned<std::int64_t>(nbins + 1);
  bin(ids, std::int64_t(nbins), perm, offsets, Ordo::views(ids, src.x, src.v, src.id),
      Ordo::views(sorted_ids, dst.x, dst.v, dst.id));
  ASSERT_EQ(want_perm, to_host(perm));
  ASSERT_EQ(want_offsets, to_host(offsets));
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dst.x);
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dst.v);
  auto hid = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dst.id);
  const auto hs = to_host(sorted_ids);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = want_perm[i];
    ASSERT_EQ(std::int32_t(j), hid(i)) << i;
    ASSERT_EQ(cells[j], hs[i]) << i;
    ASSERT_TRUE(rows_from(hx, hv, i, j)) << i;
  }
  // The sources are unchanged.
  EXPECT_EQ(cells, to_host(ids));
  auto hsx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), src.x);
  auto hsv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), src.v);
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(rows_from(hsx, hsv, i, i)) << i;
}

TEST(Binning, WithArraysAgainstCountingSort) {
  std::mt19937 rng(15);
  const Cells shapes[] = {Cells::random, Cells::one_cell, Cells::sorted,
                          Cells::moved1, Cells::moved10,  Cells::descending};
  auto bin = [](const auto&... args) { Ordo::bin_permutation(ExecSpace(), args...); };
  for (std::size_t nbins : {std::size_t(1), std::size_t(1) << 16}) {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(5000), large_size()}) {
      for (Cells shape : shapes) {
        const auto cells = make_cells<std::int32_t>(shape, n, nbins, rng);
        const std::string what = "shape " + std::to_string(int(shape));
        check_bin_arrays<Kokkos::LayoutLeft>(cells, nbins, what, bin);
        check_bin_arrays<Kokkos::LayoutRight>(cells, nbins, what, bin);
      }
    }
  }
}

// The radix sort carrying the arrays on every backend, both rankings (the portable one on CUDA
// too): one pass that sorts (256 cells), two (2^16), three (2^20: the first pass writes the
// destinations), none (one cell: the last pass copies).
TEST(Binning, RecordsWayEveryRanking) {
  std::mt19937 rng(16);
  for (bool warp : {true, false}) {
    auto bin = [warp](const auto& ids, std::int64_t nbins, const auto& perm, const auto& offsets,
                      const auto& src, const auto& dst) {
      Ordo::Impl::bin_records(ExecSpace(), ids, nbins, perm, offsets, src.views, dst.views, warp);
    };
    for (std::size_t nbins :
         {std::size_t(1), std::size_t(256), std::size_t(1) << 16, std::size_t(1) << 20}) {
      for (std::size_t n : {std::size_t(1), std::size_t(4097), large_size()}) {
        check_bin_arrays<Kokkos::LayoutLeft>(make_cells<std::int32_t>(Cells::random, n, nbins, rng),
                                             nbins, warp ? "warp ranking" : "portable ranking",
                                             bin);
      }
    }
  }
}

TEST(Binning, WithArraysErrors) {
  const auto cells = to_device(std::vector<std::int32_t>{0, 3, 2, 1});
  const auto perm = poisoned<std::uint32_t>(4);
  const auto offsets = poisoned<std::int64_t>(5);
  DeviceView<double> a("a", 4), b("b", 4), short_a("short_a", 3);
  auto bin = [&](const auto& src, const auto& dst) {
    return error_of([&] { Ordo::bin_permutation(ExecSpace(), cells, 4, perm, offsets, src, dst); });
  };
  EXPECT_EQ(bin(Ordo::views(short_a), Ordo::views(b)),
            "Ordo::bin_permutation: a source has 3 elements, needs 4 (one row per cell id)");
  EXPECT_EQ(bin(Ordo::views(a), Ordo::views(b)), "no exception");
  // The form on perm's execution space (fences it): b(i) = a(perm(i)).
  Kokkos::deep_copy(a, to_device(std::vector<double>{0.5, 1.5, 2.5, 3.5}));
  Ordo::bin_permutation(cells, 4, perm, offsets, Ordo::views(a), Ordo::views(b));
  EXPECT_EQ((std::vector<std::uint32_t>{0, 3, 2, 1}), to_host(perm));
  EXPECT_EQ((std::vector<double>{0.5, 3.5, 2.5, 1.5}), to_host(b));
  const Kokkos::View<std::int32_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      over_cells(const_cast<std::int32_t*>(cells.data()), 4);
  EXPECT_EQ(bin(Ordo::views(cells), Ordo::views(over_cells)),
            "Ordo::bin_permutation: a destination aliases a source (an output may not overlap "
            "another View)");
  const auto cells_copy = to_device(std::vector<std::int32_t>{0, 3, 2, 1});
  EXPECT_EQ(bin(Ordo::views(cells_copy), Ordo::views(over_cells)),
            "Ordo::bin_permutation: a destination aliases cells (an output may not overlap "
            "another View)");
  const Kokkos::View<std::uint32_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      perm_as_source(perm.data(), 4);
  DeviceView<std::uint32_t> u("u", 4);
  EXPECT_EQ(bin(Ordo::views(perm_as_source), Ordo::views(u)),
            "Ordo::bin_permutation: perm aliases a source (an output may not overlap another "
            "View)");
  // A bad id: nothing written.
  const auto bad = to_device(std::vector<std::int32_t>{0, 3, 7, 1});
  const auto poison_perm = to_host(perm);
  Kokkos::deep_copy(b, -1.0);
  EXPECT_EQ(error_of([&] {
              Ordo::bin_permutation(ExecSpace(), bad, 4, perm, offsets, Ordo::views(a),
                                    Ordo::views(b));
            }),
            "Ordo::bin_permutation: cells(2) = 7 lies outside [0, 4); perm and offsets are "
            "unchanged");
  EXPECT_EQ(poison_perm, to_host(perm));
  EXPECT_EQ(std::vector<double>(4, -1.0), to_host(b));
}

TEST(Binning, GatherErrors) {
  DeviceView<double> a("a", 10), b("b", 10), c("c", 9);
  const auto perm = to_device(std::vector<std::int64_t>(10, 0));
  EXPECT_EQ(error_of([&] { Ordo::gather(ExecSpace(), perm, Ordo::views(a), Ordo::views(a)); }),
            "Ordo::gather: a destination aliases a source (an output may not overlap another "
            "View)");
  EXPECT_EQ(
      error_of([&] { Ordo::gather(ExecSpace(), perm, Ordo::views(a, b), Ordo::views(b, c)); }),
      "Ordo::gather: a destination has 9 elements, needs 10 (one row per position of perm)");
  auto head = Kokkos::subview(b, std::make_pair(0, 10));
  DeviceView<double> d("d", 10);
  EXPECT_EQ(
      error_of([&] { Ordo::gather(ExecSpace(), perm, Ordo::views(a, c), Ordo::views(head, b)); }),
      "Ordo::gather: one of the destinations aliases another (an output may not overlap another "
      "View)");
  Kokkos::View<double**, MemorySpace> x("x", 10, 3), y("y", 10, 2);
  EXPECT_EQ(error_of([&] { Ordo::gather(ExecSpace(), perm, Ordo::views(x), Ordo::views(y)); }),
            "Ordo::gather: a destination has rows of 2 elements, its source of 3");
  // A source that perm points past: refused under the debug checks (the unit tests' build).
  const auto far = to_device(std::vector<std::int64_t>(10, 9));
  EXPECT_EQ(error_of([&] { Ordo::gather(ExecSpace(), far, Ordo::views(c), Ordo::views(d)); }),
            "Ordo::gather: perm holds positions outside [0, 9)");
}

// ---- apply_permutation of rank-2 Views ---------------------------------------------------------

template <class Layout>
void check_rank2_permutation(std::size_t n) {
  std::vector<std::int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(n));
  const Rows<Layout> rows(n);
  Ordo::apply_permutation(to_device(perm), rows.x, rows.v, rows.id);
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.x);
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.v);
  auto hid = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows.id);
  for (std::size_t i = 0; i < n; ++i) {
    const auto j = std::size_t(perm[i]);
    ASSERT_EQ(std::int32_t(j), hid(i));
    ASSERT_TRUE(rows_from(hx, hv, i, j)) << i;
  }
}

TEST(Binning, ApplyPermutationRank2) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(70001)}) {
    check_rank2_permutation<Kokkos::LayoutLeft>(n);
    check_rank2_permutation<Kokkos::LayoutRight>(n);
  }
  Kokkos::View<double* [3], MemorySpace> x("x", 10);
  auto col = Kokkos::subview(x, Kokkos::ALL, 0);
  EXPECT_EQ(error_of([&] {
              Ordo::apply_permutation(ExecSpace(), to_device(std::vector<std::int64_t>(10)), x,
                                      col);
            }),
            "Ordo::apply_permutation: one of the permuted Views aliases another (an output may not "
            "overlap another View)");
}

}  // namespace
