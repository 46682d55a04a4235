/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim of <linux/slab.h>: the host shim's, plus kzalloc()/kfree() and
 * mainline's kzalloc_obj().
 */
#ifndef _FUZZ_SHIM_LINUX_SLAB_H
#define _FUZZ_SHIM_LINUX_SLAB_H

#include_next <linux/slab.h>
#include <stdlib.h>

static inline void *kzalloc(size_t size, gfp_t flags)
{
	(void)flags;
	return calloc(1, size ? size : 1);
}

#define kzalloc_obj(P, GFP) ((typeof(P) *)kzalloc(sizeof(P), (GFP)))

static inline void kfree(const void *p)
{
	free((void *)p);
}

#endif
