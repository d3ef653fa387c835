// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_SEGMENTEDSORT_HPP
#define ORDO_PERF_SEGMENTEDSORT_HPP

#include "Ordo_PerfHarness.hpp"

namespace OrdoPerf {

void run_segmented_sort(const Options& options, Report& report);

}  // namespace OrdoPerf

#endif
