/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim of <linux/kobject.h>: reference counted objects whose last
 * put calls their release, the way retain.c relies on; no sysfs.
 * tests/host/fuzz/retain-host.c defines the functions.
 */
#ifndef _FUZZ_SHIM_LINUX_KOBJECT_H
#define _FUZZ_SHIM_LINUX_KOBJECT_H

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/sysfs.h>

struct kset;

struct kobject {
	char name[64];
	struct kset *kset;
	const struct kobj_type *ktype;
	int refcount;
	int in_sysfs;
};

struct kobj_type {
	void (*release)(struct kobject *kobj);
	const struct sysfs_ops *sysfs_ops;
	const struct attribute_group **default_groups;
};

struct kobj_attribute {
	struct attribute attr;
	ssize_t (*show)(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf);
	ssize_t (*store)(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count);
};

struct kobj_uevent_env {
	int nr_vars;
};

struct kset_uevent_ops {
	const char *(*name)(const struct kobject *kobj);
	int (*uevent)(const struct kobject *kobj, struct kobj_uevent_env *env);
};

struct kset {
	struct kobject kobj;
	const struct kset_uevent_ops *uevent_ops;
};

enum kobject_action {
	KOBJ_ADD,
	KOBJ_REMOVE,
};

extern const struct sysfs_ops kobj_sysfs_ops;

void kobject_init(struct kobject *kobj, const struct kobj_type *ktype);
int kobject_add(struct kobject *kobj, struct kobject *parent,
		const char *fmt, ...);
void kobject_del(struct kobject *kobj);
struct kobject *kobject_get(struct kobject *kobj);
void kobject_put(struct kobject *kobj);
int kobject_uevent(struct kobject *kobj, enum kobject_action action);
const char *kobject_name(const struct kobject *kobj);
struct kset *kset_create_and_add(const char *name,
				 const struct kset_uevent_ops *u,
				 struct kobject *parent);
int add_uevent_var(struct kobj_uevent_env *env, const char *fmt, ...);

#endif
