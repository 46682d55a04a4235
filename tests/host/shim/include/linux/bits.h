/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for kernel/pgo (tests/host): BIT_ULL, GENMASK_ULL. */
#ifndef _SHIM_LINUX_BITS_H
#define _SHIM_LINUX_BITS_H
#define BIT_ULL(nr)		(1ULL << (nr))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))
#endif
