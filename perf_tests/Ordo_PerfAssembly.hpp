// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_ASSEMBLY_HPP
#define ORDO_PERF_ASSEMBLY_HPP

#include "Ordo_PerfHarness.hpp"

namespace OrdoPerf {
void run_coo2crs(const Options& options, Report& report);
void run_scan_by_key(const Options& options, Report& report);
void run_sort_keys2(const Options& options, Report& report);
}  // namespace OrdoPerf

#endif
