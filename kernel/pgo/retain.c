// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: retained profiles of unloaded modules.
 *
 * When an instrumented module goes away, a copy of its profile sections
 * becomes a profiled object of its own, /sys/kernel/pgo/retained/<name>/,
 * and a KOBJ_ADD uevent (SUBSYSTEM=pgo, PGO_MODULE=<name>) tells userspace
 * to save it.  The copy is a struct pgo_object like any other, so the raw
 * format writer and the sysfs files serve it unchanged.
 *
 * The copy holds its code addresses (records' function pointers and
 * indirect-call targets) already relative to the module's code, as its
 * profile writes them (pgo_object_addr()), so the same binary (same build
 * id, raw version word and profile layout) unloaded again from another
 * address adds its counts and targets in unchanged.  A different binary
 * under the same name replaces the copy.  pgo.retain_kb bounds the memory of all copies: past
 * it, the oldest is dropped.
 *
 * A copy never changes while it is served: counts are added by making a
 * new copy that replaces it, whose readers then fail (-ENODEV) and start
 * again.  Each copy has an id of its own for the boot, in its "id" file.
 * A saver reads the id, the profile and the id again (the same id: the
 * profile of that copy), and then writes the id to "saved", which discards
 * the copy only if it is still that one.  So a discard drops exactly what
 * its saver read; counts unloaded since are in the copy that replaced it,
 * which is left for the next save (the write fails with -ESTALE).  "reset"
 * discards whatever copy is there.
 *
 * Copies that add up form a line: each keeps the id of the line's first
 * copy (its base), and ids only grow, so the ids of the name's copies
 * from the base up to the copy's own are those whose counts it holds (a
 * saver writes an id read from the same name).  An id written to
 * "saved" below the base is of a copy whose line ended (a trim, a reset,
 * another binary, a discard): its counts are in no copy, and the
 * write succeeds without discarding anything, so that its saver keeps its
 * file.  The name of a copy is free only once the old copy is removed, so
 * a replacement leaves a short time without retained/<name>/.
 *
 * pgo_retain_lock also makes a module's move from the registry to its
 * retained copy one step for pgo_reset_everything(): a reset either zeroes
 * the module before or discards its copy after, never misses it.
 */

#define pr_fmt(fmt) "pgo: " fmt

#include <linux/kobject.h>
#include <linux/kstrtox.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/vmalloc.h>

#include "files.h"

/* pgo.retain_kb=, /sys/module/pgo/parameters/retain_kb */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "pgo."

/**
 * struct pgo_retained - the final profile of an unloaded module
 * @obj: the profile; its sections all point into @blob
 * @files: its "profraw" and "reset" files, in @kobj
 * @kobj: /sys/kernel/pgo/retained/<name>, with "id" and "saved", once shown
 * @node: entry in pgo_retained_list, oldest first, once shown
 * @id: unique for the boot, given when shown
 * @base: @id of the first copy of its line: ids @base to @id are the copies
 *	whose counts it holds
 * @size: memory it takes, counted against pgo.retain_kb
 * @blob: records, counters, names, value list heads and value nodes
 * @name: the module's name
 */
struct pgo_retained {
	struct pgo_object obj;
	struct pgo_files files;
	struct kobject kobj;
	struct list_head node;
	u64 id;
	u64 base;
	size_t size;
	void *blob;
	char name[MODULE_NAME_LEN];
};

static unsigned int retain_kb = 16384;

/* Protects pgo_retained_list, pgo_retained_bytes and pgo_retained_last_id. */
static DEFINE_MUTEX(pgo_retain_lock);
static LIST_HEAD(pgo_retained_list);
static size_t pgo_retained_bytes;
static u64 pgo_retained_last_id;
static struct kset *pgo_retained_kset;

static struct pgo_retained *to_pgo_retained(struct kobject *kobj)
{
	return container_of(kobj, struct pgo_retained, kobj);
}

