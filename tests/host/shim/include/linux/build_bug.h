/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/build_bug.h>. */
#ifndef _SHIM_LINUX_BUILD_BUG_H
#define _SHIM_LINUX_BUILD_BUG_H

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)

#endif
