// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_BINNING_HPP
#define ORDO_PERF_BINNING_HPP

#include "Ordo_PerfHarness.hpp"

namespace OrdoPerf {
void run_particle_binning(const Options& options, Report& report);
}  // namespace OrdoPerf

#endif
