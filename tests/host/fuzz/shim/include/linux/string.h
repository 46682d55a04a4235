/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim of <linux/string.h>: the host shim's, plus what retain.c uses. */
#ifndef _FUZZ_SHIM_LINUX_STRING_H
#define _FUZZ_SHIM_LINUX_STRING_H

#include_next <linux/string.h>
#include <sys/types.h>

static inline ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (!size)
		return -7;	/* -E2BIG */
	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -7;
	}
	memcpy(dst, src, n + 1);
	return n;
}

static inline void *memchr_inv(const void *s, int c, size_t n)
{
	const unsigned char *p = s;
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != (unsigned char)c)
			return (void *)(p + i);
	return NULL;
}

#endif
