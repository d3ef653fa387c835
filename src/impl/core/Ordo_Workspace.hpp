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
// A cap on the bytes held in a memory space (Ordo::set_workspace_limit) is kept by the public
// calls: each reserves an upper bound of what it will take (its family's *_workspace_bytes query)
// before anything runs (WorkspaceReservation), which throws if the buffers of other instances and
// host threads leave too little, and frees the calling instance and thread's own buffers first if
// they are in the way. Under a cap, buffers grow to what is asked, not twice that.
//
// A buffer is named by a slot: a value of an enum of its owner's. The core's calls name theirs in
// WorkspaceSlot; a subpackage declares an enum of its own (packages/mpi: MPISlot), and so does a
// call that needs a slot per argument (apply_permutation: PermutationSlot). Slots of different
// enums never share a buffer.

#include <impl/core/Ordo_Checks.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
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
  std::atomic<std::size_t> limit{std::numeric_limits<std::size_t>::max()};

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
    return held();
  }
  // An instance and host thread, the owner of the buffers of its keys.
  using Owner = std::pair<std::uintptr_t, std::thread::id>;
  static bool owns(const Owner& owner, const Key& key) {
    return std::get<0>(key) == owner.first && std::get<1>(key) == owner.second;
  }
  // The bytes held (the caller holds the mutex); of one owner's buffers with `owner`.
  std::size_t held(const Owner* owner = nullptr) const {
    std::size_t total = 0;
    for (const auto& [key, buffer] : buffers) {
      if (!owner || owns(*owner, key)) total += buffer.extent(0);
    }
    return total;
  }
  // Frees one owner's buffers (the caller holds the mutex and has fenced the owner's instance).
  void release(const Owner& owner) {
    for (auto it = buffers.begin(); it != buffers.end();) {
      it = owns(owner, it->first) ? buffers.erase(it) : std::next(it);
    }
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
  runs_carries = 31,
  bin_keys = 32,        // bin_permutation's sorted ids (Ordo_BinningImpl.hpp)
  bin_positions = 33,   // its sort's input positions
  bin_counts = 34,      // its host counting sort's counts
  multikey_order = 35,  // the sorts by several keys' order and gathered bits
  multikey_bits = 36    // (Ordo_SortMultiKeyImpl.hpp)
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
    // Under a cap: what is asked, and only within the cap (the call's reservation made room: a
    // call that gets here past the cap took more than its family's query says).
    const std::size_t others = registry.held() - buffer.extent(0);
    const std::size_t limit = registry.limit.load();
    const bool capped = limit != std::numeric_limits<std::size_t>::max();
    if (capped && others + bytes > limit) {
      throw std::runtime_error("Ordo: the workspace limit of " + std::to_string(limit) +
                               " bytes in " + MemorySpace::name() + " leaves " +
                               std::to_string(limit - std::min(others, limit)) +
                               " bytes, a buffer of " + std::to_string(bytes) +
                               " was asked beyond the call's reservation (please report)");
    }
    if (buffer.extent(0) > 0) space.fence("Ordo::workspace: fence before the buffer grows");
    buffer = Kokkos::View<std::byte*, MemorySpace>();
    const std::size_t grown = capped ? bytes : 2 * bytes;
    try {
      buffer = Kokkos::View<std::byte*, MemorySpace>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Ordo::workspace"), grown);
    } catch (const std::exception& e) {
      throw std::runtime_error("Ordo: could not allocate " + std::to_string(grown) +
                               " bytes of workspace in " + MemorySpace::name() +
                               "; the call's inputs are unchanged (" + e.what() + ")");
    }
  }
  return WorkspaceView<T, ExecSpace, MemorySpace>(reinterpret_cast<T*>(buffer.data()), count);
}

// The bytes workspace<T>(space, count, slot) asks of its slot (the query functions' unit).
template <class T>
constexpr std::size_t slot_bytes(std::int64_t count) {
  return std::size_t(count > 0 ? count : 0) * sizeof(T) + alignof(std::max_align_t);
}

// The bytes of the 8-byte words of a tiled pass over n elements, tiles of at least 128 (every
// tiled kernel's tiles are larger on every backend: the bound of the look-back words, partitions
// and tile counts).
inline std::size_t tile_words_bytes(std::int64_t n) {
  return slot_bytes<std::uint64_t>(n / 128 + 3);
}

// What a call reserves for `bound` bytes of workspace: on backends whose pinned host memory is
// their own memory (host backends), also the slot of the counts read back.
template <class ExecSpace>
std::size_t reserved_bytes(std::size_t bound) {
  using MemorySpace = typename ExecSpace::memory_space;
  constexpr bool shared = std::is_same_v<Kokkos::SharedHostPinnedSpace, MemorySpace>;
  return bound + (shared ? slot_bytes<std::int64_t>(64) : 0);
}

// The calling host thread's depth of public calls (a call inside a call reserves nothing).
inline thread_local int reservation_depth = 0;

// Reserves bound() bytes (reserved_bytes; asked only under a limit, so that calls without one
// pay nothing for it) of workspace in ExecSpace's memory for one public call, before anything
// runs: under a limit, throws std::runtime_error (`fn`: needed, held elsewhere, the
// limit) if the buffers of other instances and host threads leave less, and frees this instance and
// thread's own buffers (after a fence of `space`) where keeping them would pass the limit.
template <class ExecSpace>
class WorkspaceReservation {
 public:
  template <class Bound>
  WorkspaceReservation(const char* fn, const ExecSpace& space, const Bound& bound) {
    using MemorySpace = typename ExecSpace::memory_space;
    auto& registry = WorkspaceRegistry<MemorySpace>::get();
    if (reservation_depth == 0 &&
        registry.limit.load() != std::numeric_limits<std::size_t>::max()) {
      reserve(fn, space, registry, reserved_bytes<ExecSpace>(bound()));
    }
    ++reservation_depth;  // after anything that throws: no destructor runs then
  }
  ~WorkspaceReservation() { --reservation_depth; }
  WorkspaceReservation(const WorkspaceReservation&) = delete;
  WorkspaceReservation& operator=(const WorkspaceReservation&) = delete;

 private:
  template <class Registry>
  static void reserve(const char* fn, const ExecSpace& space, Registry& registry,
                      std::size_t bytes) {
    using MemorySpace = typename ExecSpace::memory_space;
    std::lock_guard<std::mutex> lock(registry.mutex);
    const std::size_t limit = registry.limit.load();
    const typename Registry::Owner owner{instance_key(space), std::this_thread::get_id()};
    const std::size_t total = registry.held(), own = registry.held(&owner);
    if (total - own + bytes > limit) {
      throw std::runtime_error(
          std::string(fn) + ": needs up to " + std::to_string(bytes) + " bytes of workspace in " +
          MemorySpace::name() + ", over the limit of " + std::to_string(limit) + " with " +
          std::to_string(total - own) +
          " held by other instances and threads (Ordo::set_workspace_limit); nothing ran and "
          "the inputs are unchanged");
    }
    if (total + bytes > limit && own > 0) {
      space.fence("Ordo::workspace: fence before the buffers are freed under the limit");
      registry.release(owner);
    }
  }
};

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

}  // namespace Ordo

#endif
