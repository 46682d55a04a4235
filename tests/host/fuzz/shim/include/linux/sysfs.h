/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim of <linux/sysfs.h>: the types struct pgo_files embeds and the
 * calls retain.c makes (tests/host/fuzz/retain-host.c defines them).
 */
#ifndef _FUZZ_SHIM_LINUX_SYSFS_H
#define _FUZZ_SHIM_LINUX_SYSFS_H

struct kobject;
struct kernfs_node;

struct attribute {
	const char *name;
	unsigned short mode;
};

struct bin_attribute {
	struct attribute attr;
	size_t size;
	void *private;
};

struct attribute_group {
	const char *name;
	struct bin_attribute **bin_attrs;
};

struct sysfs_ops {
	int unused;
};

struct kernfs_node *sysfs_break_active_protection(struct kobject *kobj,
						  const struct attribute *attr);
void sysfs_unbreak_active_protection(struct kernfs_node *kn);

#endif
