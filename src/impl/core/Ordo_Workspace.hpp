// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_WORKSPACE_HPP
#define ORDO_IMPL_WORKSPACE_HPP

// Device-level algorithms that need temporary storage (the merge-path partition of large inputs)
// take it from a grow-only buffer kept per execution space instance (per instance_key) and per
// host thread, so that repeated calls do not allocate. Work on one instance is ordered by that
// instance, which makes reuse by one host thread safe; two host threads calling Ordo on one
// instance at once use buffers of their own (their launches interleave on the instance, so a
// shared buffer would be overwritten between one call's kernels). A call that needs more than the
// buffer holds fences the instance (the earlier calls that use the buffer may still run on it),
// then replaces the buffer (one allocation). Buffers are released before Kokkos::finalize, or by
// Ordo::release_workspaces().
//
// A buffer is named by a slot: a value of an enum of its owner's. The core's calls name theirs in
// WorkspaceSlot; a subpackage declares an enum of its own (packages/mpi: MPISlot), and so does a
// call that needs a slot per argument (apply_permutation: PermutationSlot). Slots of different
// enums never share a buffer.

#include <impl/core/Ordo_Checks.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

namespace Ordo {
namespace Impl {

template <class MemorySpace>
struct WorkspaceRegistry {
  std::mutex mutex;
  // (instance, host thread, the slot's enum, the slot) -> buffer
  using Key = std::tuple<std::uintptr_t, std::thread::id, const void*, int>;
  std::map<Key, Kokkos::View<std::byte*, MemorySpace>> buffers;
  bool hook_installed = false;

