// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_VENDORCALLS_HPP
#define ORDO_IMPL_VENDORCALLS_HPP

// The device level's way into the vendor seam: Vendor<ExecSpace> (core/Ordo_Traits.hpp, specialized
// by each vendor library's seam file, included here) says whether the vendor takes a call and makes
// it; this file holds the one implementation of the vendors' two-phase temporary storage (CUB's and
// rocPRIM's alike: a call with temp null sets the bytes it needs, then the call with them runs).
// The size is asked once per shape of each call site and remembered; the storage comes from the
// workspace (WorkspaceSlot::vendor_temp), inside the bound a call passes.

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/cuda/Ordo_Cuda_Cub.hpp>
#include <impl/device/hip/Ordo_Hip_Rocprim.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace Ordo::Impl {

// What a vendor call's temporary storage depends on, beside its types: its sizes and, for the
// radix sort, the bits it sorts (a call site's own flags in `flags`).
struct VendorShape {
  std::int64_t n = -1, m = 0;
  int begin = 0, end = 0, flags = 0;
  friend bool operator==(const VendorShape& x, const VendorShape& y) {
    return x.n == y.n && x.m == y.m && x.begin == y.begin && x.end == y.end && x.flags == y.flags;
  }
};

// The bytes of temporary storage the vendor call `query(temp, bytes)` needs for this shape: asked
// with temp null the first time the shape comes to this call site (Query's type names it), then
// remembered (the last four shapes of each call site, per host thread).
template <class Query>
std::size_t vendor_temp_bytes(const VendorShape& shape, const Query& query) {
  struct Known {
    VendorShape shape;
    std::size_t bytes = 0;
  };
  static thread_local Known known[4];
  static thread_local int next = 0;
  for (const Known& k : known) {
    if (k.shape == shape) return k.bytes;
  }
  std::size_t bytes = 0;
  query(nullptr, bytes);
  known[next] = Known{shape, bytes};
  next = (next + 1) % 4;
  return bytes;
}

// The vendor's temporary storage for call(temp, bytes) of this shape, from the workspace.
template <class ExecSpace, class Call>
WorkspaceView<std::byte, ExecSpace> vendor_temp(const ExecSpace& space, const VendorShape& shape,
                                                const Call& call) {
  return workspace<std::byte>(space, vendor_temp_bytes(shape, call), WorkspaceSlot::vendor_temp);
}

// Makes the vendor call call(temp, bytes) of this shape with its storage from the workspace (in
// `slot`: a call that replaces Ordo's kernel may take that kernel's slot): true if it ran, false
// where the storage would pass `bound` bytes (then nothing ran and no workspace was taken).
template <class ExecSpace, class Call>
bool with_vendor_temp(const ExecSpace& space, const VendorShape& shape, const Call& call,
                      std::size_t bound = std::numeric_limits<std::size_t>::max(),
                      WorkspaceSlot slot = WorkspaceSlot::vendor_temp) {
  std::size_t bytes = vendor_temp_bytes(shape, call);
  if (slot_bytes<std::byte>(std::int64_t(bytes)) > bound) return false;
  call(workspace<std::byte>(space, bytes, slot).data(), bytes);
  return true;
}

// The dispatch of every call the vendor makes whole (ask, reserve, call): where the vendor takes
// shape.n elements from `from` on with these outputs (Vendor::takes_size), makes call(temp, bytes)
// with its storage from the workspace and answers true; else false, and nothing ran.
template <class ExecSpace, class Call, class... Outs>
bool vendor_call(const ExecSpace& space, std::int64_t from, const VendorShape& shape,
                 const Call& call, const Outs&... outs) {
  return Vendor<ExecSpace>::takes_size(shape.n, from, outs...) &&
         with_vendor_temp(space, shape, call);
}

}  // namespace Ordo::Impl

#endif
