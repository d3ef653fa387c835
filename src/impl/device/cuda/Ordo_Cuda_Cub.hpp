// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_CUB_HPP
#define ORDO_IMPL_CUDA_CUB_HPP

// CUDA vendor seam, where CMake's Ordo_ENABLE_CUB is on (the default in CUDA builds): CUB (from the
// CUDA toolkit) as Vendor<Kokkos::Cuda>, the only file that includes it. For each call family, the
// rule that says whether CUB gives Ordo's result (takes_*: key and value types, comparator, layout,
// output lengths, size) and the call: the sort's cub::DeviceRadixSort and cub::DeviceMergeSort
// (Ordo_SortVendorImpl.hpp, Ordo_BinningImpl.hpp), merge's cub::DeviceMerge (Ordo_MergeImpl.hpp;
// CUDA 12.8 and later: ORDO_CUB_MERGE), the runs' cub::DeviceSelect::Unique,
// cub::DeviceRunLengthEncode::Encode and cub::DeviceReduce::ReduceByKey (Ordo_RunsImpl.hpp), the
// scans by key's cub::DeviceScan::InclusiveScanByKey and ExclusiveScanByKey
// (Ordo_ScanByKeyImpl.hpp), and copy_if's cub::DeviceSelect::If (Ordo_CopyIfImpl.hpp). Sort keys
// are CUB's arithmetic types in CUB's order (the device level hands it only keys for which that is
// Ordo's order), values any trivially copyable type (void: keys only). Every call runs on the
// space's stream and returns at once; with temp null it only sets bytes to the temporary storage
// it needs (host arithmetic, nothing runs): the device level asks that once per shape
// (device/Ordo_VendorCalls.hpp) and never spells the protocol itself.

#include <Ordo_BuildOptions.hpp>
#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#if defined(ORDO_CUDA_VENDOR)

#if __has_include(<cub/device/device_merge.cuh>)
#include <cub/device/device_merge.cuh>
#define ORDO_CUB_MERGE 1
#endif
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

namespace CudaSeam {

inline void cub_check(cudaError_t status, const char* fn, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(fn) + ": cub::" + what +
                             " failed: " + cudaGetErrorString(status));
  }
}

template <class... Views>
inline constexpr bool contiguous_v = (is_contiguous_1d_v<Views> && ...);
template <class View>
using element_t = typename View::non_const_value_type;

// The keys whose runs CUB finds as Ordo does: integers under Ordo::less or greater (CUB's == is
// their equality).
template <class KeyView, class Comp>
inline constexpr bool run_keys_v =
    std::is_integral_v<element_t<KeyView>>&& is_ordo_order_v<Comp, element_t<KeyView>>;
// The values CUB reduces or scans to Ordo's bits: integers under Ordo::plus, minimum or maximum
// (exact in any order).
template <class V, class Op>
inline constexpr bool exact_op_v = std::is_integral_v<V> &&
                                   (std::is_same_v<Op, plus<>> || std::is_same_v<Op, plus<V>> ||
                                    std::is_same_v<Op, minimum<>> ||
                                    std::is_same_v<Op, minimum<V>> ||
                                    std::is_same_v<Op, maximum<>> ||
                                    std::is_same_v<Op, maximum<V>>);

}  // namespace CudaSeam

template <>
struct Vendor<Kokkos::Cuda> {
  // ---- what CUB can take with Ordo's contract ---------------------------------------------------

  static constexpr const char* name = "CUB (sorts, merge, runs, compaction, scans by key)";
  static constexpr bool radix_sort = true;
  static constexpr bool merge_sort = true;

  // n elements from `from` on, n < 2^31 (CUB's calls here count in an int, its faster offsets:
  // perf_tests/README.md, the runs), where every output holds n: CUB writes every result and
  // cannot stop at an output's end.
  template <class... Outs>
  static bool takes_size(std::int64_t n, std::int64_t from, const Outs&... outs) {
    return n >= from && n <= std::numeric_limits<int>::max() &&
           ((std::int64_t(outs.extent(0)) >= n) && ...);
  }

  // CUB's single-pass scans (DeviceSelect, DeviceRunLengthEncode, DeviceReduce::ReduceByKey,
  // DeviceScan by key) keep their tile states and a few hundred bytes of their own: under 32 bytes
  // per 128 elements.
  static constexpr std::size_t scan_temp_bound(std::int64_t n) { return std::size_t(n / 4 + 4096); }

  // The merge of keys alone (CUB's merge carries no values): contiguous Views of one integer type
  // under Ordo::less or greater. CUB's merge is not stable, which only keys that are equal but not
  // the same bits could show: integers have none.
  template <class AView, class BView, class OutView, class Comp>
  static constexpr bool takes_merge() {
#if defined(ORDO_CUB_MERGE)
    using Key = CudaSeam::element_t<OutView>;
    return CudaSeam::contiguous_v<AView, BView, OutView> &&
           std::is_same_v<CudaSeam::element_t<AView>, Key> &&
           std::is_same_v<CudaSeam::element_t<BView>, Key> && std::is_integral_v<Key> &&
           is_ordo_order_v<Comp, Key>;
#else
    return false;
#endif
  }

