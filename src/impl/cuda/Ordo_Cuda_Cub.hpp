// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_CUB_HPP
#define ORDO_IMPL_CUDA_CUB_HPP

// Seam level: device.
// CUDA vendor seam, where CMake's Ordo_ENABLE_CUB is on (the default in CUDA builds), the only file
// that includes CUB (from the CUDA toolkit): the sort's cub::DeviceRadixSort and
// cub::DeviceMergeSort (Ordo_SortVendorImpl.hpp), merge's cub::DeviceMerge (Ordo_MergeImpl.hpp;
// CUDA 12.8 and later: ORDO_CUB_MERGE), and the runs' cub::DeviceSelect::Unique,
// cub::DeviceRunLengthEncode::Encode and cub::DeviceReduce::ReduceByKey (Ordo_RunsImpl.hpp), and
// the scans by key's cub::DeviceScan::InclusiveScanByKey and ExclusiveScanByKey
// (Ordo_ScanByKeyImpl.hpp), and copy_if's cub::DeviceSelect::If (Ordo_CopyIfImpl.hpp). Sort
// keys are CUB's arithmetic types in CUB's order (the device level hands it only keys for which
// that is Ordo's order), values any trivially copyable type (void: keys only); the runs get integer
// keys (CUB's == is Ordo's equality for them). Every call runs on the space's stream and returns
// at once; with temp null it only sets bytes to the temporary storage it needs (host arithmetic,
// nothing runs).

#include <Ordo_Config.hpp>
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
#include <stdexcept>
#include <string>
#include <type_traits>

namespace Ordo::Impl::CudaSeam {

inline void cub_check(cudaError_t status, const char* fn, const char* what = "DeviceRadixSort") {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(fn) + ": cub::" + what +
                             " failed: " + cudaGetErrorString(status));
  }
}

#if defined(ORDO_CUB_MERGE)
// Merges sorted keys a[0, m) and b[0, n) into out[0, m + n) under comp
// (cub::DeviceMerge::MergeKeys, not stable: equal keys may come from either side).
template <class K, class Comp>
void cub_merge_keys(const char* fn, void* temp, std::size_t& bytes, const K* a, std::int64_t m,
                    const K* b, std::int64_t n, K* out, const Comp& comp,
                    const Kokkos::Cuda& space) {
  cub_check(cub::DeviceMerge::MergeKeys(temp, bytes, a, m, b, n, out, comp, space.cuda_stream()),
            fn, "DeviceMerge::MergeKeys");
}
#endif

// The vendor radix sort as the device level calls it (VendorRadix, Ordo_SortVendorImpl.hpp): the
// same two calls in every vendor seam (the HIP twin: impl/hip/Ordo_Hip_Rocprim.hpp).
struct CubRadixSort {
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
    cub_check(status, fn);
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
    cub_check(status, fn);
  }
};

// Sorts keys[0, n) (values[0, n) with them) in place by less, stably (cub::DeviceMergeSort, which
// keeps its second buffer in temp). n < 2^31, passed as an int.
template <class K, class V, class Less>
void cub_merge_sort(const char* fn, void* temp, std::size_t& bytes, K* keys, V* values,
                    std::int64_t n, const Less& less, const Kokkos::Cuda& space) {
  const cudaStream_t stream = space.cuda_stream();
  cudaError_t status;
  if constexpr (std::is_void_v<V>) {
    (void)values;
    status = cub::DeviceMergeSort::StableSortKeys(temp, bytes, keys, int(n), less, stream);
  } else {
    status = cub::DeviceMergeSort::StableSortPairs(temp, bytes, keys, values, int(n), less, stream);
  }
  cub_check(status, fn, "DeviceMergeSort");
}

// The elements of in[0, n) that pred keeps, in order, to out; their number to *selected
// (cub::DeviceSelect::If, stable). n < 2^31, passed as an int.
template <class T, class N, class Pred>
void cub_select_if(const char* fn, void* temp, std::size_t& bytes, const T* in, T* out, N* selected,
                   std::int64_t n, const Pred& pred, const Kokkos::Cuda& space) {
  cub_check(
      cub::DeviceSelect::If(temp, bytes, in, out, selected, int(n), pred, space.cuda_stream()), fn,
      "DeviceSelect::If");
}

// The runs' calls take n < 2^31 and pass it as an int: CUB then indexes with 32-bit offsets (with
// a 64-bit count its reduce-by-key ran 10% slower).

// The first key of each run of keys[0, n) to unique_out, their number to *runs.
template <class K, class N>
void cub_unique(const char* fn, void* temp, std::size_t& bytes, const K* keys, K* unique_out,
                N* runs, std::int64_t n, const Kokkos::Cuda& space) {
  cub_check(
      cub::DeviceSelect::Unique(temp, bytes, keys, unique_out, runs, int(n), space.cuda_stream()),
      fn, "DeviceSelect::Unique");
}

// Each run's first key and length.
template <class K, class C, class N>
void cub_run_length_encode(const char* fn, void* temp, std::size_t& bytes, const K* keys,
                           K* unique_out, C* counts_out, N* runs, std::int64_t n,
                           const Kokkos::Cuda& space) {
  cub_check(cub::DeviceRunLengthEncode::Encode(temp, bytes, keys, unique_out, counts_out, runs,
                                               int(n), space.cuda_stream()),
            fn, "DeviceRunLengthEncode::Encode");
}

// Each run's first key and op over its values.
template <class K, class V, class Op, class N>
void cub_reduce_by_key(const char* fn, void* temp, std::size_t& bytes, const K* keys, K* keys_out,
                       const V* values, V* values_out, N* runs, const Op& op, std::int64_t n,
                       const Kokkos::Cuda& space) {
  cub_check(cub::DeviceReduce::ReduceByKey(temp, bytes, keys, keys_out, values, values_out, runs,
                                           op, int(n), space.cuda_stream()),
            fn, "DeviceReduce::ReduceByKey");
}

// The scan by key of values (exclusive: from init at each run's first element) into out.
template <class K, class V, class Op>
void cub_scan_by_key(const char* fn, void* temp, std::size_t& bytes, const K* keys, const V* values,
                     V* out, const Op& op, bool exclusive, const V& init, std::int64_t n,
                     const Kokkos::Cuda& space) {
  if (exclusive) {
    cub_check(cub::DeviceScan::ExclusiveScanByKey(temp, bytes, keys, values, out, op, init, int(n),
                                                  ::cuda::std::equal_to<>{}, space.cuda_stream()),
              fn, "DeviceScan::ExclusiveScanByKey");
  } else {
    cub_check(cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, values, out, op, int(n),
                                                  ::cuda::std::equal_to<>{}, space.cuda_stream()),
              fn, "DeviceScan::InclusiveScanByKey");
  }
}

}  // namespace Ordo::Impl::CudaSeam

#endif

#endif
