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

extern const char * const pgo_section_names[PGO_NR_SECTS];

/**
 * struct pgo_module_info - a module's profile sections and its profile
 * @start: where the loader placed each section, NULL if absent
 * @size: size of each section
 * @obj: the module's profiled object, NULL if it has none
 *
 * The loader fills @start and @size (find_module_sections()); kernel/pgo
 * reads them when the module is coming.
 */
struct pgo_module_info {
	void *start[PGO_NR_SECTS];
	unsigned int size[PGO_NR_SECTS];
	struct pgo_object *obj;
};

#endif /* _LINUX_PGO_H */
