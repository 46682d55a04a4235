// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: vmlinux's profiled object.
 *
 * Built from the linker's section bounds (vmlinux.lds.h), so the runtime
 * can use it from the first instrumented instruction of early boot on.
 * What the writer needs besides (raw version, where the code is, build id)
 * and the check of the sections come later, from pgo_vmlinux_setup().
 */

#define pr_fmt(fmt) "pgo: " fmt

#include <linux/buildid.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/processor.h>
#include <asm/sections.h>

#include "pgo.h"

/* An object's bounds of one of the sections the linker script collects. */
#define PGO_VMLINUX_SECTION(field, sect)			\
	.field = __start_##sect, .field##_end = __stop_##sect

struct pgo_object pgo_vmlinux = {
	.name		= "vmlinux",
	PGO_VMLINUX_SECTION(data, __llvm_prf_data),
	PGO_VMLINUX_SECTION(cnts, __llvm_prf_cnts),
	PGO_VMLINUX_SECTION(bits, __llvm_prf_bits),
	PGO_VMLINUX_SECTION(names, __llvm_prf_names),
	PGO_VMLINUX_SECTION(vals, __llvm_prf_vals),
	PGO_VMLINUX_SECTION(vnds, __llvm_prf_vnds),
	.correlated	= IS_ENABLED(CONFIG_PGO_CLANG_CORRELATE),
	.list		= LIST_HEAD_INIT(pgo_vmlinux.list),
};

/*
 * The version word that the configuration implies: what IR and
 * single-byte instrumentation define as __llvm_profile_raw_version, and
 * the plain version for other front-end instrumentation (which, depending
 * on the clang, defines that or nothing).
 * It stands for the compiler's in a vmlinux none of whose objects is
 * instrumented (PGO_CLANG_PROFILE_ALL=n): its profile is empty, but the
 * modules' words are compared with it.
 */
#define PGO_RAW_VERSION_CONFIG					\
	(PGO_RAW_VERSION |					\
	 (IS_ENABLED(CONFIG_PGO_CLANG_IR) ? PGO_VARIANT_IR : 0) |	\
	 (IS_ENABLED(CONFIG_PGO_CLANG_SINGLE_BYTE) ?		\
	  PGO_VARIANT_BYTE_COVERAGE : 0))

/**
 * pgo_raw_version() - the raw version word of this kernel's profiles
 *
 * Return: the version the compiler emitted, with its variant flags, or
 * the one the configuration implies if it emitted none.
 */
u64 pgo_raw_version(void)
{
	return &__llvm_profile_raw_version ? __llvm_profile_raw_version :
					     PGO_RAW_VERSION_CONFIG;
}

/**
 * pgo_vmlinux_setup() - complete and check vmlinux's object
 *
 * Its code addresses are written relative to _text, so that nothing of
 * KASLR's offset shows in a profile.
 *
 * Return: 0, or a negative errno if the sections are unusable; the runtime
 * then stops using them.
 */
int pgo_vmlinux_setup(void)
{
	struct pgo_object *obj = &pgo_vmlinux;
	int ret;

	obj->version = pgo_raw_version();
	/* The layouts are those of the version Kconfig found (instrprof.h). */
	if ((obj->version & ~PGO_VARIANT_MASKS) != PGO_RAW_VERSION) {
		pr_err("vmlinux: not profiled: built with raw version %llu, kernel/pgo has the layout of %d\n",
		       obj->version & ~PGO_VARIANT_MASKS, PGO_RAW_VERSION);
		obj->data_end = obj->data;
		return -EINVAL;
	}
	obj->text[0].start = (unsigned long)_text;
	obj->text[0].size = _end - _text;
	obj->text[0].base = PGO_TEXT_BASE;
	obj->nr_text = 1;
	if (!build_id_parse_buf(__start_notes, obj->build_id,
				__stop_notes - __start_notes))
		obj->build_id_len = BUILD_ID_SIZE_MAX;
	ret = pgo_object_check(obj, false);
	if (ret) {
		/* The runtime must not use what the writer would reject. */
		obj->data_end = obj->data;
		return ret;
	}
	pgo_object_hide_code(obj);
	if (obj->correlated)
		pr_info("vmlinux: %zu counter bytes, records in the vmlinux file (correlated), raw version %llu\n",
			(size_t)(obj->cnts_end - obj->cnts),
			obj->version & ~PGO_VARIANT_MASKS);
	else
		pr_info("vmlinux: %zu functions, %u value nodes, raw version %llu\n",
			(size_t)(obj->data_end - obj->data), pgo_pool_size(obj),
			obj->version & ~PGO_VARIANT_MASKS);
	return 0;
}
