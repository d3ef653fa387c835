// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_VENDORCALLS_HPP
#define ORDO_IMPL_VENDORCALLS_HPP

// The two rules the device level's calls into the vendor seam share (the runs, the scans by key,
// copy_if): which sizes and outputs a vendor call can take with Ordo's contract, and the vendor's
// two-phase temporary storage, taken from the workspace. What each call's keys, values and
// operators must be is said beside it (vendor_keys_v, vendor_op_v in Ordo_RunsImpl.hpp); the
// sort's radix sort has its own object (VendorRadix, Ordo_SortVendorImpl.hpp), which keeps its
// storage sizes per shape.

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Workspace.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace Ordo::Impl {

// The vendor seam takes n elements from `from` on (the vendor's calls count in an int), where
// every output holds n: the vendor writes every result and cannot stop at an output's end.
template <class ExecSpace, class... Outs>
bool vendor_takes(std::int64_t n, std::int64_t from, const Outs&... outs) {
  return is_cuda_space_v<ExecSpace> && n >= from && n <= std::numeric_limits<int>::max() &&
         ((std::int64_t(outs.extent(0)) >= n) && ...);
}

// call(temp, bytes), the vendor's way: once with temp null to size its temporary storage, then
// with that storage from the workspace.
template <class ExecSpace, class Call>
void with_vendor_temp(const ExecSpace& space, const Call& call) {
  std::size_t bytes = 0;
  call(nullptr, bytes);
  call(workspace<std::byte>(space, bytes, WorkspaceSlot::vendor_temp).data(), bytes);
}

}  // namespace Ordo::Impl

#endif
