// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CHECKS_HPP
#define ORDO_IMPL_CHECKS_HPP

// Argument checks shared by every device-level algorithm. They run before any kernel of the
// algorithm and throw std::invalid_argument with a message that starts with the function's name.

#include <Ordo_BuildOptions.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>
#include <impl/core/Ordo_Traits.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// The Kokkos Tools profiling region of a public call, named after it ("Ordo::sort"): a profiler
// (the space-time stack, Nsight Systems through NVTX) shows each Ordo call as one item around
// its kernels, whose labels are Ordo::<algo>::<phase>. Opened first, before the argument checks.
using Region = Kokkos::Profiling::ScopedRegion;

[[noreturn]] inline void fail(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

template <class View>
void check_size_at_least(const char* function, const char* name, const View& v,
                         std::size_t needed) {
  if (v.extent(0) < needed) {
    fail(function, std::string(name) + " has " + std::to_string(v.extent(0)) + " elements, needs " +
                       std::to_string(needed));
  }
}

template <class View>
void check_size_equal(const char* function, const char* name, const View& v, std::size_t needed,
                      const char* reason) {
  if (v.extent(0) != needed) {
    fail(function, std::string(name) + " has " + std::to_string(v.extent(0)) + " elements, needs " +
                       std::to_string(needed) + " (" + reason + ")");
  }
}

// The bytes a View spans, from its first element to one past its last.
template <class View>
std::pair<std::uintptr_t, std::uintptr_t> byte_range(const View& v) {
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  if (v.size() == 0) return {begin, begin};
  // Address arithmetic only: the View's memory may not be accessible from the host.
  const std::size_t elem = sizeof(typename View::value_type);
  if constexpr (View::rank() > 1) return {begin, begin + v.span() * elem};
  return {begin, begin + (v.extent(0) - 1) * v.stride(0) * elem + elem};
}

// check_no_alias(function, out_name, out, name1, view1, name2, view2, ...): out may not overlap
// any of the named Views (inputs, or outputs checked before it).
template <class OutView>
void check_no_alias(const char*, const char*, const OutView&) {}

// Whether two Views share a byte of an element. Byte spans that overlap decide, except for
// two Views of one stride (the columns of a LayoutRight 2-D View, an array of structs): their
// elements then interleave without touching where they start at different offsets in the stride.
template <class AView, class BView>
bool elements_overlap(const AView& a, const BView& b) {
  const auto [a0, a1] = byte_range(a);
  const auto [b0, b1] = byte_range(b);
  if (!(a0 < b1 && b0 < a1)) return false;
  if constexpr (AView::rank() > 1 || BView::rank() > 1) return true;
  const std::size_t ea = sizeof(typename AView::value_type);
  const std::size_t eb = sizeof(typename BView::value_type);
  const std::size_t sa = a.extent(0) > 1 ? a.stride(0) * ea : 0;
  const std::size_t sb = b.extent(0) > 1 ? b.stride(0) * eb : 0;
  if (sa == 0 || sa != sb || sa == ea || sb == eb) return true;
  // b's elements start d bytes into a's stride: they miss a's [0, ea) where [d, d + eb) does.
  const std::size_t d = (b0 >= a0 ? b0 - a0 : sa - (a0 - b0) % sa) % sa;
  return d < ea || d + eb > sa;
}

template <class OutView, class View, class... Rest>
void check_no_alias(const char* function, const char* out_name, const OutView& out,
                    const char* name, const View& v, const Rest&... rest) {
  if (elements_overlap(out, v)) {
    fail(function,
         std::string(out_name) + " aliases " + name + " (an output may not overlap another View)");
  }
  check_no_alias(function, out_name, out, rest...);
}

// The largest index into `extent` elements (0 where there are none).
inline std::size_t largest_index(std::size_t extent) { return extent ? extent - 1 : 0; }

// check_no_alias_among(function, what, v1, v2, ...): no two of the Views overlap.
template <class View>
void check_no_alias_among(const char*, const char*, const View&) {}

template <class View, class... Rest>
void check_no_alias_among(const char* function, const char* what, const View& v,
                          const Rest&... rest) {
  const std::string name = std::string("one of the ") + what;
  (check_no_alias(function, name.c_str(), v, "another", rest), ...);
  check_no_alias_among(function, what, rest...);
}

// Integer outputs that hold positions must be able to hold the largest one.
template <class View>
void check_index_capacity(const char* function, const char* name, const View& v,
                          std::size_t largest) {
  using T = typename View::non_const_value_type;
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>,
                "Ordo: index and count Views hold an integer type");
  if (v.extent(0) != 0 &&
      largest > static_cast<std::make_unsigned_t<T>>(std::numeric_limits<T>::max())) {
    fail(function, std::string(name) + "'s value type cannot hold " + std::to_string(largest) +
                       " (use a 64-bit index View)");
  }
}

