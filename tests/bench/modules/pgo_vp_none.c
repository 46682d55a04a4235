// SPDX-License-Identifier: GPL-2.0
/*
 * pgo_vp_none: the value-profiling benchmark loop with no instrumentation
 * at all (PGO_PROFILE_pgo_vp_none.o := n): the yardstick that shows how
 * the loop itself scales over vCPUs, without shared counters (see pgo_vp.h).
 */
#include "pgo_vp.h"

MODULE_DESCRIPTION("Value-profiling benchmark, not instrumented");
