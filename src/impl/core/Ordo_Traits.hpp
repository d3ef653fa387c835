// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TRAITS_HPP
#define ORDO_IMPL_TRAITS_HPP

// The core's traits, and the one point where portable code reaches the backend seams
// (src/impl/<level>/cuda/, src/impl/<level>/hip/): the backend macros are read here and in the seam
// files, nowhere else. Portable code asks is_cuda_space_v, Vendor<ExecSpace>, WarpSeam<ExecSpace>
// and the Seam functions below.

#include <Ordo_BuildOptions.hpp>

#include <impl/core/cuda/Ordo_Cuda_Memory.hpp>
#include <impl/core/cuda/Ordo_Cuda_Toolchain.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

// The seam flags, the one switch for every call of portable code into the CUDA seam (the tile
// agents name the seam's functions under them):
//   ORDO_CUDA_SEAM    the warp-shuffle specializations: CUDA, Ordo_ENABLE_CUDA_SPECIALIZATIONS
//   ORDO_CUDA_VENDOR  the vendor calls (CUB, Vendor<Kokkos::Cuda> below): CUDA,
//                     Ordo_ENABLE_CUB
//   ORDO_HIP_VENDOR   its HIP twin (rocPRIM's radix sort, Vendor<Kokkos::HIP>): HIP,
//                     Ordo_ENABLE_ROCPRIM
//   ORDO_VENDOR_SORT  either: a vendor radix sort behind the sort's dispatch
#if defined(KOKKOS_ENABLE_CUDA) && defined(ORDO_ENABLE_CUDA_SPECIALIZATIONS)
#define ORDO_CUDA_SEAM 1
#endif
#if defined(KOKKOS_ENABLE_CUDA) && defined(ORDO_ENABLE_CUB)
#define ORDO_CUDA_VENDOR 1
#endif
#if defined(KOKKOS_ENABLE_HIP) && defined(ORDO_ENABLE_ROCPRIM)
#define ORDO_HIP_VENDOR 1
#endif
#if defined(ORDO_CUDA_VENDOR) || defined(ORDO_HIP_VENDOR)
#define ORDO_VENDOR_SORT 1
#endif

// Fully unrolled loops in device code (register arrays indexed by the loop variable stay in
// registers); nothing on the host compilers.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define ORDO_UNROLL _Pragma("unroll")
#else
#define ORDO_UNROLL
#endif

namespace Ordo::Impl {

// Host backends (Serial, OpenMP, Threads) dispatch to host algorithms.
template <class ExecSpace>
inline constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

// A launch policy whose functor travels as the kernel's argument. Kokkos copies a functor of 512
// bytes or more (retrieve_all's selection carries a whole Kokkos::UnorderedMap; the segmented
// sort's radix passes carry their segment Views) to constant memory before each launch: a copy
// from pinned host memory on the stream, and a wait for the previous such kernel to finish.
template <class Policy>
auto by_argument(const Policy& policy) {
  return Kokkos::Experimental::require(policy,
                                       Kokkos::Experimental::WorkItemProperty::HintLightWeight);
}

// Rank-1 Views whose element i is data()[i].
template <class V, class = void>
inline constexpr bool is_contiguous_1d_v = false;
template <class V>
inline constexpr bool is_contiguous_1d_v<V, std::enable_if_t<Kokkos::is_view_v<V>>> =
    unsigned(V::rank) == 1 && (std::is_same_v<typename V::array_layout, Kokkos::LayoutRight> ||
                               std::is_same_v<typename V::array_layout, Kokkos::LayoutLeft>);

// x, hidden from the optimizer in CUDA device code. Kokkos runs a team's body in a loop over league
// ranks; from a plain thread index the compiler hoists everything derived from it (every
// register's load and store position, every stage's lane predicates) out of that loop and holds
// it in registers for the whole kernel (sort's block kernel took twice the registers). Team
// kernels index by opaque(member.team_rank()).
KOKKOS_FORCEINLINE_FUNCTION int opaque(int x) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+r"(x));
#endif
  return x;
}

