/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clang PGO: the interfaces on top of the objects: an object's sysfs files
 * (sysfs.c) and the retained profiles of unloaded modules (retain.c), used
 * by module.c and root.c.  Nothing below them (pgo.h) knows of these.
 */
#ifndef _KERNEL_PGO_FILES_H
#define _KERNEL_PGO_FILES_H

#include <linux/mutex.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "pgo.h"

/**
 * struct pgo_files - the "profraw" and "reset" files of an object (sysfs.c)
 * @obj: the object "profraw" serves
 * @values_base: pgo_values_base() of @obj, fixed for its life
 * @reset: what writing "1" to "reset" does
 * @lock: protects @readers, @nr_readers, @nr_finished and @dropped_reported
 * @readers: state of the reads, least recently used first
 * @nr_readers: reads in @readers in progress
 * @nr_finished: reads in @readers that ended
 * @dropped_reported: whether the log has said that values were dropped
 * @reaper: frees the state of readers gone idle
 * @profraw_attr: the "profraw" file
 * @reset_attr: the "reset" file
 * @bin_attrs: NULL-terminated list of the two above
 * @group: the attribute group holding them
 * @kobj: kobject @group hangs on, NULL while not in sysfs
 */
struct pgo_files {
	struct pgo_object *obj;
	size_t values_base;
	void (*reset)(struct pgo_files *files);
	struct mutex lock;	/* protects the readers and counts below */
	struct list_head readers;
	unsigned int nr_readers;
	unsigned int nr_finished;
	bool dropped_reported;
	struct delayed_work reaper;
	struct bin_attribute profraw_attr;
	struct bin_attribute reset_attr;
	const struct bin_attribute *bin_attrs[3];
	struct attribute_group group;
	struct kobject *kobj;
};

/* sysfs.c */
int pgo_files_add(struct pgo_files *files, struct pgo_object *obj,
		  void (*reset)(struct pgo_files *files), struct kobject *kobj,
		  const char *dir);
void pgo_files_del(struct pgo_files *files);

/* retain.c */
#ifdef CONFIG_MODULES
void pgo_retain(struct pgo_object *obj);
void pgo_reset_everything(void);
int pgo_retain_init(struct kobject *parent);
#else
static inline void pgo_reset_everything(void)
{
	pgo_objects_reset();
}

static inline int pgo_retain_init(struct kobject *parent)
{
	return 0;
}
#endif

#endif /* _KERNEL_PGO_FILES_H */