/* Hide a shown copy and free it.  Under the lock. */
static void pgo_retained_remove(struct pgo_retained *r)
{
	list_del_init(&r->node);
	pgo_retained_bytes -= r->size;
	pgo_files_del(&r->files);
	kobject_del(&r->kobj);
	kobject_put(&r->kobj);
}

/**
 * pgo_retained_discard() - discard a copy through one of its own files
 * @r: the copy
 * @attr: the file of @r being written
 * @id: the id @r must have
 *
 * Removes the directory that holds the file being written, which the sysfs
 * core allows once the writer's active reference is given up.  The check
 * and the removal are one step for an unload that replaces @r and for a
 * reset of everything, which take pgo_retain_lock too.
 *
 * Return: 0 if @r was discarded or holds no counts of copy @id (that line
 * ended: nothing is discarded), -ESTALE if @r holds copy @id's counts but is
 * not that copy, -ENODEV if @r went away meanwhile (replaced, discarded or
 * dropped).
 */
static int pgo_retained_discard(struct pgo_retained *r,
				const struct attribute *attr, u64 id)
{
	struct kernfs_node *kn;
	int ret = 0;

	kobject_get(&r->kobj);
	kn = sysfs_break_active_protection(&r->kobj, attr);
	mutex_lock(&pgo_retain_lock);
	if (list_empty(&r->node))
		ret = -ENODEV;
	else if (r->id == id)
		pgo_retained_remove(r);
	else if (id >= r->base && id < r->id)
		ret = -ESTALE;
	mutex_unlock(&pgo_retain_lock);
	if (kn)
		sysfs_unbreak_active_protection(kn);
	kobject_put(&r->kobj);
	return ret;
}

/* Writing "1" to retained/<name>/reset: discard the copy, saved or not. */
static void pgo_retained_reset(struct pgo_files *files)
{
	struct pgo_retained *r = container_of(files, struct pgo_retained, files);

	pgo_retained_discard(r, &files->reset_attr.attr, r->id);
}

static ssize_t pgo_retained_id_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", to_pgo_retained(kobj)->id);
}

/*
 * Writing an id to retained/<name>/saved: its saver read that copy.  An id
 * is never 0 nor above the copy's own, which never changes.
 */
static ssize_t pgo_retained_saved_store(struct kobject *kobj,
					struct kobj_attribute *attr,
					const char *buf, size_t count)
{
	struct pgo_retained *r = to_pgo_retained(kobj);
	u64 id;
	int ret;

	if (kstrtou64(buf, 10, &id) || !id || id > r->id)
		return -EINVAL;
	ret = pgo_retained_discard(r, &attr->attr, id);
	return ret ? ret : count;
}

static struct kobj_attribute pgo_retained_id_attr =
	__ATTR(id, 0400, pgo_retained_id_show, NULL);
static struct kobj_attribute pgo_retained_saved_attr =
	__ATTR(saved, 0200, NULL, pgo_retained_saved_store);

