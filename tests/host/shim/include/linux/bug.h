/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/bug.h>: a warning counts and goes to stderr. */
#ifndef _SHIM_LINUX_BUG_H
#define _SHIM_LINUX_BUG_H

#include <stdio.h>

/* Number of WARN_ON*() that fired; the harness fails the run if any did. */
extern int shim_warnings;

#define WARN_ON(cond)							\
	({								\
		int __ret = !!(cond);					\
		if (__ret) {						\
			shim_warnings++;				\
			fprintf(stderr, "WARNING: %s:%d: %s\n",		\
				__FILE__, __LINE__, #cond);		\
		}							\
		__ret;							\
	})
#define WARN_ON_ONCE(cond)	WARN_ON(cond)
#define BUG_ON(cond)		do { if (cond) __builtin_trap(); } while (0)

#endif
