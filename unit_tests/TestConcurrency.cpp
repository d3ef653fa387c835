// SPDX-License-Identifier: BSD-3-Clause
// Ordo calls on two execution space instances at once from two host threads (two CUDA streams,
// two partitions of the OpenMP space, two Serial instances), each with its own sort options, and
// a call whose workspace cannot be allocated: each against std::.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace OrdoTest;

// What one host thread does on its instance: sort keys, sort_by_key of pairs (values: input
// positions), merge two sorted halves and compact the even keys, all with `options` for the
// sorts (the other thread runs other options at the same time).
struct Work {
  std::vector<std::uint32_t> keys, pair_keys;
  std::vector<std::uint32_t> sorted, sorted_pairs, merged, evens;
  std::vector<std::uint32_t> pair_values;
  std::size_t kept = 0;

  Work(std::size_t n, std::uint64_t seed)
      : keys(generate<std::uint32_t>(Dist::uniform, n, seed)),
        pair_keys(generate<std::uint32_t>(Dist::few_distinct, n, seed + 1)) {}

  void run(const ExecSpace& space, const Ordo::Impl::SortOptions& options) {
    const std::size_t n = keys.size();
    auto k = to_device(keys);
    auto pk = to_device(pair_keys);
    std::vector<std::uint32_t> positions(n);
    std::iota(positions.begin(), positions.end(), 0u);
    auto pv = to_device(positions);
    Ordo::Impl::sort(space, k, Ordo::less<>{}, options);
    Ordo::Impl::sort_by_key(space, pk, pv, Ordo::less<>{}, options);
    const auto a = Kokkos::subview(k, std::make_pair(std::size_t(0), n / 2));
    const auto b = Kokkos::subview(k, std::make_pair(n / 2, n));
    DeviceView<std::uint32_t> out("merged", n), even("evens", n);
    // The halves of the sorted keys are sorted: merging them gives the sorted keys again.
    Ordo::merge(space, a, b, out);
    kept = Ordo::copy_if(space, k, even, IsEven{});  // fences `space`
    sorted = to_host(k);
    sorted_pairs = to_host(pk);
    pair_values = to_host(pv);
    merged = to_host(out);
    evens = to_host(even);
    evens.resize(kept);
  }

  struct IsEven {
    KOKKOS_INLINE_FUNCTION bool operator()(std::uint32_t x) const { return x % 2 == 0; }
  };

  void check(const std::string& who) const {
    std::vector<std::uint32_t> expect = keys;
    std::sort(expect.begin(), expect.end());
    EXPECT_EQ(sorted, expect) << who << ": sort";
    EXPECT_EQ(merged, expect) << who << ": merge";
    std::vector<std::uint32_t> expect_evens;
    std::copy_if(expect.begin(), expect.end(), std::back_inserter(expect_evens),
                 [](std::uint32_t x) { return x % 2 == 0; });
    EXPECT_EQ(evens, expect_evens) << who << ": copy_if";
    // sort_by_key: keys sorted, each value the input position of a key equal to its own.
    std::vector<std::uint32_t> expect_pairs = pair_keys;
    std::sort(expect_pairs.begin(), expect_pairs.end());
    EXPECT_EQ(sorted_pairs, expect_pairs) << who << ": sort_by_key keys";
    std::vector<bool> seen(pair_keys.size());
    for (std::size_t i = 0; i < pair_values.size(); ++i) {
      const std::uint32_t p = pair_values[i];
      ASSERT_TRUE(p < pair_keys.size() && !seen[p] && pair_keys[p] == sorted_pairs[i])
          << who << ": sort_by_key value " << i;
      seen[p] = true;
    }
  }
};

TEST(Concurrency, TwoInstancesFromTwoHostThreads) {
  // On the host one partition of the space per thread (a thread each where the space has two).
  const auto instances = Kokkos::Experimental::partition_space(ExecSpace(), 1, 1);
  ASSERT_EQ(instances.size(), 2u);
  // Two instances indeed (Kokkos' OpenMP partitions need nested parallelism, which the test's
  // environment turns on: OMP_MAX_ACTIVE_LEVELS=2; without it partition_space returns the same
  // instance twice). Ordo keeps its workspace per instance.
  ASSERT_NE(Ordo::Impl::instance_key(instances[0]), Ordo::Impl::instance_key(instances[1]))
      << "partition_space returned one instance twice";
  const std::size_t n = on_host ? 100003 : (std::size_t(1) << 21) + 4097;
  // Thread 0: the tuning's choices; thread 1: the portable network, no streaming levels, and
  // partitions searched by 4 vector lanes: a setting one thread leaked to the other would show
  // up as different bits on CUDA and is checked against std:: everywhere.
  Ordo::Impl::SortOptions forced;
  forced.path = Ordo::Impl::SortPath::portable;
  forced.stream_levels = 0;
  forced.partition_lanes = 4;
  for (int round = 0; round < 3; ++round) {
    Work w0(n, 11 + round), w1(n, 23 + round);
    std::thread t0([&] { w0.run(instances[0], Ordo::Impl::SortOptions{}); });
    std::thread t1([&] { w1.run(instances[1], forced); });
    t0.join();
    t1.join();
    w0.check("instance 0, round " + std::to_string(round));
    w1.check("instance 1, round " + std::to_string(round));
  }
}