  // The runs: run keys, contiguous Views, the first keys of the runs written as keys.
  template <class InView, class OutView, class Comp>
  static constexpr bool takes_unique() {
    return CudaSeam::run_keys_v<InView, Comp> && CudaSeam::contiguous_v<InView, OutView> &&
           std::is_same_v<CudaSeam::element_t<InView>, CudaSeam::element_t<OutView>>;
  }
  template <class InView, class UniqueOut, class CountsOut, class Comp>
  static constexpr bool takes_run_length_encode() {
    return CudaSeam::run_keys_v<InView, Comp> &&
           CudaSeam::contiguous_v<InView, UniqueOut, CountsOut> &&
           std::is_same_v<CudaSeam::element_t<InView>, CudaSeam::element_t<UniqueOut>>;
  }
  template <class KeyView, class ValueView, class KeyOut, class ValueOut, class Op, class Comp>
  static constexpr bool takes_reduce_by_key() {
    using V = CudaSeam::element_t<ValueView>;
    return CudaSeam::run_keys_v<KeyView, Comp> && CudaSeam::exact_op_v<V, Op> &&
           CudaSeam::contiguous_v<KeyView, ValueView, KeyOut, ValueOut> &&
           std::is_same_v<CudaSeam::element_t<KeyView>, CudaSeam::element_t<KeyOut>> &&
           std::is_same_v<V, CudaSeam::element_t<ValueOut>>;
  }
  template <class KeyView, class ValueView, class OutView, class Op, class Comp>
  static constexpr bool takes_scan_by_key() {
    using V = CudaSeam::element_t<ValueView>;
    return CudaSeam::run_keys_v<KeyView, Comp> && CudaSeam::exact_op_v<V, Op> &&
           CudaSeam::contiguous_v<KeyView, ValueView, OutView> &&
           std::is_same_v<V, CudaSeam::element_t<OutView>>;
  }

  // copy_if: contiguous Views of one element type (any predicate: the selection is stable).
  template <class InView, class OutView>
  static constexpr bool takes_select() {
    return CudaSeam::contiguous_v<InView, OutView> &&
           std::is_same_v<CudaSeam::element_t<InView>, CudaSeam::element_t<OutView>>;
  }

  // ---- the calls
  // ----------------------------------------------------------------------------------

  // Sorts n records by bits [begin_bit, end_bit) of their keys, ascending or descending, stably,
  // between two buffers: the records start in keys[current] (values[current]) and end in the buffer
  // `current` names on return.
  template <class K, class V>
  static void sort(const char* fn, void* temp, std::size_t& bytes, K* const (&keys)[2],
                   V* const (&values)[2], int& current, std::int64_t n, int begin_bit, int end_bit,
                   bool descending, const Kokkos::Cuda& space) {
    const cudaStream_t stream = space.cuda_stream();
    cub::DoubleBuffer<K> k(keys[current], keys[1 - current]);
    cudaError_t status;
    if constexpr (std::is_void_v<V>) {
      (void)values;
      status = descending
                   ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, k, n, begin_bit, end_bit,
                                                              stream)
                   : cub::DeviceRadixSort::SortKeys(temp, bytes, k, n, begin_bit, end_bit, stream);
    } else {
      cub::DoubleBuffer<V> v(values[current], values[1 - current]);
      status = descending ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, k, v, n,
                                                                      begin_bit, end_bit, stream)
                          : cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, n, begin_bit,
                                                            end_bit, stream);
    }
    CudaSeam::cub_check(status, fn, "DeviceRadixSort");
    if (temp != nullptr && k.Current() != keys[current]) current = 1 - current;
  }

  // The same sort from keys_in (values_in) to keys_out (values_out), the inputs untouched; CUB's
  // alternate buffers are part of its temporary storage.
  template <class K, class V>
  static void sort_into(const char* fn, void* temp, std::size_t& bytes, const K* keys_in,
                        K* keys_out, const V* values_in, V* values_out, std::int64_t n,
                        int begin_bit, int end_bit, bool descending, const Kokkos::Cuda& space) {
    const cudaStream_t stream = space.cuda_stream();
    cudaError_t status;
    if constexpr (std::is_void_v<V>) {
      (void)values_in;
      (void)values_out;
      status = descending ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, keys_in, keys_out,
                                                                     n, begin_bit, end_bit, stream)
                          : cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, n,
                                                           begin_bit, end_bit, stream);
    } else {
      status =
          descending
              ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, keys_in, keys_out, values_in,
                                                          values_out, n, begin_bit, end_bit, stream)
              : cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in,
                                                values_out, n, begin_bit, end_bit, stream);
    }
    CudaSeam::cub_check(status, fn, "DeviceRadixSort");
  }

  // Sorts keys[0, n) (values[0, n) with them) in place by less, stably (cub::DeviceMergeSort, which
  // keeps its second buffer in temp).
  template <class K, class V, class Less>
  static void sort_merge(const char* fn, void* temp, std::size_t& bytes, K* keys, V* values,
                         std::int64_t n, const Less& less, const Kokkos::Cuda& space) {
    const cudaStream_t stream = space.cuda_stream();
    cudaError_t status;
    if constexpr (std::is_void_v<V>) {
      (void)values;
      status = cub::DeviceMergeSort::StableSortKeys(temp, bytes, keys, int(n), less, stream);
    } else {
      status =
          cub::DeviceMergeSort::StableSortPairs(temp, bytes, keys, values, int(n), less, stream);
    }
    CudaSeam::cub_check(status, fn, "DeviceMergeSort");
  }

