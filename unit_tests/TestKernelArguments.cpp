// SPDX-License-Identifier: BSD-3-Clause
// Kernel arguments reach the device as the host wrote them. A functor holds, after the View it
// reports into, a payload (Views of every kind Ordo's kernels hold: managed, unmanaged, const,
// strided, of 8-byte and 16-byte elements; Ordo's empty members, a comparator, a scalar; or one of
// Ordo's own tile functors) and a sentinel word, and is launched the ways Ordo launches: a
// TeamPolicy plain, with launch bounds, with the functor as the kernel's argument
// (Impl::by_argument), and a RangePolicy. Each launch's first thread writes back what it reads of
// the payload and the sentinel; the host compares with what it put there. nvcc 12.9 and later as
// C++20 with [[no_unique_address]] in Kokkos' View laid Views out one word shorter in device code
// than on the host, and every read after the first View was off by that word
// (src/impl/core/cuda/Ordo_Cuda_Toolchain.hpp refuses that build; this test catches any other).

#include "Ordo_TestBackend.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;

using Word = std::uint64_t;
using Report = Kokkos::View<Word*, MemorySpace>;
constexpr Word sentinel = 0x0123456789abcdefULL;

struct Pair16 {
  std::uint64_t lo, hi;
};

// Views of the kinds Ordo's functors hold, with empty members and a scalar between them.
struct MixedViews {
  Kokkos::View<std::uint32_t*, MemorySpace> keys;
  Kokkos::View<const std::uint64_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> part;
  Ordo::Impl::NoValues none;
  Kokkos::View<float*, Kokkos::LayoutStride, MemorySpace> strided;
  Ordo::greater<> comp;
  std::int64_t scalar;
  Kokkos::View<Pair16*, MemorySpace> pairs;

  // What the device reads of it, one word each.
  KOKKOS_FUNCTION int read(Word* w) const {
    w[0] = Word(reinterpret_cast<std::uintptr_t>(keys.data()));
    w[1] = keys.extent(0);
    w[2] = Word(reinterpret_cast<std::uintptr_t>(part.data()));
    w[3] = part.extent(0);
    w[4] = Word(reinterpret_cast<std::uintptr_t>(strided.data()));
    w[5] = strided.stride(0);
    w[6] = Word(scalar);
    w[7] = Word(reinterpret_cast<std::uintptr_t>(pairs.data()));
    w[8] = pairs.extent(0);
    return 9;
  }
};

// One of Ordo's tile functors: merge_by_key's tiles (seven Views, empty comparator).
using Keys = Kokkos::View<std::uint32_t*, MemorySpace>;
using Part = Ordo::Impl::PartitionView<ExecSpace>;
using MergePairsTiles =
    Ordo::Impl::MergeTiles<3, false, ExecSpace, Keys, Keys, Keys, Part,
                           Ordo::Impl::MergeValues<Keys, Keys, Keys>, Ordo::less<>>;

struct TilesPayload {
  MergePairsTiles tiles;
  KOKKOS_FUNCTION int read(Word* w) const {
    w[0] = Word(reinterpret_cast<std::uintptr_t>(tiles.a.data()));
    w[1] = Word(reinterpret_cast<std::uintptr_t>(tiles.out.data()));
    w[2] = tiles.part.extent(0);
    w[3] = Word(reinterpret_cast<std::uintptr_t>(tiles.values.b.data()));
    w[4] = Word(reinterpret_cast<std::uintptr_t>(tiles.values.out.data()));
    w[5] = tiles.values.out.extent(0);
    return 6;
  }
};

// Writes, from one thread, what it reads of the payload and then the sentinel.
template <class Payload>
struct ReadBack {
  Report report;
  Payload payload;
  Word tail;

  KOKKOS_FUNCTION void write() const {
    Word w[16];
    const int n = payload.read(w);
    for (int i = 0; i < n; ++i) report(i) = w[i];
    report(n) = tail;
  }
  KOKKOS_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<ExecSpace>::member_type& member) const {
    if (member.league_rank() == 0 && member.team_rank() == 0) write();
  }
  KOKKOS_FUNCTION void operator()(int i) const {
    if (i == 0) write();
  }
};

template <class Payload>
void expect_read_back(const Payload& payload) {
  Word host[16];
  const int n = payload.read(host);
  ExecSpace space;
  const ReadBack<Payload> functor{Report("report", n + 1), payload, sentinel};
  using Bounded = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<128, 4>>;
  const std::vector<std::string> launches{"team", "bounded", "by_argument", "range"};
  for (const std::string& launch : launches) {
    SCOPED_TRACE(launch);
    Kokkos::deep_copy(space, functor.report, Word(0));
    if (launch == "team") {
      Kokkos::parallel_for("Test::args", Kokkos::TeamPolicy<ExecSpace>(space, 2, 1), functor);
    } else if (launch == "bounded") {
      Kokkos::parallel_for("Test::args", Bounded(space, 2, 1), functor);
    } else if (launch == "by_argument") {
      Kokkos::parallel_for("Test::args",
                           Ordo::Impl::by_argument(Kokkos::TeamPolicy<ExecSpace>(space, 2, 1)),
                           functor);
    } else {
      Kokkos::parallel_for("Test::args", Kokkos::RangePolicy<ExecSpace>(space, 0, 2), functor);
    }
    space.fence();
    const auto device = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), functor.report);
    for (int i = 0; i < n; ++i) EXPECT_EQ(device(i), host[i]) << "word " << i << " of the payload";
    EXPECT_EQ(device(n), sentinel) << "the word after the payload";
  }
}

TEST(KernelArguments, ViewsAndEmptyMembers) {
  const Kokkos::View<std::uint64_t*, MemorySpace> words("words", 300);
  const Kokkos::View<float*, MemorySpace> floats("floats", 64);
  MixedViews payload{
      Keys("keys", 1000),
      Kokkos::View<const std::uint64_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
          words.data() + 1, 299),
      {},
      // Every third float.
      Kokkos::View<float*, Kokkos::LayoutStride, MemorySpace>(floats.data(),
                                                              Kokkos::LayoutStride(21, 3)),
      {},
      -7,
      Kokkos::View<Pair16*, MemorySpace>("pairs", 5)};
  expect_read_back(payload);
}

TEST(KernelArguments, OrdoTileFunctor) {
  const Keys a("a", 100), b("b", 200), out("out", 300), av("av", 100), bv("bv", 200), ov("ov", 300);
  const Kokkos::View<std::int64_t*, MemorySpace> part_words("part", 9);
  const MergePairsTiles tiles{a,
                              b,
                              out,
                              Part(part_words.data(), 9),
                              Ordo::Impl::MergeValues<Keys, Keys, Keys>{av, bv, ov},
                              Ordo::less<>{}};
  expect_read_back(TilesPayload{tiles});
}

}  // namespace
