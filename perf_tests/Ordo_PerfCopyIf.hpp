// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_COPYIF_HPP
#define ORDO_PERF_COPYIF_HPP

#include "Ordo_PerfHarness.hpp"

namespace OrdoPerf {
void run_copy_if(const Options& options, Report& report);
void run_retrieve_all(const Options& options, Report& report);
}  // namespace OrdoPerf

#endif