// Two host threads on one instance (Kokkos serializes their launches on it): each thread's calls
// take workspace buffers of their own, so that the other's kernels, queued between two of its
// own, do not overwrite its partitions, keys or counts.
TEST(Concurrency, TwoHostThreadsOnOneInstance) {
  const ExecSpace space;
  const std::size_t n = on_host ? 50003 : (std::size_t(1) << 20) + 4097;
  Ordo::Impl::SortOptions forced;
  forced.path = Ordo::Impl::SortPath::portable;
  for (int round = 0; round < 3; ++round) {
    Work w0(n, 31 + round), w1(n / 2 + 7 * round, 43 + round);
    std::thread t0([&] { w0.run(space, Ordo::Impl::SortOptions{}); });
    std::thread t1([&] { w1.run(space, forced); });
    t0.join();
    t1.join();
    w0.check("thread 0, round " + std::to_string(round));
    w1.check("thread 1, round " + std::to_string(round));
  }
}

// Calls queued on one instance without a fence between them, each larger than the last, so that
// each grows the workspace the calls before it may still be using on the device: the growth
// waits for them (a fence of the instance) before the old buffer goes.
TEST(Workspace, GrowthWhileEarlierCallsRun) {
  Ordo::release_workspaces<MemorySpace>();
  const ExecSpace space;
  const std::size_t base = on_host ? 1000 : 100000;
  std::vector<std::vector<std::uint32_t>> inputs;
  std::vector<DeviceView<std::uint32_t>> keys, merged;
  for (std::size_t k = 0; k < 4; ++k) {
    inputs.push_back(generate<std::uint32_t>(Dist::uniform, base << (3 * k), 50 + k));
    keys.push_back(to_device(inputs.back()));
    merged.emplace_back("merged", inputs.back().size());
  }
  space.fence();
  for (std::size_t k = 0; k < 4; ++k) {
    const std::size_t n = inputs[k].size();
    Ordo::sort(space, keys[k]);  // asynchronous
    Ordo::merge(space, Kokkos::subview(keys[k], std::make_pair(std::size_t(0), n / 2)),
                Kokkos::subview(keys[k], std::make_pair(n / 2, n)), merged[k]);
  }
  space.fence();
  for (std::size_t k = 0; k < 4; ++k) {
    std::vector<std::uint32_t> expect = inputs[k];
    std::sort(expect.begin(), expect.end());
    EXPECT_EQ(to_host(keys[k]), expect) << "sort " << k;
    EXPECT_EQ(to_host(merged[k]), expect) << "merge " << k;
  }
}

TEST(Workspace, BytesHeldAndConfiguration) {
  Ordo::release_workspaces<MemorySpace>();
  EXPECT_EQ(Ordo::workspace_bytes<MemorySpace>(), 0u);
  const ExecSpace space;
  const auto buffer = Ordo::Impl::workspace<std::int64_t>(space, 1000);
  const std::size_t held = Ordo::workspace_bytes<MemorySpace>();
  EXPECT_GE(held, 1000 * sizeof(std::int64_t));
  EXPECT_EQ(buffer.extent(0), 1000u);

  std::ostringstream out;
  Ordo::print_configuration(out);
  const std::string text = out.str();
  EXPECT_NE(text.find(std::string("Ordo ") + ORDO_VERSION_STRING), std::string::npos) << text;
  EXPECT_NE(text.find(ORDO_GIT_HASH), std::string::npos) << text;
  EXPECT_NE(text.find(std::string(" ") + ExecSpace::name()), std::string::npos) << text;
  EXPECT_NE(text.find(std::to_string(held) + " "), std::string::npos) << text;
  EXPECT_NE(text.find("debug checks: on"), std::string::npos) << text;  // the unit tests' setting
  // ORDO_VERSION orders like the version string's numbers.
  unsigned major = 0, minor = 0, patch = 0;
  ASSERT_EQ(std::sscanf(ORDO_VERSION_STRING, "%u.%u.%u", &major, &minor, &patch), 3);
  EXPECT_EQ(ORDO_VERSION, int(major * 10000 + minor * 100 + patch));

  Ordo::release_workspaces<MemorySpace>();
  EXPECT_EQ(Ordo::workspace_bytes<MemorySpace>(), 0u);
}

// Keys of 32 bytes ordered by their first word, so that the workspace of a sort of 2^32 - 2 of
// them (256 GiB, and twice that held) exceeds the memory of the machines Ordo is tested on.
struct Wide {
  std::uint64_t w[4];
};

struct ByFirstWord {
  KOKKOS_INLINE_FUNCTION bool operator()(const Wide& a, const Wide& b) const {
    return a.w[0] < b.w[0];
  }
};

TEST(Workspace, AllocationFailureLeavesInputsAndNextCallWorks) {
  // A View over a small allocation that claims 2^32 - 2 elements (the most a sort takes): the
  // workspace request fails before any kernel, which would otherwise read past the allocation.
  const std::size_t small = 1024, claimed = (std::size_t(1) << 32) - 2;
  std::vector<Wide> in(small);
  const auto words = generate<std::uint64_t>(Dist::uniform, 4 * small, 3);
  std::memcpy(in.data(), words.data(), small * sizeof(Wide));
  auto storage = to_device(in);
  Kokkos::View<Wide*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> keys(storage.data(),
                                                                                 claimed);
  std::string message = "no exception";
  try {
    Ordo::sort(ExecSpace(), keys, ByFirstWord{});
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  EXPECT_EQ(message.rfind("Ordo: could not allocate", 0), 0u) << message;
  EXPECT_NE(message.find("inputs are unchanged"), std::string::npos) << message;
  ExecSpace().fence();
  EXPECT_TRUE(bitwise_equal(in, to_host(storage)));
  Ordo::release_workspaces<MemorySpace>();
  // The next call allocates anew and sorts.
  Ordo::sort(storage, ByFirstWord{});
  std::vector<Wide> expect = in;
  std::sort(expect.begin(), expect.end(), ByFirstWord{});
  const auto out = to_host(storage);
  for (std::size_t i = 0; i < small; ++i) ASSERT_EQ(out[i].w[0], expect[i].w[0]) << i;
}

}  // namespace