  static WorkspaceRegistry& get() {
    static WorkspaceRegistry registry;
    return registry;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex);
    buffers.clear();
  }
  std::size_t bytes() {
    std::lock_guard<std::mutex> lock(mutex);
    std::size_t total = 0;
    for (const auto& entry : buffers) total += entry.second.extent(0);
    return total;
  }
};

// The independent buffers one call of the core may hold at once.
enum class WorkspaceSlot : int {
  partition = 0,
  counts = 1,
  sort_keys0 = 2,
  sort_keys1 = 3,
  sort_values0 = 4,
  sort_values1 = 5,
  sort_permutation = 6,
  sort_samples = 7,
  radix_words = 8,
  radix_counts = 9,
  read_back = 10,  // pinned host memory (read_back)
  segment_lists = 11,
  segment_slots = 12,
  segment_keys = 13,
  segment_values = 14,
  segment_order0 = 15,
  segment_order1 = 16,
  segment_firsts = 17,
  segment_cursors = 18,
  set_cuts = 19,
  set_words = 20,
  set_staged = 21,
  join_lower = 22,
  join_count = 23,
  join_scan = 24,
  join_b_lower = 25,
  join_b_scan = 26,
  scan_words = 27,
  vendor_bits = 28,  // the vendor sort's varying bits (Ordo_SortVendorImpl.hpp)
  vendor_temp = 29,  // CUB's temporary storage
  runs_words = 30,   // reduce_by_key's look-back words and carries (Ordo_RunsImpl.hpp)
  runs_carries = 31
};

// What tells instances apart: the address of the instance's internal state, which every Kokkos
// backend has (Kokkos Tools' device id does not: every OpenMP partition has instance id 1, so two
// partitions sorting at once from two host threads shared buffers), else the device id.
template <class ExecSpace, class = void>
struct HasInternalInstance : std::false_type {};
template <class ExecSpace>
struct HasInternalInstance<
    ExecSpace,
    std::void_t<decltype(std::declval<const ExecSpace&>().impl_internal_space_instance())>>
    : std::true_type {};

template <class ExecSpace>
std::uintptr_t instance_key(const ExecSpace& space) {
  if constexpr (HasInternalInstance<ExecSpace>::value) {
    return reinterpret_cast<std::uintptr_t>(space.impl_internal_space_instance());
  } else {
    return Kokkos::Tools::Experimental::device_id(space);
  }
}

// At least `count` elements of T in the workspace slot of `space` and the calling host thread,
// valid until the next call on the same instance from the same thread that asks that slot for
// more.
// (MemorySpace: where the slot lies; by default the execution space's memory.)
template <class T, class ExecSpace, class MemorySpace = typename ExecSpace::memory_space>
using WorkspaceView = Kokkos::View<T*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// One object per slot enum: its address tells the enums apart.
template <class Slot>
inline constexpr char slot_enum_tag = 0;

template <class T, class ExecSpace, class MemorySpace = typename ExecSpace::memory_space,
          class Slot = WorkspaceSlot>
WorkspaceView<T, ExecSpace, MemorySpace> workspace(const ExecSpace& space, std::size_t count,
                                                   Slot slot = WorkspaceSlot::partition) {
  static_assert(std::is_enum_v<Slot>, "a workspace slot is a value of an enum");
  auto& registry = WorkspaceRegistry<MemorySpace>::get();
  const typename WorkspaceRegistry<MemorySpace>::Key key{
      instance_key(space), std::this_thread::get_id(), &slot_enum_tag<Slot>, int(slot)};
  const std::size_t bytes = count * sizeof(T) + alignof(std::max_align_t);
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (!registry.hook_installed) {
    Kokkos::push_finalize_hook([] { WorkspaceRegistry<MemorySpace>::get().clear(); });
    registry.hook_installed = true;
  }
  auto& buffer = registry.buffers[key];
  if (buffer.extent(0) < bytes) {
    if (buffer.extent(0) > 0) space.fence("Ordo::workspace: fence before the buffer grows");
    buffer = Kokkos::View<std::byte*, MemorySpace>();
    try {
      buffer = Kokkos::View<std::byte*, MemorySpace>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Ordo::workspace"), 2 * bytes);
    } catch (const std::exception& e) {
      throw std::runtime_error("Ordo: could not allocate " + std::to_string(2 * bytes) +
                               " bytes of workspace in " + MemorySpace::name() +
                               "; the call's inputs are unchanged (" + e.what() + ")");
    }
  }
  return WorkspaceView<T, ExecSpace, MemorySpace>(reinterpret_cast<T*>(buffer.data()), count);
}

// counts(0, K) on the host: one asynchronous copy into the instance's pinned host slot
// (Kokkos::SharedHostPinnedSpace), then one fence of `space` labelled `fence`.
template <std::size_t K, class ExecSpace, class CountView>
std::array<std::int64_t, K> read_back(const ExecSpace& space, const CountView& counts,
                                      const std::string& fence) {
  const auto host = workspace<std::int64_t, ExecSpace, Kokkos::SharedHostPinnedSpace>(
      space, K, WorkspaceSlot::read_back);
  Kokkos::deep_copy(space, host,
                    Kokkos::subview(counts, Kokkos::pair<std::size_t, std::size_t>(0, K)));
  space.fence(fence);
  std::array<std::int64_t, K> values{};
  for (std::size_t i = 0; i < K; ++i) values[i] = host(i);
  return values;
}

// Reads the size back and reports an output too short for it.
template <class ExecSpace, class Count>
std::int64_t size_checked(const char* fn, const ExecSpace& space, const Count& count,
                          std::int64_t capacity, const char* out_name) {
  const std::int64_t size = read_back<1>(space, count, std::string(fn) + ": fence")[0];
  if (size > capacity) {
    fail(fn, std::string(out_name) + " has " + std::to_string(capacity) + " elements, needs " +
                 std::to_string(size) + " (the first " + std::to_string(capacity) +
                 " outputs were written)");
  }
  return size;
}

// The values of several int64 scalars of device Views (rank-0 Views, such as subview(v, i)) on
// the host: one asynchronous copy each into the instance's pinned host slot, then one fence.
template <class ExecSpace, class... Scalars>
std::array<std::int64_t, sizeof...(Scalars)> read_back_scalars(const ExecSpace& space,
                                                               const std::string& fence,
                                                               const Scalars&... scalars) {
  static_assert(((Scalars::rank() == 0 &&
                  std::is_same_v<typename Scalars::non_const_value_type, std::int64_t>)&&...),
                "read_back_scalars reads rank-0 Views of std::int64_t");
  const auto host = workspace<std::int64_t, ExecSpace, Kokkos::SharedHostPinnedSpace>(
      space, sizeof...(Scalars), WorkspaceSlot::read_back);
  std::size_t i = 0;
  (Kokkos::deep_copy(space, Kokkos::subview(host, i++), scalars), ...);
  space.fence(fence);
  std::array<std::int64_t, sizeof...(Scalars)> values{};
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = host(k);
  return values;
}

}  // namespace Impl

/// Frees every workspace buffer Ordo holds in MemorySpace (the counts Ordo reads back sit in
/// Kokkos::SharedHostPinnedSpace). Synchronization: none needed beyond the caller's guarantee that
/// no Ordo call is in flight.
template <class MemorySpace>
void release_workspaces() {
  Impl::WorkspaceRegistry<MemorySpace>::get().clear();
}

/// The bytes of workspace Ordo holds in MemorySpace, over every execution space instance and host
/// thread (what release_workspaces<MemorySpace>() would free).
template <class MemorySpace>
std::size_t workspace_bytes() {
  return Impl::WorkspaceRegistry<MemorySpace>::get().bytes();
}

}  // namespace Ordo

#endif
