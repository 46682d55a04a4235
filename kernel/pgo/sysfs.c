// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: an object's "profraw" and "reset" files.
 *
 * A sysfs binary attribute has no open or release: read() is called once
 * per page, with an offset.  Most of a profile (header, records, counters,
 * names) has a size fixed for the object's life, so any offset of it is
 * served straight from the object (pgo_fixed_read()), with no copy.  Only
 * the value blocks at the end vary in size: a read at offset 0 writes them
 * into a buffer of this open file's own, and later pages of them come from
 * there, so the file's size and contents agree from its first page to its
 * last.  The read that reaches the end frees that buffer but remembers the
 * size, so that reading on past the end keeps returning 0 (sendfile() does
 * read again).
 *
 * That state is bounded.  Every state holds a reference to its open file,
 * so that no other open can take its address (the key of the state) while
 * the state lives; it goes as soon as that reference is the last one (the
 * file was closed), at the next read of the object or within
 * PGO_READER_SWEEP.  At most PGO_MAX_READERS reads in progress per object
 * keep their state, the least recently used losing it to a new read.  A
 * read that ended keeps only its size, at most PGO_MAX_FINISHED of them,
 * those of closed files going first.  A reaper frees the state of readers
 * idle for PGO_READER_TTL.  A reader whose state is
 * gone (or that starts anywhere but at offset 0, or leaves the sequence)
 * still reads the fixed part; in the value blocks it gets -ESTALE: never
 * the tail of another serialization.  Nor of another reset: a read whose
 * object was reset since its offset 0 fails with -ESTALE from then on
 * (counters and values would no longer add up).
 *
 * Removing the files (module unload) waits for reads in progress in the
 * sysfs core; a reader's next read() then fails with -ENODEV.  So a read
 * either completes with a whole profile or fails, and never sees freed
 * memory; unload waits for the read() calls in progress, the longest of
 * which writes the value blocks.
 */

#define pr_fmt(fmt) "pgo: " fmt

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "files.h"

#define PGO_MAX_READERS		16
#define PGO_MAX_FINISHED	64
#define PGO_READER_TTL		(60 * HZ)
#define PGO_READER_SWEEP	(5 * HZ)

/**
 * struct pgo_reader - the state of one open file's read
 * @list: entry in the files' readers, least recently used first
 * @file: the open file, of which it holds a reference
 * @used: jiffies of its last read
 * @next: offset its next read must start at to stay in sequence
 * @size: size of the file it is reading
 * @gen: the object's generation when it began (pgo_object_generation())
 * @stale: the object was reset during the read: the rest fails
 * @values: its value blocks, NULL once it read to the end (or out of
 *	sequence: another read of the same open file could have replaced
 *	them meanwhile)
 */
struct pgo_reader {
	struct list_head list;
	struct file *file;
	unsigned long used;
	size_t next;
	size_t size;
	unsigned long gen;
	bool stale;
	void *values;
};

/* The end of a read: keep only its size. */
static void pgo_reader_finish(struct pgo_files *files, struct pgo_reader *r)
{
	kvfree(r->values);
	r->values = NULL;
	files->nr_readers--;
	files->nr_finished++;
}

static void pgo_reader_free(struct pgo_files *files, struct pgo_reader *r)
{
	if (r->values)
		pgo_reader_finish(files, r);
	list_del(&r->list);
	files->nr_finished--;
	fput(r->file);
	kfree(r);
}

/*
 * Whether @r's file was closed: its reference is the last one, and none
 * can be taken any more.
 */
static bool pgo_reader_closed(const struct pgo_reader *r)
{
	return file_count(r->file) == 1;
}

static struct pgo_reader *pgo_reader_find(struct pgo_files *files,
					  const struct file *file)
{
	struct pgo_reader *r;

	list_for_each_entry(r, &files->readers, list)
		if (r->file == file)
			return r;
	return NULL;
}

