// SPDX-License-Identifier: BSD-3-Clause
// The commit ordo-perf was built from (stamped at build time: perf_tests/stamp_build.cmake). A
// translation unit of its own, so that a new stamp recompiles only this file.
#include "Ordo_PerfBuild.hpp"

namespace OrdoPerf {
const char* build_commit() { return ORDO_PERF_BUILD_COMMIT; }
}  // namespace OrdoPerf
