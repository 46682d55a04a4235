// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: the "pgo" sysfs group of an object, with "profraw" and "reset".
 *
 * A sysfs binary attribute has no open or release: read() is called once
 * per page, with an offset.  Serializing on every call would make a read
 * quadratic, and the file could change size between two of its pages.  So
 * a read at offset 0 serializes the profile once into a snapshot that
 * belongs to the open file, and later pages come from it.  The read that
 * finds the end frees the data but remembers the size, so that reading on
 * past the end keeps returning 0 instead of serving a newer, longer
 * profile's tail (sendfile() does read again).  Snapshots are dropped when
 * they grow stale, when too many pile up, or with their object.
 *
 * Removing the group (module unload) waits for reads in progress in the
 * sysfs core; a reader's next read() then fails with -ENODEV.  So a read
 * either completes with a whole profile or fails, and never sees freed
 * memory; unload waits for at most one page's copy.
 */

#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "pgo.h"

#define PGO_MAX_SNAPSHOTS	16
#define PGO_SNAPSHOT_TTL	(60 * HZ)

/* A profile being read; @buf is NULL once the reader got to the end. */
struct pgo_snapshot {
	struct list_head list;
	const struct file *file;
	unsigned long used;
	size_t size;
	void *buf;
};

static void pgo_snapshot_free(struct pgo_object *obj, struct pgo_snapshot *snap)
{
	list_del(&snap->list);
	obj->nr_snapshots--;
	kvfree(snap->buf);
	kfree(snap);
}

/* Drop stale snapshots and make room for one more; oldest come first. */
static void pgo_snapshot_prune(struct pgo_object *obj)
{
	struct pgo_snapshot *snap, *tmp;

	list_for_each_entry_safe(snap, tmp, &obj->snapshots, list)
		if (obj->nr_snapshots >= PGO_MAX_SNAPSHOTS ||
		    time_after(jiffies, snap->used + PGO_SNAPSHOT_TTL))
			pgo_snapshot_free(obj, snap);
}

static struct pgo_snapshot *pgo_snapshot_new(struct pgo_object *obj,
					     const struct file *file)
{
	struct pgo_snapshot *snap;
	unsigned int limit;
	size_t bound;
	long dropped;

	pgo_snapshot_prune(obj);
	snap = kzalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return ERR_PTR(-ENOMEM);
	bound = pgo_profile_bound(obj, &limit);
	snap->buf = kvmalloc(bound, GFP_KERNEL);
	if (!snap->buf) {
		kfree(snap);
		return ERR_PTR(-ENOMEM);
	}
	snap->size = pgo_profile_write(obj, snap->buf, bound, limit);
	snap->file = file;
	snap->used = jiffies;
	list_add_tail(&snap->list, &obj->snapshots);
	obj->nr_snapshots++;

	dropped = atomic_long_read(&obj->values_dropped);
	if (dropped && !obj->dropped_reported) {
		pr_warn("%s: value node pool exhausted, %ld values dropped\n",
			obj->name, dropped);
		obj->dropped_reported = true;
	}
	return snap;
}

static ssize_t pgo_profraw_read(struct file *file, struct kobject *kobj,
				struct bin_attribute *attr, char *buf,
				loff_t off, size_t count)
{
	struct pgo_object *obj = attr->private;
	struct pgo_snapshot *snap, *found = NULL;
	ssize_t ret;

	/* Profiles hold kernel addresses. */
	ret = security_locked_down(LOCKDOWN_PGO);
	if (ret)
		return ret;

	mutex_lock(&obj->snap_lock);
	list_for_each_entry(snap, &obj->snapshots, list)
		if (snap->file == file)
			found = snap;
	/* Offset 0 starts a new read, and so does going back after the end. */
	if (found && (!off || (!found->buf && off < found->size))) {
		pgo_snapshot_free(obj, found);
		found = NULL;
	}
	if (!found) {
		found = pgo_snapshot_new(obj, file);
		if (IS_ERR(found)) {
			ret = PTR_ERR(found);
			goto out;
		}
	}

	if (off >= found->size) {
		kvfree(found->buf);
		found->buf = NULL;
		ret = 0;
	} else {
		ret = min_t(size_t, count, found->size - off);
		memcpy(buf, found->buf + off, ret);
		found->used = jiffies;
	}
out:
	mutex_unlock(&obj->snap_lock);
	return ret;
}

/* Accept exactly "1", optionally followed by a newline. */
static bool pgo_reset_valid(const char *buf, loff_t off, size_t count)
{
	return !off && (count == 1 || (count == 2 && buf[1] == '\n')) &&
	       buf[0] == '1';
}

static ssize_t pgo_reset_write(struct file *file, struct kobject *kobj,
			       struct bin_attribute *attr, char *buf,
			       loff_t off, size_t count)
{
	struct pgo_object *obj = attr->private;

	if (!pgo_reset_valid(buf, off, count))
		return -EINVAL;
	obj->reset(obj);
	return count;
}

/**
 * pgo_sysfs_add() - create the "profraw" and "reset" files of an object
 * @obj: the object; writing "1" to "reset" calls @obj->reset
 * @kobj: the kobject to add them to
 * @dir: name of the group's directory under @kobj, or NULL for none
 *
 * Return: 0 or a negative errno from sysfs.
 */
int pgo_sysfs_add(struct pgo_object *obj, struct kobject *kobj,
		  const char *dir)
{
	int ret;

	mutex_init(&obj->snap_lock);
	INIT_LIST_HEAD(&obj->snapshots);

	sysfs_bin_attr_init(&obj->profraw_attr);
	obj->profraw_attr.attr.name = "profraw";
	obj->profraw_attr.attr.mode = 0400;
	obj->profraw_attr.read = pgo_profraw_read;
	obj->profraw_attr.private = obj;

	sysfs_bin_attr_init(&obj->reset_attr);
	obj->reset_attr.attr.name = "reset";
	obj->reset_attr.attr.mode = 0200;
	obj->reset_attr.write = pgo_reset_write;
	obj->reset_attr.private = obj;

	obj->bin_attrs[0] = &obj->profraw_attr;
	obj->bin_attrs[1] = &obj->reset_attr;
	obj->bin_attrs[2] = NULL;
	obj->group.name = dir;
	obj->group.bin_attrs = obj->bin_attrs;

	ret = sysfs_create_group(kobj, &obj->group);
	if (ret) {
		pr_warn("%s: cannot create pgo sysfs files: %d\n", obj->name, ret);
		return ret;
	}
	obj->kobj = kobj;
	return 0;
}

/**
 * pgo_sysfs_del() - remove an object's files and free its snapshots
 * @obj: the object
 *
 * Waits for reads in progress; later reads of the removed files fail.
 */
void pgo_sysfs_del(struct pgo_object *obj)
{
	struct pgo_snapshot *snap, *tmp;

	if (!obj->kobj)
		return;
	sysfs_remove_group(obj->kobj, &obj->group);
	obj->kobj = NULL;

	mutex_lock(&obj->snap_lock);
	list_for_each_entry_safe(snap, tmp, &obj->snapshots, list)
		pgo_snapshot_free(obj, snap);
	mutex_unlock(&obj->snap_lock);
}
