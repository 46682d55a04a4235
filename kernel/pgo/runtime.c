// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: the value-profiling runtime.
 *
 * The compiler calls these hooks at every indirect call and memory
 * intrinsic of instrumented code, so they run in any context, including
 * NMI, early boot, ftrace callbacks and kprobe handlers, and on several
 * CPUs at once.  They take no lock, never sleep, call nothing that is
 * instrumented, sanitized or traceable (this file is built without
 * profiling, it and objects.c without sanitizers, the directory without
 * ftrace, see the Makefile; kprobes are refused on the entry points and
 * on pgo_object_of()) and take value nodes only from the
 * pool of the object the calling function belongs to: a module's lists
 * never point into vmlinux's pool or another module's, so unloading one
 * leaves no dangling pointer anywhere else.
 *
 * The algorithm is compiler-rt's (InstrProfilingValue.c): walk the site's
 * list, bump a matching value, else append a node with a compare-and-swap;
 * a full site evicts its coldest value.  Only the first step, which is what
 * almost every call does once a site is warm, is inline in the hooks; the
 * rest and the object lookup are out of line.  Like compiler-rt, counts are
 * plain increments and may lose an update under contention.
 *
 * Ordering, which matters on weakly ordered CPUs (arm64): a node's fields
 * are written with plain stores before the compare-and-swap that links it,
 * and a successful cmpxchg is fully ordered, so they are visible before
 * the pointer is; every walker, here and in the writer, loads each pointer
 * with READ_ONCE() and then dereferences it, an address dependency, which
 * orders the loads after it.  The pool index needs only atomicity (each
 * node given once).  An evicted slot's value and count are two stores that
 * a concurrent walker may see half done: one count goes to the wrong value,
 * as in compiler-rt, never a torn pointer.
 */

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "pgo.h"

/* compiler-rt's default bound on the values kept per site. */
#define PGO_MAX_VALUES_PER_SITE	24

/* Take one node of @obj's pool, or count the value as dropped. */
static __always_inline struct llvm_prf_value_node *
pgo_pool_take(struct pgo_object *obj)
{
	unsigned int i, nr = pgo_pool_size(obj);

	/* Read first, so an exhausted pool's counter stops growing. */
	if (raw_atomic_read(&obj->vnds_used) < nr) {
		i = raw_atomic_fetch_inc(&obj->vnds_used);
		if (i < nr)
			return &obj->vnds[i];
	}
	raw_atomic_long_inc(&obj->values_dropped);
	return NULL;
}

static __always_inline struct llvm_prf_value_node *
pgo_node_alloc(const struct llvm_prf_data *rec)
{
	struct llvm_prf_value_node *node = NULL;
	struct pgo_object *obj;

	/*
	 * vmlinux is never freed: no protection needed, which matters in
	 * early boot, before per-CPU data (and so preempt_count) works.
	 */
	if (likely(pgo_object_contains(&pgo_vmlinux, rec)))
		return pgo_pool_take(&pgo_vmlinux);

	/*
	 * A module's object is freed only after an RCU grace period, which
	 * does not wait for CPUs RCU is not watching (idle, early entry):
	 * drop the value there.  Else be an RCU-sched reader, without
	 * tracing, as this runs inside tracers too.
	 */
	if (unlikely(!rcu_is_watching()))
		return NULL;
	rcu_read_lock_sched_notrace();
	obj = pgo_object_of(rec);
	if (obj)
		node = pgo_pool_take(obj);
	rcu_read_unlock_sched_notrace();
	return node;
}

/*
 * @value is not in the list at @head yet (as far as the caller saw): walk
 * it again, keeping the coldest value; if it is full, a value seen as often
 * as the coldest one replaces it, else append a node.  Out of line: the hot
 * path, a value already listed, costs no more than compiler-rt's.
 */
static noinline notrace void pgo_record_new(u64 value,
					    struct llvm_prf_data *rec,
					    struct llvm_prf_value_node **head)
{
	struct llvm_prf_value_node **slot = head, *curr, *min = NULL, *node = NULL;
	u64 min_count = U64_MAX;
	unsigned int nr = 0;

again:
	for (curr = READ_ONCE(*slot); curr; curr = READ_ONCE(curr->next)) {
		if (curr->value == value) {
			curr->count++;
			return;
		}
		if (curr->count < min_count) {
			min_count = curr->count;
			min = curr;
		}
		slot = &curr->next;
		nr++;
	}

	if (nr >= PGO_MAX_VALUES_PER_SITE) {
		if (min->count <= 1) {
			WRITE_ONCE(min->value, value);
			WRITE_ONCE(min->count, 1);
		} else {
			min->count--;
		}
		return;
	}

	if (!node) {
		node = pgo_node_alloc(rec);
		if (!node)
			return;
		node->value = value;
		node->count = 1;
		node->next = NULL;
	}
	/*
	 * Publish at the tail.  Another CPU may have appended first: walk on
	 * from there.  The list is bounded, so this retries at most
	 * PGO_MAX_VALUES_PER_SITE times; if the winner appended our value,
	 * our node stays unused, as compiler-rt leaks it too.
	 */
	if (raw_cmpxchg(slot, NULL, node))
		goto again;
}
NOKPROBE_SYMBOL(pgo_record_new);

/* Count @value at site @index of @rec: the hot path, inlined in the hooks. */
static __always_inline void pgo_record(u64 value, struct llvm_prf_data *rec,
				       u32 index)
{
	struct llvm_prf_value_node **head, *curr;

	if (unlikely(!rec->values))
		return;
	head = (struct llvm_prf_value_node **)(uintptr_t)rec->values + index;
	for (curr = READ_ONCE(*head); curr; curr = READ_ONCE(curr->next)) {
		if (likely(curr->value == value)) {
			curr->count++;
			return;
		}
	}
	pgo_record_new(value, rec, head);
}

/**
 * __llvm_profile_instrument_target() - record the target of an indirect call
 * @target_value: the address called
 * @data: the calling function's record
 * @counter_index: the call site, an index into the record's value array
 *
 * Like the memop hook, exported to every module whatever its license, as
 * gcov's and KASAN's hooks are: the compiler makes every instrumented
 * module call it.
 */
notrace void __llvm_profile_instrument_target(u64 target_value, void *data,
					      u32 counter_index)
{
	pgo_record(target_value, data, counter_index);
}
EXPORT_SYMBOL(__llvm_profile_instrument_target);
NOKPROBE_SYMBOL(__llvm_profile_instrument_target);

/**
 * __llvm_profile_instrument_memop() - record the size of a memory intrinsic
 * @target_value: the size passed to memcpy(), memset(), ...
 * @data: the calling function's record
 * @counter_index: the call site, an index into the record's value array
 *
 * Sizes are bucketed the way LLVM's readers expect (pgo_memop_value()).
 */
notrace void __llvm_profile_instrument_memop(u64 target_value, void *data,
					     u32 counter_index)
{
	pgo_record(pgo_memop_value(target_value), data, counter_index);
}
EXPORT_SYMBOL(__llvm_profile_instrument_memop);
NOKPROBE_SYMBOL(__llvm_profile_instrument_memop);
