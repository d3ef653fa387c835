// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTHOSTIMPL_HPP
#define ORDO_IMPL_SORTHOSTIMPL_HPP

// Device level of sort on host backends (Ordo::sort::host::*, chosen by Ordo_SortImpl.hpp's
// dispatch): a merge sort of one chunk per thread (stable), then merge-path merges of chunk pairs
// use every thread.

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/lane/Ordo_MergePath.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_TileMerge.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

template <class K, class V>
struct HostRecord {
  K key;
  V value;
};

template <class K, class V>
using HostRecordOf = std::conditional_t<std::is_same_v<V, NoValue>, K, HostRecord<K, V>>;

// Host records order by key: plain keys as they are, key-value records by their key.
template <class Less>
struct HostRecordLess {
  Less less;
  template <class K>
  bool operator()(const K& a, const K& b) const {
    return less(a, b);
  }
  template <class K, class V>
  bool operator()(const HostRecord<K, V>& a, const HostRecord<K, V>& b) const {
    return less(a.key, b.key);
  }
};

// The host backends' sort of [first, last) (stable): insertion sorts of runs of 16, then merges
// back and forth between the range and `spare` (as long), ending in the range. Unlike std::sort,
// whose unguarded loops walk past its range under a comparator such as `<=`, every loop here is
// bounded by the range, whatever the comparator answers.
template <class Rec, class Less>
void host_chunk_sort(Rec* first, Rec* last, Rec* spare, const Less& less) {
  const std::ptrdiff_t n = last - first;
  constexpr std::ptrdiff_t run = 16;
  for (std::ptrdiff_t lo = 0; lo < n; lo += run) {
    const std::ptrdiff_t hi = std::min(n, lo + run);
    for (std::ptrdiff_t i = lo + 1; i < hi; ++i) {
      const Rec x = first[i];
      std::ptrdiff_t j = i;
      for (; j > lo && less(x, first[j - 1]); --j) first[j] = first[j - 1];
      first[j] = x;
    }
  }
  Rec* from = first;
  Rec* to = spare;
  for (std::ptrdiff_t width = run; width < n; width *= 2) {
    for (std::ptrdiff_t lo = 0; lo < n; lo += 2 * width) {
      const std::ptrdiff_t mid = std::min(n, lo + width), hi = std::min(n, lo + 2 * width);
      // (std::merge takes the second range's element only when it orders strictly first.)
      std::merge(from + lo, from + mid, from + mid, from + hi, to + lo, less);
    }
    std::swap(from, to);
  }
  if (from != first) std::copy(from, from + n, first);
}

// Record i of a source as a host record, and a host record to position i of a sink.
template <class K, class V, class Source>
HostRecordOf<K, V> load_host_record(const Source& source, std::int64_t i) {
  if constexpr (std::is_same_v<V, NoValue>) {
    return source.keys.load(i);
  } else {
    return HostRecord<K, V>{source.keys.load(i), source.values.load(i)};
  }
}

template <class V, class Sink, class Rec>
void store_host_record(const Sink& sink, std::int64_t i, const Rec& r) {
  if constexpr (std::is_same_v<V, NoValue>) {
    sink.keys.store(i, r);
  } else {
    sink.keys.store(i, r.key);
    sink.values.store(i, r.value);
  }
}

template <class ExecSpace, class K, class V, class Source, class Sink, class Less>
void host_sort(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
               const Less& key_less) {
  using Rec = HostRecordOf<K, V>;
  using Buf = WorkspaceView<Rec, ExecSpace>;
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const HostRecordLess<Less> less{key_less};
  Buf a = workspace<Rec>(space, n, WorkspaceSlot::sort_keys0);
  Buf b = workspace<Rec>(space, n, WorkspaceSlot::sort_keys1);
  Kokkos::parallel_for("Ordo::sort::host::load", Range(space, 0, n),
                       [=](std::int64_t i) { a(i) = load_host_record<K, V>(source, i); });
  const std::int64_t threads = space.concurrency();
  std::int64_t chunks = 1;
  while (chunks < threads && n / (2 * chunks) >= Tuning::host_grain) chunks *= 2;
  const std::int64_t width = (n + chunks - 1) / chunks;
  Kokkos::parallel_for("Ordo::sort::host::chunks", Range(space, 0, chunks), [=](std::int64_t c) {
    const std::int64_t lo = std::min(n, c * width), hi = std::min(n, (c + 1) * width);
    host_chunk_sort(a.data() + lo, a.data() + hi, b.data() + lo, less);
  });
  for (std::int64_t run = width; run < n; run *= 2) {
    const std::int64_t pairs = (n + 2 * run - 1) / (2 * run);
    const std::int64_t pieces = std::max<std::int64_t>(1, threads / pairs);
    Kokkos::parallel_for(
        "Ordo::sort::host::merge", Range(space, 0, pairs * pieces), [=](std::int64_t w) {
          const std::int64_t p = w / pieces, q = w % pieces, a0 = p * 2 * run;
          const std::int64_t b0 = std::min(n, a0 + run), end = std::min(n, a0 + 2 * run);
          const auto sa = Kokkos::subview(a, Kokkos::make_pair(a0, b0));
          const auto sb = Kokkos::subview(a, Kokkos::make_pair(b0, end));
          const auto out = Kokkos::subview(b, Kokkos::make_pair(a0, end));
          merge_chunk_interleaved<HostTuning::merge_ways>(sa, sb, out, q, pieces, less, NoEmit{});
        });
    std::swap(a, b);
  }
  Kokkos::parallel_for("Ordo::sort::host::store", Range(space, 0, n),
                       [=](std::int64_t i) { store_host_record<V>(sink, i, a(i)); });
}

}  // namespace Ordo::Impl

#endif