#if defined(ORDO_CUB_MERGE)
  // Merges sorted keys a[0, m) and b[0, n) into out[0, m + n) under comp
  // (cub::DeviceMerge::MergeKeys).
  template <class K, class Comp>
  static void merge(const char* fn, void* temp, std::size_t& bytes, const K* a, std::int64_t m,
                    const K* b, std::int64_t n, K* out, const Comp& comp,
                    const Kokkos::Cuda& space) {
    CudaSeam::cub_check(
        cub::DeviceMerge::MergeKeys(temp, bytes, a, m, b, n, out, comp, space.cuda_stream()), fn,
        "DeviceMerge::MergeKeys");
  }
#endif

  // The elements of in[0, n) that pred keeps, in order, to out; their number to *selected
  // (cub::DeviceSelect::If, stable).
  template <class T, class N, class Pred>
  static void select_if(const char* fn, void* temp, std::size_t& bytes, const T* in, T* out,
                        N* selected, std::int64_t n, const Pred& pred, const Kokkos::Cuda& space) {
    CudaSeam::cub_check(
        cub::DeviceSelect::If(temp, bytes, in, out, selected, int(n), pred, space.cuda_stream()),
        fn, "DeviceSelect::If");
  }

  // The first key of each run of keys[0, n) to unique_out, their number to *runs.
  template <class K, class N>
  static void unique(const char* fn, void* temp, std::size_t& bytes, const K* keys, K* unique_out,
                     N* runs, std::int64_t n, const Kokkos::Cuda& space) {
    CudaSeam::cub_check(
        cub::DeviceSelect::Unique(temp, bytes, keys, unique_out, runs, int(n), space.cuda_stream()),
        fn, "DeviceSelect::Unique");
  }

  // Each run's first key and length.
  template <class K, class C, class N>
  static void run_length_encode(const char* fn, void* temp, std::size_t& bytes, const K* keys,
                                K* unique_out, C* counts_out, N* runs, std::int64_t n,
                                const Kokkos::Cuda& space) {
    CudaSeam::cub_check(
        cub::DeviceRunLengthEncode::Encode(temp, bytes, keys, unique_out, counts_out, runs, int(n),
                                           space.cuda_stream()),
        fn, "DeviceRunLengthEncode::Encode");
  }

  // Each run's first key and op over its values.
  template <class K, class V, class Op, class N>
  static void reduce_by_key(const char* fn, void* temp, std::size_t& bytes, const K* keys,
                            K* keys_out, const V* values, V* values_out, N* runs, const Op& op,
                            std::int64_t n, const Kokkos::Cuda& space) {
    CudaSeam::cub_check(
        cub::DeviceReduce::ReduceByKey(temp, bytes, keys, keys_out, values, values_out, runs, op,
                                       int(n), space.cuda_stream()),
        fn, "DeviceReduce::ReduceByKey");
  }

  // The scan by key of values (exclusive: from init at each run's first element) into out.
  template <class K, class V, class Op>
  static void scan_by_key(const char* fn, void* temp, std::size_t& bytes, const K* keys,
                          const V* values, V* out, const Op& op, bool exclusive, const V& init,
                          std::int64_t n, const Kokkos::Cuda& space) {
    const cudaStream_t stream = space.cuda_stream();
    if (exclusive) {
      CudaSeam::cub_check(
          cub::DeviceScan::ExclusiveScanByKey(temp, bytes, keys, values, out, op, init, int(n),
                                              ::cuda::std::equal_to<>{}, stream),
          fn, "DeviceScan::ExclusiveScanByKey");
    } else {
      CudaSeam::cub_check(
          cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, values, out, op, int(n),
                                              ::cuda::std::equal_to<>{}, stream),
          fn, "DeviceScan::InclusiveScanByKey");
    }
  }
};

}  // namespace Ordo::Impl

#endif

#endif
