// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_SORTEDSEARCH_HPP
#define ORDO_PERF_SORTEDSEARCH_HPP

#include "Ordo_PerfHarness.hpp"

namespace OrdoPerf {
void run_sorted_search(const Options& options, Report& report);
}

#endif
