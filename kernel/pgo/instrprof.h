/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LLVM raw profile layout, taken from the compiler that builds the kernel.
 *
 * Every clang ships profile/InstrProfData.inc, the X-macro source of the
 * structures its instrumentation emits and its tools read.  Expanding it
 * here, instead of copying the structures by hand, keeps the kernel in step
 * with whatever LLVM release builds it: the record, header and value node
 * layouts below are the ones the compiler actually used.
 *
 * The Makefile puts the compiler's resource include directory on the search
 * path with -idirafter, so nothing here can shadow a kernel header.
 */
#ifndef _KERNEL_PGO_INSTRPROF_H
#define _KERNEL_PGO_INSTRPROF_H

#include <linux/types.h>

#ifndef UINT64_C
#define UINT64_C(c)	c ## ULL
#endif

/* The compiler's own copy of LLVM's definitions (kernel/pgo/Makefile). */
#ifndef PGO_INSTRPROF_INC
#define PGO_INSTRPROF_INC "profile/InstrProfData.inc"
#endif

typedef u64 IntPtrT;

/* Helpers the header defines (the memop size buckets) stay local. */
#define INSTR_PROF_VISIBILITY static __always_inline

enum llvm_prf_value_kind {
#define VALUE_PROF_KIND(kind, value, descr) kind = value,
#include PGO_INSTRPROF_INC
};

/* Per-function control record, in __llvm_prf_data. */
struct llvm_prf_data {
#define INSTR_PROF_DATA(type, llvm_type, name, init) type name;
#include PGO_INSTRPROF_INC
};

/* Value profiling node, in __llvm_prf_vnds. */
struct llvm_prf_value_node;
typedef struct llvm_prf_value_node *PtrToNodeT;
struct llvm_prf_value_node {
#define INSTR_PROF_VALUE_NODE(type, llvm_type, name, init) type name;
#include PGO_INSTRPROF_INC
};

/* Header of a raw profile file. */
struct llvm_prf_header {
#define INSTR_PROF_RAW_HEADER(type, name, init) type name;
#include PGO_INSTRPROF_INC
};

/* The constants (magic, INSTR_PROF_RAW_VERSION, ...) and memop buckets. */
#define INSTR_PROF_VALUE_PROF_MEMOP_API
#include PGO_INSTRPROF_INC
#undef INSTR_PROF_VALUE_PROF_MEMOP_API

/*
 * Raw versions this kernel knows how to write: 7 (clang 13), 8 (clang
 * 14-17), 9 (clang 18), 10 (clang 19-22) and 11 (clang 23).  Anything else
 * would produce files that llvm-profdata rejects, so refuse to build
 * (Kconfig already keeps such a clang from selecting PGO_CLANG).
 */
#if INSTR_PROF_RAW_VERSION < 7 || INSTR_PROF_RAW_VERSION > 11
#error "CONFIG_PGO_CLANG: unknown LLVM raw profile version, see Documentation/dev-tools/pgo.rst"
#endif

/* Since version 8, CounterPtr is relative to its own record. */
#define PGO_RELATIVE_COUNTERS	(INSTR_PROF_RAW_VERSION >= 8)
/* Version 9 added MC/DC bitmaps (BitmapPtr relative to its record). */
#define PGO_HAS_BITMAP		(INSTR_PROF_RAW_VERSION >= 9)
/*
 * Version 11 added GPU offload's uniform counters: a record's
 * UniformCounterPtr and a section that CPU code leaves empty.
 */
#define PGO_HAS_UNIFORM		(INSTR_PROF_RAW_VERSION >= 11)

#define PGO_NR_VALUE_KINDS	(IPVK_Last + 1)

/* Single-byte counters came with LLVM 14; clang 13 never sets the flag. */
#ifndef VARIANT_MASK_BYTE_COVERAGE
#define VARIANT_MASK_BYTE_COVERAGE	0
#endif

#endif /* _KERNEL_PGO_INSTRPROF_H */
