// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_HPP
#define ORDO_HPP

// Ordo: sorted-data primitives for Kokkos. The umbrella header.

#include <Ordo_Binning.hpp>
#include <Ordo_BuildOptions.hpp>
#include <Ordo_Comparators.hpp>
#include <Ordo_Configuration.hpp>
#include <Ordo_CopyIf.hpp>
#include <Ordo_Join.hpp>
#include <Ordo_LoadBalance.hpp>
#include <Ordo_Merge.hpp>
#include <Ordo_RetrieveAll.hpp>
#include <Ordo_Runs.hpp>
#include <Ordo_SegmentedSort.hpp>
#include <Ordo_SetOps.hpp>
#include <Ordo_Sort.hpp>
#include <Ordo_SortedSearch.hpp>
#include <Ordo_Version.hpp>
#include <Ordo_Workspace.hpp>

/// Ordo's sorted-data primitives on Kokkos Views: sorts (whole arrays, segments, inside a team),
/// merge, sorted search, compaction, set operations, joins, the load-balancing search and the runs
/// of equal keys. Each call's header documents its forms, errors and synchronization; the README
/// says which call serves which job.
namespace Ordo {}

#endif
