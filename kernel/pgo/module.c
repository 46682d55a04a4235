// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: profiles of loadable modules.
 *
 * The loader looks up each __llvm_prf_* section of a module as it lays the
 * module out (find_module_sections()).  When the module is coming, its
 * sections become a profiled object, checked and registered so that the
 * runtime takes value nodes from the module's own pool; when it goes live,
 * the object's "pgo" group appears in /sys/module/<name>/; when it goes
 * away, the group is removed (waiting for reads in progress), the object
 * is unregistered (waiting for the runtime) and its final profile copied
 * for retention in one step (retain.c), and the object is freed, all
 * before the loader frees the module's memory.
 */

#define pr_fmt(fmt) "pgo: " fmt

#include <linux/init.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/pgo.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "files.h"

/**
 * struct pgo_module - a module's profiled object and its files
 * @obj: the object, over the module's own sections
 * @files: /sys/module/<name>/pgo/
 * @formed: every COMING notifier succeeded (the last one sets it)
 */
struct pgo_module {
	struct pgo_object obj;
	struct pgo_files files;
	bool formed;
};

/* The sections the loader looks up for us (find_module_sections()). */
const char * const pgo_section_names[PGO_NR_SECTS] = {
	[PGO_SECT_DATA]		= "__llvm_prf_data",
	[PGO_SECT_CNTS]		= "__llvm_prf_cnts",
	[PGO_SECT_NAMES]	= "__llvm_prf_names",
	[PGO_SECT_VALS]		= "__llvm_prf_vals",
	[PGO_SECT_VNDS]		= "__llvm_prf_vnds",
	[PGO_SECT_BITS]		= "__llvm_prf_bits",
};

/* Whether [@addr, @addr + @size) lies in @mod's writable data. */
static bool pgo_module_writable(const struct module *mod, const void *addr,
				unsigned long size)
{
	unsigned long start = (unsigned long)addr;

	return !size || (within_module_mem_type(start, mod, MOD_DATA) &&
			 within_module_mem_type(start + size - 1, mod, MOD_DATA));
}

/*
 * The kernel writes the records (pgo_module_disarm(), pgo_object_hide_code()),
 * the runtime the value lists, reset the counters, bitmaps and nodes: each
 * section but the names must be in the module's writable data.  Return the
 * name of one that is not, or NULL.
 */
static const char *pgo_module_readonly(const struct module *mod)
{
	const struct pgo_module_info *info = &mod->pgo;
	unsigned int i;

	for (i = 0; i < PGO_NR_SECTS; i++)
		if (i != PGO_SECT_NAMES &&
		    !pgo_module_writable(mod, info->start[i], info->size[i]))
			return pgo_section_names[i];
	return NULL;
}

/*
 * The module's code: its core text, then its init text, written one after
 * the other from PGO_TEXT_BASE on.  Kept in the object, as the loader
 * forgets the init text once it is freed.
 */
static void pgo_module_text(struct pgo_object *obj, const struct module *mod)
{
	static const enum mod_mem_type types[] = { MOD_TEXT, MOD_INIT_TEXT };
	unsigned long base = PGO_TEXT_BASE;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(types) > PGO_MAX_TEXT);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		const struct module_memory *mem = &mod->mem[types[i]];

		if (!mem->size)
			continue;
		obj->text[obj->nr_text].start = (unsigned long)mem->base;
		obj->text[obj->nr_text].size = mem->size;
		obj->text[obj->nr_text].base = base;
		obj->text[obj->nr_text].transient = types[i] == MOD_INIT_TEXT;
		obj->nr_text++;
		base += ALIGN(mem->size, PAGE_SIZE);
	}
}

/*
 * A module that is not profiled still calls the runtime, which follows its
 * records' value list heads: unchecked, they could point anywhere (its
 * lists are never added to, its object being unknown), and in a module
 * built for another raw version they are not where the runtime reads
 * them.  Nothing but the runtime reads the records of such a module:
 * zero them all, so that it finds no list head wherever it looks.
 */
static void pgo_module_disarm(const struct module *mod)
{
	const struct pgo_module_info *info = &mod->pgo;
	void *data = info->start[PGO_SECT_DATA];

	/* Not writable: left as the compiler made it, there is no choice. */
	if (data && pgo_module_writable(mod, data, info->size[PGO_SECT_DATA]))
		memset(data, 0, info->size[PGO_SECT_DATA]);
}

