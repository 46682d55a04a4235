// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: the registry of profiled objects.
 *
 * vmlinux's object is always there (vmlinux.c).  Modules add and remove
 * theirs (module.c).  Resetting an object is here too: it is what the
 * registry does to every object at once.  The runtime finds the object a
 * record belongs to without taking a lock: the list is RCU-protected, and
 * the hot path is an RCU-sched reader while it uses the object.
 */

#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "pgo.h"

/* Every registered object but vmlinux; written under pgo_objects_lock. */
static LIST_HEAD(pgo_objects);
static DEFINE_MUTEX(pgo_objects_lock);

/**
 * pgo_object_of() - find the registered object a record belongs to
 * @rec: a per-function record
 *
 * Called by the runtime under rcu_read_lock_sched_notrace(); the object
 * stays valid until rcu_read_unlock_sched_notrace().  Neither instrumented
 * nor traceable, takes no lock.
 *
 * Return: the object, or NULL if @rec belongs to none (e.g. a module whose
 * sections were rejected).
 */
notrace struct pgo_object *pgo_object_of(const struct llvm_prf_data *rec)
{
	struct pgo_object *obj;

	if (pgo_object_contains(&pgo_vmlinux, rec))
		return &pgo_vmlinux;
	/* An inline condition: lockdep's helpers are traceable. */
	list_for_each_entry_rcu(obj, &pgo_objects, list, !preemptible())
		if (pgo_object_contains(obj, rec))
			return obj;
	return NULL;
}
NOKPROBE_SYMBOL(pgo_object_of);

/**
 * pgo_object_add() - make an object visible to the runtime and to resets
 * @obj: an object that passed pgo_object_check()
 */
void pgo_object_add(struct pgo_object *obj)
{
	mutex_lock(&pgo_objects_lock);
	list_add_tail_rcu(&obj->list, &pgo_objects);
	mutex_unlock(&pgo_objects_lock);
}

/**
 * pgo_object_del() - hide an object from the runtime and from resets
 * @obj: an object added with pgo_object_add()
 *
 * On return no CPU uses @obj any more and it may be freed.
 */
void pgo_object_del(struct pgo_object *obj)
{
	mutex_lock(&pgo_objects_lock);
	list_del_rcu(&obj->list);
	mutex_unlock(&pgo_objects_lock);
	synchronize_rcu();
}

/* Serializes resets, so that a generation is never taken during one. */
static DEFINE_MUTEX(pgo_reset_lock);

/**
 * pgo_object_reset() - zero an object's counters, bitmaps and value counts
 * @obj: the object
 *
 * Value nodes stay linked, as compiler-rt keeps them: unlinking a node that
 * another CPU is walking would need a grace period on the hot path.  The
 * object's generation changes first, so that a reader can tell
 * (pgo_object_reset_since()).  Sleeps.
 */
void pgo_object_reset(struct pgo_object *obj)
{
	unsigned int i, n = pgo_nodes_in_use(obj);

	mutex_lock(&pgo_reset_lock);
	atomic_long_inc(&obj->resets);
	/*
	 * Pairs with the read barrier of pgo_object_reset_since(): a reader
	 * that saw a zeroed counter sees the new generation.
	 */
	smp_mb__after_atomic();
	/* Single-byte coverage counters read 0xff until covered, then 0. */
	if (obj->cnts)
		memset(obj->cnts, obj->version & PGO_VARIANT_BYTE_COVERAGE ?
		       0xff : 0, obj->cnts_end - obj->cnts);
	/* Absent without MC/DC. */
	if (obj->bits)
		memset(obj->bits, 0, obj->bits_end - obj->bits);
	for (i = 0; i < n; i++)
		WRITE_ONCE(obj->vnds[i].count, 0);
	atomic_long_set(&obj->values_dropped, 0);
	mutex_unlock(&pgo_reset_lock);
}

/**
 * pgo_object_generation() - where an object is in its resets
 * @obj: the object
 *
 * Taken between resets, never during one: a reader that reads @obj's
 * counters, bitmaps or values after this, and then finds that
 * pgo_object_reset_since() is false, read them all from one side of every
 * reset.  Sleeps.
 *
 * Return: a value to pass to pgo_object_reset_since().
 */
unsigned long pgo_object_generation(const struct pgo_object *obj)
{
	unsigned long gen;

	mutex_lock(&pgo_reset_lock);
	gen = atomic_long_read(&obj->resets);
	mutex_unlock(&pgo_reset_lock);
	return gen;
}

/**
 * pgo_objects_reset() - reset vmlinux and every registered object
 */
void pgo_objects_reset(void)
{
	struct pgo_object *obj;

	pgo_object_reset(&pgo_vmlinux);
	mutex_lock(&pgo_objects_lock);
	list_for_each_entry(obj, &pgo_objects, list)
		pgo_object_reset(obj);
	mutex_unlock(&pgo_objects_lock);
}
