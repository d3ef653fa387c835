// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_SORT_HPP
#define ORDO_PERF_SORT_HPP

#include "Ordo_PerfHarness.hpp"

namespace OrdoPerf {
void run_sort(const Options& options, Report& report);
}

#endif
