/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/sched.h>: one thread, nothing to yield to. */
#ifndef _SHIM_LINUX_SCHED_H
#define _SHIM_LINUX_SCHED_H

#define cond_resched()	do { } while (0)

#endif