/*
 * The raw version word the module was built for: its own
 * __llvm_profile_raw_version, which IR instrumentation defines (as
 * vmlinux's, pgo_raw_version()), a constant of the module's read-only data.
 * Return false if it has none (front-end instrumentation).
 */
static bool pgo_module_raw_version(struct module *mod, u64 *version)
{
	unsigned long addr;

	addr = find_kallsyms_symbol_value(mod, "__llvm_profile_raw_version");
	if (!addr ||
	    !within_module_mem_type(addr, mod, MOD_RODATA) ||
	    !within_module_mem_type(addr + sizeof(*version) - 1, mod, MOD_RODATA))
		return false;
	memcpy(version, (void *)addr, sizeof(*version));
	return true;
}

/*
 * Whether the module's records have vmlinux's layout, the only one the
 * runtime and the writer know: the raw version it was built for must be
 * vmlinux's.  Takes its own version word (with its variant flags) into
 * @obj.  A module without one (front-end instrumentation) takes vmlinux's,
 * if vmlinux has none either; pgo_object_check() then checks its layout.
 */
static bool pgo_module_version(struct pgo_object *obj, struct module *mod)
{
	u64 kernel = pgo_raw_version(), own;

	if (!pgo_module_raw_version(mod, &own)) {
		if (kernel & PGO_VARIANT_IR) {
			pr_warn("%s: not profiled: no __llvm_profile_raw_version, vmlinux has raw version %llu (IR instrumentation)\n",
				mod->name, kernel & ~PGO_VARIANT_MASKS);
			return false;
		}
		own = kernel;
	}
	if ((own & ~PGO_VARIANT_MASKS) != (kernel & ~PGO_VARIANT_MASKS)) {
		pr_warn("%s: not profiled: built for raw version %llu, vmlinux has raw version %llu (another compiler)\n",
			mod->name, own & ~PGO_VARIANT_MASKS,
			kernel & ~PGO_VARIANT_MASKS);
		return false;
	}
	obj->version = own;
	return true;
}

/*
 * The profile's binary id is the module's build id, as the loader read it
 * (CONFIG_MODULE_BUILD_ID, which PGO_CLANG selects; with KALLSYMS).
 */
static void pgo_module_build_id(struct pgo_object *obj,
				const struct module *mod)
{
#ifdef CONFIG_MODULE_BUILD_ID
	BUILD_BUG_ON(sizeof(obj->build_id) != sizeof(mod->build_id));
	if (memchr_inv(mod->build_id, 0, sizeof(mod->build_id))) {
		memcpy(obj->build_id, mod->build_id, sizeof(obj->build_id));
		obj->build_id_len = sizeof(obj->build_id);
	}
#endif
}

/* The end of a section of the module, NULL for an absent one. */
static void *pgo_section_end(const struct pgo_module_info *info,
			     enum pgo_section i)
{
	return info->start[i] ? info->start[i] + info->size[i] : NULL;
}

/* Writing "1" to /sys/module/<name>/pgo/reset. */
static void pgo_module_reset(struct pgo_files *files)
{
	pgo_object_reset(files->obj);
}

static void pgo_module_coming(struct module *mod)
{
	struct pgo_module_info *info = &mod->pgo;
	struct pgo_module *pm;
	struct pgo_object *obj;
	const char *ro;

	/* Correlated: counters, and the records stay in the .ko file. */
	if (!info->start[PGO_SECT_DATA] &&
	    !(IS_ENABLED(CONFIG_PGO_CLANG_CORRELATE) && info->start[PGO_SECT_CNTS])) {
		if (info->start[PGO_SECT_CNTS] || info->start[PGO_SECT_VALS])
			pr_warn("%s: not profiled: it has counters but no __llvm_prf_data section (correlated, and this kernel is not?)\n",
				mod->name);
		return;
	}
	ro = pgo_module_readonly(mod);
	if (ro) {
		pr_warn("%s: not profiled: its %s section is not writable data\n",
			mod->name, ro);
		pgo_module_disarm(mod);
		return;
	}

	pm = kzalloc_obj(*pm, GFP_KERNEL);
	if (!pm) {
		pgo_module_disarm(mod);
		return;
	}
	obj = &pm->obj;
	obj->name = mod->name;
	if (!pgo_module_version(obj, mod)) {
		kfree(pm);
		pgo_module_disarm(mod);
		return;
	}
	pgo_module_build_id(obj, mod);
	pgo_module_text(obj, mod);
	obj->correlated = !info->start[PGO_SECT_DATA];
	obj->data = info->start[PGO_SECT_DATA];
	obj->data_end = pgo_section_end(info, PGO_SECT_DATA);
	obj->cnts = info->start[PGO_SECT_CNTS];
	obj->cnts_end = pgo_section_end(info, PGO_SECT_CNTS);
	obj->bits = info->start[PGO_SECT_BITS];
	obj->bits_end = pgo_section_end(info, PGO_SECT_BITS);
	obj->names = info->start[PGO_SECT_NAMES];
	obj->names_end = pgo_section_end(info, PGO_SECT_NAMES);
	obj->vals = info->start[PGO_SECT_VALS];
	obj->vals_end = pgo_section_end(info, PGO_SECT_VALS);
	obj->vnds = info->start[PGO_SECT_VNDS];
	obj->vnds_end = pgo_section_end(info, PGO_SECT_VNDS);
	/* Nothing of the module ran yet: its value lists must be empty. */
	if (pgo_object_check(obj, true)) {
		kfree(pm);
		pgo_module_disarm(mod);
		return;
	}
	pgo_object_hide_code(obj);
	pgo_object_add(obj);
	info->obj = obj;
}

