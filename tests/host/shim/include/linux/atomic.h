/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/atomic.h>: the few operations kernel/pgo uses. */
#ifndef _SHIM_LINUX_ATOMIC_H
#define _SHIM_LINUX_ATOMIC_H

#include <linux/compiler.h>
#include <linux/types.h>

#define ATOMIC_INIT(i)	{ (i) }

static inline int raw_atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline int atomic_read(const atomic_t *v)
{
	return raw_atomic_read(v);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline int raw_atomic_fetch_inc(atomic_t *v)
{
	return __atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline void raw_atomic_long_inc(atomic_long_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline void atomic_long_inc(atomic_long_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED);
}

#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_mb__before_atomic()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_mb__after_atomic()	__atomic_thread_fence(__ATOMIC_SEQ_CST)

static inline long atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_long_set(atomic_long_t *v, long i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

/* Returns the value found at @ptr, like the kernel's. */
#define raw_cmpxchg(ptr, old, new)					\
	({								\
		__typeof__(*(ptr)) __old = (old);			\
		__atomic_compare_exchange_n((ptr), &__old, (new), 0,	\
					    __ATOMIC_SEQ_CST,		\
					    __ATOMIC_SEQ_CST);		\
		__old;							\
	})
#define cmpxchg(ptr, old, new)	raw_cmpxchg(ptr, old, new)

#endif
