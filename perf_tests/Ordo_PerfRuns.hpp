// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_RUNS_HPP
#define ORDO_PERF_RUNS_HPP

#include "Ordo_PerfHarness.hpp"

#include <string>

namespace OrdoPerf {
// primitive: unique, run_length_encode or reduce_by_key.
void run_runs(const Options& options, Report& report, const std::string& primitive);
}  // namespace OrdoPerf

#endif
