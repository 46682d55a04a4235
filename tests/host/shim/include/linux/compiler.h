/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/compiler.h> for the kernel/pgo host tests. */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

#undef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#define __maybe_unused	__attribute__((__unused__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __weak		__attribute__((__weak__))
#define __init
#define notrace		__attribute__((__no_instrument_function__))
#define noinline	__attribute__((__noinline__))
#define __no_profile	__attribute__((__no_profile_instrument_function__))
#define barrier()	__asm__ __volatile__("" : : : "memory")

#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)						\
	do {								\
		*(volatile __typeof__(x) *)&(x) = (val);		\
	} while (0)

#endif
