/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim of <linux/kstrtox.h>: kstrtou64() as lib/kstrtox.c parses. */
#ifndef _FUZZ_SHIM_LINUX_KSTRTOX_H
#define _FUZZ_SHIM_LINUX_KSTRTOX_H

#include <linux/kernel.h>

/* An optional "+", digits, an optional "\n", nothing else; base 10 only. */
static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	u64 v = 0;
	size_t n = 0;

	if (base != 10)
		return -EINVAL;
	if (*s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++, n++) {
		if (v > (UINT64_MAX - (u64)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (u64)(*s - '0');
	}
	if (!n)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

#endif
