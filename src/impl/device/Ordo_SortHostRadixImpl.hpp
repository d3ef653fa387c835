// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTHOSTRADIXIMPL_HPP
#define ORDO_IMPL_SORTHOSTRADIXIMPL_HPP

// Device level, host backends: the radix sort of encoded keys (Ordo::sort::host::radix, chosen by
// Ordo_SortImpl.hpp's dispatch from HostRadixTuning's from). One reduction finds the bits in which
// the keys differ (`::bits`); only those are sorted. Records (key bits and value together) move
// between two workspace buffers:
//   - the most significant digit first, over every thread, one stable counting pass
//     (Ordo_HostCountingImpl.hpp: `::count`, `::scan`, `::scatter`) from the caller's Views: its
//     buckets (8 to 10 bits, as many as make a bucket of uniform keys fit HostRadixTuning's
//     cache_bytes) are independent sorts;
//   - then each bucket on one thread (`::buckets`, dynamically scheduled), least significant
//     digit first, its records in that thread's cache, the last digit written to the caller's
//     Views (one read counts every digit); a bucket larger than HostRadixTuning's split_bytes
//     with digits to spare first takes its most significant digit on that thread, and each of
//     its 256 parts then goes least significant digit first;
//   - a bucket larger than a thread's share (skewed keys) takes its digits as counting passes over
//     every thread instead.
// Digits in which every key agrees are skipped. Every pass is stable, so every sort form (stable,
// by key, permutations) takes it as it is.

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_HostCountingImpl.hpp>
#include <impl/device/Ordo_SortHostImpl.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// A digit: the bits [shift, shift + bits) of the encoded key.
struct HostRadixDigit {
  int shift = 0;
  int bits = 0;
  template <class K>
  KOKKOS_INLINE_FUNCTION std::int64_t of(K key) const {
    return std::int64_t((key >> shift) & ((K(1) << bits) - 1));
  }
};

inline constexpr int host_radix_digit_bits = 8;

template <class K, class V>
KOKKOS_INLINE_FUNCTION K host_record_key(const HostRecordOf<K, V>& r) {
  if constexpr (std::is_same_v<V, NoValue>) {
    return r;
  } else {
    return r.key;
  }
}

// One digit pass: records from `in` (in(i)) to `out` (out(i, record)) by the digit.
template <class K, class V, class In, class Out>
struct HostRadixPass {
  In in;
  Out out;
  HostRadixDigit digit;
  HostRecordOf<K, V> item(std::int64_t i) const { return in(i); }
  std::int64_t bucket(const HostRecordOf<K, V>& r) const {
    return digit.of(host_record_key<K, V>(r));
  }
  void store(std::int64_t to, const HostRecordOf<K, V>& r) const { out(to, r); }
};

// The chunks of the host radix sort of n records.
template <class ExecSpace>
std::int64_t host_radix_chunks(std::int64_t n, std::int64_t concurrency) {
  using Tuning = HostRadixTuning<ExecSpace>;
  return host_counting_chunks(n, std::min<std::int64_t>(concurrency, Tuning::max_chunks),
                              Tuning::grain);
}

// The host radix sort's workspace on n records: two buffers of records, the counts (a row of
// buckets a chunk) and the top digit's bucket bounds.
template <class ExecSpace, class K, class V>
std::size_t host_radix_sort_bound(std::int64_t n) {
  const std::int64_t chunks =
      host_radix_chunks<ExecSpace>(n, HostRadixTuning<ExecSpace>::max_chunks);
  const std::int64_t buckets = std::int64_t(1) << HostRadixTuning<ExecSpace>::max_top_bits;
  return n > 0 ? 2 * slot_bytes<HostRecordOf<K, V>>(n) +
                     host_counting_bound<std::int64_t>(chunks, buckets) +
                     slot_bytes<std::int64_t>(2 * buckets)
               : 0;
}

// The bits of the top digit of n records of Rec whose keys vary below bit `high`: as many as make a
// bucket of uniform keys fit cache_bytes, 8 to max_top_bits, and none where the keys vary in 8 bits
// or fewer (one pass over every thread sorts them).
template <class ExecSpace, class Rec>
int host_radix_top_bits(std::int64_t n, int high) {
  using Tuning = HostRadixTuning<ExecSpace>;
  if (high <= host_radix_digit_bits) return 0;
  const std::int64_t per_bucket = Tuning::cache_bytes / std::int64_t(sizeof(Rec));
  int bits = host_radix_digit_bits;
  while (bits < Tuning::max_top_bits && (n >> bits) > per_bucket) ++bits;
  return std::min(bits, high);
}

