// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: the registry of profiled objects.
 *
 * vmlinux is a static object built from the linker's section bounds.
 * Modules add and remove theirs (module.c).  The runtime finds the object
 * a record belongs to without taking a lock: the list is RCU-protected,
 * and the hot path is an RCU-sched reader while it uses the object.
 */

#include <linux/buildid.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/rculist.h>
#include <asm/sections.h>

#include "pgo.h"

struct pgo_object pgo_vmlinux = {
	.name		= "vmlinux",
	.data		= __start___llvm_prf_data,
	.data_end	= __stop___llvm_prf_data,
	.cnts		= __start___llvm_prf_cnts,
	.cnts_end	= __stop___llvm_prf_cnts,
	.names		= __start___llvm_prf_names,
	.names_end	= __stop___llvm_prf_names,
	.vals		= __start___llvm_prf_vals,
	.vals_end	= __stop___llvm_prf_vals,
	.vnds		= __start___llvm_prf_vnds,
	.vnds_end	= __stop___llvm_prf_vnds,
	.list		= LIST_HEAD_INIT(pgo_vmlinux.list),
};

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
 * pgo_raw_version() - the raw version word of this kernel's profiles
 *
 * Return: the version the compiler emitted, with its variant flags, or
 * the plain version for front-end instrumentation, which emits none.
 */
u64 pgo_raw_version(void)
{
	return &__llvm_profile_raw_version ? __llvm_profile_raw_version :
					     INSTR_PROF_RAW_VERSION;
}

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

/**
 * pgo_object_reset_all() - reset vmlinux and every module, drop retained ones
 * @obj: vmlinux's object, whose "reset" file is being written
 *
 * Dropping retained profiles removes their files and waits for writers of
 * their "reset", which share the lock class of this "reset": give up the
 * writer's active reference first, as retained resets do, so that lockdep
 * sees no cycle.  vmlinux's files are never removed.
 */
void pgo_object_reset_all(struct pgo_object *obj)
{
	struct kernfs_node *kn = NULL;

	if (obj->kobj)
		kn = sysfs_break_active_protection(obj->kobj,
						   &obj->reset_attr.attr);
	pgo_objects_reset();
	pgo_retained_discard_all();
	if (kn)
		sysfs_unbreak_active_protection(kn);
}

static int __init pgo_vmlinux_init(void)
{
	struct pgo_object *obj = &pgo_vmlinux;
	struct kobject *kobj;
	int ret;

	obj->version = pgo_raw_version();
	obj->reset = pgo_object_reset_all;
	/* Addresses relative to _text: nothing of KASLR's offset shows. */
	obj->text[0].start = (unsigned long)_text;
	obj->text[0].size = _end - _text;
	obj->text[0].base = PGO_TEXT_BASE;
	obj->nr_text = 1;
	if (!build_id_parse_buf(__start_notes, obj->build_id,
				__stop_notes - __start_notes))
		obj->build_id_len = BUILD_ID_SIZE_MAX;
	if (pgo_object_check(obj)) {
		/* The runtime must not use what the writer would reject. */
		obj->data_end = obj->data;
		return -EINVAL;
	}
	pr_info("vmlinux: %zu functions, %u value nodes, raw version %llu\n",
		(size_t)(obj->data_end - obj->data),
		pgo_pool_size(obj),
		obj->version & ~VARIANT_MASKS_ALL);

	kobj = kobject_create_and_add("pgo", kernel_kobj);
	if (!kobj)
		return -ENOMEM;
	ret = pgo_sysfs_add(obj, kobj, NULL);
	if (!ret)
		ret = pgo_retain_init(kobj);
	return ret;
}
late_initcall(pgo_vmlinux_init);
