/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/kernel.h>. */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include <errno.h>
#include <stddef.h>
#include <linux/align.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/types.h>

/*
 * In the kernel these come from <linux/limits.h>; not here, because glibc's
 * <limits.h> includes the UAPI <linux/limits.h> and must still find it.
 */
#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
