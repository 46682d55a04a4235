// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: profiles of loadable modules.
 *
 * The module loader calls in at three points, next to its calls of ftrace:
 *
 *  - pgo_module_init(), once the module is relocated and before any of its
 *    code can run (its parameters, the COMING notifiers, its init): its
 *    __llvm_prf_* sections become a profiled object, checked and
 *    registered, so that the runtime takes value nodes from the module's
 *    own pool;
 *  - pgo_module_live(), when its init succeeded, before it is live (so
 *    before it can be unloaded) and before its add uevent: its "pgo" group
 *    appears in /sys/module/<name>/;
 *  - pgo_module_free(), on every path that frees a module whose
 *    pgo_module_init() ran (on unload, after its exit, the GOING notifiers
 *    and the async work they left), while its memory is still there: the
 *    group is removed (waiting for reads in progress), the object
 *    unregistered (waiting for the runtime) and its final profile kept
 *    for retention in one step (retain.c), and the object freed.
 */

#define pr_fmt(fmt) "pgo: " fmt

#include <linux/buildid.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pgo.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "files.h"

/**
 * struct pgo_module - a module's profiled object and its files
 * @obj: the object, over the module's own sections
 * @files: /sys/module/<name>/pgo/
 */
struct pgo_module {
	struct pgo_object obj;
	struct pgo_files files;
};

enum pgo_section {
	PGO_SECT_DATA,
	PGO_SECT_CNTS,
	PGO_SECT_NAMES,
	PGO_SECT_VALS,
	PGO_SECT_VNDS,
	PGO_SECT_BITS,
	PGO_NR_SECTS
};

static const char * const pgo_section_names[PGO_NR_SECTS] = {
	[PGO_SECT_DATA]		= "__llvm_prf_data",
	[PGO_SECT_CNTS]		= "__llvm_prf_cnts",
	[PGO_SECT_NAMES]	= "__llvm_prf_names",
	[PGO_SECT_VALS]		= "__llvm_prf_vals",
	[PGO_SECT_VNDS]		= "__llvm_prf_vnds",
	[PGO_SECT_BITS]		= "__llvm_prf_bits",
};

/**
 * struct pgo_module_image - where a module's profile is in its ELF image
 * @sechdrs: its section headers, sh_addr where each section was placed
 * @shnum: their number
 * @secstrings: their names
 * @start: the loaded section of each kind, NULL if absent
 * @size: its size
 * @several: a kind that has more than one section, or NULL
 * @nr_several: how many sections of that kind it has
 */
struct pgo_module_image {
	const Elf_Shdr *sechdrs;
	unsigned int shnum;
	const char *secstrings;
	void *start[PGO_NR_SECTS];
	unsigned long size[PGO_NR_SECTS];
	const char *several;
	unsigned int nr_several;
};

/* Whether section @i of @img is the loaded section @name. */
static bool pgo_is_section(const struct pgo_module_image *img, unsigned int i,
			   const char *name)
{
	return (img->sechdrs[i].sh_flags & SHF_ALLOC) &&
	       !strcmp(img->secstrings + img->sechdrs[i].sh_name, name);
}

/*
 * Find each kind's section.  clang puts each function's in a section group
 * of its own, which GNU ld -r keeps apart unless told
 * (--force-group-allocation, which kbuild passes): kernel/pgo would see
 * one function of such a module, so it profiles none.
 */
static void pgo_find_sections(struct pgo_module_image *img)
{
	unsigned int i, j, n;

	for (i = 0; i < PGO_NR_SECTS; i++) {
		for (j = 1, n = 0; j < img->shnum; j++) {
			if (!pgo_is_section(img, j, pgo_section_names[i]))
				continue;
			img->start[i] = (void *)img->sechdrs[j].sh_addr;
			img->size[i] = img->sechdrs[j].sh_size;
			n++;
		}
		if (n > 1 && !img->several) {
			img->several = pgo_section_names[i];
			img->nr_several = n;
		}
	}
}

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
static const char *pgo_module_readonly(const struct module *mod,
				       const struct pgo_module_image *img)
{
	unsigned int i;

	for (i = 0; i < PGO_NR_SECTS; i++)
		if (i != PGO_SECT_NAMES &&
		    !pgo_module_writable(mod, img->start[i], img->size[i]))
			return pgo_section_names[i];
	return NULL;
}

