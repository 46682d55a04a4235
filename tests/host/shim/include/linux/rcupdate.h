/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/rcupdate.h>.  The kernel's pulls in most of
 * <linux/kernel.h> (min_t, U64_MAX, WARN_ON_ONCE, ...) indirectly, and
 * runtime.c relies on that through pgo.h, so this one includes it.
 */
#ifndef _SHIM_LINUX_RCUPDATE_H
#define _SHIM_LINUX_RCUPDATE_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/types.h>

#define rcu_read_lock()		barrier()
#define rcu_read_unlock()	barrier()
#define synchronize_rcu()	barrier()
#define rcu_read_lock_sched_notrace()	barrier()
#define rcu_read_unlock_sched_notrace()	barrier()
#define rcu_is_watching()		1
#define preemptible()			0

#endif
