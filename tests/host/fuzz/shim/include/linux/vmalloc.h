/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim of <linux/vmalloc.h>: the C library's allocator. */
#ifndef _FUZZ_SHIM_LINUX_VMALLOC_H
#define _FUZZ_SHIM_LINUX_VMALLOC_H

#include <stdlib.h>

static inline void *vzalloc(unsigned long size)
{
	return calloc(1, size ? size : 1);
}

static inline void vfree(const void *p)
{
	free((void *)p);
}

#endif
