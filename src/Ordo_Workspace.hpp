// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_WORKSPACE_HPP
#define ORDO_WORKSPACE_HPP

// Ordo's workspace as users see it: how much it holds, a cap, and freeing it. Each family's bound
// (sort_workspace_bytes, ...) is declared with its calls.

#include <impl/core/Ordo_Workspace.hpp>

#include <cstddef>

namespace Ordo {

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

/// Caps the workspace Ordo holds in MemorySpace at `bytes`, over every instance and host thread
/// (std::numeric_limits<std::size_t>::max(), the default: no cap). Each call first reserves what
/// its family's query says it may take (sort_workspace_bytes, segmented_sort_workspace_bytes,
/// merge_workspace_bytes, compaction_workspace_bytes, set_operation_workspace_bytes,
/// join_workspace_bytes; apply_permutation: its Views' bytes) and throws std::runtime_error before
/// anything runs, inputs unchanged, where the buffers held by other instances and threads leave
/// less; the calling instance and thread's own buffers are freed (after a fence of its instance)
/// where they are in the way. Under a cap, buffers grow to what a call asks rather than twice
/// that. Buffers already held are not freed by a lower cap (release_workspaces frees them).
/// Synchronization: none; set it with no Ordo call in flight.
template <class MemorySpace>
void set_workspace_limit(std::size_t bytes) {
  auto& registry = Impl::WorkspaceRegistry<MemorySpace>::get();
  registry.limit.store(bytes);
}

/// The cap set by set_workspace_limit<MemorySpace> (std::numeric_limits<std::size_t>::max():
/// none).
template <class MemorySpace>
std::size_t workspace_limit() {
  return Impl::WorkspaceRegistry<MemorySpace>::get().limit.load();
}

}  // namespace Ordo

#endif
