// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pgo/retain.c, built unchanged for the fuzzer (tests/host/fuzz/).
 *
 * retain.c's copy and merge logic (pgo_retained_alloc(), pgo_add_values(),
 * pgo_add_counters(), pgo_retained_sum(), pgo_same_binary()) is static and
 * lives among kobject and sysfs code.  This file defines the little of the
 * kernel that code calls (reference counted kobjects whose last put
 * releases, the sysfs files of sysfs.c reduced to what retain.c asks of
 * them), includes retain.c as it is, and hands the harness (fuzz.c) a
 * few entry points with names of its own.  A copy's "id" and "saved"
 * files are reached through its kobj_type's default groups, as sysfs
 * reaches them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "retain.c"

#include "fuzz.h"

/* 1: kobject_add() fails, 2: pgo_files_add() does (sysfs out of memory). */
static int fz_add_fails;

const struct sysfs_ops kobj_sysfs_ops;

void kobject_init(struct kobject *kobj, const struct kobj_type *ktype)
{
	memset(kobj, 0, sizeof(*kobj));
	kobj->ktype = ktype;
	kobj->refcount = 1;
}

int kobject_add(struct kobject *kobj, struct kobject *parent,
		const char *fmt, ...)
{
	va_list ap;

	(void)parent;
	FZ_ASSERT(!kobj->in_sysfs, "kobject_add() of a kobject in sysfs");
	if (fz_add_fails == 1)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(kobj->name, sizeof(kobj->name), fmt, ap);
	va_end(ap);
	kobj->in_sysfs = 1;
	return 0;
}

void kobject_del(struct kobject *kobj)
{
	FZ_ASSERT(kobj->in_sysfs, "kobject_del() of a kobject not added");
	kobj->in_sysfs = 0;
}

struct kobject *kobject_get(struct kobject *kobj)
{
	FZ_ASSERT(kobj->refcount > 0, "kobject_get() of a released kobject");
	kobj->refcount++;
	return kobj;
}

void kobject_put(struct kobject *kobj)
{
	FZ_ASSERT(kobj->refcount > 0, "kobject_put() of a released kobject");
	if (--kobj->refcount)
		return;
	/* Its files may be in use: kobject_del() waits for them, first. */
	FZ_ASSERT(!kobj->in_sysfs, "last kobject_put() of a kobject in sysfs");
	kobj->ktype->release(kobj);
}

int kobject_uevent(struct kobject *kobj, enum kobject_action action)
{
	const struct kset_uevent_ops *ops = kobj->kset ? kobj->kset->uevent_ops : NULL;
	struct kobj_uevent_env env = { 0 };

	(void)action;
	FZ_ASSERT(kobj->in_sysfs, "uevent of a kobject not in sysfs");
	if (ops) {
		FZ_ASSERT(!strcmp(ops->name(kobj), "pgo"), "uevent subsystem");
		ops->uevent(kobj, &env);
	}
	return 0;
}

const char *kobject_name(const struct kobject *kobj)
{
	return kobj->name;
}

struct kset *kset_create_and_add(const char *name,
				 const struct kset_uevent_ops *u,
				 struct kobject *parent)
{
	static struct kset kset;

	(void)parent;
	snprintf(kset.kobj.name, sizeof(kset.kobj.name), "%s", name);
	kset.uevent_ops = u;
	return &kset;
}

int add_uevent_var(struct kobj_uevent_env *env, const char *fmt, ...)
{
	(void)fmt;
	env->nr_vars++;
	return 0;
}

/* The file being written loses its active reference until unbroken. */
static int fz_broken;

struct kernfs_node *sysfs_break_active_protection(struct kobject *kobj,
						  const struct attribute *attr)
{
	(void)kobj;
	(void)attr;
	fz_broken++;
	return (struct kernfs_node *)&fz_broken;
}

void sysfs_unbreak_active_protection(struct kernfs_node *kn)
{
	FZ_ASSERT(kn == (struct kernfs_node *)&fz_broken && fz_broken-- > 0,
		  "active protection unbroken without a break");
}

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, 4096, fmt, ap);
	va_end(ap);
	return n;
}

int param_set_uint(const char *val, const struct kernel_param *kp)
{
	*(unsigned int *)kp->arg = strtoul(val, NULL, 0);
	return 0;
}

int param_get_uint(char *buffer, const struct kernel_param *kp)
{
	return sprintf(buffer, "%u\n", *(unsigned int *)kp->arg);
}