/* Make room for a new read: the least recently used reads lose their state. */
static void pgo_reader_room(struct pgo_files *files)
{
	struct pgo_reader *r, *tmp;

	/* Closed files first. */
	list_for_each_entry_safe(r, tmp, &files->readers, list)
		if (pgo_reader_closed(r))
			pgo_reader_free(files, r);
	list_for_each_entry_safe(r, tmp, &files->readers, list) {
		if (files->nr_readers < PGO_MAX_READERS &&
		    files->nr_finished < PGO_MAX_FINISHED)
			break;
		if (r->values ? files->nr_readers >= PGO_MAX_READERS :
				files->nr_finished >= PGO_MAX_FINISHED)
			pgo_reader_free(files, r);
	}
}

/* A read at offset 0: the value blocks, as they are now. */
static struct pgo_reader *pgo_reader_new(struct pgo_files *files,
					 struct file *file)
{
	struct pgo_object *obj = files->obj;
	struct pgo_reader *r;
	unsigned int limit;
	size_t bound;
	long dropped;

	bound = pgo_values_bound(obj, files->values_base, &limit);
	if (bound > INT_MAX) {
		pr_warn_ratelimited("%s: profile too large to read (%zu bytes of values)\n",
				    obj->name, bound);
		return ERR_PTR(-EFBIG);
	}
	pgo_reader_room(files);
	r = kzalloc_obj(*r, GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->values = kvmalloc(max_t(size_t, bound, 1), GFP_KERNEL);
	if (!r->values) {
		kfree(r);
		return ERR_PTR(-ENOMEM);
	}
	r->gen = pgo_object_generation(obj);
	r->size = pgo_fixed_size(obj) +
		  pgo_values_write(obj, r->values, bound, limit);
	r->file = get_file(file);
	list_add_tail(&r->list, &files->readers);
	files->nr_readers++;
	schedule_delayed_work(&files->reaper, PGO_READER_SWEEP);

	dropped = atomic_long_read(&obj->values_dropped);
	if (dropped && !files->dropped_reported) {
		pr_warn("%s: value node pool exhausted, %ld values dropped\n",
			obj->name, dropped);
		files->dropped_reported = true;
	}
	return r;
}

/* Free the state of closed files, and of readers idle for PGO_READER_TTL. */
static void pgo_reaper(struct work_struct *work)
{
	struct pgo_files *files = container_of(to_delayed_work(work),
					       struct pgo_files, reaper);
	struct pgo_reader *r, *tmp;

	mutex_lock(&files->lock);
	list_for_each_entry_safe(r, tmp, &files->readers, list)
		if (pgo_reader_closed(r) ||
		    time_after_eq(jiffies, r->used + PGO_READER_TTL))
			pgo_reader_free(files, r);
	if (!list_empty(&files->readers))
		schedule_delayed_work(&files->reaper, PGO_READER_SWEEP);
	mutex_unlock(&files->lock);
}

/* Bytes of the file from @off on; -ESTALE where @r cannot tell them. */
static ssize_t pgo_reader_copy(struct pgo_files *files, struct pgo_reader *r,
			       char *buf, size_t off, size_t count)
{
	struct pgo_object *obj = files->obj;
	size_t fixed = pgo_fixed_size(obj), n = 0;
	unsigned int limit;

	if (off < fixed) {
		n = min(count, fixed - off);
		pgo_fixed_read(obj, buf, off, n);
		off += n;
		count -= n;
	}
	/* The end of the file whose read began at offset 0. */
	if (!count || (r && off >= r->size))
		return n;
	if (r && r->values) {
		count = min(count, r->size - off);
		memcpy(buf + n, r->values + (off - fixed), count);
		return n + count;
	}
	if (n)
		return n;
	/*
	 * No read began at 0, or its value blocks are gone: past the largest
	 * file there could be now is the end, the rest cannot be told.
	 */
	if (!r && off >= fixed + pgo_values_bound(obj, files->values_base, &limit))
		return 0;
	return -ESTALE;
}

static ssize_t pgo_profraw_read(struct file *file, struct kobject *kobj,
				const struct bin_attribute *attr, char *buf,
				loff_t off, size_t count)
{
	struct pgo_files *files = attr->private;
	struct pgo_reader *r;
	ssize_t ret;

	/* Profiles tell what the kernel ran. */
	ret = security_locked_down(LOCKDOWN_PGO);
	if (ret)
		return ret;

	mutex_lock(&files->lock);
	r = pgo_reader_find(files, file);
	/* Offset 0 starts a new read. */
	if (!off) {
		if (r)
			pgo_reader_free(files, r);
		r = pgo_reader_new(files, file);
		if (IS_ERR(r)) {
			ret = PTR_ERR(r);
			goto out;
		}
	} else if (r && r->values && off != r->next) {
		/* Not one sequential read any more: keep only its size. */
		pgo_reader_finish(files, r);
	}
	if (r && r->stale) {
		ret = -ESTALE;
		goto out;
	}
	ret = pgo_reader_copy(files, r, buf, off, count);
	if (r && ret > 0 && pgo_object_reset_since(files->obj, r->gen)) {
		/* What it read so far and what it would read do not add up. */
		if (r->values)
			pgo_reader_finish(files, r);
		r->stale = true;
		ret = -ESTALE;
	}
	if (r && ret >= 0) {
		r->used = jiffies;
		r->next = off + ret;
		list_move_tail(&r->list, &files->readers);
		/* A sequential read from 0 got the last bytes. */
		if (r->values && ret && r->next >= r->size)
			pgo_reader_finish(files, r);
	}
out:
	mutex_unlock(&files->lock);
	return ret;
}

/* Accept exactly "1", optionally followed by a newline. */
static bool pgo_reset_valid(const char *buf, loff_t off, size_t count)
{
	return !off && (count == 1 || (count == 2 && buf[1] == '\n')) &&
	       buf[0] == '1';
}

static ssize_t pgo_reset_write(struct file *file, struct kobject *kobj,
			       const struct bin_attribute *attr, char *buf,
			       loff_t off, size_t count)
{
	struct pgo_files *files = attr->private;

	if (!pgo_reset_valid(buf, off, count))
		return -EINVAL;
	files->reset(files);
	return count;
}

/**
 * pgo_files_add() - create the "profraw" and "reset" files of an object
 * @files: their state, embedded in the caller's structure
 * @obj: the object "profraw" serves
 * @reset: what writing "1" to "reset" does
 * @kobj: the kobject to add them to
 * @dir: name of the group's directory under @kobj, or NULL for none
 *
 * Return: 0 or a negative errno from sysfs.
 */
int pgo_files_add(struct pgo_files *files, struct pgo_object *obj,
		  void (*reset)(struct pgo_files *files), struct kobject *kobj,
		  const char *dir)
{
	int ret;

	files->obj = obj;
	files->values_base = pgo_values_base(obj);
	files->reset = reset;
	mutex_init(&files->lock);
	INIT_LIST_HEAD(&files->readers);
	INIT_DELAYED_WORK(&files->reaper, pgo_reaper);

	sysfs_bin_attr_init(&files->profraw_attr);
	files->profraw_attr.attr.name = "profraw";
	files->profraw_attr.attr.mode = 0400;
	files->profraw_attr.read = pgo_profraw_read;
	files->profraw_attr.private = files;

	sysfs_bin_attr_init(&files->reset_attr);
	files->reset_attr.attr.name = "reset";
	files->reset_attr.attr.mode = 0200;
	files->reset_attr.write = pgo_reset_write;
	files->reset_attr.private = files;

	files->bin_attrs[0] = &files->profraw_attr;
	files->bin_attrs[1] = &files->reset_attr;
	files->bin_attrs[2] = NULL;
	files->group.name = dir;
	files->group.bin_attrs = files->bin_attrs;

	ret = sysfs_create_group(kobj, &files->group);
	if (ret) {
		pr_warn("%s: cannot create pgo sysfs files: %d\n", obj->name, ret);
		return ret;
	}
	files->kobj = kobj;
	return 0;
}

/**
 * pgo_files_del() - remove an object's files and free their readers' state
 * @files: the files, added with pgo_files_add() or not (then a no-op)
 *
 * Waits for reads in progress; later reads of the removed files fail.
 */
void pgo_files_del(struct pgo_files *files)
{
	struct pgo_reader *r, *tmp;

	if (!files->kobj)
		return;
	sysfs_remove_group(files->kobj, &files->group);
	files->kobj = NULL;
	/* No read can arm it again. */
	cancel_delayed_work_sync(&files->reaper);

	mutex_lock(&files->lock);
	list_for_each_entry_safe(r, tmp, &files->readers, list)
		pgo_reader_free(files, r);
	mutex_unlock(&files->lock);
}
