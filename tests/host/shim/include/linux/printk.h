/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/printk.h>: messages go to stderr. */
#ifndef _SHIM_LINUX_PRINTK_H
#define _SHIM_LINUX_PRINTK_H

#include <stdio.h>

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_err(fmt, ...)   fprintf(stderr, "err: " pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)  fprintf(stderr, "warn: " pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)  fprintf(stderr, "info: " pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) do { } while (0)

#endif
