/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/mutex.h>: single-threaded tests need no lock. */
#ifndef _SHIM_LINUX_MUTEX_H
#define _SHIM_LINUX_MUTEX_H

struct mutex {
	int locked;
};

#define DEFINE_MUTEX(name)	struct mutex name = { 0 }
#define mutex_init(m)		((m)->locked = 0)
#define mutex_lock(m)		((m)->locked = 1)
#define mutex_unlock(m)		((m)->locked = 0)

#endif