// A counting pass's scatter on the calling thread: each of the m records of src, in order, to
// store(row[its digit]++, record), where row holds each digit's first position; a position at or
// past m is dropped.
template <class K, class V, class Store>
void host_radix_scatter(const HostRecordOf<K, V>* src, std::int64_t m, HostRadixDigit digit,
                        std::int64_t* row, const Store& store) {
  for (std::int64_t i = 0; i < m; ++i) {
    const std::uint64_t to = row[digit.of(host_record_key<K, V>(src[i]))]++;
    if (to < std::uint64_t(m)) store(std::int64_t(to), src[i]);
  }
}

// The stable sort of the records [lo, hi) of `from` by `count` digits (least significant first)
// on the calling thread, with `spare` (as long as `from`); the last digit writes out(i, record),
// and with no digit every record is written as it is. A range larger than the tuning's
// split_bytes with more than split_digits digits takes its most significant digit first (into
// spare), then sorts each part by the digits below it; otherwise the counts of every digit come
// from one read and the digits pass least significant first.
template <class ExecSpace, class K, class V, class Out>
void host_radix_sort_range(HostRecordOf<K, V>* from, HostRecordOf<K, V>* spare, std::int64_t lo,
                           std::int64_t hi, const HostRadixDigit* digits, int count,
                           const Out& out) {
  using Rec = HostRecordOf<K, V>;
  using Tuning = HostRadixTuning<ExecSpace>;
  constexpr int max_digits = int(sizeof(K) * 8);
  constexpr std::int64_t buckets = std::int64_t(1) << host_radix_digit_bits;
  const std::int64_t m = hi - lo;
  if (count == 0 || m <= 1) {
    for (std::int64_t i = lo; i < hi; ++i) out(i, from[i]);
    return;
  }
  Rec* src = from + lo;
  if (count > Tuning::split_digits && m * std::int64_t(sizeof(Rec)) > Tuning::split_bytes) {
    const HostRadixDigit digit = digits[count - 1];
    std::int64_t first[buckets + 1] = {};
    for (std::int64_t i = 0; i < m; ++i) ++first[digit.of(host_record_key<K, V>(src[i])) + 1];
    for (std::int64_t c = 0; c < buckets; ++c) first[c + 1] += first[c];
    std::int64_t next[buckets];
    std::copy(first, first + buckets, next);
    Rec* const dst = spare + lo;
    host_radix_scatter<K, V>(src, m, digit, next,
                             [=](std::int64_t to, const Rec& r) { dst[to] = r; });
    for (std::int64_t c = 0; c < buckets; ++c) {
      host_radix_sort_range<ExecSpace, K, V>(spare, from, lo + first[c], lo + first[c + 1], digits,
                                             count - 1, out);
    }
    return;
  }
  std::int64_t next[max_digits / host_radix_digit_bits + 1][buckets];
  for (int p = 0; p < count; ++p) std::fill(next[p], next[p] + buckets, std::int64_t(0));
  for (std::int64_t i = 0; i < m; ++i) {
    const K key = host_record_key<K, V>(src[i]);
    for (int p = 0; p < count; ++p) ++next[p][digits[p].of(key)];
  }
  for (int p = 0; p < count; ++p) {
    std::int64_t sum = 0;
    for (std::int64_t c = 0; c < buckets; ++c) {
      const std::int64_t k = next[p][c];
      next[p][c] = sum;
      sum += k;
    }
  }
  Rec* dst = spare + lo;
  for (int p = 0; p < count; ++p) {
    if (p + 1 < count) {
      host_radix_scatter<K, V>(src, m, digits[p], next[p],
                               [=](std::int64_t to, const Rec& r) { dst[to] = r; });
      std::swap(src, dst);
    } else {
      host_radix_scatter<K, V>(src, m, digits[p], next[p],
                               [&](std::int64_t to, const Rec& r) { out(lo + to, r); });
    }
  }
}

