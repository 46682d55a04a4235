/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/limits.h>: the kernel's U8_MAX..U64_MAX, and
 * the UAPI header of that name, which glibc's <limits.h> includes.
 */
#ifndef _SHIM_LINUX_LIMITS_H
#define _SHIM_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <linux/types.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#endif
