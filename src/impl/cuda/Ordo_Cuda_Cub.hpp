// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_CUB_HPP
#define ORDO_IMPL_CUDA_CUB_HPP

// Seam level: device.
// CUDA vendor seam of the sort (Ordo_SortVendorImpl.hpp): cub::DeviceRadixSort from the CUDA
// toolkit, where CMake's Ordo_ENABLE_CUB is on (the default in CUDA builds). The only file that
// includes CUB. Keys are CUB's arithmetic types in CUB's order (the device level hands it only keys
// for which that is Ordo's order), values any trivially copyable type (void: keys only). Every call
// runs on the space's stream and returns at once; with temp null it only sets bytes to the
// temporary storage the sort needs (host arithmetic, nothing runs).

#include <Ordo_Config.hpp>
#include <impl/core/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#if defined(ORDO_CUDA_VENDOR)

#include <cub/device/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace Ordo::Impl::CudaSeam {

inline void cub_check(cudaError_t status, const char* fn) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(fn) +
                             ": cub::DeviceRadixSort failed: " + cudaGetErrorString(status));
  }
}

// Sorts n records by bits [begin_bit, end_bit) of their keys, ascending or descending, stably,
// between two buffers: the records start in keys[current] (values[current]) and end in the buffer
// `current` names on return.
template <class K, class V>
void cub_radix_sort(const char* fn, void* temp, std::size_t& bytes, K* const (&keys)[2],
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
    status = descending ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, k, v, n, begin_bit,
                                                                    end_bit, stream)
                        : cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, n, begin_bit, end_bit,
                                                          stream);
  }
  cub_check(status, fn);
  if (temp != nullptr && k.Current() != keys[current]) current = 1 - current;
}

// The same sort from keys_in (values_in) to keys_out (values_out), the inputs untouched; CUB's
// alternate buffers are part of its temporary storage.
template <class K, class V>
void cub_radix_sort_into(const char* fn, void* temp, std::size_t& bytes, const K* keys_in,
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
            : cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out,
                                              n, begin_bit, end_bit, stream);
  }
  cub_check(status, fn);
}

}  // namespace Ordo::Impl::CudaSeam

#endif

#endif
