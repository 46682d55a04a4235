/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clang PGO: the module loader's calls into kernel/pgo (kernel/pgo/module.c).
 */
#ifndef _LINUX_PGO_H
#define _LINUX_PGO_H

#include <linux/module.h>

#if defined(CONFIG_PGO_CLANG) && defined(CONFIG_MODULES)
void pgo_module_init(struct module *mod, const Elf_Shdr *sechdrs,
		     unsigned int shnum, const char *secstrings,
		     const char *raw_version);
void pgo_module_live(struct module *mod);
void pgo_module_free(struct module *mod);
#else
static inline void pgo_module_init(struct module *mod, const Elf_Shdr *sechdrs,
				   unsigned int shnum, const char *secstrings,
				   const char *raw_version) { }
static inline void pgo_module_live(struct module *mod) { }
static inline void pgo_module_free(struct module *mod) { }
#endif

#endif /* _LINUX_PGO_H */
