/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/bitmap.h>: what pgo_object_check() uses. */
#ifndef _SHIM_LINUX_BITMAP_H
#define _SHIM_LINUX_BITMAP_H

#include <limits.h>
#include <stdlib.h>
#include <linux/slab.h>
#include <linux/types.h>

#define BITS_PER_LONG		(sizeof(long) * CHAR_BIT)
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static inline unsigned long *bitmap_zalloc(unsigned long nbits, gfp_t flags)
{
	(void)flags;
	return calloc(BITS_TO_LONGS(nbits), sizeof(long));
}

static inline void bitmap_free(unsigned long *bitmap)
{
	free(bitmap);
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	unsigned long mask = 1UL << (nr % BITS_PER_LONG);
	unsigned long *p = addr + nr / BITS_PER_LONG;
	bool old = *p & mask;

	*p |= mask;
	return old;
}

#endif
