// SPDX-License-Identifier: GPL-2.0
/*
 * pgo_vp_on: the value-profiling benchmark loop, instrumented as every
 * module of an instrumented kernel is (see pgo_vp.h).
 */
#include "pgo_vp.h"

MODULE_DESCRIPTION("Value-profiling benchmark, value profiling on");