template <class ExecSpace, class K, class V, class Source, class Sink>
void host_radix_sort(const ExecSpace& space, std::int64_t n, const Source& source,
                     const Sink& sink) {
  static_assert(std::is_unsigned_v<K>, "the host radix sort takes encoded keys");
  using Rec = HostRecordOf<K, V>;
  using Buf = WorkspaceView<Rec, ExecSpace>;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  constexpr int key_bits = int(sizeof(K) * 8);
  // The bits in which some key differs from the first: bits [0, high) hold them.
  const K first = source.keys.load(0);
  K varying = 0;
  Kokkos::parallel_reduce(
      "Ordo::sort::host::radix::bits", Range(space, 0, n),
      [=](std::int64_t i, K& bits) { bits |= K(source.keys.load(i) ^ first); },
      Kokkos::BOr<K, Kokkos::HostSpace>(varying));
  const int high = key_bits - int(Kokkos::countl_zero(varying));
  auto load_source = [=](std::int64_t i) { return load_host_record<K, V>(source, i); };
  auto store_sink = [=](std::int64_t i, const Rec& r) { store_host_record<V>(sink, i, r); };
  if (high == 0) {  // every key equal: the records as they are
    Kokkos::parallel_for("Ordo::sort::host::radix::copy", Range(space, 0, n),
                         [=](std::int64_t i) { store_sink(i, load_source(i)); });
    return;
  }
  const std::int64_t chunks = host_radix_chunks<ExecSpace>(n, space.concurrency());
  const Buf a = workspace<Rec>(space, n, WorkspaceSlot::sort_keys0);
  const Buf b = workspace<Rec>(space, n, WorkspaceSlot::sort_keys1);
  auto load = [](const Buf& buf, std::int64_t lo) {
    return [=](std::int64_t i) { return buf(lo + i); };
  };
  auto store = [](const Buf& buf, std::int64_t lo) {
    return [=](std::int64_t i, const Rec& r) { buf(lo + i) = r; };
  };
  auto to_sink = [=](std::int64_t lo) {
    return [=](std::int64_t i, const Rec& r) { store_sink(lo + i, r); };
  };
  auto no_bounds = [](std::int64_t, std::int64_t, std::int64_t) {};
  // One digit over every thread: m records from in to out.
  auto pass = [&](std::int64_t m, const HostRadixDigit& digit, const auto& in, const auto& out,
                  const auto& bucket_done) {
    using Pass = HostRadixPass<K, V, std::decay_t<decltype(in)>, std::decay_t<decltype(out)>>;
    host_counting_pass<std::int64_t>("Ordo::sort::host::radix", space, m,
                                     host_radix_chunks<ExecSpace>(m, space.concurrency()),
                                     std::int64_t(1) << digit.bits, WorkspaceSlot::radix_counts,
                                     Pass{in, out, digit}, bucket_done);
  };
  const int top_bits = host_radix_top_bits<ExecSpace, Rec>(n, high);
  if (top_bits == 0) {  // one digit: the caller's records into a, then back
    pass(n, HostRadixDigit{0, high}, load_source, store(a, 0), no_bounds);
    Kokkos::parallel_for("Ordo::sort::host::radix::copy", Range(space, 0, n),
                         [=](std::int64_t i) { store_sink(i, a(i)); });
    return;
  }
  // The digits below the top one that hold a varying bit, least significant first (captured by
  // value in the buckets' kernel).
  const int low = high - top_bits;
  struct Digits {
    HostRadixDigit d[key_bits / host_radix_digit_bits];
    int count = 0;
  } below;
  for (int shift = 0; shift < low; shift += host_radix_digit_bits) {
    const HostRadixDigit d{shift, std::min(host_radix_digit_bits, low - shift)};
    if (d.of(varying)) below.d[below.count++] = d;
  }
  // The top digit: the caller's records into a, bucket c at [bounds(2c), + bounds(2c + 1)).
  const std::int64_t buckets = std::int64_t(1) << top_bits;
  const auto bounds = workspace<std::int64_t>(space, 2 * buckets, WorkspaceSlot::sort_samples);
  pass(n, HostRadixDigit{low, top_bits}, load_source, store(a, 0),
       [=](std::int64_t c, std::int64_t begin, std::int64_t size) {
         bounds(2 * c) = begin;
         bounds(2 * c + 1) = size;
       });
  space.fence("Ordo::sort::host::radix: the buckets' bounds");
  // A bucket larger than a thread's share takes its digits over every thread, from a (back and
  // forth with b), the last into the caller's Views.
  const std::int64_t large = std::max(n / chunks, HostRadixTuning<ExecSpace>::grain);
  for (std::int64_t c = 0; c < buckets; ++c) {
    const std::int64_t lo = bounds(2 * c), m = bounds(2 * c + 1);
    if (m <= large) continue;
    if (below.count == 0) {
      Kokkos::parallel_for("Ordo::sort::host::radix::copy", Range(space, lo, lo + m),
                           [=](std::int64_t i) { store_sink(i, a(i)); });
    }
    for (int p = 0; p < below.count; ++p) {
      const Buf& from = p % 2 ? b : a;
      if (p + 1 == below.count) {
        pass(m, below.d[p], load(from, lo), to_sink(lo), no_bounds);
      } else {
        pass(m, below.d[p], load(from, lo), store(p % 2 ? a : b, lo), no_bounds);
      }
    }
  }
  Kokkos::parallel_for("Ordo::sort::host::radix::buckets",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                                           Kokkos::IndexType<std::int64_t>>(space, 0, buckets),
                       [=](std::int64_t c) {
                         const std::int64_t lo = bounds(2 * c), m = bounds(2 * c + 1);
                         if (m == 0 || m > large) return;
                         host_radix_sort_range<ExecSpace, K, V>(a.data(), b.data(), lo, lo + m,
                                                                below.d, below.count, store_sink);
                       });
}

}  // namespace Ordo::Impl

#endif
