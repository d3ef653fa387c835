// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_MERGE_HPP
#define ORDO_PERF_MERGE_HPP

#include "Ordo_PerfHarness.hpp"

namespace OrdoPerf {
void run_merge(const Options& options, Report& report);
}

#endif