static struct attribute *pgo_retained_attrs[] = {
	&pgo_retained_id_attr.attr,
	&pgo_retained_saved_attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(pgo_retained);

static void pgo_retained_release(struct kobject *kobj)
{
	struct pgo_retained *r = to_pgo_retained(kobj);

	vfree(r->blob);
	kfree(r);
}

static const struct kobj_type pgo_retained_ktype = {
	.release	= pgo_retained_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= pgo_retained_groups,
};

/*
 * Copy counters that may still be written: whole 64-bit counters are read
 * whole, never torn.  Single-byte ones are bytes anyway.
 */
static void pgo_copy_counters(char *dst, const char *src, size_t n)
{
	size_t i;

	if (!n)
		return;
	if (!IS_ALIGNED((unsigned long)src | (unsigned long)dst | n,
			sizeof(u64))) {
		memcpy(dst, src, n);
		return;
	}
	for (i = 0; i < n / sizeof(u64); i++)
		((u64 *)dst)[i] = READ_ONCE(((const u64 *)src)[i]);
}

/*
 * Copy @src's records, counters and names into a new object with empty
 * value lists and room for @nr_nodes value nodes.
 */
static struct pgo_retained *pgo_retained_alloc(const struct pgo_object *src,
					       unsigned int nr_nodes)
{
	size_t nr_rec = src->data_end - src->data;
	size_t cnts = src->cnts_end - src->cnts;
	size_t bits = src->bits_end - src->bits;
	size_t names = src->names_end - src->names;
	size_t nr_vals = src->vals_end - src->vals;
	size_t o_cnts, o_bits, o_names, o_vals, o_nodes, size, i;
	struct pgo_retained *r;
	struct pgo_object *obj;

	o_cnts = nr_rec * sizeof(*src->data);
	o_bits = o_cnts + ALIGN(cnts, 8);
	o_names = o_bits + ALIGN(bits, 8);
	o_vals = o_names + ALIGN(names, 8);
	o_nodes = o_vals + nr_vals * sizeof(*src->vals);
	size = o_nodes + (size_t)nr_nodes * sizeof(*src->vnds);

	r = kzalloc_obj(*r, GFP_KERNEL);
	if (!r)
		return NULL;
	kobject_init(&r->kobj, &pgo_retained_ktype);
	INIT_LIST_HEAD(&r->node);
	r->blob = vzalloc(max_t(size_t, size, 1));
	if (!r->blob) {
		kobject_put(&r->kobj);
		return NULL;
	}
	r->size = sizeof(*r) + size;
	strscpy(r->name, src->name, sizeof(r->name));

	obj = &r->obj;
	obj->name = r->name;
	obj->version = src->version;
	obj->correlated = src->correlated;
	memcpy(obj->build_id, src->build_id, sizeof(obj->build_id));
	obj->build_id_len = src->build_id_len;
	obj->data = r->blob;
	obj->data_end = obj->data + nr_rec;
	obj->cnts = r->blob + o_cnts;
	obj->cnts_end = obj->cnts + cnts;
	obj->bits = r->blob + o_bits;
	obj->bits_end = obj->bits + bits;
	obj->names = r->blob + o_names;
	obj->names_end = obj->names + names;
	obj->vals = r->blob + o_vals;
	obj->vals_end = obj->vals + nr_vals;
	obj->vnds = r->blob + o_nodes;
	obj->vnds_end = obj->vnds + nr_nodes;

	/* None if correlated. */
	if (o_cnts)
		memcpy(obj->data, src->data, o_cnts);
	pgo_copy_counters(obj->cnts, src->cnts, cnts);
	/* Absent without MC/DC. */
	if (bits)
		memcpy(obj->bits, src->bits, bits);
	if (names)
		memcpy(r->blob + o_names, src->names, names);
	for (i = 0; i < nr_rec; i++) {
		const struct llvm_prf_data *in = &src->data[i];
		struct llvm_prf_value_node **vals = NULL;
		char *bitmap = NULL;

		if (pgo_nr_sites(in))
			vals = obj->vals + ((struct llvm_prf_value_node **)
					    (uintptr_t)in->values - src->vals);
		if (pgo_rec_bitmap_bytes(in))
			bitmap = obj->bits + (pgo_rec_bitmap(in) - src->bits);
		pgo_rec_relocate(&obj->data[i],
				 obj->cnts + (pgo_rec_counters(in) - src->cnts),
				 bitmap, vals);
	}
	return r;
}

/* A sum of counts, which saturates as llvm-profdata's do. */
static u64 pgo_sat_add(u64 a, u64 b)
{
	u64 sum;

	return check_add_overflow(a, b, &sum) ? U64_MAX : sum;
}

/* Add @count of @value to a site of @obj, taking a node if it is new. */
static void pgo_site_add(struct pgo_object *obj,
			 struct llvm_prf_value_node **head, u64 value, u64 count)
{
	struct llvm_prf_value_node *node, **slot = head;
	unsigned int i, steps;