// f(0), f(1), ..., f(N - 1), each index a std::integral_constant: a loop unrolled whatever the
// compiler estimates (host walks interleaved in lockstep keep each walk's state in registers only
// where their loop over the walks is unrolled; g++ keeps a loop over four walks' bodies rolled).
template <class F, int... I>
KOKKOS_FORCEINLINE_FUNCTION void unrolled_impl(const F& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F>
KOKKOS_FORCEINLINE_FUNCTION void unrolled(const F& f) {
  unrolled_impl(f, std::make_integer_sequence<int, N>{});
}

// a where c, else b, without a branch for integers and floating-point numbers (a mask over their
// bits; g++ turns c ? a : b into a branch where one side costs more than a move, and a walk whose
// selections follow the data then pays a misprediction for every other run); other types by ?:.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T pick(bool c, const T& a, const T& b) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                (sizeof(T) == 4 || sizeof(T) == 8)) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    const U mask = U(0) - U(c);
    return Kokkos::bit_cast<T>(
        U((Kokkos::bit_cast<U>(a) & mask) | (Kokkos::bit_cast<U>(b) & ~mask)));
  } else {
    return c ? a : b;
  }
}

// Whether ExecSpace is Kokkos::Cuda (false in builds without the CUDA backend).
template <class ExecSpace>
inline constexpr bool is_cuda_space_v =
#if defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<ExecSpace, Kokkos::Cuda>;
#else
    false;
#endif

// Whether the CUDA warp-shuffle specializations are built (CUDA backend and
// Ordo_ENABLE_CUDA_SPECIALIZATIONS).
inline constexpr bool cuda_specializations_built =
#if defined(ORDO_CUDA_SEAM)
    true;
#else
    false;
#endif

// The vendor library of an execution space as the device level asks it, the one vendor seam: for
// each call family, whether the vendor can take a call with Ordo's contract, and the calls. This
// primary template is a space without one (every answer false, no call); each vendor library
// specializes it in its seam (device/cuda/Ordo_Cuda_Cub.hpp: CUB for Kokkos::Cuda;
// device/hip/Ordo_Hip_Rocprim.hpp: rocPRIM for Kokkos::HIP), where every eligibility rule lives.
//   radix_sort, merge_sort        the sorts (sort and sort_into; sort_merge)
//   takes_merge<A, B, Out, Comp>  merge (keys alone)
//   takes_unique, takes_run_length_encode, takes_reduce_by_key, takes_scan_by_key
//                                 the runs and the scans by key (the Views' types, comparator, op)
//   takes_select<In, Out>         copy_if
//   takes_size(n, from, outs...)  n elements, from `from` on, with outputs that hold n
//   scan_temp_bound(n)            a bound of the temporary storage of its single-pass scans
//                                 (selection, the runs, the scans by key) on n elements, for the
//                                 workspace bounds that cannot ask the call itself
// Each takes_* says whether the vendor's result is Ordo's, bit for bit; the device level asks it,
// then the vendor's temporary storage through device/Ordo_VendorCalls.hpp.
struct NoVendor {
  // What Ordo::print_configuration names as the vendor calls of the space.
  static constexpr const char* name = "none";
  static constexpr bool radix_sort = false;
  static constexpr bool merge_sort = false;
  template <class... T>
  static constexpr bool takes_merge() {
    return false;
  }
  template <class... T>
  static constexpr bool takes_unique() {
    return false;
  }
  template <class... T>
  static constexpr bool takes_run_length_encode() {
    return false;
  }
  template <class... T>
  static constexpr bool takes_reduce_by_key() {
    return false;
  }
  template <class... T>
  static constexpr bool takes_scan_by_key() {
    return false;
  }
  template <class... T>
  static constexpr bool takes_select() {
    return false;
  }
  template <class... Outs>
  static bool takes_size(std::int64_t, std::int64_t, const Outs&...) {
    return false;
  }
  static constexpr std::size_t scan_temp_bound(std::int64_t) { return 0; }
};
template <class ExecSpace>
struct Vendor : NoVendor {};

