// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pgo/instrprof.h against a compiler's own InstrProfData.inc, the
 * X-macro source of the layouts its instrumentation emits and its
 * llvm-profdata reads.  tests/host/run.sh builds it for each clang with
 * CONFIG_PGO_CLANG_RAW_VERSION set to that file's INSTR_PROF_RAW_VERSION
 * and LLVM_INSTRPROF_INC to its path (not found on the include path: the
 * building clang's own copy would come first).
 *
 * It does not compile if a field of the compiler's per-function record,
 * value node or file header is missing from the kernel's, lies at another
 * offset or has another size; if a structure's size, the magic, the
 * version, a value kind or a variant flag the kernel uses differs.  Run,
 * it compares the memop size buckets of the kernel's runtime with LLVM's
 * and exits 1 at the first that differs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "instrprof.h"

#define SAME_FIELD(a, b, name)						\
	_Static_assert(offsetof(struct a, name) == offsetof(struct b, name) && \
		       sizeof(((struct a *)0)->name) ==			\
		       sizeof(((struct b *)0)->name),			\
		       #a " and " #b ": field " #name)

typedef uint64_t IntPtrT;

/*
 * LLVM's names of the fields and value kinds, as the kernel spells them:
 * a field or kind the compiler has and the kernel lacks fails to compile.
 * Raw version 8 names two header fields as 9 on renamed them.
 */
#define NameRef	name_ref
#define FuncHash	func_hash
#define UniformCounterPtr	uniform_counter_ptr
#define CounterPtr	counter_ptr
#define BitmapPtr	bitmap_ptr
#define FunctionPointer	function_pointer
#define Values	values
#define NumCounters	num_counters
#define NumValueSites	num_value_sites
#define OffloadDeviceWaveSize	offload_device_wave_size
#define NumBitmapBytes	num_bitmap_bytes
#define Value	value
#define Count	count
#define Next	next
#define Magic	magic
#define Version	version
#define BinaryIdsSize	binary_ids_size
#define NumData	num_data
#define PaddingBytesBeforeCounters	padding_bytes_before_counters
#define PaddingBytesAfterCounters	padding_bytes_after_counters
#define PaddingBytesAfterBitmapBytes	padding_bytes_after_bitmap_bytes
#define NumUniformCounters	num_uniform_counters
#define PaddingBytesAfterUniformCounters	padding_bytes_after_uniform_counters
#define UniformCountersDelta	uniform_counters_delta
#define NamesSize	names_size
#define CountersDelta	counters_delta
#define BitmapDelta	bitmap_delta
#define NamesDelta	names_delta
#define NumVTables	num_vtables
#define VNamesSize	vnames_size
#define ValueKindLast	value_kind_last
#define DataSize	num_data
#define CountersSize	num_counters
#define IPVK_IndirectCallTarget	PGO_VK_INDIRECT_CALL_TARGET
#define IPVK_MemOPSize	PGO_VK_MEMOP_SIZE
#define IPVK_VTableTarget	PGO_VK_VTABLE_TARGET
#define IPVK_First	PGO_VK_FIRST
#define IPVK_Last	PGO_VK_LAST
/* The linkage of the helpers the file defines (the memop buckets). */
#define INSTR_PROF_VISIBILITY static __attribute__((unused))

/* The compiler's layouts, LLVM's types and names, with its value kinds. */
struct inc_data {
#define INSTR_PROF_DATA(type, llvm_type, name, init) type name;
#include LLVM_INSTRPROF_INC
};

struct inc_node;
typedef struct inc_node *PtrToNodeT;
struct inc_node {
#define INSTR_PROF_VALUE_NODE(type, llvm_type, name, init) type name;
#include LLVM_INSTRPROF_INC
};

struct inc_header {
#define INSTR_PROF_RAW_HEADER(type, name, init) type name;
#include LLVM_INSTRPROF_INC
};

/* Every field of the compiler's, at its offset, of its size, in the kernel's. */
#define INSTR_PROF_DATA(type, llvm_type, name, init)			\
	SAME_FIELD(llvm_prf_data, inc_data, name);
#include LLVM_INSTRPROF_INC
#define INSTR_PROF_VALUE_NODE(type, llvm_type, name, init)		\
	SAME_FIELD(llvm_prf_value_node, inc_node, name);
#include LLVM_INSTRPROF_INC
#define INSTR_PROF_RAW_HEADER(type, name, init)				\
	SAME_FIELD(llvm_prf_header, inc_header, name);
#include LLVM_INSTRPROF_INC

/* And no field of the kernel's that the compiler's lacks. */
_Static_assert(sizeof(struct llvm_prf_data) == sizeof(struct inc_data),
	       "record size");
_Static_assert(sizeof(struct llvm_prf_value_node) == sizeof(struct inc_node),
	       "value node size");
_Static_assert(sizeof(struct llvm_prf_header) == sizeof(struct inc_header),
	       "header size");

/* Each of the compiler's value kinds is the kernel's, of the same value. */
#define VALUE_PROF_KIND(kind, value, descr)				\
	_Static_assert(kind == (value), "value kind " #kind);
#include LLVM_INSTRPROF_INC

/* LLVM's constants and memop size buckets, as its runtime records them. */
#define INSTR_PROF_VALUE_PROF_MEMOP_API
#include LLVM_INSTRPROF_INC

/* Its constants: included with no X-macro of the includer's defined. */
_Static_assert(PGO_RAW_VERSION == INSTR_PROF_RAW_VERSION, "raw version");
_Static_assert(PGO_RAW_MAGIC == (INSTR_PROF_RAW_MAGIC_64), "magic");
_Static_assert(PGO_VARIANT_IR == VARIANT_MASK_IR_PROF, "IR flag");
#ifdef VARIANT_MASK_BYTE_COVERAGE	/* LLVM 14 on */
_Static_assert(PGO_VARIANT_BYTE_COVERAGE == VARIANT_MASK_BYTE_COVERAGE,
	       "single-byte coverage flag");
#endif
_Static_assert((VARIANT_MASKS_ALL & ~PGO_VARIANT_MASKS) == 0 &&
	       (PGO_RAW_VERSION & PGO_VARIANT_MASKS) == 0, "variant masks");

static int check_memop(uint64_t size)
{
	uint64_t want = InstrProfGetRangeRepValue(size);
	uint64_t got = pgo_memop_value(size);

	if (got == want)
		return 0;
	printf("memop size %llu: kernel records %llu, LLVM %llu\n",
	       (unsigned long long)size, (unsigned long long)got,
	       (unsigned long long)want);
	return 1;
}

int main(void)
{
	uint64_t size;
	unsigned int shift;

	for (size = 0; size <= 70000; size++)
		if (check_memop(size))
			return 1;
	for (shift = 16; shift < 64; shift++)
		if (check_memop(1ULL << shift) ||
		    check_memop((1ULL << shift) - 1) ||
		    check_memop((1ULL << shift) + 1))
			return 1;
	if (check_memop(UINT64_MAX))
		return 1;
	printf("record %zu, value node %zu, header %zu bytes; memop buckets agree\n",
	       sizeof(struct llvm_prf_data), sizeof(struct llvm_prf_value_node),
	       sizeof(struct llvm_prf_header));
	return 0;
}
