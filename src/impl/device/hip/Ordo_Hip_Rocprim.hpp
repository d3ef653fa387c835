// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_HIP_ROCPRIM_HPP
#define ORDO_IMPL_HIP_ROCPRIM_HPP

// HIP vendor seam, where CMake's Ordo_ENABLE_ROCPRIM is on (off by default: CI compiles it, no AMD
// GPU has run it yet): rocPRIM as Vendor<Kokkos::HIP>, the only file that includes it. It takes the
// radix sort, the twin of CUB's (device/cuda/Ordo_Cuda_Cub.hpp) with the same two calls and
// contract, so that the vendor sort's device level (Ordo_SortVendorImpl.hpp) runs either; every
// other call family answers no (NoVendor) until rocPRIM's is written and measured here. Keys are
// rocPRIM's arithmetic types in its order (the device level hands it only keys for which that is
// Ordo's order, as it does CUB), values any trivially copyable type (void: keys only). Every call
// runs on the space's stream and returns at once; with temp null it only sets bytes to the
// temporary storage it needs.

#include <Ordo_BuildOptions.hpp>
#include <impl/core/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#if defined(ORDO_HIP_VENDOR)

#include <rocprim/device/device_radix_sort.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

namespace HipSeam {

inline void rocprim_check(hipError_t status, const char* fn) {
  if (status != hipSuccess) {
    throw std::runtime_error(std::string(fn) +
                             ": rocprim::radix_sort failed: " + hipGetErrorString(status));
  }
}

}  // namespace HipSeam

template <>
struct Vendor<Kokkos::HIP> : NoVendor {
  static constexpr const char* name = "rocPRIM (radix sort)";
  static constexpr bool radix_sort = true;

  // Sorts n records by bits [begin_bit, end_bit) of their keys, ascending or descending, stably,
  // between two buffers: the records start in keys[current] (values[current]) and end in the
  // buffer `current` names on return.
  template <class K, class V>
  static void sort(const char* fn, void* temp, std::size_t& bytes, K* const (&keys)[2],
                   V* const (&values)[2], int& current, std::int64_t n, int begin_bit, int end_bit,
                   bool descending, const Kokkos::HIP& space) {
    const hipStream_t stream = space.hip_stream();
    const unsigned begin = unsigned(begin_bit), end = unsigned(end_bit);
    rocprim::double_buffer<K> k(keys[current], keys[1 - current]);
    hipError_t status;
    if constexpr (std::is_void_v<V>) {
      (void)values;
      status = descending ? rocprim::radix_sort_keys_desc(temp, bytes, k, n, begin, end, stream)
                          : rocprim::radix_sort_keys(temp, bytes, k, n, begin, end, stream);
    } else {
      rocprim::double_buffer<V> v(values[current], values[1 - current]);
      status = descending ? rocprim::radix_sort_pairs_desc(temp, bytes, k, v, n, begin, end, stream)
                          : rocprim::radix_sort_pairs(temp, bytes, k, v, n, begin, end, stream);
    }
    HipSeam::rocprim_check(status, fn);
    if (temp != nullptr && k.current() != keys[current]) current = 1 - current;
  }

  // The same sort from keys_in (values_in) to keys_out (values_out), the inputs untouched.
  template <class K, class V>
  static void sort_into(const char* fn, void* temp, std::size_t& bytes, const K* keys_in,
                        K* keys_out, const V* values_in, V* values_out, std::int64_t n,
                        int begin_bit, int end_bit, bool descending, const Kokkos::HIP& space) {
    const hipStream_t stream = space.hip_stream();
    const unsigned begin = unsigned(begin_bit), end = unsigned(end_bit);
    hipError_t status;
    if constexpr (std::is_void_v<V>) {
      (void)values_in;
      (void)values_out;
      status =
          descending
              ? rocprim::radix_sort_keys_desc(temp, bytes, keys_in, keys_out, n, begin, end, stream)
              : rocprim::radix_sort_keys(temp, bytes, keys_in, keys_out, n, begin, end, stream);
    } else {
      status = descending
                   ? rocprim::radix_sort_pairs_desc(temp, bytes, keys_in, keys_out, values_in,
                                                    values_out, n, begin, end, stream)
                   : rocprim::radix_sort_pairs(temp, bytes, keys_in, keys_out, values_in,
                                               values_out, n, begin, end, stream);
    }
    HipSeam::rocprim_check(status, fn);
  }
};

}  // namespace Ordo::Impl

#endif

#endif