	pgo_for_each_node(obj, node, *head, steps) {
		if (node->value == value) {
			node->count = pgo_sat_add(node->count, count);
			return;
		}
		slot = &node->next;
	}
	i = atomic_read(&obj->vnds_used);
	if (steps >= PGO_MAX_SITE_NODES || i >= pgo_pool_size(obj)) {
		atomic_long_inc(&obj->values_dropped);
		return;
	}
	atomic_set(&obj->vnds_used, i + 1);
	node = &obj->vnds[i];
	node->value = value;
	node->count = count;
	*slot = node;
}

/* Add every value of @src to @dst, an object of the same binary. */
static void pgo_add_values(struct pgo_object *dst, const struct pgo_object *src)
{
	size_t i, n = src->data_end - src->data;

	for (i = 0; i < n; i++) {
		struct llvm_prf_value_node **from, **to;
		unsigned int kind, s, steps;

		if (!pgo_nr_sites(&src->data[i]))
			continue;
		from = (void *)(uintptr_t)src->data[i].values;
		to = (void *)(uintptr_t)dst->data[i].values;
		for (kind = 0; kind < PGO_NR_VALUE_KINDS; kind++) {
			unsigned int nr = src->data[i].num_value_sites[kind];

			for (s = 0; s < nr; s++) {
				struct llvm_prf_value_node *node;

				pgo_for_each_node(src, node, from[s], steps) {
					u64 v = node->value;

					if (pgo_value_is_addr(kind))
						v = pgo_object_target(src, v);
					pgo_site_add(dst, &to[s], v, node->count);
				}
			}
			from += nr;
			to += nr;
		}
	}
}

/* Add @src's counts to @dst's, an object of the same binary. */
static void pgo_add_counters(struct pgo_object *dst,
			     const struct pgo_object *src)
{
	size_t i, n = dst->cnts_end - dst->cnts;

	/* An MC/DC test vector ran if it ran in either. */
	for (i = 0; i < dst->bits_end - dst->bits; i++)
		dst->bits[i] |= src->bits[i];

	if (pgo_counter_size(dst) == 1) {
		/* Byte coverage: 0 means covered. */
		for (i = 0; i < n; i++)
			dst->cnts[i] &= src->cnts[i];
		return;
	}
	for (i = 0; i < n / sizeof(u64); i++)
		((u64 *)dst->cnts)[i] = pgo_sat_add(((u64 *)dst->cnts)[i],
						    ((const u64 *)src->cnts)[i]);
}

/*
 * A new copy of @a's counts and values, plus @b's if @b is not NULL (an
 * object of the same binary); NULL if out of memory.
 */
static struct pgo_retained *pgo_retained_sum(const struct pgo_object *a,
					     const struct pgo_object *b)
{
	unsigned int nodes = pgo_nodes_in_use(a);
	struct pgo_retained *r;

	if (b)
		nodes += pgo_nodes_in_use(b);
	r = pgo_retained_alloc(a, nodes);
	if (!r)
		return NULL;
	pgo_add_values(&r->obj, a);
	if (b) {
		pgo_add_counters(&r->obj, b);
		pgo_add_values(&r->obj, b);
	}
	return r;
}

/* Whether counts of @b may be added into @a: same build, version, layout. */
static bool pgo_same_binary(const struct pgo_object *a,
			    const struct pgo_object *b)
{
	size_t i, n = a->data_end - a->data;

	/* The version word too: its variant flags say what counters count. */
	if (a->version != b->version || a->correlated != b->correlated ||
	    a->build_id_len != b->build_id_len ||
	    memcmp(a->build_id, b->build_id, a->build_id_len) ||
	    n != b->data_end - b->data ||
	    a->cnts_end - a->cnts != b->cnts_end - b->cnts ||
	    a->bits_end - a->bits != b->bits_end - b->bits ||
	    a->vals_end - a->vals != b->vals_end - b->vals)
		return false;
	/* Counters and value sites are added index by index: same places. */
	for (i = 0; i < n; i++)
		if (a->data[i].name_ref != b->data[i].name_ref ||
		    a->data[i].func_hash != b->data[i].func_hash ||
		    a->data[i].num_counters != b->data[i].num_counters ||
		    pgo_rec_counters(&a->data[i]) - a->cnts !=
		    pgo_rec_counters(&b->data[i]) - b->cnts ||
		    pgo_rec_bitmap_bytes(&a->data[i]) !=
		    pgo_rec_bitmap_bytes(&b->data[i]) ||
		    (pgo_rec_bitmap_bytes(&a->data[i]) &&
		     pgo_rec_bitmap(&a->data[i]) - a->bits !=
		     pgo_rec_bitmap(&b->data[i]) - b->bits) ||
		    (pgo_nr_sites(&a->data[i]) &&
		     (void *)(uintptr_t)a->data[i].values - (void *)a->vals !=
		     (void *)(uintptr_t)b->data[i].values - (void *)b->vals) ||
		    memcmp(a->data[i].num_value_sites, b->data[i].num_value_sites,
			   sizeof(a->data[i].num_value_sites)))
			return false;
	return true;
}

static struct pgo_retained *pgo_retained_find(const char *name)
{
	struct pgo_retained *r;