// The lanes of the CUDA warp that the seam's kernels are written for (a slab's lanes, a ballot's
// bits, a shuffle's width). Only the seam's launches use it: portable kernels size their lane
// groups by their tuning's `lanes` (a TeamPolicy vector length every backend accepts), so nothing
// portable assumes 32 lanes (AMD wavefronts have 64).
inline constexpr int cuda_warp_lanes = 32;

// The team-level seam (team/Ordo_WarpSeam.hpp): the portable team operations of the tile agents
// and, where a backend seam specializes it (team/cuda/Ordo_Cuda_WarpSeam.hpp), its warps'.
template <class ExecSpace>
struct WarpSeam;

// A team's threads' counts, scanned: `before`, those of the threads before this one; `total`, the
// team's (WarpSeam's scan_counts).
struct TeamCounts {
  int before, total;
};

// Memory operations with a CUDA specialization, under one name on every backend.
namespace Seam {

// One aligned 64-bit word read and written as a single access (a look-back's words): relaxed at
// device scope on CUDA, volatile elsewhere.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t load_relaxed(const std::uint64_t& word) {
#if defined(KOKKOS_ENABLE_CUDA)
  return CudaSeam::load_relaxed(word);
#else
  return *static_cast<const volatile std::uint64_t*>(&word);
#endif
}
KOKKOS_FORCEINLINE_FUNCTION void store_relaxed(std::uint64_t& word, std::uint64_t value) {
#if defined(KOKKOS_ENABLE_CUDA)
  CudaSeam::store_relaxed(word, value);
#else
  *static_cast<volatile std::uint64_t*>(&word) = value;
#endif
}

// Asynchronous copies of Bytes from global memory to team scratch (CUDA: cp.async; elsewhere a
// plain copy), a thread's group of them closed by async_commit and awaited by async_wait.
template <int Bytes>
KOKKOS_FORCEINLINE_FUNCTION void async_copy(void* dst, const void* src) {
#if defined(KOKKOS_ENABLE_CUDA)
  CudaSeam::async_copy<Bytes>(dst, src);
#else
  struct alignas(Bytes) Chunk {
    unsigned char b[Bytes];
  };
  *static_cast<Chunk*>(dst) = *static_cast<const Chunk*>(src);
#endif
}
template <class ExecSpace>
KOKKOS_FORCEINLINE_FUNCTION void async_commit() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (is_cuda_space_v<ExecSpace>) CudaSeam::async_commit();
#endif
}
template <class ExecSpace, int Pending>
KOKKOS_FORCEINLINE_FUNCTION void async_wait() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (is_cuda_space_v<ExecSpace>) CudaSeam::async_wait<Pending>();
#endif
}

// Where the pointer of an unmanaged View lies, as far as the backend's driver can tell: whether
// ExecSpace surely cannot reach it (CUDA: host memory the device cannot reach, or memory the
// driver cannot place; a host space: CUDA device memory). false where no driver can tell.
template <class ExecSpace>
bool unreachable(const void* p) {
#if defined(KOKKOS_ENABLE_CUDA)
  using CudaSeam::PointerKind;
  if constexpr (is_cuda_space_v<ExecSpace>) {
    const PointerKind kind = CudaSeam::pointer_kind(p);
    return kind == PointerKind::host || kind == PointerKind::unknown;
  } else if constexpr (is_host_space_v<ExecSpace>) {
    return CudaSeam::pointer_kind(p) == PointerKind::device;
  }
#endif
  (void)p;
  return false;
}

}  // namespace Seam

}  // namespace Ordo::Impl

#endif
