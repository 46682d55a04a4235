/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/overflow.h>: check_add_overflow(), on the
 * compiler builtin as in the kernel.
 */
#ifndef _SHIM_LINUX_OVERFLOW_H
#define _SHIM_LINUX_OVERFLOW_H

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)

#endif
