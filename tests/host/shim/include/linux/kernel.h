/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/kernel.h>. */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include <errno.h>
#include <stddef.h>
#include <linux/align.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/kconfig.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
