/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LLVM's raw profile format, in the layouts of the raw versions the kernel
 * writes.
 *
 * clang's instrumentation emits a record per function, its counters, names
 * and value profiling sections in a layout that changes with the raw
 * version, and llvm-profdata of that LLVM reads files of that version only.
 * CONFIG_PGO_CLANG_RAW_VERSION is the version the compiler's
 * instrumentation emits (scripts/pgo/raw-version.sh); it chooses the
 * layout below.  The structures are LLVM's, as its InstrProfData.inc
 * defines them (INSTR_PROF_DATA, INSTR_PROF_VALUE_NODE,
 * INSTR_PROF_RAW_HEADER), field for field, each named as LLVM names it
 * (NameRef is name_ref), the value kinds as its VALUE_PROF_KIND (IPVK_*):
 *
 *   version  LLVM    what changed
 *   8        14-17   counter_ptr relative to its record
 *   9        18      MC/DC bitmaps: bitmap_ptr, num_bitmap_bytes, the
 *                    header's num_bitmap_bytes,
 *                    padding_bytes_after_bitmap_bytes and bitmap_delta
 *   10       19-22   vtable value profiling: PGO_VK_VTABLE_TARGET, the
 *                    header's num_vtables and vnames_size
 *   11       23      GPU offload: uniform_counter_ptr,
 *                    offload_device_wave_size, the header's uniform
 *                    counter fields
 */
#ifndef _KERNEL_PGO_INSTRPROF_H
#define _KERNEL_PGO_INSTRPROF_H

#include <linux/bits.h>
#include <linux/log2.h>
#include <linux/types.h>

#define PGO_RAW_VERSION		CONFIG_PGO_CLANG_RAW_VERSION

#if PGO_RAW_VERSION < 8 || PGO_RAW_VERSION > 11
#error "kernel/pgo knows LLVM raw profile versions 8 to 11 (Kconfig refuses others)"
#endif

/* MC/DC bitmaps, relative to their record like the counters. */
#define PGO_HAS_BITMAP		(PGO_RAW_VERSION >= 9)
/* GPU offload's uniform counters, which CPU code never has. */
#define PGO_HAS_UNIFORM		(PGO_RAW_VERSION >= 11)

/* "\xfflprofr\x81": a 64-bit raw profile. */
#define PGO_RAW_MAGIC							\
	((u64)255 << 56 | (u64)'l' << 48 | (u64)'p' << 40 |		\
	 (u64)'r' << 32 | (u64)'o' << 24 | (u64)'f' << 16 |		\
	 (u64)'r' << 8 | (u64)129)

/*
 * The version word: the raw version in the low 32 bits, flags of the
 * kind of instrumentation above them.
 */
#define PGO_VARIANT_MASKS		GENMASK_ULL(63, 32)
#define PGO_VARIANT_IR			BIT_ULL(56)	/* IR, not front end */
#define PGO_VARIANT_BYTE_COVERAGE	BIT_ULL(60)	/* single-byte counters */

/* Kinds of values profiled, indexes of a record's num_value_sites[]. */
enum llvm_prf_value_kind {
	PGO_VK_INDIRECT_CALL_TARGET = 0,
	PGO_VK_MEMOP_SIZE = 1,
#if PGO_RAW_VERSION >= 10
	PGO_VK_VTABLE_TARGET = 2,
#endif
	PGO_VK_FIRST = PGO_VK_INDIRECT_CALL_TARGET,
#if PGO_RAW_VERSION >= 10
	PGO_VK_LAST = PGO_VK_VTABLE_TARGET,
#else
	PGO_VK_LAST = PGO_VK_MEMOP_SIZE,
#endif
};

#define PGO_NR_VALUE_KINDS	(PGO_VK_LAST + 1)

/*
 * Per-function record, in __llvm_prf_data.  counter_ptr and bitmap_ptr are
 * the distances from the record to its counters and bitmap; values points
 * at its value list heads, one per value site.
 */
struct llvm_prf_data {
	const u64 name_ref;
	const u64 func_hash;
	const u64 counter_ptr;
#if PGO_HAS_UNIFORM
	const u64 uniform_counter_ptr;
#endif
#if PGO_HAS_BITMAP
	const u64 bitmap_ptr;
#endif
	const u64 function_pointer;
	u64 values;
	const u32 num_counters;
	const u16 num_value_sites[PGO_NR_VALUE_KINDS];
#if PGO_HAS_UNIFORM
	const u16 offload_device_wave_size;
#endif
#if PGO_HAS_BITMAP
	const u32 num_bitmap_bytes;
#endif
};

/* Value profiling node, in __llvm_prf_vnds. */
struct llvm_prf_value_node {
	u64 value;
	u64 count;
	struct llvm_prf_value_node *next;
};

/* Header of a raw profile file. */
struct llvm_prf_header {
	u64 magic;
	u64 version;
	u64 binary_ids_size;
	u64 num_data;			/* DataSize in version 8 */
	u64 padding_bytes_before_counters;
	u64 num_counters;		/* CountersSize in version 8 */
	u64 padding_bytes_after_counters;
#if PGO_HAS_BITMAP
	u64 num_bitmap_bytes;
	u64 padding_bytes_after_bitmap_bytes;
#endif
#if PGO_HAS_UNIFORM
	u64 num_uniform_counters;
	u64 padding_bytes_after_uniform_counters;
	u64 uniform_counters_delta;
#endif
	u64 names_size;
	u64 counters_delta;
#if PGO_HAS_BITMAP
	u64 bitmap_delta;
#endif
	u64 names_delta;
#if PGO_RAW_VERSION >= 10
	u64 num_vtables;
	u64 vnames_size;
#endif
	u64 value_kind_last;
};

/**
 * pgo_memop_value() - the value that stands for a memory intrinsic's size
 * @size: the size passed to memcpy(), memset(), ...
 *
 * LLVM's readers expect sizes in ranges (InstrProfGetRangeRepValue()):
 * 0 to 8 as they are, a power of two as it is, another size up to 512 as
 * the power of two below it plus one, 513 and more as 513.
 *
 * Return: the value to record.
 */
static __always_inline u64 pgo_memop_value(u64 size)
{
	if (size <= 8)
		return size;
	if (size >= 513)
		return 513;
	if (is_power_of_2(size))
		return size;
	return (1ULL << ilog2(size)) + 1;
}

#endif /* _KERNEL_PGO_INSTRPROF_H */
