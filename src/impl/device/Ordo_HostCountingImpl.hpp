// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_HOSTCOUNTINGIMPL_HPP
#define ORDO_IMPL_HOSTCOUNTINGIMPL_HPP

// Device level, host backends: one stable counting pass, the step of the host radix sort
// (Ordo_SortHostRadixImpl.hpp) and of bin_permutation's counting sort (Ordo_BinningImpl.hpp).
// The input is cut into chunks, one a thread: each chunk counts its items' buckets into its row of
// counts (`<label>::count`), one scan over the buckets turns the rows into each chunk's first
// position in each bucket (`<label>::scan`), and each chunk moves its items there in input order
// (`<label>::scatter`), so equal buckets keep the input's order. A pass describes its items:
//   item(i)            item i of the input
//   bucket(item)       its bucket, in [0, buckets) (any other value: the item is dropped)
//   store(to, item)    writes it to output position to
// No position is trusted: a store lands only below n.

#include <impl/core/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace Ordo::Impl {

// The chunks of a counting pass over n items: one a thread, none smaller than grain.
inline std::int64_t host_counting_chunks(std::int64_t n, std::int64_t concurrency,
                                         std::int64_t grain) {
  return std::max<std::int64_t>(1, std::min<std::int64_t>(concurrency, n / grain));
}

// One counting pass over n items in `chunks` chunks, counts (Count: wide enough for n) in a
// workspace row of `buckets` a chunk (`slot`). bucket_done(c, first, count) runs in the scan once
// per bucket with its first output position and its size.
template <class Count, class ExecSpace, class Pass, class BucketDone>
void host_counting_pass(const std::string& label, const ExecSpace& space, std::int64_t n,
                        std::int64_t chunks, std::int64_t buckets, WorkspaceSlot slot,
                        const Pass& pass, const BucketDone& bucket_done) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t width = (n + chunks - 1) / chunks;
  // counts(t * buckets + c): chunk t's items in bucket c, then where the first of them goes.
  const auto counts = workspace<Count>(space, chunks * buckets, slot);
  Kokkos::parallel_for(label + "::count", Range(space, 0, chunks), [=](std::int64_t t) {
    Count* const row = counts.data() + t * buckets;
    std::fill(row, row + buckets, Count(0));
    const std::int64_t hi = std::min(n, (t + 1) * width);
    for (std::int64_t i = t * width; i < hi; ++i) {
      const std::int64_t c = pass.bucket(pass.item(i));
      if (c >= 0 && c < buckets) ++row[c];
    }
  });
  Kokkos::parallel_scan(label + "::scan", Range(space, 0, buckets),
                        [=](std::int64_t c, std::int64_t& before, bool final) {
                          std::int64_t total = 0;
                          for (std::int64_t t = 0; t < chunks; ++t) {
                            Count& slot_count = counts(t * buckets + c);
                            const Count k = slot_count;
                            if (final) slot_count = Count(before + total);
                            total += k;
                          }
                          if (final) bucket_done(c, before, total);
                          before += total;
                        });
  Kokkos::parallel_for(label + "::scatter", Range(space, 0, chunks), [=](std::int64_t t) {
    Count* const next = counts.data() + t * buckets;
    const std::int64_t hi = std::min(n, (t + 1) * width);
    for (std::int64_t i = t * width; i < hi; ++i) {
      const auto x = pass.item(i);
      const std::int64_t c = pass.bucket(x);
      if (c < 0 || c >= buckets) continue;
      const std::uint64_t to = next[c]++;
      if (to < std::uint64_t(n)) pass.store(std::int64_t(to), x);
    }
  });
}

// The workspace of host_counting_pass's counts.
template <class Count>
std::size_t host_counting_bound(std::int64_t chunks, std::int64_t buckets) {
  return slot_bytes<Count>(chunks * buckets);
}

}  // namespace Ordo::Impl

#endif
