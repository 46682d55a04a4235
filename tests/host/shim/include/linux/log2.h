/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for kernel/pgo (tests/host): ilog2, is_power_of_2. */
#ifndef _SHIM_LINUX_LOG2_H
#define _SHIM_LINUX_LOG2_H
#include <stdbool.h>
#define ilog2(n)	(63 - __builtin_clzll((unsigned long long)(n)))
static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}
#endif
