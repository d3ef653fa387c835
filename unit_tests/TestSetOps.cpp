// SPDX-License-Identifier: BSD-3-Clause
// Ordo::set_intersection, set_union, set_difference, set_symmetric_difference, their _by_key
// forms and set_intersection_team against std::set_* (multiset semantics: duplicates on both
// sides), on the dispatch a user gets (on CUDA the warp seam's tiles) and on the portable tiled
// device path (which host backends run too).

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;
using Ordo::Impl::SetOp;

const char* op_name(SetOp op) {
  switch (op) {
    case SetOp::intersection: return "intersection";
    case SetOp::set_union: return "union";
    case SetOp::difference: return "difference";
    case SetOp::symmetric_difference: return "symmetric_difference";
  }
  return "?";
}

// The oracle: the C++ standard library's set algorithm of the same name.
template <class T, class Comp>
std::vector<T> std_set_op(SetOp op, const std::vector<T>& a, const std::vector<T>& b,
                          const Comp& comp) {
  std::vector<T> out;
  auto o = std::back_inserter(out);
  switch (op) {
    case SetOp::intersection:
      std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), o, comp);
      break;
    case SetOp::set_union: std::set_union(a.begin(), a.end(), b.begin(), b.end(), o, comp); break;
    case SetOp::difference:
      std::set_difference(a.begin(), a.end(), b.begin(), b.end(), o, comp);
      break;
    case SetOp::symmetric_difference:
      std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), o, comp);
      break;
  }
  return out;
}

// The public call of op: returns the size.
template <class A, class B, class Out, class Comp>
std::int64_t ordo_set_op(SetOp op, const A& a, const B& b, const Out& out, const Comp& comp) {
  const ExecSpace space;
  switch (op) {
    case SetOp::intersection: return Ordo::set_intersection(space, a, b, out, comp);
    case SetOp::set_union: return Ordo::set_union(space, a, b, out, comp);
    case SetOp::difference: return Ordo::set_difference(space, a, b, out, comp);
    case SetOp::symmetric_difference: return Ordo::set_symmetric_difference(space, a, b, out, comp);
  }
  return -1;
}

// The portable tiled device path of op (any backend); the size through a device View.
template <class A, class B, class Out, class Comp>
std::int64_t tiled_set_op(SetOp op, const A& a, const B& b, const Out& out, const Comp& comp) {
  const ExecSpace space;
  auto count = poisoned<std::int64_t>(1, "count");
  const Ordo::Impl::SetKeysEmit<Out> emit{out};
  const auto path = Ordo::Impl::SetPath::tiled;
  switch (op) {
    case SetOp::intersection:
      Ordo::Impl::set_op_dispatch<SetOp::intersection>("set_intersection", space, a, b, emit, count,
                                                       comp, path);
      break;
    case SetOp::set_union:
      Ordo::Impl::set_op_dispatch<SetOp::set_union>("set_union", space, a, b, emit, count, comp,
                                                    path);
      break;
    case SetOp::difference:
      Ordo::Impl::set_op_dispatch<SetOp::difference>("set_difference", space, a, b, emit, count,
                                                     comp, path);
      break;
    case SetOp::symmetric_difference:
      Ordo::Impl::set_op_dispatch<SetOp::symmetric_difference>("set_symmetric_difference", space, a,
                                                               b, emit, count, comp, path);
      break;
  }
  return to_host(count)[0];
}

// Every operation of a and b (sorted under comp) through `path`, into an output one element longer
// than needed; inputs unchanged, the tail untouched.
template <class T, class Comp>
void check_set_ops(Path path, const std::vector<T>& a, const std::vector<T>& b, const Comp& comp) {
  auto da = to_device(a, "a"), db = to_device(b, "b");
  for (SetOp op :
       {SetOp::intersection, SetOp::set_union, SetOp::difference, SetOp::symmetric_difference}) {
    SCOPED_TRACE(op_name(op));
    const auto expected = std_set_op(op, a, b, comp);
    auto out = poisoned<T>(expected.size() + 1, "out");
    const std::int64_t size = path == Path::dispatch ? ordo_set_op(op, da, db, out, comp)
                                                     : tiled_set_op(op, da, db, out, comp);
    EXPECT_EQ(std::int64_t(expected.size()), size);
    EXPECT_TRUE(bitwise_equal(expected, head_checked(out, expected.size())));
  }
  EXPECT_TRUE(bitwise_equal(a, to_host(da)));
  EXPECT_TRUE(bitwise_equal(b, to_host(db)));
}

template <class T>
class SetOpsTyped : public ::testing::Test {};

using KeyTypes = ::testing::Types<std::int32_t, std::uint32_t, double>;
TYPED_TEST_SUITE(SetOpsTyped, KeyTypes);

std::size_t set_tile() {
  using Tuning = Ordo::Impl::SetOpsTuning<ExecSpace, 4>;
  return std::size_t(Tuning::team_size) * Tuning::vt;
}

