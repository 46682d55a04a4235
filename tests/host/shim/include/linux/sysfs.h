/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/sysfs.h>: types embedded in struct pgo_object. */
#ifndef _SHIM_LINUX_SYSFS_H
#define _SHIM_LINUX_SYSFS_H

#include <linux/types.h>

struct kobject;
struct file;

struct attribute {
	const char *name;
	unsigned short mode;
};

struct bin_attribute {
	struct attribute attr;
	size_t size;
	void *private;
	ssize_t (*read)(struct file *, struct kobject *, struct bin_attribute *,
			char *, long long, size_t);
	ssize_t (*write)(struct file *, struct kobject *, struct bin_attribute *,
			 char *, long long, size_t);
};

struct attribute_group {
	const char *name;
	struct attribute **attrs;
	struct bin_attribute **bin_attrs;
};

#endif
