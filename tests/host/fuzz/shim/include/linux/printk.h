/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim of <linux/printk.h>: messages go to shim_log() (the harness),
 * which counts them, so that a refusal can be checked to give a reason.
 * Takes the place of tests/host/shim/include/linux/printk.h.
 */
#ifndef _FUZZ_SHIM_LINUX_PRINTK_H
#define _FUZZ_SHIM_LINUX_PRINTK_H

#include <stdio.h>

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

/* No format attribute: the kernel's %*phN is no printf conversion. */
void shim_log(const char *level, const char *fmt, ...);

#define pr_err(fmt, ...)   shim_log("err", pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)  shim_log("warn", pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)  shim_log("info", pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...) pr_warn(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) do { } while (0)

#endif
