/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim of <linux/sysfs.h>: the types struct pgo_files embeds, the
 * attribute macros retain.c uses and the calls it makes
 * (tests/host/fuzz/retain-host.c defines them).
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
	struct attribute **attrs;
	const struct bin_attribute *const *bin_attrs;
};

#define __ATTR(_name, _mode, _show, _store) {				\
	.attr = { .name = #_name, .mode = (_mode) },			\
	.show = (_show), .store = (_store) }

#define ATTRIBUTE_GROUPS(_name)						\
	static const struct attribute_group _name##_group = {		\
		.attrs = _name##_attrs,					\
	};								\
	static const struct attribute_group *_name##_groups[] = {	\
		&_name##_group, NULL,					\
	}

struct sysfs_ops {
	int unused;
};

struct kernfs_node *sysfs_break_active_protection(struct kobject *kobj,
						  const struct attribute *attr);
void sysfs_unbreak_active_protection(struct kernfs_node *kn);
/* No format attribute: the kernel's u64 is unsigned long long. */
int sysfs_emit(char *buf, const char *fmt, ...);

#endif