// A View's memory must be reachable from the execution space at run time: the static_assert of
// each algorithm covers the View's type, this covers unmanaged Views whose pointer lies elsewhere.
// Managed Views (and their subviews) were allocated by Kokkos in their own memory space, so only
// unmanaged ones need the driver's pointer query.
template <class ExecSpace, class View>
void check_reachable(const char* function, const char* name, const View& v) {
  if (v.use_count() > 0 || v.extent(0) == 0) return;
  if (Seam::unreachable<ExecSpace>(v.data())) {
    fail(function,
         std::string(name) +
             (is_host_space_v<ExecSpace> ? " points to CUDA device memory a host space cannot reach"
                                         : " points to host memory the CUDA space cannot reach"));
  }
}

// check_reachable for several Views: name1, view1, name2, view2, ...
template <class ExecSpace>
void check_all_reachable(const char*) {}

template <class ExecSpace, class View, class... Rest>
void check_all_reachable(const char* function, const char* name, const View& v,
                         const Rest&... rest) {
  check_reachable<ExecSpace>(function, name, v);
  check_all_reachable<ExecSpace>(function, rest...);
}

// Views of rank 1, or with MaxRank 2 also of rank 2 (apply_permutation: a row a position,
// View<double*[3]>).
template <class ExecSpace, class View, int MaxRank = 1>
constexpr void static_check_view() {
  static_assert(Kokkos::is_view_v<View>, "Ordo: arguments must be Kokkos::View");
  if constexpr (MaxRank == 1) {
    static_assert(View::rank() == 1, "Ordo: Views must be rank 1");
  } else {
    static_assert(View::rank() == 1 || View::rank() == 2, "Ordo: Views must be rank 1 or 2");
  }
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible,
                "Ordo: a View's memory space is not accessible from the execution space");
}

template <class ExecSpace, class... Views>
constexpr void static_check_views() {
  (static_check_view<ExecSpace, Views>(), ...);
}

// An index output of `size` positions whose values go up to `largest`.
template <class ExecSpace, class View>
void check_index_output(const char* fn, const char* name, const View& v, std::size_t size,
                        std::size_t largest) {
  static_check_views<ExecSpace, View>();
  check_size_at_least(fn, name, v, size);
  check_index_capacity(fn, name, v, largest);
}

// The first i with v(i) ordering before v(i - 1) (a minimum reduction).
template <class View, class Comp>
struct FirstUnsorted {
  View v;
  Comp comp;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& f) const {
    if (comp(v(i), v(i - 1)) && i < f) f = i;
  }
};

// Debug check: v is sorted under comp. Reports the first position where it is not. (A named
// functor: nvcc left the host side of this extended lambda unset, a call to address 0, where the
// set operations' function objects instantiated it.)
template <class ExecSpace, class View, class Comp>
void check_sorted(const char* function, const char* name, const ExecSpace& space, const View& v,
                  const Comp& comp) {
  const std::int64_t n = v.extent(0);
  if (n < 2) return;
  std::int64_t first = n;
  Kokkos::parallel_reduce(
      "Ordo::check_sorted",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 1, n),
      FirstUnsorted<View, Comp>{v, comp}, Kokkos::Min<std::int64_t>(first));
  if (first < n) {
    fail(function, std::string(name) + " is not sorted: element " + std::to_string(first) +
                       " orders before element " + std::to_string(first - 1));
  }
}

inline constexpr bool debug_checks =
#if defined(ORDO_ENABLE_DEBUG_CHECKS)
    true;
#else
    false;
#endif

// The team and thread calls' checks, inside a user's kernel, where no exception can leave: with
// ORDO_ENABLE_DEBUG_CHECKS, Kokkos::abort with `message` (which names the call) unless `ok`.
KOKKOS_INLINE_FUNCTION void kernel_check([[maybe_unused]] bool ok,
                                         [[maybe_unused]] const char* message) {
#if defined(ORDO_ENABLE_DEBUG_CHECKS)
  if (!ok) Kokkos::abort(message);
#endif
}

}  // namespace Ordo::Impl

#endif
