// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for kernel/pgo (tests/host/fuzz/run.sh builds it).
 *
 * format.c, runtime.c and objects.c, and retain.c through retain-host.c,
 * are built unchanged through tests/host/shim (and the few headers of
 * tests/host/fuzz/shim that retain.c and the log capture need), with
 * -fsanitize=fuzzer,address,undefined.  Each input becomes a profiled
 * object as the module loader (or vmlinux's linker script) hands it over:
 * six sections, each its own malloc() of exact size, so that a byte read
 * or written past one is an ASan report.  Then the harness does to it
 * what the kernel does: pgo_object_check(); if accepted,
 * pgo_object_hide_code(), value profiling calls, reads of the file in
 * chunks and at random offsets, pgo_object_reset() and reads again; for a
 * module, the retention copy and the merge of two copies.  After each
 * step it checks invariants taken from LLVM's raw format
 * (RawInstrProfReader::readHeader(), readRawCounts(), readRawBitmapBytes()
 * and ValueProfData::checkIntegrity() of InstrProfReader.cpp and
 * InstrProf.cpp, InstrProfData.inc) and from the documented contracts of
 * the kernel functions, never from their code.  Any broken one aborts.
 *
 * The input (all integers little endian):
 *
 *   header, 42 bytes:
 *     u8  flags    FZ_* below
 *     u8  flags2   FZ2_* below
 *     u8  used     the pool's nodes handed out already (with !FZ_UNUSED);
 *                  254: one more than the pool, 255: INT_MAX - 1
 *     u8  id_len   build id length, modulo 21 (with FZ_BUILD_ID)
 *     u32 text     where the object's code starts (with FZ_TEXT)
 *     u16 text_size, init_size   its core and (module) init text sizes
 *     u8  absent   bit s: section s is absent (NULL, NULL); not for
 *                  vmlinux, and a module without __llvm_prf_data is
 *                  no profiled object (module.c) but under seed bit
 *                  15; bits 6 and 7: FZA_*
 *     u8  chunk    chunk size of the sequential read, minus 1
 *     u16 seed     random offsets of the other reads, the build id bytes;
 *                  bit 15 (FZ_SEED_CORRELATE, raw version 9 on): the
 *                  kernel is CONFIG_PGO_CLANG_CORRELATE: vmlinux is
 *                  correlated, and so is a module with counters and no
 *                  __llvm_prf_data (its records and names in the .ko
 *                  file; the code's counter updates found by index, not
 *                  by record), as vmlinux.c and module.c make them
 *     u8  retain   FZR_* below: how a module's unloads go
 *     u8  split    where the reset falls among the calls (split / 256)
 *     6 x { u16 size; u8 skip; u8 trim; }   per section (data, cnts,
 *                  bits, names, vals, vnds): the malloc() is size bytes
 *                  (modulo the section's cap + 1), the section the object
 *                  sees is [skip, size - trim) of it, both clamped to it
 *   the bytes of each present section in that order (zeros past the end)
 *   the rest: what the object's code does, 4 bytes each { op, rec, site,
 *     value } (fz_run()): value profiling calls, counter increments, MC/DC
 *     bitmap bits; those before the split before the reset, the others
 *     after.
 *
 * Pointer words: each record's CounterPtr, BitmapPtr and Values, each list
 * head of the vals section and each node's Next are given as 8 bytes w:
 *   w & 0xff == 0         0
 *   w & 0xff == 1..6      into section 1..6: its start (as the object sees
 *                         it) + (s32)(w >> 32) elements (records,
 *                         counters, bytes, bytes, heads, nodes) +
 *                         (s8)(w >> 8) bytes; relative to the record for
 *                         CounterPtr (raw version 8 on) and BitmapPtr
 *   otherwise             w itself
 * so that a mutation moves a pointer inside a section, to its edges, out
 * of it or off its alignment, and rarely to nowhere.  A word that lands
 * in a section other than the one it names (the heap places each load's
 * sections anew) gets bit 63 flipped, out of the address space: whether
 * a load is accepted never depends on the heap.
 *
 * A rejected module (and one with several sections of a kind, FZA_SEVERAL)
 * is loaded unprofiled: its records zeroed, as module.c and the loader
 * do, then the calls run on it (fz_unprofiled()).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/align.h>

#include "pgo.h"
/* LLVM's constants, from the compiler's file: the oracle's names. */
#include LLVM_INSTRPROF_INC
#ifndef VARIANT_MASK_BYTE_COVERAGE
#define VARIANT_MASK_BYTE_COVERAGE	0	/* none before raw version 8 */
#endif
#include "fuzz.h"

/* WARN_ON*() in the shim counts here: none may fire. */
int shim_warnings;

/* vmlinux's object, which vmlinux.c would define: an input may be it. */
struct pgo_object pgo_vmlinux = {
	.name = "vmlinux",
	.list = LIST_HEAD_INIT(pgo_vmlinux.list),
};

#define FZ_MODULE	"fuzzmod"

/* flags */
#define FZ_UNUSED	0x01	/* pgo_object_check(obj, true): a module coming */
#define FZ_BYTECOV	0x02	/* single-byte counters (raw version 8 on) */
#define FZ_VMLINUX	0x04	/* the object is pgo_vmlinux */
#define FZ_BUILD_ID	0x08	/* it has a build id */
#define FZ_TEXT		0x10	/* it knows where its code is */
#define FZ_RETAIN	0x20	/* a module: load and unload it again, retained */
#define FZ_RESET_ALL	0x40	/* pgo_objects_reset() rather than the object's */
#define FZ_SHORT_BUF	0x80	/* pgo_values_write() into a buffer too small */
/* flags2 */
#define FZ2_IR		0x01	/* VARIANT_MASK_IR_PROF */
#define FZ2_INIT_TEXT	0x02	/* a module's init text, transient */
#define FZ2_CSIR	0x04	/* VARIANT_MASK_CSIR_PROF */
#define FZ2_DISCARD	0x08	/* discard the retained copy (FZR_SAVED...) */
#define FZ2_ENTRY	0x10	/* VARIANT_MASK_INSTR_ENTRY */
#define FZ2_ENTRY_ONLY	0x20	/* VARIANT_MASK_FUNCTION_ENTRY_ONLY (bit 61) */
#define FZ2_TEMPORAL	0x40	/* VARIANT_MASK_TEMPORAL_PROF (bit 63) */
#define FZ2_CORRELATE	0x80	/* VARIANT_MASK_DBG_CORRELATE (bit 59) */
/* seed */
#define FZ_SEED_CORRELATE 0x8000
/* absent, above the six sections' bits */
#define FZA_MORE	0x40	/* VARIANT_MASK_MEMPROF (bit 62), _INSTR_LOOP_ENTRIES */
#define FZA_SEVERAL	0x80	/* a module with several sections of a kind */
/* retain */
#define FZR_SAVED	0x01	/* ... by writing its id to "saved", not "1" to reset */
#define FZR_STALE	0x02	/* ... an id it does not have: it stays (-ESTALE if in its line) */
#define FZR_NOT_ID	0x04	/* ... something else (seed): a number or -EINVAL */
#define FZR_THIRD	0x08	/* a third load */
#define FZR_OTHER	0x10	/* ... of another binary under the same name */
#define FZR_TRIM	0x20	/* pgo.retain_kb=0 at the end: all dropped */
#define FZR_SMALL_KB	0x40	/* pgo.retain_kb=1 (seed odd: 0) */
#define FZR_ADD_FAILS	0x80	/* kobject_add() fails (seed bit 1: sysfs files) */

enum { S_DATA, S_CNTS, S_BITS, S_NAMES, S_VALS, S_VNDS, NR_SECT };

/* Largest malloc() of each section: a few dozen records, a few hundred nodes. */
static const size_t fz_cap[NR_SECT] = { 8192, 8192, 1024, 2048, 2048, 8192 };

#define FZ_MAX_OPS	1024
#define FZ_NODE		sizeof(struct llvm_prf_value_node)
#define FZ_REC		sizeof(struct llvm_prf_data)
#define FZ_KINDS	(PGO_VK_LAST + 1)
/* compiler-rt's bound on the values kept per site, which runtime.c keeps. */
#define FZ_MAX_VALUES	24

struct fz_hdr {
	u8 flags, flags2, used, id_len;
	u32 text;
	u16 text_size, init_size;
	u8 absent, chunk;
	u16 seed;
	u8 retain, split;
	struct {
		u16 size;
		u8 skip, trim;
	} sect[NR_SECT];
};

struct fz_in {
	const u8 *p;
	size_t n;
};

/* An object built from the input, and what the harness knows of it. */
struct fz_obj {
	struct pgo_object own;
	struct pgo_object *obj;		/* &own, or &pgo_vmlinux */
	char *alloc[NR_SECT];		/* each section's malloc(), NULL if absent */
	size_t size[NR_SECT];		/* its size */
	char *start[NR_SECT];
	char *end[NR_SECT];
};

/* What a list walk found (fz_walk()). */
struct fz_ent {
	u64 value;	/* as the file writes it (code addresses relative) */
	u64 count;
	u64 raw;	/* as the node holds it */
};

struct fz_site {
	unsigned int kind, n, at;
};

struct fz_model {
	bool ok;	/* nodes of the pool below the limit, each once at most */
	/* nodes of the pool, each once at most: what the writer writes is
	 * known (those below the limit)
	 */
	bool known;
	bool fresh;	/* each list has distinct values, at most FZ_MAX_VALUES */
	size_t nsite, nent;
	struct fz_site *site;
	struct fz_ent *ent;
};

static const struct fz_hdr *fz_h;
static bool fz_verbose;
static unsigned int fz_nr_warn, fz_nr_info, fz_nr_err;
static char fz_last_log[512];

void shim_log(const char *level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fz_last_log, sizeof(fz_last_log), fmt, ap);
	va_end(ap);
	if (!strcmp(level, "warn"))
		fz_nr_warn++;
	else if (!strcmp(level, "info"))
		fz_nr_info++;
	else
		fz_nr_err++;
	if (fz_verbose)
		fprintf(stderr, "pgo: %s: %s", level, fz_last_log);
}

void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\nFUZZ INVARIANT BROKEN at %s:%d: %s: ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(last kernel message: %s)\n", fz_last_log);
	abort();
}

static void *fz_alloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		abort();
	return p;
}