TYPED_TEST(SetOpsTyped, DistributionsAndBoundarySizes) {
  using T = TypeParam;
  const Ordo::less<> comp;
  const std::size_t tile = set_tile();
  const auto sizes = test_sizes({tile, std::size_t(1) << 14}, 3 * tile + 17);
  for (Dist dist : {Dist::uniform, Dist::few_distinct, Dist::all_equal, Dist::heavy_duplicates,
                    Dist::organ_pipe, Dist::float_specials}) {
    for (std::size_t total : sizes) {
      for (auto [m, n] : splits(total)) {
        for (Path path : {Path::dispatch, Path::tiled}) {
          SCOPED_TRACE(name(dist) + " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                       " path " + std::to_string(int(path)));
          check_set_ops(path, sorted_input<T>(dist, m, 1, comp), sorted_input<T>(dist, n, 2, comp),
                        comp);
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
}

TYPED_TEST(SetOpsTyped, LargeAndDescending) {
  using T = TypeParam;
  const std::size_t n = large_size() / 2;
  const Ordo::greater<> desc;
  for (Path path : {Path::dispatch, Path::tiled}) {
    check_set_ops(path, sorted_input<T>(Dist::few_distinct, n + 5, 3, desc),
                  sorted_input<T>(Dist::heavy_duplicates, n - 5, 4, desc), desc);
    const Ordo::less<> asc;
    check_set_ops(path, sorted_input<T>(Dist::uniform, n, 5, asc),
                  sorted_input<T>(Dist::uniform, n, 5, asc), asc);  // equal inputs
  }
}

// Keys with a payload under a comparator of the keys alone: which copy each output takes (a's
// or b's) is what std:: takes.
TEST(SetOps, UserTypeTakesTheElementsStdTakes) {
  for (auto [m, n] : splits(5003)) {
    const auto a = sorted_particles(m, 7, 97, 1.0f), b = sorted_particles(n, 5, 61, -1.0f);
    for (Path path : {Path::dispatch, Path::tiled}) check_set_ops(path, a, b, ByCell{});
  }
}

// The _by_key forms: the values of the elements std:: takes.
TEST(SetOps, ByKeyMovesValues) {
  const ExecSpace space;
  struct KV {
    std::uint32_t key;
    std::int64_t value;
  };
  auto by_key = [](const KV& x, const KV& y) { return x.key < y.key; };
  for (Dist dist : {Dist::few_distinct, Dist::uniform, Dist::all_equal}) {
    for (auto [m, n] : splits(3 * set_tile() + 11)) {
      const Ordo::less<> comp;
      const auto ak = sorted_input<std::uint32_t>(dist, m, 1, comp);
      const auto bk = sorted_input<std::uint32_t>(dist, n, 2, comp);
      std::vector<KV> a, b;
      std::vector<std::int64_t> av, bv;
      for (std::size_t i = 0; i < m; ++i)
        a.push_back({ak[i], std::int64_t(i)}), av.push_back(std::int64_t(i));
      for (std::size_t j = 0; j < n; ++j)
        b.push_back({bk[j], -1 - std::int64_t(j)}), bv.push_back(-1 - std::int64_t(j));
      auto dak = to_device(ak), dbk = to_device(bk);
      auto dav = to_device(av), dbv = to_device(bv);
      for (SetOp op : {SetOp::intersection, SetOp::set_union, SetOp::difference,
                       SetOp::symmetric_difference}) {
        SCOPED_TRACE(std::string(op_name(op)) + " " + name(dist) + " m=" + std::to_string(m));
        const auto expected = std_set_op(op, a, b, by_key);
        auto keys = poisoned<std::uint32_t>(expected.size(), "keys");
        auto values = poisoned<std::int64_t>(expected.size() + 2, "values");
        std::int64_t size = -1;
        switch (op) {
          case SetOp::intersection:
            size = Ordo::set_intersection_by_key(space, dak, dav, dbk, dbv, keys, values);
            break;
          case SetOp::set_union:
            size = Ordo::set_union_by_key(space, dak, dav, dbk, dbv, keys, values);
            break;
          case SetOp::difference:
            size = Ordo::set_difference_by_key(space, dak, dav, dbk, dbv, keys, values);
            break;
          case SetOp::symmetric_difference:
            size = Ordo::set_symmetric_difference_by_key(space, dak, dav, dbk, dbv, keys, values);
            break;
        }
        ASSERT_EQ(std::int64_t(expected.size()), size);
        const auto hk = to_host(keys);
        const auto hv = head_checked(values, expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
          ASSERT_EQ(expected[k].key, hk[k]) << k;
          ASSERT_EQ(expected[k].value, hv[k]) << k;
        }
      }
    }
  }
}

TEST(SetOps, CountViewAndOutputTooShort) {
  const ExecSpace space;
  const Ordo::less<> comp;
  const auto a = sorted_input<std::int32_t>(Dist::few_distinct, 5000, 1, comp);
  const auto b = sorted_input<std::int32_t>(Dist::few_distinct, 3000, 2, comp);
  const auto expected = std_set_op(SetOp::set_union, a, b, comp);
  auto da = to_device(a), db = to_device(b);

  // The count form: the size to a device View, asynchronously.
  auto out = poisoned<std::int32_t>(expected.size(), "out");
  auto count = poisoned<std::int64_t>(1, "count");
  Ordo::set_union(space, da, db, out, count);
  EXPECT_EQ(std::int64_t(expected.size()), to_host(count)[0]);
  EXPECT_TRUE(bitwise_equal(expected, to_host(out)));

  // Too short: an error naming the size, the outputs that fit, nothing past the end.
  auto short_out = poisoned<std::int32_t>(expected.size() - 10, "short");
  const std::string message = error_of([&] { Ordo::set_union(space, da, db, short_out); });
  EXPECT_NE(message.find("Ordo::set_union: out has " + std::to_string(expected.size() - 10) +
                         " elements, needs " + std::to_string(expected.size())),
            std::string::npos)
      << message;
  EXPECT_TRUE(bitwise_equal(std::vector<std::int32_t>(expected.begin(), expected.end() - 10),
                            to_host(short_out)));
  Kokkos::View<std::int32_t*, MemorySpace> parent("parent", expected.size() + 10);
  Kokkos::deep_copy(parent, poison_value<std::int32_t>());
  auto inner = Kokkos::subview(parent, std::pair<std::size_t, std::size_t>(5, 5 + 100));
  EXPECT_NE(error_of([&] { Ordo::set_union(space, da, db, inner); }), "no exception");
  const auto hp = to_host(parent);
  for (std::size_t k = 105; k < hp.size(); ++k) ASSERT_EQ(poison_value<std::int32_t>(), hp[k]) << k;

  // The count form with a short out: the full size, nothing past the end.
  auto count2 = poisoned<std::int64_t>(1, "count");
  Ordo::set_intersection(space, da, db, inner, count2);
  const auto inter = std_set_op(SetOp::intersection, a, b, comp);
  EXPECT_EQ(std::int64_t(inter.size()), to_host(count2)[0]);
  EXPECT_EQ(poison_value<std::int32_t>(), to_host(parent)[105]);

  // Aliasing output: an error before anything runs, inputs unchanged.
  EXPECT_NE(error_of([&] { Ordo::set_difference(space, da, db, da); }).find("out aliases a"),
            std::string::npos);
  EXPECT_TRUE(bitwise_equal(a, to_host(da)));
}

// set_intersection_team inside a user kernel: team r intersects rows 2r and 2r + 1.
// (A free function: CUDA's extended lambdas may not live in gtest's private TestBody.)
void intersect_rows_in_teams(
    const DeviceView<std::int32_t>& keys, const DeviceView<std::size_t>& starts,
    const DeviceView<std::int64_t>& sizes,
    const Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace>& outs) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using R = Kokkos::pair<std::size_t, std::size_t>;
  Kokkos::parallel_for(
      "OrdoTest::set_intersection_team", Policy(int(sizes.extent(0)), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Policy::member_type& member) {
        const int r = member.league_rank();
        const auto a = Kokkos::subview(keys, R(starts(2 * r), starts(2 * r + 1)));
        const auto b = Kokkos::subview(keys, R(starts(2 * r + 1), starts(2 * r + 2)));
        const std::int64_t size =
            Ordo::set_intersection_team(member, a, b, Kokkos::subview(outs, r, Kokkos::ALL));
        if (member.team_rank() == 0) sizes(r) = size;
      });
  Kokkos::fence();
}

// set_intersection_team: one team per pair of rows, as in triangle counting.
TEST(SetOps, TeamIntersectionOfRows) {
  const Ordo::less<> comp;
  const int rows = 64, width = 300;
  std::vector<std::int32_t> keys;
  std::vector<std::size_t> starts;
  for (int r = 0; r < 2 * rows; ++r) {
    starts.push_back(keys.size());
    const std::size_t len = std::size_t(r * 37 % width);
    const auto row = sorted_input<std::int32_t>(r % 3 ? Dist::few_distinct : Dist::uniform, len,
                                                std::uint64_t(r), comp);
    keys.insert(keys.end(), row.begin(), row.end());
  }
  starts.push_back(keys.size());
  auto dkeys = to_device(keys);
  auto dstarts = to_device(starts);
  DeviceView<std::int64_t> sizes("sizes", rows);
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> outs("outs", rows, width);
  intersect_rows_in_teams(dkeys, dstarts, sizes, outs);
  const auto hs = to_host(sizes);
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), outs);
  for (int r = 0; r < rows; ++r) {
    const std::vector<std::int32_t> a(keys.begin() + starts[2 * r],
                                      keys.begin() + starts[2 * r + 1]);
    const std::vector<std::int32_t> b(keys.begin() + starts[2 * r + 1],
                                      keys.begin() + starts[2 * r + 2]);
    const auto expected = std_set_op(SetOp::intersection, a, b, comp);
    ASSERT_EQ(std::int64_t(expected.size()), hs[r]) << r;
    for (std::size_t k = 0; k < expected.size(); ++k) ASSERT_EQ(expected[k], ho(r, k)) << r;
  }
}

}  // namespace
