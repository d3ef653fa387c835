// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_RELATIONAL_HPP
#define ORDO_PERF_RELATIONAL_HPP

#include "Ordo_PerfHarness.hpp"

namespace OrdoPerf {
void run_set_ops(const Options& options, Report& report);
void run_join(const Options& options, Report& report);
void run_load_balancing_search(const Options& options, Report& report);
}  // namespace OrdoPerf

#endif
