/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/slab.h>: allocation flags only. */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H

typedef unsigned int gfp_t;
#define GFP_KERNEL	0U

#endif