	list_for_each_entry(r, &pgo_retained_list, node)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

/* pgo.retain_kb in bytes, read once per decision. */
static size_t pgo_retain_bound(void)
{
	return (size_t)READ_ONCE(retain_kb) * 1024;
}

/* Drop the oldest profiles but @keep until the rest fit in @bound. */
static void pgo_retain_trim(size_t bound, struct pgo_retained *keep)
{
	struct pgo_retained *r, *tmp;

	list_for_each_entry_safe(r, tmp, &pgo_retained_list, node) {
		if (pgo_retained_bytes <= bound)
			break;
		if (r == keep)
			continue;
		pr_info("%s: dropped the retained profile (%zu KiB): pgo.retain_kb=%zu is exceeded\n",
			r->name, r->size >> 10, bound >> 10);
		pgo_retained_remove(r);
	}
}

/*
 * Show a new copy, which fits in pgo.retain_kb=@bound, under a new id and
 * announce it.  It adds to a copy whose line starts at @base, or starts a
 * line of its own if @base is 0.
 */
static void pgo_retained_show(struct pgo_retained *r, u64 base, size_t bound)
{
	int ret;

	r->id = ++pgo_retained_last_id;
	r->base = base ? base : r->id;
	r->kobj.kset = pgo_retained_kset;
	ret = kobject_add(&r->kobj, NULL, "%s", r->name);
	if (!ret) {
		ret = pgo_files_add(&r->files, &r->obj, pgo_retained_reset,
				    &r->kobj, NULL);
		/* Its "id" and "saved" may be in use already. */
		if (ret)
			kobject_del(&r->kobj);
	}
	if (ret) {
		pr_warn("%s: cannot retain the profile: %d\n", r->name, ret);
		kobject_put(&r->kobj);
		return;
	}
	list_add_tail(&r->node, &pgo_retained_list);
	pgo_retained_bytes += r->size;
	pgo_retain_trim(bound, r);
	kobject_uevent(&r->kobj, KOBJ_ADD);
}

/*
 * Whether none of @obj's code ran: counters at their initial value, no
 * value recorded (a load that failed before the module's init).
 */
static bool pgo_object_untouched(const struct pgo_object *obj)
{
	int init = pgo_counter_size(obj) == 1 ? 0xff : 0;

	return !memchr_inv(obj->cnts, init, obj->cnts_end - obj->cnts) &&
	       !memchr_inv(obj->bits, 0, obj->bits_end - obj->bits) &&
	       !pgo_nodes_in_use(obj);
}

/* A module's object left the registry: keep its profile.  Under the lock. */
static void pgo_retain_locked(const struct pgo_object *obj)
{
	struct pgo_retained *old, *r;
	size_t bound;
	u64 base = 0;
	bool same;

	if (!READ_ONCE(retain_kb) || !pgo_retained_kset ||
	    pgo_object_untouched(obj))
		return;

	old = pgo_retained_find(obj->name);
	same = old && pgo_same_binary(&old->obj, obj);
	r = same ? pgo_retained_sum(&old->obj, obj) : pgo_retained_sum(obj, NULL);
	if (!r) {
		pr_warn("%s: cannot retain the profile: out of memory\n",
			obj->name);
		return;
	}
	/* Too large: the old copy, if any, stays as it is. */
	bound = pgo_retain_bound();
	if (r->size > bound) {
		pr_info("%s: profile not retained: its %zu KiB exceed pgo.retain_kb=%zu%s\n",
			r->name, r->size >> 10, bound >> 10,
			old ? "; the retained one stays" : "");
		kobject_put(&r->kobj);
		return;
	}
	/*
	 * The new copy is made before the old one goes, but it can only be
	 * shown after: it takes the same name.  retained/<name>/ is missing
	 * in between, which savers wait out.
	 */
	if (old && !same)
		pr_info("%s: another binary was unloaded (build id %*phN, version %#llx): dropped the retained profile of build id %*phN, version %#llx\n",
			obj->name, obj->build_id_len, obj->build_id,
			obj->version, old->obj.build_id_len, old->obj.build_id,
			old->obj.version);
	if (same)
		base = old->base;
	if (old)
		pgo_retained_remove(old);
	pgo_retained_show(r, base, bound);
}

/**
 * pgo_retain() - unregister a module's object and keep its final profile
 * @obj: the module's object, registered, its files removed
 *
 * Called while the module's memory is still there.  On return no CPU uses
 * @obj any more.
 */
void pgo_retain(struct pgo_object *obj)
{
	mutex_lock(&pgo_retain_lock);
	pgo_object_del(obj);
	pgo_retain_locked(obj);
	mutex_unlock(&pgo_retain_lock);
}

/**
 * pgo_reset_everything() - reset vmlinux and every module, drop retained ones
 *
 * A module being unloaded meanwhile is either reset or its copy dropped.
 */
void pgo_reset_everything(void)
{
	struct pgo_retained *r, *tmp;

	mutex_lock(&pgo_retain_lock);
	pgo_objects_reset();
	list_for_each_entry_safe(r, tmp, &pgo_retained_list, node)
		pgo_retained_remove(r);
	mutex_unlock(&pgo_retain_lock);
}

static int pgo_retain_kb_set(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_uint(val, kp);

	if (ret)
		return ret;
	mutex_lock(&pgo_retain_lock);
	pgo_retain_trim(pgo_retain_bound(), NULL);
	mutex_unlock(&pgo_retain_lock);
	return 0;
}

static const struct kernel_param_ops pgo_retain_kb_ops = {
	.set	= pgo_retain_kb_set,
	.get	= param_get_uint,
};
module_param_cb(retain_kb, &pgo_retain_kb_ops, &retain_kb, 0600);
MODULE_PARM_DESC(retain_kb, "memory for profiles of unloaded modules (KiB), 0: keep none");

static const char *pgo_uevent_name(const struct kobject *kobj)
{
	return "pgo";
}

static int pgo_uevent(const struct kobject *kobj, struct kobj_uevent_env *env)
{
	return add_uevent_var(env, "PGO_MODULE=%s", kobject_name(kobj));
}

static const struct kset_uevent_ops pgo_uevent_ops = {
	.name	= pgo_uevent_name,
	.uevent	= pgo_uevent,
};

/**
 * pgo_retain_init() - create /sys/kernel/pgo/retained
 * @parent: /sys/kernel/pgo
 *
 * Return: 0 or -ENOMEM.
 */
int pgo_retain_init(struct kobject *parent)
{
	struct kset *kset;

	kset = kset_create_and_add("retained", &pgo_uevent_ops, parent);
	if (!kset)
		return -ENOMEM;
	/* Modules may come and go already (module.c): under the lock. */
	mutex_lock(&pgo_retain_lock);
	pgo_retained_kset = kset;
	mutex_unlock(&pgo_retain_lock);
	return 0;
}