static struct pgo_module *pgo_module_of(const struct module *mod)
{
	if (!mod->pgo.obj)
		return NULL;
	return container_of(mod->pgo.obj, struct pgo_module, obj);
}

static void pgo_module_live(struct module *mod)
{
	struct pgo_module *pm = pgo_module_of(mod);

	if (pm)
		pgo_files_add(&pm->files, &pm->obj, pgo_module_reset,
			      &mod->mkobj.kobj, "pgo");
}

static void pgo_module_going(struct module *mod)
{
	struct pgo_module *pm = pgo_module_of(mod);

	if (!pm)
		return;
	pgo_files_del(&pm->files);
	/* The module's memory is still there: keep its final profile. */
	pgo_retain(&pm->obj);
	mod->pgo.obj = NULL;
	kfree(pm);
}

/*
 * First of the module notifiers: the module's object exists before any
 * other notifier runs its code.  A notifier after it that fails COMING
 * makes the loader send GOING to those before it only: then the module is
 * not formed, and the object goes here.
 */
static int pgo_module_notify(struct notifier_block *nb, unsigned long state,
			     void *data)
{
	struct module *mod = data;
	struct pgo_module *pm;

	switch (state) {
	case MODULE_STATE_COMING:
		pgo_module_coming(mod);
		break;
	case MODULE_STATE_LIVE:
		pgo_module_live(mod);
		break;
	case MODULE_STATE_GOING:
		pm = pgo_module_of(mod);
		if (pm && !pm->formed)
			pgo_module_going(mod);
		break;
	}
	return NOTIFY_OK;
}

/*
 * Last of the module notifiers: a module that gets COMING here is formed,
 * and its final profile, taken here when it goes, has what the other
 * notifiers ran of it.
 */
static int pgo_module_notify_last(struct notifier_block *nb,
				  unsigned long state, void *data)
{
	struct module *mod = data;
	struct pgo_module *pm = pgo_module_of(mod);

	if (!pm)
		return NOTIFY_OK;
	if (state == MODULE_STATE_COMING)
		pm->formed = true;
	else if (state == MODULE_STATE_GOING && pm->formed)
		pgo_module_going(mod);
	return NOTIFY_OK;
}

static struct notifier_block pgo_module_nb = {
	.notifier_call = pgo_module_notify,
	.priority = INT_MAX,
};

static struct notifier_block pgo_module_last_nb = {
	.notifier_call = pgo_module_notify_last,
	.priority = INT_MIN,
};

/*
 * Modules can load as soon as usermode helpers are enabled, in
 * populate_rootfs() (rootfs_initcall): a driver's request_module() from a
 * later initcall loads one from the initramfs.  Be there before.  Such a
 * module's sysfs files need nothing of pgo_init() (root.c); only its
 * retention does (the "retained" directory), and a module that goes away
 * before that is not retained.
 */
static int __init pgo_module_init(void)
{
	int ret = register_module_notifier(&pgo_module_last_nb);

	if (ret)
		return ret;
	ret = register_module_notifier(&pgo_module_nb);
	if (ret)
		unregister_module_notifier(&pgo_module_last_nb);
	return ret;
}
core_initcall(pgo_module_init);
