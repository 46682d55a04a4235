// SPDX-License-Identifier: GPL-2.0
/*
 * pgo_vp_off: the value-profiling benchmark loop built with
 * -mllvm -disable-vp=true: counters but no value profiling (see pgo_vp.h).
 */
#include "pgo_vp.h"

MODULE_DESCRIPTION("Value-profiling benchmark, value profiling off");