/*
 * A module that is not profiled still calls the runtime, which follows its
 * records' value list heads: unchecked, they could point anywhere (its
 * lists are never added to, its object being unknown), and in a module
 * built for another raw version they are not where the runtime reads
 * them.  Nothing but the runtime reads the records of such a module:
 * zero them all, in every __llvm_prf_data section it has, so that it finds
 * no list head wherever it looks.
 */
static void pgo_module_disarm(const struct module *mod,
			      const struct pgo_module_image *img)
{
	const Elf_Shdr *s;
	unsigned int i;

	for (i = 1; i < img->shnum; i++) {
		if (!pgo_is_section(img, i, pgo_section_names[PGO_SECT_DATA]))
			continue;
		s = &img->sechdrs[i];
		/* Not writable: left as the compiler made it, no choice. */
		if (pgo_module_writable(mod, (void *)s->sh_addr, s->sh_size))
			memset((void *)s->sh_addr, 0, s->sh_size);
	}
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
 * Whether the module's records have the kernel's layout, the only one the
 * runtime and the writer know: the raw version it was built for, which
 * modpost read from its objects into its modinfo (@raw_version), must be
 * PGO_RAW_VERSION.  Takes its version word (with its variant flags) into
 * @obj.  Front-end instrumentation (source-based coverage) defines no
 * version word: such a module, if vmlinux is not IR-instrumented, takes
 * vmlinux's word, and only pgo_object_check() checks its layout.
 */
static bool pgo_module_version(struct pgo_object *obj, const char *raw_version)
{
	u64 kernel = pgo_raw_version(), own = kernel;

	if (raw_version && kstrtou64(raw_version, 0, &own)) {
		pr_warn("%s: not profiled: its modinfo's pgo_raw_version=%s is not a number\n",
			obj->name, raw_version);
		return false;
	}
	if (!raw_version && (kernel & PGO_VARIANT_IR)) {
		pr_warn("%s: not profiled: its modinfo names no pgo_raw_version, vmlinux has raw version %llu (IR instrumentation)\n",
			obj->name, kernel & ~PGO_VARIANT_MASKS);
		return false;
	}
	if ((own & ~PGO_VARIANT_MASKS) != PGO_RAW_VERSION) {
		pr_warn("%s: not profiled: built for raw version %llu, vmlinux has raw version %d (another compiler)\n",
			obj->name, own & ~PGO_VARIANT_MASKS, PGO_RAW_VERSION);
		return false;
	}
	obj->version = own;
	return true;
}

/*
 * The profile's binary id: the module's GNU build id, from its notes, as
 * init_build_id() reads it for stack traces.
 */
static void pgo_module_build_id(struct pgo_object *obj,
				const struct pgo_module_image *img)
{
	const Elf_Shdr *s;
	unsigned int i;

	for (i = 1; i < img->shnum; i++) {
		s = &img->sechdrs[i];
		if (s->sh_type == SHT_NOTE && (s->sh_flags & SHF_ALLOC) &&
		    s->sh_size &&
		    !build_id_parse_buf((void *)s->sh_addr, obj->build_id,
					s->sh_size)) {
			obj->build_id_len = BUILD_ID_SIZE_MAX;
			return;
		}
	}
}

/* The end of a section of the module, NULL for an absent one. */
static void *pgo_section_end(const struct pgo_module_image *img,
			     enum pgo_section i)
{
	return img->start[i] ? img->start[i] + img->size[i] : NULL;
}

/* Writing "1" to /sys/module/<name>/pgo/reset. */
static void pgo_module_reset(struct pgo_files *files)
{
	pgo_object_reset(files->obj);
}

/*
 * Whether the module can be profiled through @img's sections, with the log
 * line that says why not.
 */
static bool pgo_module_usable(const struct module *mod,
			      const struct pgo_module_image *img)
{
	const char *ro;

	if (img->several) {
		pr_warn("%s: not profiled: %u %s sections, not one (linked by GNU ld without --force-group-allocation?)\n",
			mod->name, img->nr_several, img->several);
		return false;
	}
	ro = pgo_module_readonly(mod, img);
	if (ro) {
		pr_warn("%s: not profiled: its %s section is not writable data\n",
			mod->name, ro);
		return false;
	}
	return true;
}

/* @pm's object over @img's sections, checked; 0 or -errno. */
static int pgo_module_object(struct pgo_module *pm, const struct module *mod,
			     const struct pgo_module_image *img)
{
	struct pgo_object *obj = &pm->obj;

	pgo_module_build_id(obj, img);
	pgo_module_text(obj, mod);
	obj->correlated = !img->start[PGO_SECT_DATA];
	obj->data = img->start[PGO_SECT_DATA];
	obj->data_end = pgo_section_end(img, PGO_SECT_DATA);
	obj->cnts = img->start[PGO_SECT_CNTS];
	obj->cnts_end = pgo_section_end(img, PGO_SECT_CNTS);
	obj->bits = img->start[PGO_SECT_BITS];
	obj->bits_end = pgo_section_end(img, PGO_SECT_BITS);
	obj->names = img->start[PGO_SECT_NAMES];
	obj->names_end = pgo_section_end(img, PGO_SECT_NAMES);
	obj->vals = img->start[PGO_SECT_VALS];
	obj->vals_end = pgo_section_end(img, PGO_SECT_VALS);
	obj->vnds = img->start[PGO_SECT_VNDS];
	obj->vnds_end = pgo_section_end(img, PGO_SECT_VNDS);
	/* Nothing of the module ran yet: its value lists must be empty. */
	return pgo_object_check(obj, true);
}

/**
 * pgo_module_init() - make a module's profiled object
 * @mod: the module, relocated, none of its code run yet
 * @sechdrs: its section headers, sh_addr where each section was placed
 * @shnum: their number
 * @secstrings: their names
 * @raw_version: its modinfo's pgo_raw_version, NULL if it has none
 *
 * A module that cannot be profiled loads all the same, with a log line
 * saying why, and its records zeroed (pgo_module_disarm()).
 */
void pgo_module_init(struct module *mod, const Elf_Shdr *sechdrs,
		     unsigned int shnum, const char *secstrings,
		     const char *raw_version)
{
	struct pgo_module_image img = {
		.sechdrs = sechdrs, .shnum = shnum, .secstrings = secstrings,
	};
	struct pgo_module *pm;

	mod->pgo = NULL;
	pgo_find_sections(&img);
	/* Correlated: counters, and the records stay in the .ko file. */
	if (!img.start[PGO_SECT_DATA] &&
	    !(IS_ENABLED(CONFIG_PGO_CLANG_CORRELATE) && img.start[PGO_SECT_CNTS])) {
		if (img.start[PGO_SECT_CNTS] || img.start[PGO_SECT_VALS])
			pr_warn("%s: not profiled: it has counters but no __llvm_prf_data section (correlated, and this kernel is not?)\n",
				mod->name);
		return;
	}
	if (!pgo_module_usable(mod, &img))
		goto disarm;
	pm = kzalloc_obj(*pm, GFP_KERNEL);
	if (!pm)
		goto disarm;
	pm->obj.name = mod->name;
	if (!pgo_module_version(&pm->obj, raw_version) ||
	    pgo_module_object(pm, mod, &img)) {
		kfree(pm);
		goto disarm;
	}
	pgo_object_hide_code(&pm->obj);
	pgo_object_add(&pm->obj);
	mod->pgo = pm;
	return;

disarm:
	pgo_module_disarm(mod, &img);
}

/**
 * pgo_module_live() - show a module's profile
 * @mod: the module, its init done, not live yet
 */
void pgo_module_live(struct module *mod)
{
	struct pgo_module *pm = mod->pgo;

	if (pm)
		pgo_files_add(&pm->files, &pm->obj, pgo_module_reset,
			      &mod->mkobj.kobj, "pgo");
}

/**
 * pgo_module_free() - keep a module's final profile and free its object
 * @mod: the module, unloaded (after its exit, the GOING notifiers and the
 *	async work they left) or whose load failed after pgo_module_init();
 *	its memory still there
 *
 * Its files, if shown, are removed first.  A profile none of whose code
 * ran is not retained.
 */
void pgo_module_free(struct module *mod)
{
	struct pgo_module *pm = mod->pgo;

	if (!pm)
		return;
	pgo_files_del(&pm->files);
	pgo_retain(&pm->obj);
	mod->pgo = NULL;
	kfree(pm);
}
