/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/minmax.h>. */
#ifndef _SHIM_LINUX_MINMAX_H
#define _SHIM_LINUX_MINMAX_H

#define min_t(type, x, y)						\
	({ type __x = (x); type __y = (y); __x < __y ? __x : __y; })
#define max_t(type, x, y)						\
	({ type __x = (x); type __y = (y); __x > __y ? __x : __y; })
#define min(x, y)	min_t(__typeof__((x) + (y)), x, y)
#define max(x, y)	max_t(__typeof__((x) + (y)), x, y)

#endif