/* sysfs.c's side, as retain.c sees it. */
int pgo_files_add(struct pgo_files *files, struct pgo_object *obj,
		  void (*reset)(struct pgo_files *files), struct kobject *kobj,
		  const char *dir)
{
	(void)dir;
	FZ_ASSERT(kobj->in_sysfs, "files added to a kobject not in sysfs");
	if (fz_add_fails == 2)
		return -ENOMEM;
	files->obj = obj;
	files->reset = reset;
	files->kobj = kobj;
	return 0;
}

void pgo_files_del(struct pgo_files *files)
{
	files->kobj = NULL;
}

/* The harness's entry points (fuzz.h). */

void fz_retain_init(void)
{
	static struct kobject parent;

	FZ_ASSERT(!pgo_retain_init(&parent), "pgo_retain_init()");
}

void fz_retain_setup(unsigned int kb, int add_fails)
{
	char val[16];

	snprintf(val, sizeof(val), "%u", kb);
	/* Through the parameter's own set(), which trims what no longer fits. */
	__param_retain_kb.ops->set(val, &__param_retain_kb);
	fz_add_fails = add_fails;
}

struct pgo_object *fz_retained_sum(const struct pgo_object *a,
				   const struct pgo_object *b, void **handle)
{
	struct pgo_retained *r = pgo_retained_sum(a, b);

	*handle = r;
	return r ? &r->obj : NULL;
}

void fz_retained_put(void *handle)
{
	kobject_put(&((struct pgo_retained *)handle)->kobj);
}

bool fz_same_binary(const struct pgo_object *a, const struct pgo_object *b)
{
	return pgo_same_binary(a, b);
}

void fz_retain(struct pgo_object *obj)
{
	pgo_retain(obj);
}

struct pgo_object *fz_retained_find(const char *name)
{
	struct pgo_retained *r = pgo_retained_find(name);

	return r ? &r->obj : NULL;
}

/* Writing "1" to retained/<name>/reset. */
void fz_retained_discard(const char *name)
{
	struct pgo_retained *r = pgo_retained_find(name);

	if (r)
		r->files.reset(&r->files);
}

/* retained/<name>/<file>, a file of the copy's default groups. */
static struct kobj_attribute *fz_retained_attr(const char *file)
{
	const struct attribute_group **g;
	struct attribute **a;

	for (g = pgo_retained_ktype.default_groups; g && *g; g++)
		for (a = (*g)->attrs; *a; a++)
			if (!strcmp((*a)->name, file))
				return container_of(*a, struct kobj_attribute,
						    attr);
	fz_fail(__FILE__, __LINE__, file, "no file %s in a retained copy",
		file);
}

/* Reading retained/<name>/id: the number, 0 if there is no copy. */
unsigned long long fz_retained_id(const char *name)
{
	struct kobj_attribute *id = fz_retained_attr("id");
	struct pgo_retained *r = pgo_retained_find(name);
	char buf[4096], *end;
	unsigned long long v;
	ssize_t n;

	if (!r)
		return 0;
	FZ_ASSERT(id->attr.mode == 0400 && id->show && !id->store, "id mode");
	n = id->show(&r->kobj, id, buf);
	FZ_ASSERT(n > 1 && n < 22 && buf[n - 1] == '\n', "id reads %zd bytes", n);
	buf[n] = '\0';
	v = strtoull(buf, &end, 10);
	FZ_ASSERT(end == buf + n - 1 && v, "id reads '%s'", buf);
	return v;
}

/* The base of the module's copy (no file shows it), 0 if there is none. */
unsigned long long fz_retained_base(const char *name)
{
	struct pgo_retained *r = pgo_retained_find(name);

	return r ? r->base : 0;
}

/* Writing @buf to retained/<name>/saved: what write() returns. */
long fz_retained_saved(const char *name, const char *buf)
{
	struct kobj_attribute *saved = fz_retained_attr("saved");
	struct pgo_retained *r = pgo_retained_find(name);

	FZ_ASSERT(r, "saved written with no copy");
	FZ_ASSERT(saved->attr.mode == 0200 && saved->store && !saved->show,
		  "saved mode");
	return saved->store(&r->kobj, saved, buf, strlen(buf));
}

void fz_reset_everything(void)
{
	pgo_reset_everything();
	FZ_ASSERT(list_empty(&pgo_retained_list) && !pgo_retained_bytes,
		  "retained profiles left after pgo_reset_everything(): %zu bytes",
		  pgo_retained_bytes);
}