static u8 fz_u8(struct fz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static u16 fz_u16(struct fz_in *in)
{
	u16 lo = fz_u8(in);

	return lo | (u16)fz_u8(in) << 8;
}

static u32 fz_u32(struct fz_in *in)
{
	u32 lo = fz_u16(in);

	return lo | (u32)fz_u16(in) << 16;
}

static void fz_bytes(struct fz_in *in, void *dst, size_t n)
{
	size_t k = n < in->n ? n : in->n;

	if (!n)
		return;
	memcpy(dst, in->p, k);
	memset((char *)dst + k, 0, n - k);
	if (k) {
		in->p += k;
		in->n -= k;
	}
}

static u64 fz_get64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void fz_put64(void *p, u64 v)
{
	memcpy(p, &v, sizeof(v));
}

static u32 fz_get32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void fz_parse_hdr(struct fz_in *in, struct fz_hdr *h)
{
	unsigned int s;

	h->flags = fz_u8(in);
	h->flags2 = fz_u8(in);
	h->used = fz_u8(in);
	h->id_len = fz_u8(in);
	h->text = fz_u32(in);
	h->text_size = fz_u16(in);
	h->init_size = fz_u16(in);
	h->absent = fz_u8(in);
	h->chunk = fz_u8(in);
	h->seed = fz_u16(in);
	h->retain = fz_u8(in);
	h->split = fz_u8(in);
	for (s = 0; s < NR_SECT; s++) {
		h->sect[s].size = fz_u16(in);
		h->sect[s].skip = fz_u8(in);
		h->sect[s].trim = fz_u8(in);
	}
}

static size_t fz_cnt_size(const struct pgo_object *obj)
{
	/* VARIANT_MASK_BYTE_COVERAGE is 0 before raw version 8. */
	return obj->version & VARIANT_MASK_BYTE_COVERAGE ? 1 : 8;
}

/* The address of a pointer word (see the top of the file), or 0 / w. */
static u64 fz_field(const struct fz_obj *f, u64 w, u64 rel)
{
	const size_t elem[NR_SECT] = {
		FZ_REC, fz_cnt_size(f->obj), 1, 1, sizeof(void *), FZ_NODE
	};
	unsigned int tag = w & 0xff, s;
	u64 addr;

	if (!tag)
		return 0;
	if (tag > NR_SECT) {
		addr = w + rel;
	} else {
		addr = (uintptr_t)f->start[tag - 1] +
		       (u64)((s64)(s32)(w >> 32) * (s64)elem[tag - 1]) +
		       (u64)(s64)(s8)(w >> 8);
		w = addr - rel;
	}
	/*
	 * Only the section a word names is where the word may land: not
	 * another section, which the heap's layout puts at another
	 * distance in each load (and libFuzzer learns the distance of one
	 * from a comparison).  Bit 63 makes a user address non-canonical,
	 * never the heap's.
	 */
	for (s = 0; s < NR_SECT; s++)
		if (s + 1 != tag && f->alloc[s] &&
		    addr - (uintptr_t)f->alloc[s] <= f->size[s])
			return w ^ 1ULL << 63;
	return w;
}

/*
 * Where a code address is written: relative to the range of the object's
 * code it is in, 0 outside; a call target in transient code is 0 too
 * (the kernel-doc of pgo_object_addr() and pgo_object_target(), pgo.h).
 */
static u64 fz_code(const struct pgo_object *obj, u64 addr, bool target)
{
	unsigned int i;

	if (!obj->nr_text)
		return addr;
	for (i = 0; i < obj->nr_text; i++) {
		const struct pgo_text *t = &obj->text[i];

		if (addr >= t->start && addr - t->start < t->size)
			return target && t->transient ? 0 :
			       addr - t->start + t->base;
	}
	return 0;
}

static size_t fz_whole(const char *start, const char *end, size_t size)
{
	return end > start ? (size_t)(end - start) / size : 0;
}

/* Build the object an input describes; @in is left at the calls. */
static void fz_build(struct fz_obj *f, const struct fz_hdr *h,
		     struct fz_in *in)
{
	bool vmlinux = h->flags & FZ_VMLINUX;
	struct pgo_object *obj = vmlinux ? &pgo_vmlinux : &f->own;
	unsigned int s, i, pool;
	size_t n;

	memset(f, 0, sizeof(*f));
	memset(obj, 0, sizeof(*obj));
	f->obj = obj;
	obj->name = vmlinux ? "vmlinux" : FZ_MODULE;
	INIT_LIST_HEAD(&obj->list);
	obj->version = INSTR_PROF_RAW_VERSION;
	if (h->flags2 & FZ2_IR)
		obj->version |= VARIANT_MASK_IR_PROF;
	if (h->flags2 & FZ2_CSIR)
		obj->version |= VARIANT_MASK_CSIR_PROF;
	if (h->flags & FZ_BYTECOV)
		obj->version |= VARIANT_MASK_BYTE_COVERAGE;
	/*
	 * The other variant flags, as a module's __llvm_profile_raw_version
	 * has them (module.c takes the word as it is): bits of
	 * VARIANT_MASKS_ALL that older InstrProfData.inc leave unnamed are set
	 * alike, as a newer clang's flags, which the kernel must not know.
	 */
	if (h->flags2 & FZ2_ENTRY)
		obj->version |= VARIANT_MASK_INSTR_ENTRY;
	if (h->flags2 & FZ2_ENTRY_ONLY)
		obj->version |= 1ULL << 61;
	if (h->flags2 & FZ2_TEMPORAL)
		obj->version |= 1ULL << 63;
	if (h->flags2 & FZ2_CORRELATE)
		obj->version |= 1ULL << 59;
	if (h->absent & FZA_MORE)
		obj->version |= 1ULL << 62;
#ifdef VARIANT_MASK_INSTR_LOOP_ENTRIES
	if (h->absent & FZA_MORE)
		obj->version |= VARIANT_MASK_INSTR_LOOP_ENTRIES;
#endif

	for (s = 0; s < NR_SECT; s++) {
		size_t size = h->sect[s].size % (fz_cap[s] + 1), a, b;

		/* vmlinux's linker script bounds every section, empty or not. */
		if ((h->absent & (1u << s)) && !vmlinux)
			continue;
		f->alloc[s] = malloc(size);
		f->size[s] = size;
		if (!f->alloc[s])
			abort();
		fz_bytes(in, f->alloc[s], size);
		a = h->sect[s].skip % (size + 1);
		b = size - h->sect[s].trim % (size - a + 1);
		f->start[s] = f->alloc[s] + a;
		f->end[s] = f->alloc[s] + b;
	}
	/*
	 * Under CONFIG_PGO_CLANG_CORRELATE (LLVM 18 on: raw version 9),
	 * vmlinux, and a module with counters but no records.
	 */
	obj->correlated = INSTR_PROF_RAW_VERSION >= 9 &&
			  (h->seed & FZ_SEED_CORRELATE) &&
			  (vmlinux || (!f->alloc[S_DATA] && f->alloc[S_CNTS]));
	obj->data = (void *)f->start[S_DATA];
	obj->data_end = (void *)f->end[S_DATA];
	obj->cnts = f->start[S_CNTS];
	obj->cnts_end = f->end[S_CNTS];
	obj->bits = f->start[S_BITS];
	obj->bits_end = f->end[S_BITS];
	obj->names = f->start[S_NAMES];
	obj->names_end = f->end[S_NAMES];
	obj->vals = (void *)f->start[S_VALS];
	obj->vals_end = (void *)f->end[S_VALS];
	obj->vnds = (void *)f->start[S_VNDS];
	obj->vnds_end = (void *)f->end[S_VNDS];

	/* Pointer words into pointers, as the linker would have made them. */
	n = fz_whole(f->start[S_DATA], f->end[S_DATA], FZ_REC);
	for (i = 0; i < n; i++) {
		char *rec = f->start[S_DATA] + i * FZ_REC;
		char *p = rec + offsetof(struct llvm_prf_data, counter_ptr);

		fz_put64(p, fz_field(f, fz_get64(p),
				     (INSTR_PROF_RAW_VERSION >= 8) ? (uintptr_t)rec : 0));
#if PGO_HAS_BITMAP
		p = rec + offsetof(struct llvm_prf_data, bitmap_ptr);
		fz_put64(p, fz_field(f, fz_get64(p), (uintptr_t)rec));
#endif
		p = rec + offsetof(struct llvm_prf_data, values);
		fz_put64(p, fz_field(f, fz_get64(p), 0));
	}
	n = fz_whole(f->start[S_VALS], f->end[S_VALS], sizeof(void *));
	for (i = 0; i < n; i++) {
		char *p = f->start[S_VALS] + i * sizeof(void *);

		fz_put64(p, fz_field(f, fz_get64(p), 0));
	}
	pool = fz_whole(f->start[S_VNDS], f->end[S_VNDS], FZ_NODE);
	for (i = 0; i < pool; i++) {
		char *p = f->start[S_VNDS] + i * FZ_NODE +
			  offsetof(struct llvm_prf_value_node, next);

		fz_put64(p, fz_field(f, fz_get64(p), 0));
	}

	if (h->flags & FZ_BUILD_ID) {
		obj->build_id_len = h->id_len % (BUILD_ID_SIZE_MAX + 1);
		for (i = 0; i < obj->build_id_len; i++)
			obj->build_id[i] = (h->seed >> (i % 9)) ^ (i * 37);
	}
	/* As module.c and vmlinux.c set them: ranges of no size are left out. */
	if ((h->flags & FZ_TEXT) && h->text_size) {
		obj->text[0].start = h->text;
		obj->text[0].size = h->text_size;
		obj->text[0].base = PGO_TEXT_BASE;
		obj->nr_text = 1;
	}
	if ((h->flags & FZ_TEXT) && (h->flags2 & FZ2_INIT_TEXT) && !vmlinux &&
	    h->init_size) {
		struct pgo_text *t = &obj->text[obj->nr_text++];

		t->start = (u64)h->text + 0x100000;
		t->size = h->init_size;
		t->base = PGO_TEXT_BASE + ALIGN((u64)h->text_size, 4096);
		t->transient = true;
	}
	/* What the runtime handed out before (vmlinux ran): none if unused. */
	if (!(h->flags & FZ_UNUSED))
		atomic_set(&obj->vnds_used, h->used == 254 ? (int)pool + 1 :
			   h->used == 255 ? INT32_MAX - 1 : h->used);
}

static void fz_free(struct fz_obj *f)
{
	unsigned int s;

	for (s = 0; s < NR_SECT; s++)
		free(f->alloc[s]);
	if (f->obj == &pgo_vmlinux) {
		memset(&pgo_vmlinux, 0, sizeof(pgo_vmlinux));
		pgo_vmlinux.name = "vmlinux";
		INIT_LIST_HEAD(&pgo_vmlinux.list);
	}
}

/*
 * What pgo_object_check()'s kernel-doc and the reasons it logs promise:
 * records tiling an aligned section, whole aligned counters, names if
 * there are records, sane value sections, empty lists if nothing ran;
 * each record with counters, all inside the counters section, value sites
 * inside the values section and no two records sharing one, bitmap bytes
 * inside the bitmap section.  Each way of breaking it is a class, and the
 * reason the check logs must name one the object has (fz_why[]): the
 * check may stop at any of them, so the model finds them all, but for
 * those of records, which it looks at only in sections that are sane.
 */
enum {
	FZW_RECORDS, FZW_CNTS_SECT, FZW_NAMES_SECT, FZW_BITS_SECT,
	FZW_NO_NAMES, FZW_VALUE_SECTS, FZW_LIST, FZW_NO_COUNTERS,
	FZW_CNTS_OUT, FZW_SITES, FZW_BITS_OUT, FZW_UNIFORM, FZW_CORR_RECORDS,
	FZW_CORR_VALUES, FZW_NR
};

/* Each class, and what the check's message for it says (format.c). */
static const struct {
	const char *name, *logged;
} fz_why[FZW_NR] = {
	[FZW_RECORDS]	  = { "records", "whole number of aligned records" },
	[FZW_CNTS_SECT]	  = { "counters section", "whole number of aligned counters" },
	[FZW_NAMES_SECT]  = { "names section", "names section is malformed" },
	[FZW_BITS_SECT]	  = { "bitmap section", "bitmap section is malformed" },
	[FZW_NO_NAMES]	  = { "records without names", "records but no names section" },
	[FZW_VALUE_SECTS] = { "value sections", "value sections are malformed" },
	[FZW_LIST]	  = { "a list before any code ran", "list is not empty before any code ran" },
	[FZW_NO_COUNTERS] = { "a record without counters", "a record has no counters" },
	[FZW_CNTS_OUT]	  = { "counters outside", "counters lie outside the counters section" },
	[FZW_SITES]	  = { "value sites outside or shared",
			      "value sites are outside their section or shared" },
	[FZW_BITS_OUT]	  = { "bitmap outside", "MC/DC bitmap lies outside the bitmap section" },
	[FZW_UNIFORM]	  = { "uniform counters", "GPU uniform counters" },
	[FZW_CORR_RECORDS] = { "correlated, with records or names",
			       "records or names in memory, but its profile is correlated" },
	[FZW_CORR_VALUES] = { "correlated, with value sections",
			      "value sites, but its records are not in memory" },
};

/* Every class of what is wrong with an object, a bit each; 0 if nothing. */
static unsigned int fz_spec_all(const struct pgo_object *o, bool unused)
{
	uintptr_t d = (uintptr_t)o->data, de = (uintptr_t)o->data_end;
	uintptr_t c = (uintptr_t)o->cnts, ce = (uintptr_t)o->cnts_end;
	uintptr_t b = (uintptr_t)o->bits, be = (uintptr_t)o->bits_end;
	uintptr_t n = (uintptr_t)o->names, ne = (uintptr_t)o->names_end;
	uintptr_t v = (uintptr_t)o->vals, ve = (uintptr_t)o->vals_end;
	uintptr_t e = (uintptr_t)o->vnds, ee = (uintptr_t)o->vnds_end;
	size_t cs = fz_cnt_size(o), nheads, i, j;
	unsigned int why = 0;
	unsigned char *seen;

	if (de < d || (de - d) % FZ_REC || d % 8)
		why |= 1u << FZW_RECORDS;
	if (ce < c || (ce - c) % cs || c % cs)
		why |= 1u << FZW_CNTS_SECT;
	if (ne < n)
		why |= 1u << FZW_NAMES_SECT;
	if (be < b)
		why |= 1u << FZW_BITS_SECT;
	if (de > d && ne == n)
		why |= 1u << FZW_NO_NAMES;
	if (o->correlated && (de != d || ne != n))
		why |= 1u << FZW_CORR_RECORDS;
	if (o->correlated && (ve != v || ee != e))
		why |= 1u << FZW_CORR_VALUES;
	if (ve < v || (ve - v) % 8 || v % 8 || ee < e || e % 8)
		why |= 1u << FZW_VALUE_SECTS;
	if (why & (1u << FZW_VALUE_SECTS))
		return why;
	nheads = (ve - v) / 8;
	for (i = 0; unused && i < nheads; i++)
		if (fz_get64((void *)(v + 8 * i)))
			why |= 1u << FZW_LIST;
	if (why)
		return why;

	/* Sites taken by any record whose sites are in the section. */
	seen = fz_alloc(nheads);
	for (i = 0; i < (de - d) / FZ_REC; i++) {
		const struct llvm_prf_data *r = &o->data[i];
		u64 ca = (INSTR_PROF_RAW_VERSION >= 8) ? (uintptr_t)r + r->counter_ptr :
						 r->counter_ptr;
		u64 va = r->values, sites = 0;
		unsigned int k;

		for (k = 0; k < FZ_KINDS; k++)
			sites += r->num_value_sites[k];
		if (!r->num_counters)
			why |= 1u << FZW_NO_COUNTERS;
		else if (ca < c || ca > ce || (u64)r->num_counters * cs > ce - ca ||
			 (ca - c) % cs)
			why |= 1u << FZW_CNTS_OUT;
		if (sites && (va < v || (va - v) % 8 ||
			      (va - v) / 8 + sites > nheads))
			why |= 1u << FZW_SITES;
		else
			for (j = 0; j < sites; j++)
				if (seen[(va - v) / 8 + j]++)
					why |= 1u << FZW_SITES;
#if PGO_HAS_BITMAP
		if (r->num_bitmap_bytes) {
			u64 ba = (uintptr_t)r + r->bitmap_ptr;

			if (ba < b || ba > be || r->num_bitmap_bytes > be - ba)
				why |= 1u << FZW_BITS_OUT;
		}
#endif
#if PGO_HAS_UNIFORM
		/* GPU offload's; the header says a CPU's object has none. */
		if (r->uniform_counter_ptr)
			why |= 1u << FZW_UNIFORM;
#endif
	}
	free(seen);
	return why;
}

/* The first class of what is wrong with an object, or NULL. */
static const char *fz_spec(const struct pgo_object *o, bool unused)
{
	unsigned int why = fz_spec_all(o, unused);

	return why ? fz_why[__builtin_ctz(why)].name : NULL;
}

/* The classes a logged reason names: one, or 0 if it names none. */
static unsigned int fz_logged_class(const char *msg)
{
	unsigned int w, found = 0;

	for (w = 0; w < FZW_NR; w++)
		if (strstr(msg, fz_why[w].logged))
			found |= 1u << w;
	return found;
}

static unsigned int fz_pool(const struct pgo_object *o)
{
	return fz_whole((const char *)o->vnds, (const char *)o->vnds_end, FZ_NODE);
}

/* The nodes handed out, at most the pool: what a writer may write. */
static unsigned int fz_limit(const struct pgo_object *o)
{
	unsigned int used = atomic_read(&o->vnds_used);

	return used < fz_pool(o) ? used : fz_pool(o);
}

static unsigned int fz_nr_sites(const struct llvm_prf_data *r)
{
	unsigned int k, n = 0;

	for (k = 0; k < FZ_KINDS; k++)
		n += r->num_value_sites[k];
	return n;
}

static void fz_model_free(struct fz_model *m)
{
	free(m->site);
	free(m->ent);
	memset(m, 0, sizeof(*m));
}

/*
 * Walk every list of an accepted object, record by record, site by site,
 * on its own: the values as its file must write them, and whether the
 * lists are what only the runtime makes (see struct fz_model).
 */
static void fz_walk(const struct pgo_object *o, struct fz_model *m)
{
	size_t nrec = o->data_end - o->data, nsite = 0, i;
	unsigned int pool = fz_pool(o), limit = fz_limit(o);
	unsigned char *visited = fz_alloc(pool);

	memset(m, 0, sizeof(*m));
	m->ok = m->known = m->fresh = true;
	for (i = 0; i < nrec; i++)
		nsite += fz_nr_sites(&o->data[i]);
	m->site = fz_alloc(nsite * sizeof(*m->site));
	m->ent = fz_alloc(pool * sizeof(*m->ent));
	for (i = 0; i < nrec; i++) {
		const struct llvm_prf_data *r = &o->data[i];
		u64 *heads = (u64 *)(uintptr_t)r->values;
		unsigned int k, s, h = 0;

		for (k = 0; k < FZ_KINDS; k++) {
			for (s = 0; s < r->num_value_sites[k]; s++, h++) {
				struct fz_site *site = &m->site[m->nsite++];
				u64 p = heads[h];
				unsigned int len = 0, x;

				site->kind = k;
				site->at = m->nent;
				while (p && m->known) {
					u64 off = p - (uintptr_t)o->vnds;
					const struct llvm_prf_value_node *nd;

					if (p < (uintptr_t)o->vnds || off % FZ_NODE ||
					    off / FZ_NODE >= pool ||
					    visited[off / FZ_NODE]++) {
						m->ok = m->known = false;
						break;
					}
					nd = &o->vnds[off / FZ_NODE];
					/*
					 * Handed out after the file was sized (or
					 * never, by the input): walked, not written.
					 */
					if (off / FZ_NODE >= limit) {
						m->ok = false;
						len++;
						p = (uintptr_t)nd->next;
						continue;
					}
					for (x = site->at; x < m->nent; x++)
						if (m->ent[x].raw == nd->value)
							m->fresh = false;
					if (len < PGO_MAX_SITE_NODES) {
						struct fz_ent *ent = &m->ent[m->nent++];

						ent->raw = nd->value;
						ent->value = k == PGO_VK_MEMOP_SIZE ? nd->value :
							     fz_code(o, nd->value, true);
						ent->count = nd->count;
						site->n++;
					}
					len++;
					p = (uintptr_t)nd->next;
				}
				if (len > FZ_MAX_VALUES)
					m->fresh = false;
			}
		}
	}
	free(visited);
}

/* The kernel names the header's fields as LLVM 18 on does, in every version. */
#define FZ_NUM_DATA(h)		((h)->num_data)
#define FZ_NUM_COUNTERS(h)	((h)->num_counters)

static u64 fz_pad8(u64 n)
{
	return (8 - n % 8) % 8;
}

static u64 fz_sum(u64 a, u64 b, size_t fsize)
{
	u64 r;

	FZ_ASSERT(!__builtin_add_overflow(a, b, &r) && r <= fsize,
		  "offset %llu + %llu past the file (%zu bytes)",
		  (unsigned long long)a, (unsigned long long)b, fsize);
	return r;
}

static bool fz_zero(const u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * A whole file as LLVM's RawInstrProfReader reads it: the header's sizes
 * and paddings place the sections and the value data; each record's
 * counters (and bitmap bytes) are found through its CounterPtr (BitmapPtr)
 * and the header's deltas as the reader finds them; value data is one
 * ValueProfData per record with value sites, and they end the file.
 * Everything must be the object's: its records, counters, bitmaps and
 * names, and, if @m->known, exactly the values of its lists.  After a reset
 * (@reset), counters are at their initial value and every value count 0.
 */
static void fz_check_file(const struct pgo_object *o, const u8 *file,
			  size_t fsize, size_t fixed, unsigned int limit,
			  const struct fz_model *m, bool reset)
{
	const size_t nrec = o->data_end - o->data;
	struct llvm_prf_header h;
	u64 p, end, data_off, cnts_off, cnts_size, names_off, value_off, nids;
	u64 pos, total = 0, cs, pad_end;
	size_t i, site = 0;
#if PGO_HAS_BITMAP
	u64 bits_off;
#endif

	FZ_ASSERT(fsize >= sizeof(h) && fsize % 8 == 0,
		  "file of %zu bytes", fsize);
	memcpy(&h, file, sizeof(h));
	FZ_ASSERT(h.magic == (INSTR_PROF_RAW_MAGIC_64), "magic %llx",
		  (unsigned long long)h.magic);
	/*
	 * The object's version word as it is, variant flags and all: the
	 * reader takes IR or front-end, context-sensitive, entry counters,
	 * function entry only, temporal traces... from it, and none of them
	 * but single-byte counters changes the layout the kernel writes.
	 */
	FZ_ASSERT(h.version == o->version, "version %llx, object's %llx",
		  (unsigned long long)h.version, (unsigned long long)o->version);
	FZ_ASSERT(h.value_kind_last == PGO_VK_LAST, "ValueKindLast %llu",
		  (unsigned long long)h.value_kind_last);
	cs = INSTR_PROF_RAW_VERSION >= 8 &&
	     (h.version & VARIANT_MASK_BYTE_COVERAGE) ? 1 : 8;

	/* Binary ids: { u64 length != 0, id padded to 8 }, readBinaryIdsInternal(). */
	FZ_ASSERT(h.binary_ids_size % 8 == 0 &&
		  h.binary_ids_size <= fsize - sizeof(h), "BinaryIdsSize %llu",
		  (unsigned long long)h.binary_ids_size);
	p = sizeof(h);
	end = p + h.binary_ids_size;
	for (nids = 0; p < end; nids++) {
		u64 len;

		FZ_ASSERT(end - p >= 8, "binary id length cut");
		len = fz_get64(file + p);
		p += 8;
		FZ_ASSERT(len && end - p >= ALIGN(len, 8), "binary id length %llu",
			  (unsigned long long)len);
		FZ_ASSERT(len == o->build_id_len &&
			  !memcmp(file + p, o->build_id, len) &&
			  fz_zero(file + p + len, ALIGN(len, 8) - len),
			  "binary id is not the object's build id");
		p += ALIGN(len, 8);
	}
	/* Raw version 7 (LLVM 13) gets none. */
	FZ_ASSERT(nids == (INSTR_PROF_RAW_VERSION >= 8 && o->build_id_len),
		  "%llu binary ids, build id of %u bytes",
		  (unsigned long long)nids, o->build_id_len);

#if INSTR_PROF_RAW_VERSION >= 9
	/* llvm-profdata --binary-file refuses a correlated file with deltas. */
	FZ_ASSERT(!o->correlated || (!h.counters_delta && !h.bitmap_delta &&
				     !h.names_delta && !nrec && !h.names_size),
		  "correlated: deltas %llx %llx %llx, %zu records, names %llu",
		  (unsigned long long)h.counters_delta,
		  (unsigned long long)h.bitmap_delta,
		  (unsigned long long)h.names_delta, nrec,
		  (unsigned long long)h.names_size);
#endif
	/* readHeader()'s offsets. */
	FZ_ASSERT(FZ_NUM_DATA(&h) == nrec, "%llu records, object has %zu",
		  (unsigned long long)FZ_NUM_DATA(&h), nrec);
	data_off = sizeof(h) + h.binary_ids_size;
	cnts_off = fz_sum(fz_sum(data_off, nrec * FZ_REC, fsize),
			  h.padding_bytes_before_counters, fsize);
	FZ_ASSERT(FZ_NUM_COUNTERS(&h) <= fsize / cs, "NumCounters %llu",
		  (unsigned long long)FZ_NUM_COUNTERS(&h));
	cnts_size = FZ_NUM_COUNTERS(&h) * cs;
	FZ_ASSERT(cnts_size == (size_t)(o->cnts_end - o->cnts),
		  "counters: %llu bytes, object's %td",
		  (unsigned long long)cnts_size, o->cnts_end - o->cnts);
#if PGO_HAS_BITMAP
	bits_off = fz_sum(fz_sum(cnts_off, cnts_size, fsize),
			  h.padding_bytes_after_counters, fsize);
	FZ_ASSERT(h.num_bitmap_bytes == (size_t)(o->bits_end - o->bits),
		  "NumBitmapBytes %llu, object's %td",
		  (unsigned long long)h.num_bitmap_bytes, o->bits_end - o->bits);
	names_off = fz_sum(fz_sum(bits_off, h.num_bitmap_bytes, fsize),
			   h.padding_bytes_after_bitmap_bytes, fsize);
#endif
#if INSTR_PROF_RAW_VERSION >= 10
	FZ_ASSERT(!h.num_vtables && !h.vnames_size, "vtables");
#endif
#if PGO_HAS_UNIFORM
	/* GPU offload only: never in a CPU's profile. */
	FZ_ASSERT(!h.num_uniform_counters && !h.padding_bytes_after_uniform_counters &&
		  !h.uniform_counters_delta, "uniform counters");
#endif
#if !PGO_HAS_BITMAP
	names_off = fz_sum(fz_sum(cnts_off, cnts_size, fsize),
			   h.padding_bytes_after_counters, fsize);
#endif
	FZ_ASSERT(h.names_size == (size_t)(o->names_end - o->names),
		  "NamesSize %llu, object's %td", (unsigned long long)h.names_size,
		  o->names_end - o->names);
	value_off = fz_sum(fz_sum(names_off, h.names_size, fsize),
			   fz_pad8(h.names_size), fsize);
	FZ_ASSERT(value_off == fixed,
		  "value data at %llu by the header, the fixed part is %zu bytes",
		  (unsigned long long)value_off, fixed);
	/* What compiler-rt writes: parts 8-aligned, zero padding below 8. */
	FZ_ASSERT(data_off % 8 == 0 && cnts_off % 8 == 0,
		  "misaligned records or counters");
	FZ_ASSERT(h.padding_bytes_before_counters < 8 &&
		  h.padding_bytes_after_counters < 8, "padding of 8 or more");
	FZ_ASSERT(fz_zero(file + data_off + nrec * FZ_REC,
			  h.padding_bytes_before_counters) &&
		  fz_zero(file + cnts_off + cnts_size, h.padding_bytes_after_counters) &&
		  fz_zero(file + names_off + h.names_size, fz_pad8(h.names_size)),
		  "padding is not zero");
#if PGO_HAS_BITMAP
	FZ_ASSERT(h.padding_bytes_after_bitmap_bytes < 8 &&
		  fz_zero(file + bits_off + h.num_bitmap_bytes,
			  h.padding_bytes_after_bitmap_bytes),
		  "bitmap padding");
	FZ_ASSERT(!o->bits || !memcmp(file + bits_off, o->bits, h.num_bitmap_bytes),
		  "bitmap bytes differ from the object's");
#endif
	pad_end = cnts_off + cnts_size;
	FZ_ASSERT(!cnts_size || !memcmp(file + cnts_off, o->cnts, cnts_size),
		  "counters differ from the object's");
	FZ_ASSERT(!h.names_size || !memcmp(file + names_off, o->names, h.names_size),
		  "names differ from the object's");
	if (reset) {
		for (i = 0; i < cnts_size; i++)
			FZ_ASSERT(file[cnts_off + i] == (cs == 1 ? 0xff : 0),
				  "counter byte %zu is %#x after a reset", i,
				  file[cnts_off + i]);
#if PGO_HAS_BITMAP
		FZ_ASSERT(fz_zero(file + bits_off, h.num_bitmap_bytes),
			  "bitmap not zero after a reset");
#endif
	}
	(void)pad_end;

	/* Records, and what readRawCounts()/readRawBitmapBytes() find. */
	for (i = 0; i < nrec; i++) {
		const struct llvm_prf_data *r = &o->data[i];
		_Alignas(8) u8 frbuf[FZ_REC];
		const struct llvm_prf_data *fr = (const void *)frbuf;
		u64 delta, off, ca;

		memcpy(frbuf, file + data_off + i * FZ_REC, FZ_REC);
		FZ_ASSERT(fr->name_ref == r->name_ref && fr->func_hash == r->func_hash &&
			  fr->num_counters == r->num_counters &&
			  !memcmp(fr->num_value_sites, r->num_value_sites,
				  sizeof(fr->num_value_sites)),
			  "record %zu differs from the object's", i);
		FZ_ASSERT(fr->function_pointer == r->function_pointer,
			  "record %zu: FunctionPointer %llx, object's %llx", i,
			  (unsigned long long)fr->function_pointer,
			  (unsigned long long)r->function_pointer);
		FZ_ASSERT(!fr->values, "record %zu shows where its lists are", i);
		FZ_ASSERT(fr->num_counters, "record %zu: no counters", i);
		/* CountersDelta goes down by a record per record from version 8. */
		delta = (INSTR_PROF_RAW_VERSION >= 8) ? h.counters_delta - i * FZ_REC :
						h.counters_delta;
		off = fr->counter_ptr - delta;
		FZ_ASSERT((s64)off >= 0 && off < cnts_size && off % cs == 0 &&
			  fr->num_counters <= (cnts_size - off) / cs,
			  "record %zu: counters at %lld, %u of them, in %llu bytes",
			  i, (long long)off, fr->num_counters,
			  (unsigned long long)cnts_size);
		ca = (INSTR_PROF_RAW_VERSION >= 8) ? (uintptr_t)r + r->counter_ptr :
					     r->counter_ptr;
		FZ_ASSERT(ca - (uintptr_t)o->cnts == off,
			  "record %zu: its counters are at %lld in the file, %lld in memory",
			  i, (long long)off, (long long)(ca - (uintptr_t)o->cnts));
#if PGO_HAS_BITMAP
		FZ_ASSERT(fr->num_bitmap_bytes == r->num_bitmap_bytes,
			  "record %zu: NumBitmapBytes", i);
		if (fr->num_bitmap_bytes) {
			u64 ba = (uintptr_t)r + r->bitmap_ptr;

			off = fr->bitmap_ptr - (h.bitmap_delta - i * FZ_REC);
			FZ_ASSERT((s64)off >= 0 && off < h.num_bitmap_bytes &&
				  fr->num_bitmap_bytes <= h.num_bitmap_bytes - off,
				  "record %zu: bitmap at %lld, %u bytes, in %llu", i,
				  (long long)off, fr->num_bitmap_bytes,
				  (unsigned long long)h.num_bitmap_bytes);
			FZ_ASSERT(ba - (uintptr_t)o->bits == off,
				  "record %zu: bitmap at %lld in the file, %lld in memory",
				  i, (long long)off, (long long)(ba - (uintptr_t)o->bits));
		}
#endif
	}

	/* Value data: ValueProfData::getValueProfData() and checkIntegrity(). */
	pos = value_off;
	for (i = 0; i < nrec; i++) {
		const struct llvm_prf_data *r = &o->data[i];
		u32 tsize, nkinds, want = 0, k;
		u64 vr;

		for (k = 0; k < FZ_KINDS; k++)
			want += !!r->num_value_sites[k];
		if (!want)
			continue;
		FZ_ASSERT(fsize - pos >= 8, "record %zu: no value data", i);
		tsize = fz_get32(file + pos);
		nkinds = fz_get32(file + pos + 4);
		FZ_ASSERT(tsize >= 8 && tsize % 8 == 0 && tsize <= fsize - pos,
			  "record %zu: TotalSize %u at %llu of %zu", i, tsize,
			  (unsigned long long)pos, fsize);
		FZ_ASSERT(nkinds == want, "record %zu: %u value kinds, has %u", i,
			  nkinds, want);
		vr = pos + 8;
		for (k = 0; k < FZ_KINDS; k++) {
			u32 n = r->num_value_sites[k], s, x, nv = 0;
			u64 hlen = ALIGN(8 + (u64)n, 8);
			const u8 *counts;

			if (!n)
				continue;
			FZ_ASSERT(pos + tsize - vr >= hlen,
				  "record %zu kind %u: cut", i, k);
			FZ_ASSERT(fz_get32(file + vr) == k &&
				  fz_get32(file + vr + 4) == n,
				  "record %zu: kind %u sites %u, expected kind %u sites %u",
				  i, fz_get32(file + vr), fz_get32(file + vr + 4), k, n);
			counts = file + vr + 8;
			FZ_ASSERT(fz_zero(counts + n, hlen - 8 - n),
				  "record %zu kind %u: padding", i, k);
			for (s = 0; s < n; s++)
				nv += counts[s];
			FZ_ASSERT(pos + tsize - vr - hlen >= (u64)nv * 16,
				  "record %zu kind %u: %u values past TotalSize", i, k,
				  nv);
			for (s = 0, x = 0; s < n; s++) {
				const struct fz_site *ms = m && m->known ?
							   &m->site[site + s] : NULL;
				unsigned int j;

				FZ_ASSERT(!ms || (ms->kind == k && ms->n == counts[s]),
					  "record %zu kind %u site %u: %u values, its list has %u",
					  i, k, s, counts[s], ms ? ms->n : 0);
				for (j = 0; j < counts[s]; j++, x++) {
					const u8 *vd = file + vr + hlen + 16 * x;

					FZ_ASSERT(!ms || (fz_get64(vd) == m->ent[ms->at + j].value &&
							  fz_get64(vd + 8) == m->ent[ms->at + j].count),
						  "record %zu kind %u site %u value %u: %llx x %llu, list has %llx x %llu",
						  i, k, s, j,
						  (unsigned long long)fz_get64(vd),
						  (unsigned long long)fz_get64(vd + 8),
						  (unsigned long long)m->ent[ms->at + j].value,
						  (unsigned long long)m->ent[ms->at + j].count);
					FZ_ASSERT(!reset || !fz_get64(vd + 8),
						  "record %zu: a value counted after a reset", i);
				}
			}
			site += n;
			total += nv;
			vr += hlen + (u64)nv * 16;
		}
		FZ_ASSERT(vr == pos + tsize, "record %zu: kinds end at %llu, TotalSize says %llu",
			  i, (unsigned long long)(vr - pos), (unsigned long long)tsize);
		pos += tsize;
	}
	FZ_ASSERT(pos == fsize, "value data ends at %llu, the file at %zu",
		  (unsigned long long)pos, fsize);
	FZ_ASSERT(total <= limit, "%llu values written, %u nodes handed out",
		  (unsigned long long)total, limit);
}

static u32 fz_rand(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x ? x : 0x9e3779b9;
	return *state;
}

/*
 * Read an object's file as sysfs.c serves it: the fixed part from the
 * object, the value blocks written once into a buffer of exactly the
 * bound, then check it, and read it again in chunks and at random
 * offsets, each read into a malloc() of its own exact size.
 */
static void fz_read(const struct pgo_object *o, bool reset)
{
	size_t fixed = pgo_fixed_size(o), base = pgo_values_base(o), bound, len;
	size_t fsize, off, n, chunk, i;
	unsigned int limit;
	u8 *values, *file;
	struct fz_model m;
	u32 rnd = fz_h->seed | (u32)fz_h->chunk << 16 | 1;

	bound = pgo_values_bound(o, base, &limit);
	FZ_ASSERT(limit == fz_limit(o), "limit %u, nodes in use %u", limit,
		  fz_limit(o));
	FZ_ASSERT(bound <= 64 << 20, "bound %zu", bound);
	values = malloc(bound ? bound : 0);
	len = pgo_values_write(o, values, bound, limit);
	FZ_ASSERT(len <= bound, "wrote %zu, bound %zu", len, bound);
	fsize = fixed + len;
	file = fz_alloc(fsize);
	pgo_fixed_read(o, file, 0, fixed);
	memcpy(file + fixed, values, len);

	fz_walk(o, &m);
	fz_check_file(o, file, fsize, fixed, limit, &m, reset);
	if (fz_verbose)
		fprintf(stderr,
			"fuzz: %s: %zu records, file of %zu bytes, %zu of them values, %u nodes, lists %s%s\n",
			o->name, (size_t)(o->data_end - o->data), fsize, len,
			limit, m.known ? "known" : "unknown", reset ? ", reset" : "");
	fz_model_free(&m);

	/* One sequential read, as many read() calls; at most 256 of them. */
	chunk = (size_t)fz_h->chunk + 1;
	if (chunk < fsize / 256 + 1)
		chunk = fsize / 256 + 1;
	for (off = 0; off < fsize; off += n) {
		u8 *piece;
		size_t k = 0;

		n = fsize - off < chunk ? fsize - off : chunk;
		piece = malloc(n);
		if (off < fixed) {
			k = fixed - off < n ? fixed - off : n;
			pgo_fixed_read(o, piece, off, k);
		}
		if (n > k)
			memcpy(piece + k, values + (off + k - fixed), n - k);
		FZ_ASSERT(!memcmp(piece, file + off, n),
			  "read of %zu bytes at %zu differs from the whole file", n,
			  off);
		free(piece);
	}
	/* Reads anywhere in the fixed part. */
	for (i = 0; i < 16; i++) {
		u8 *piece;

		off = fz_rand(&rnd) % (fixed + 1);
		n = fz_rand(&rnd) % (fixed - off + 1);
		if (i % 2)
			n %= 97;
		piece = malloc(n);
		pgo_fixed_read(o, piece, off, n);
		FZ_ASSERT(!memcmp(piece, file + off, n),
			  "read of %zu bytes at %zu differs from the whole file", n,
			  off);
		free(piece);
	}
	/* A caller's buffer too small: pgo_values_write() stays inside it. */
	if ((fz_h->flags & FZ_SHORT_BUF) && bound) {
		size_t small = fz_rand(&rnd) % bound;
		u8 *buf = malloc(small);
		int before = shim_warnings;

		len = pgo_values_write(o, buf, small, limit);
		FZ_ASSERT(len <= small, "wrote %zu into %zu", len, small);
		free(buf);
		/* Only the short write's own WARN_ON is expected. */
		shim_warnings = before;
	}
	FZ_ASSERT(!shim_warnings, "%d WARN_ON fired", shim_warnings);
	free(values);
	free(file);
}

/* Value of a call: sizes, code of the object and not, huge. */
static u64 fz_value(u8 b, unsigned int j)
{
	switch (b >> 6) {
	case 0:
		return (u64)(b & 63) + j;
	case 1:
		return (u64)fz_h->text + ((b & 63) + j) * 16;
	case 2:
		return (u64)fz_h->text + 0x100000 + ((b & 63) + j) * 16;
	default:
		return ~0ULL - (b & 63) - j;
	}
}

/* A record's memop sites, or its other (indirect call, vtable) sites. */
static unsigned int fz_kind_sites(const struct llvm_prf_data *r, bool memop)
{
	unsigned int k, n = 0;

	for (k = 0; k < FZ_KINDS; k++)
		if ((k == PGO_VK_MEMOP_SIZE) == memop)
			n += r->num_value_sites[k];
	return n;
}

/* The @want-th (cyclically) of an object's records @pick() says yes to. */
static struct llvm_prf_data *fz_pick(const struct pgo_object *o, size_t want,
				     unsigned int (*pick)(const struct llvm_prf_data *r,
							  bool memop),
				     bool memop)
{
	size_t nrec = o->data_end - o->data, nr = 0, i;

	for (i = 0; i < nrec; i++)
		nr += !!pick(&o->data[i], memop);
	if (!nr)
		return NULL;
	want %= nr;
	for (i = 0; ; i++)
		if (pick(&o->data[i], memop) && !want--)
			return &o->data[i];
}

static unsigned int fz_has_counters(const struct llvm_prf_data *r, bool memop)
{
	(void)memop;
	return r->num_counters;
}

#if PGO_HAS_BITMAP
static unsigned int fz_has_bitmap(const struct llvm_prf_data *r, bool memop)
{
	(void)memop;
	return r->num_bitmap_bytes;
}
#endif

/* One value profiling call site of record @r, its @j-th of the kind. */
static void fz_call(struct llvm_prf_data *r, bool memop, unsigned int j,
		    const u8 *op, unsigned int rep)
{
	unsigned int k, first, i;

	j %= fz_kind_sites(r, memop);
	/* Memop sites are kind 1's, the others kinds 0 and 2's. */
	for (k = 0, first = 0; k < FZ_KINDS; first += r->num_value_sites[k++]) {
		if ((k == PGO_VK_MEMOP_SIZE) != memop)
			continue;
		if (j < r->num_value_sites[k])
			break;
		j -= r->num_value_sites[k];
	}
	for (i = 0; i < rep; i++) {
		u64 v = fz_value(op[3], op[0] & 4 ? i : 0);

		if (memop)
			__llvm_profile_instrument_memop(v, r, first + j);
		else
			__llvm_profile_instrument_target(v, r, first + j);
	}
}

/*
 * What the object's code does, { op, rec, site, value } each: op & 3: 0
 * an indirect call, 1 a memory intrinsic (the runtime's hooks), 2 a
 * counter increment (single-byte: the counter covered), 3 an MC/DC test
 * vector bit set, as the compiler's inline code does; op & 4: distinct
 * values; op >> 3: 1 to 32 times.  Each goes to the rec-th (cyclically)
 * of the records it applies to, in the order given, so records interleave
 * as the calls of several CPUs would.  Value profiling calls only if
 * @values: lists the runtime did not make could send it anywhere.
 */
/* What the code's counter update does @rep times to the counter at @at. */
static void fz_bump(u64 at, size_t cs, unsigned int rep)
{
	unsigned int i;

	for (i = 0; i < rep; i++) {
		if (cs == 1)
			*(u8 *)(uintptr_t)at = 0;
		else
			(*(u64 *)(uintptr_t)at)++;
	}
}

static void fz_run(struct fz_obj *f, const u8 *ops, size_t nops, bool reverse,
		   bool values)
{
	struct pgo_object *o = f->obj;
	size_t cs = fz_cnt_size(o), x;

	for (x = 0; x < nops; x++) {
		const u8 *op = ops + 4 * (reverse ? nops - 1 - x : x);
		unsigned int rep = (op[0] >> 3) + 1, kind = op[0] & 3;
		struct llvm_prf_data *r;

		switch (kind) {
		case 0:
		case 1:
			r = fz_pick(o, op[1], fz_kind_sites, kind);
			if (r && values)
				fz_call(r, kind, op[2], op, rep);
			break;
		case 2:
			/* Correlated: no record, a counter by its index. */
			if (o->correlated && o->cnts_end > o->cnts) {
				fz_bump((uintptr_t)o->cnts +
					((op[1] << 8 | op[2]) %
					 ((o->cnts_end - o->cnts) / cs)) * cs,
					cs, rep);
				break;
			}
			r = fz_pick(o, op[1], fz_has_counters, false);
			if (!r)
				break;
			fz_bump(((INSTR_PROF_RAW_VERSION >= 8) ? (uintptr_t)r : 0) + r->counter_ptr +
				(op[2] % r->num_counters) * cs, cs, rep);
			break;
		default:
#if PGO_HAS_BITMAP
			if (o->correlated && o->bits_end > o->bits) {
				o->bits[(op[1] << 8 | op[2]) %
					(o->bits_end - o->bits)] |= 1 << (op[3] & 7);
				break;
			}
			r = fz_pick(o, op[1], fz_has_bitmap, false);
			if (!r)
				break;
			*(u8 *)(uintptr_t)((uintptr_t)r + r->bitmap_ptr +
					   op[2] % r->num_bitmap_bytes) |=
				1 << (op[3] & 7);
#endif
			break;
		}
	}
}

/* Whether the runtime may run on the lists: they are what it makes. */
static bool fz_runnable(const struct pgo_object *o)
{
	struct fz_model m;
	bool ok;

	fz_walk(o, &m);
	ok = m.ok;
	fz_model_free(&m);
	return ok;
}

/* After the runtime: nodes from the object's pool only, lists intact. */
static void fz_after_run(const struct pgo_object *o, bool unused)
{
	struct fz_model m;

	fz_walk(o, &m);
	FZ_ASSERT(m.ok, "the runtime left a list with a node outside the pool, %s",
		  "above the nodes handed out, or in two lists");
	FZ_ASSERT(!unused || m.fresh,
		  "the runtime left a list with a value twice or more than %d values",
		  FZ_MAX_VALUES);
	FZ_ASSERT(!atomic_long_read(&o->values_dropped) ||
		  (unsigned int)atomic_read(&o->vnds_used) >= fz_pool(o),
		  "values dropped with nodes left in the pool");
	fz_model_free(&m);
}

static void fz_reset(struct pgo_object *o)
{
	unsigned long gen = pgo_object_generation(o);
	unsigned int i, n = fz_limit(o);
	size_t cs = fz_cnt_size(o);

	if (fz_h->flags & FZ_RESET_ALL)
		pgo_objects_reset();
	else
		pgo_object_reset(o);
	FZ_ASSERT(pgo_object_reset_since(o, gen), "a reset not seen");
	for (i = 0; i < (size_t)(o->cnts_end - o->cnts); i++)
		FZ_ASSERT((u8)o->cnts[i] == (cs == 1 ? 0xff : 0),
			  "counter byte %u is %#x after a reset", i, (u8)o->cnts[i]);
	FZ_ASSERT(fz_zero((u8 *)o->bits, o->bits_end - o->bits),
		  "bitmap not zero after a reset");
	for (i = 0; i < n; i++)
		FZ_ASSERT(!o->vnds[i].count, "node %u counts %llu after a reset",
			  i, (unsigned long long)o->vnds[i].count);
	FZ_ASSERT(!atomic_long_read(&o->values_dropped), "dropped after a reset");
}

/*
 * A module that is loaded unprofiled: its sections failed the check
 * (module.c's pgo_module_coming()), or it has several sections of a kind
 * (find_pgo_sections(), the loader's).  Neither file builds here (struct
 * module, kallsyms, the loader's ELF sections): this is what they do,
 * pgo_module_disarm()'s memset() of the records, and no object made.  Its
 * code still runs and calls the runtime with its records and any site
 * index: that must not change the module's sections, nor fault (ASan sees
 * any other write; the object is not registered, so the runtime cannot
 * reach its pool or counters, and asserting so would test nothing).  vmlinux
 * is not so handled: vmlinux.c empties its data section instead, and its
 * records' list heads are the compiler's, which an input does not model.
 */
static void fz_unprofiled(struct fz_obj *f, const u8 *ops, size_t nops)
{
	struct pgo_object *o = f->obj;
	size_t nrec = fz_whole(f->start[S_DATA], f->end[S_DATA], FZ_REC), x, s;
	char *copy[NR_SECT];
	size_t size[NR_SECT];

	if (o == &pgo_vmlinux)
		return;
	if (f->start[S_DATA])
		memset(f->start[S_DATA], 0, f->end[S_DATA] - f->start[S_DATA]);
	for (s = 0; s < NR_SECT; s++) {
		size[s] = f->size[s];
		copy[s] = fz_alloc(size[s]);
		if (size[s])
			memcpy(copy[s], f->alloc[s], size[s]);
	}
	/* The compiler's records are aligned: a misaligned section is not. */
	if ((uintptr_t)f->start[S_DATA] % 8)
		nrec = 0;
	for (x = 0; nrec && x < nops; x++) {
		const u8 *op = ops + 4 * x;
		struct llvm_prf_data *r = (void *)(f->start[S_DATA] +
						   op[1] % nrec * FZ_REC);
		u64 v = fz_value(op[3], 0);

		if (op[0] & 1)
			__llvm_profile_instrument_memop(v, r, op[2]);
		else
			__llvm_profile_instrument_target(v, r, op[2] | op[0] << 8);
	}
	for (s = 0; s < NR_SECT; s++) {
		FZ_ASSERT(!size[s] || !memcmp(copy[s], f->alloc[s], size[s]),
			  "a call into an unprofiled module changed its section %zu", s);
		free(copy[s]);
	}
}

/*
 * Check an object, then, if accepted, do to it what the kernel does.
 * Returns whether it was accepted; @f is freed by the caller.
 */
static bool fz_accept(struct fz_obj *f, bool unused)
{
	struct pgo_object *o = f->obj;
	unsigned int wrong = fz_spec_all(o, unused), named;
	const char *why = fz_spec(o, unused);
	u64 *orig;
	size_t i, nrec;
	int ret;

	fz_nr_warn = fz_nr_info = fz_nr_err = 0;
	ret = pgo_object_check(o, unused);
	if (ret) {
		FZ_ASSERT(ret == -EINVAL, "pgo_object_check() returned %d", ret);
		FZ_ASSERT(fz_nr_warn == 1 && strstr(fz_last_log, "not profiled: ") &&
			  strstr(fz_last_log, o->name),
			  "rejected without a reason logged (%u warnings)", fz_nr_warn);
		FZ_ASSERT(why, "rejected an object its contract accepts: %s",
			  fz_last_log);
		/* The reason is one of the object's faults, by its class. */
		named = fz_logged_class(fz_last_log);
		FZ_ASSERT(named && !(named & (named - 1)),
			  "rejected for a reason of no known class: %s", fz_last_log);
		FZ_ASSERT(named & wrong,
			  "rejected for \"%s\", but what is wrong is %s (classes %#x)",
			  fz_why[__builtin_ctz(named)].name, why, wrong);
		return false;
	}
	FZ_ASSERT(!why, "accepted an object its contract rejects (%s)", why);
	FZ_ASSERT(!fz_nr_warn && !fz_nr_err, "accepted, but logged: %s",
		  fz_last_log);

	/* Function addresses hidden, once, as module.c and vmlinux.c do. */
	nrec = o->data_end - o->data;
	orig = fz_alloc(nrec * sizeof(*orig));
	for (i = 0; i < nrec; i++)
		orig[i] = o->data[i].function_pointer;
	pgo_object_hide_code(o);
	for (i = 0; i < nrec; i++)
		FZ_ASSERT(o->data[i].function_pointer == fz_code(o, orig[i], false),
			  "record %zu: FunctionPointer %llx written as %llx", i,
			  (unsigned long long)orig[i],
			  (unsigned long long)o->data[i].function_pointer);
	free(orig);
	if (o != &pgo_vmlinux)
		pgo_object_add(o);
	return true;
}

/* A loaded object's life: code runs, it is read, reset, read, runs, read. */
static void fz_life(struct fz_obj *f, const u8 *ops, size_t nops, bool unused,
		    bool reverse)
{
	struct pgo_object *o = f->obj;
	size_t split = nops * fz_h->split / 256;
	bool values = fz_runnable(o);

	fz_run(f, ops, split, reverse, values);
	if (values)
		fz_after_run(o, unused);
	fz_read(o, false);
	fz_reset(o);
	fz_read(o, true);
	fz_run(f, ops + 4 * split, nops - split, reverse, values);
	if (values)
		fz_after_run(o, unused);
	fz_read(o, false);
}

/* Whether none of an object's code ran (retain.c drops such a profile). */
static bool fz_touched(const struct pgo_object *o)
{
	size_t i, cs = fz_cnt_size(o);

	for (i = 0; i < (size_t)(o->cnts_end - o->cnts); i++)
		if ((u8)o->cnts[i] != (cs == 1 ? 0xff : 0))
			return true;
	return !fz_zero((const u8 *)o->bits, o->bits_end - o->bits) ||
	       fz_limit(o);
}

/* What a retained copy of the sum of some loads must hold. */
struct fz_sum {
	u64 version;		/* the loads' version word */
	u8 *cnts, *bits;
	size_t ncnts, nbits;
	bool values;		/* whether the lists below are known */
	struct fz_model m;	/* sites as a's; entries merged */
};

static void fz_sum_add(struct fz_sum *e, const struct fz_model *src)
{
	struct fz_ent *ent = fz_alloc((e->m.nent + src->nent) * sizeof(*ent));
	size_t s, x, y, n = 0;

	for (s = 0; s < e->m.nsite; s++) {
		struct fz_site *site = &e->m.site[s];
		const struct fz_site *add = &src->site[s];
		size_t at = n;

		for (x = 0; x < site->n; x++)
			ent[n++] = e->m.ent[site->at + x];
		for (x = 0; x < add->n; x++) {
			const struct fz_ent *a = &src->ent[add->at + x];

			for (y = at; y < n && ent[y].value != a->value; y++)
				;
			if (y < n)
				ent[y].count += a->count;
			else
				ent[n++] = *a;
		}
		site->at = at;
		site->n = n - at;
	}
	free(e->m.ent);
	e->m.ent = ent;
	e->m.nent = n;
}

/*
 * The sum of @n loads of one binary, in that order: counters added (for
 * single-byte ones, covered in any), bitmaps or'ed, each site's values
 * added up by value, in the order they first appear (code addresses as
 * each load writes them).
 */
static void fz_sum_init(struct fz_sum *e, struct pgo_object *const *src,
			size_t n)
{
	const struct pgo_object *a = src[0];
	size_t i, k, cs = fz_cnt_size(a);
	struct fz_model m;

	memset(e, 0, sizeof(*e));
	e->version = a->version;
	e->ncnts = a->cnts_end - a->cnts;
	e->nbits = a->bits_end - a->bits;
	e->cnts = fz_alloc(e->ncnts);
	e->bits = fz_alloc(e->nbits);
	if (e->ncnts)
		memcpy(e->cnts, a->cnts, e->ncnts);
	if (e->nbits)
		memcpy(e->bits, a->bits, e->nbits);
	for (k = 1; k < n; k++) {
		const struct pgo_object *b = src[k];

		for (i = 0; i < e->nbits; i++)
			e->bits[i] |= b->bits[i];
		for (i = 0; cs == 1 && i < e->ncnts; i++)
			e->cnts[i] &= b->cnts[i];
		for (i = 0; cs == 8 && i < e->ncnts; i += 8)
			fz_put64(e->cnts + i, fz_get64(e->cnts + i) +
				 fz_get64(b->cnts + i));
	}
	/* Sites with no entries, then each load's values added in. */
	e->values = true;
	fz_walk(a, &e->m);
	for (k = 0; k < e->m.nsite; k++)
		e->m.site[k].n = 0;
	e->m.nent = 0;
	for (k = 0; k < n; k++) {
		fz_walk(src[k], &m);
		e->values &= m.ok;
		if (m.ok)
			fz_sum_add(e, &m);
		fz_model_free(&m);
	}
}

static void fz_sum_free(struct fz_sum *e)
{
	free(e->cnts);
	free(e->bits);
	fz_model_free(&e->m);
}

/* A retained copy holds what @e says, and is an object of its own. */
static void fz_sum_check(const struct pgo_object *c, const struct fz_sum *e,
			 const char *what)
{
	struct fz_model m;
	size_t s, x;

	FZ_ASSERT(!pgo_object_check(c, false), "%s: the copy is no valid object: %s",
		  what, fz_last_log);
	FZ_ASSERT(!fz_spec(c, false), "%s: the copy breaks the contract", what);
	FZ_ASSERT(c->version == e->version, "%s: version %llx, the loads' %llx",
		  what, (unsigned long long)c->version,
		  (unsigned long long)e->version);
	FZ_ASSERT((size_t)(c->cnts_end - c->cnts) == e->ncnts &&
		  !memcmp(c->cnts, e->cnts, e->ncnts),
		  "%s: counters are not the sum", what);
	FZ_ASSERT((size_t)(c->bits_end - c->bits) == e->nbits &&
		  !memcmp(c->bits, e->bits, e->nbits),
		  "%s: bitmaps are not the union", what);
	fz_walk(c, &m);
	FZ_ASSERT(m.ok, "%s: the copy's lists are broken", what);
	if (e->values) {
		FZ_ASSERT(!atomic_long_read(&c->values_dropped),
			  "%s: values dropped", what);
		FZ_ASSERT(m.nsite == e->m.nsite, "%s: sites", what);
		for (s = 0; s < m.nsite; s++) {
			FZ_ASSERT(m.site[s].n == e->m.site[s].n,
				  "%s: site %zu holds %u values, expected %u", what,
				  s, m.site[s].n, e->m.site[s].n);
			for (x = 0; x < m.site[s].n; x++) {
				const struct fz_ent *got = &m.ent[m.site[s].at + x];
				const struct fz_ent *want = &e->m.ent[e->m.site[s].at + x];

				FZ_ASSERT(got->value == want->value &&
					  got->count == want->count,
					  "%s: site %zu value %zu: %llx x %llu, expected %llx x %llu",
					  what, s, x, (unsigned long long)got->value,
					  (unsigned long long)got->count,
					  (unsigned long long)want->value,
					  (unsigned long long)want->count);
			}
		}
	}
	fz_model_free(&m);
	fz_read(c, false);
}

/* Change @b one way at a time: it must be another binary each time. */
static void fz_other_binaries(const struct pgo_object *a, struct pgo_object *b)
{
	struct llvm_prf_data *r = b->data_end > b->data ? b->data : NULL;
	size_t cs = fz_cnt_size(b);
	u32 u;
	u16 w;

#define FZ_OTHER(what, change, undo)					\
	do {								\
		change;							\
		FZ_ASSERT(!fz_same_binary(a, b), "another " what " is the same binary"); \
		undo;							\
	} while (0)
	FZ_ASSERT(fz_same_binary(a, b), "two loads of one binary are not the same binary");
	if (b->build_id_len) {
		FZ_OTHER("build id", b->build_id[0] ^= 1, b->build_id[0] ^= 1);
		FZ_OTHER("build id length", b->build_id_len--, b->build_id_len++);
	}
	if (r)
		FZ_OTHER("number of records", b->data_end--, b->data_end++);
	if (b->cnts_end > b->cnts)
		FZ_OTHER("counters size", b->cnts_end -= cs, b->cnts_end += cs);
	if (b->bits_end > b->bits)
		FZ_OTHER("bitmap size", b->bits_end--, b->bits_end++);
	if (b->vals_end > b->vals)
		FZ_OTHER("values size", b->vals_end--, b->vals_end++);
	FZ_OTHER("correlation", b->correlated = !b->correlated,
		 b->correlated = !b->correlated);
	/* Counts of other instrumentation, which its version word says. */
	FZ_OTHER("variant flags", b->version ^= VARIANT_MASK_IR_PROF,
		 b->version ^= VARIANT_MASK_IR_PROF);
	FZ_OTHER("raw version", b->version ^= 1, b->version ^= 1);
	if (!r)
		return;
	FZ_OTHER("function name", pgo_rec_set(r, name_ref, r->name_ref ^ 1),
		 pgo_rec_set(r, name_ref, r->name_ref ^ 1));
	FZ_OTHER("function hash", pgo_rec_set(r, func_hash, r->func_hash ^ 1),
		 pgo_rec_set(r, func_hash, r->func_hash ^ 1));
	FZ_OTHER("counter place", pgo_rec_set(r, counter_ptr, r->counter_ptr + cs),
		 pgo_rec_set(r, counter_ptr, r->counter_ptr - cs));
	u = r->num_counters ^ 1;
	FZ_OTHER("number of counters",
		 memcpy((char *)r + offsetof(struct llvm_prf_data, num_counters), &u, 4),
		 (u ^= 1, memcpy((char *)r + offsetof(struct llvm_prf_data, num_counters), &u, 4)));
	w = r->num_value_sites[0] ^ 1;
	FZ_OTHER("number of value sites",
		 memcpy((char *)r + offsetof(struct llvm_prf_data, num_value_sites), &w, 2),
		 (w ^= 1, memcpy((char *)r + offsetof(struct llvm_prf_data, num_value_sites), &w, 2)));
	if (fz_nr_sites(r))
		FZ_OTHER("value sites place", pgo_rec_set(r, values, r->values + 8),
			 pgo_rec_set(r, values, r->values - 8));
#if PGO_HAS_BITMAP
	u = r->num_bitmap_bytes ^ 1;
	FZ_OTHER("number of bitmap bytes",
		 memcpy((char *)r + offsetof(struct llvm_prf_data, num_bitmap_bytes), &u, 4),
		 (u ^= 1, memcpy((char *)r + offsetof(struct llvm_prf_data, num_bitmap_bytes), &u, 4)));
	if (r->num_bitmap_bytes)
		FZ_OTHER("bitmap place", pgo_rec_set(r, bitmap_ptr, r->bitmap_ptr + 1),
			 pgo_rec_set(r, bitmap_ptr, r->bitmap_ptr - 1));
#endif
#undef FZ_OTHER
	FZ_ASSERT(fz_same_binary(a, b), "changes undone, not the same binary");
}

/* The largest copy id seen: ids are unique for the boot (the process). */
static unsigned long long fz_max_id;

/* What "saved" must take for an id, or refuse (-EINVAL) as no number. */
static const char *const fz_saved_forms[] = {
	"%llu", "%llu\n", "+%llu", "", "\n", "x", "%llu ", "%llux", " %llu",
	"-%llu", "0x%llx", "%llu\n\n", "18446744073709551616", "%llu\n%llu",
};

/*
 * Discard the module's copy, shown with id @id (0: none) and base @base, as
 * userspace does (FZR_*): "1" to its reset; its id to its saved, what a
 * saver that read it writes; an id it does not have (@stale: that of a copy
 * it replaced, or one never given), what a saver that read an earlier copy
 * writes, which must leave the copy as it is: -ESTALE if the copy holds
 * that one's counts (@base <= @stale < @id), else success (the counts of
 * @stale are in no copy: its saver keeps its file); or some other string.
 * Return: whether the copy must still be there.
 */
static bool fz_discard(u8 rt, unsigned long long id, unsigned long long base,
		       unsigned long long stale)
{
	size_t nforms = sizeof(fz_saved_forms) / sizeof(fz_saved_forms[0]);
	const char *form = fz_saved_forms[fz_h->seed % nforms];
	unsigned long long want = rt & FZR_STALE ? stale : id;
	bool number;
	char buf[64];
	long ret;

	if (!(rt & FZR_SAVED)) {
		fz_retained_discard(FZ_MODULE);
		return false;
	}
	if (!id)
		return false;
	if (!(rt & FZR_NOT_ID))
		form = "%llu\n";
	snprintf(buf, sizeof(buf), form, want, want);
	/* The first three forms are numbers. */
	number = !(rt & FZR_NOT_ID) || fz_h->seed % nforms < 3;
	ret = fz_retained_saved(FZ_MODULE, buf);
	if (!number) {
		FZ_ASSERT(ret == -EINVAL, "saved \"%s\": %ld, not -EINVAL", buf, ret);
		return true;
	}
	/* 0 and ids above the copy's own were never its own or its line's. */
	if (!want || want > id) {
		FZ_ASSERT(ret == -EINVAL, "saved %llu, the copy is %llu: %ld, not -EINVAL",
			  want, id, ret);
		return true;
	}
	if (want != id && want >= base && want < id) {
		FZ_ASSERT(ret == -ESTALE, "saved %llu, the copy is %llu (base %llu): %ld, not -ESTALE",
			  want, id, base, ret);
		return true;
	}
	if (want != id) {
		FZ_ASSERT(ret == (long)strlen(buf),
			  "saved %llu, of no line of copy %llu (base %llu): %ld, not success",
			  want, id, base, ret);
		return true;
	}
	FZ_ASSERT(ret == (long)strlen(buf), "saved \"%s\" of copy %llu: %ld", buf, id, ret);
	return false;
}

/*
 * The module loaded again and unloaded, two or three times: the sum of
 * two loads (pgo_retained_sum() itself), then the copy retain.c keeps
 * over the unloads (pgo_retain()), as module.c's going notifier makes them,
 * each under a new id, and a discard of it.
 */
static void fz_retention(struct fz_obj *a, const u8 *sections, size_t len,
			 const u8 *ops, size_t nops, bool unused)
{
	const u8 rt = fz_h->retain;
	unsigned int kb = rt & FZR_SMALL_KB ? fz_h->seed & 1 ? 0 : 1 : 16384;
	bool exact = kb > 1 && !(rt & FZR_ADD_FAILS), other = rt & FZR_OTHER;
	struct fz_obj more[2];
	struct pgo_object *load[3] = { a->obj }, *kept[3], *c, *last = NULL;
	size_t nload = rt & FZR_THIRD ? 3 : 2, nkept = 0, k;
	unsigned long long id, last_id = 0, stale = 0, base = 0;
	struct fz_sum e;
	void *handle;

	/* kobject_add() or pgo_files_add() fails, as seed bit 1 says. */
	fz_retain_setup(kb, rt & FZR_ADD_FAILS ? 1 + (fz_h->seed >> 1 & 1) : 0);
	/* Another binary needs a record to differ in. */
	if (a->obj->data_end == a->obj->data)
		other = false;

	/* The same binary loaded again: the same sections, other code runs. */
	for (k = 1; k < nload; k++) {
		struct fz_in in = { sections, len };
		struct fz_obj *f = &more[k - 1];

		fz_build(f, fz_h, &in);
		load[k] = f->obj;
		/* Another binary of the same name: another build. */
		if (k == 2 && other)
			pgo_rec_set(&f->obj->data[0], func_hash,
				    f->obj->data[0].func_hash + 1);
		FZ_ASSERT(fz_accept(f, unused), "the same sections rejected on load %zu", k);
		fz_life(f, ops, nops, unused, k == 1);
	}
	fz_other_binaries(load[0], load[1]);

	c = fz_retained_sum(load[0], load[1], &handle);
	FZ_ASSERT(c, "pgo_retained_sum() out of memory");
	fz_sum_init(&e, load, 2);
	fz_sum_check(c, &e, "sum of two loads");
	FZ_ASSERT(fz_same_binary(c, load[1]), "a copy is not the same binary as its source");
	fz_retained_put(handle);
	fz_sum_free(&e);

	/*
	 * Unloaded in turn: the copy is the sum of the loads that ran code,
	 * since the last one of another binary.
	 */
	for (k = 0; k < nload; k++) {
		if (fz_touched(load[k])) {
			if (k == 2 && other)
				nkept = 0;
			kept[nkept++] = load[k];
		}
		if (nkept)
			fz_sum_init(&e, kept, nkept);
		fz_retain(load[k]);
		c = fz_retained_find(FZ_MODULE);
		id = fz_retained_id(FZ_MODULE);
		FZ_ASSERT(!c == !id, "unload %zu: a copy without an id", k);
		if (!fz_touched(load[k])) {
			FZ_ASSERT(c == last && id == last_id,
				  "unload %zu of an untouched load changed the copy", k);
		} else if (c && c == last && id == last_id) {
			/*
			 * The sum did not fit in pgo.retain_kb: the copy it
			 * would replace stays as it was.
			 */
			FZ_ASSERT(!exact, "unload %zu: the copy stayed with pgo.retain_kb=%u", k, kb);
		} else if (c) {
			/* A new copy, never the one it replaces. */
			FZ_ASSERT(id > fz_max_id, "unload %zu: id %llu, ids up to %llu were given",
				  k, id, fz_max_id);
			fz_max_id = id;
			if (last_id)
				stale = last_id;
			/*
			 * It adds to the copy it replaces, the same binary's:
			 * the line goes on.  Else (none, or another binary's)
			 * a line starts.
			 */
			if (!last_id || (k == 2 && other))
				base = id;
		}
		FZ_ASSERT(fz_retained_base(FZ_MODULE) == (c ? base : 0),
			  "unload %zu: copy %llu has base %llu, expected %llu",
			  k, id, fz_retained_base(FZ_MODULE), c ? base : 0);
		last = c;
		last_id = id;
		if (!exact) {
			FZ_ASSERT(!c || kb, "retained with pgo.retain_kb=0");
			FZ_ASSERT(!c || !(rt & FZR_ADD_FAILS), "retained, not in sysfs");
			if (c)
				fz_read(c, false);
		} else {
			FZ_ASSERT(!c == !nkept, "unload %zu: retained: %d, loads kept: %zu",
				  k, !!c, nkept);
			if (c)
				fz_sum_check(c, &e, "retained after unloads");
		}
		if (nkept)
			fz_sum_free(&e);
	}
	if (fz_h->flags2 & FZ2_DISCARD) {
		bool stays = fz_discard(rt, last_id, base,
					stale ? stale : last_id + 1);

		c = fz_retained_find(FZ_MODULE);
		FZ_ASSERT(c == (stays ? last : NULL) &&
			  fz_retained_id(FZ_MODULE) == (stays ? last_id : 0),
			  "after the discard: copy %p id %llu, expected %p id %llu",
			  (void *)c, fz_retained_id(FZ_MODULE),
			  stays ? (void *)last : NULL, stays ? last_id : 0);
		/* A refused discard leaves every count unloaded so far. */
		if (c && exact && nkept) {
			fz_sum_init(&e, kept, nkept);
			fz_sum_check(c, &e, "retained after a refused discard");
			fz_sum_free(&e);
		} else if (c) {
			fz_read(c, false);
		}
	}
	if (rt & FZR_TRIM) {
		fz_retain_setup(0, 0);
		FZ_ASSERT(!fz_retained_find(FZ_MODULE), "retained past pgo.retain_kb=0");
	}
	fz_reset_everything();
	for (k = 1; k < nload; k++)
		fz_free(&more[k - 1]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_verbose = getenv("FUZZ_VERBOSE");
	fz_retain_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fz_in in = { data, size };
	struct fz_hdr h;
	struct fz_obj f;
	const u8 *sections, *ops;
	size_t nops;
	bool unused;

	fz_parse_hdr(&in, &h);
	fz_h = &h;
	shim_warnings = 0;
	sections = in.p;
	fz_build(&f, &h, &in);
	ops = in.p;
	nops = in.n / 4 < FZ_MAX_OPS ? in.n / 4 : FZ_MAX_OPS;
	unused = h.flags & FZ_UNUSED;

	/* module.c makes no object of a module without records, but (fz_build()). */
	if (f.obj != &pgo_vmlinux && !f.alloc[S_DATA] && !f.obj->correlated) {
		fz_free(&f);
		return 0;
	}
	if (f.obj != &pgo_vmlinux && (h.absent & FZA_SEVERAL)) {
		/* Several sections of a kind: no check, no object. */
		fz_unprofiled(&f, ops, nops);
	} else if (fz_accept(&f, unused)) {
		fz_life(&f, ops, nops, unused, false);
		if ((h.flags & FZ_RETAIN) && f.obj != &pgo_vmlinux)
			fz_retention(&f, sections, ops - sections, ops, nops,
				     unused);
		else if (f.obj != &pgo_vmlinux)
			pgo_object_del(f.obj);
	} else {
		fz_unprofiled(&f, ops, nops);
	}
	fz_free(&f);
	FZ_ASSERT(!shim_warnings, "%d WARN_ON fired", shim_warnings);
	return 0;
}
