/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clang PGO: what the module loader tells kernel/pgo about a module.
 */
#ifndef _LINUX_PGO_H
#define _LINUX_PGO_H

#include <linux/types.h>

struct module;
struct pgo_object;

enum pgo_section {
	PGO_SECT_DATA,
	PGO_SECT_CNTS,
	PGO_SECT_NAMES,
	PGO_SECT_VALS,
	PGO_SECT_VNDS,
	PGO_SECT_BITS,
	PGO_NR_SECTS
};

/**
 * struct pgo_module_info - a module's profile sections and its profile
 * @start: where each section was loaded, NULL if absent
 * @size: size of each section
 * @nr_duplicates: sections found more than once (not merged at link time)
 * @nr_unknown: __llvm_prf_* sections this kernel does not know
 * @build_id_note: the module's .note.gnu.build-id section, if any
 * @build_id_note_size: its size
 * @obj: the module's profiled object, NULL if it has none
 */
struct pgo_module_info {
	void *start[PGO_NR_SECTS];
	unsigned long size[PGO_NR_SECTS];
	unsigned int nr_duplicates;
	unsigned int nr_unknown;
	const void *build_id_note;
	unsigned long build_id_note_size;
	struct pgo_object *obj;
};

void pgo_module_section(struct module *mod, const char *name, void *addr,
			unsigned long size);

#endif /* _LINUX_PGO_H */
