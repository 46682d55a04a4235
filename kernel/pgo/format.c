// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: write a struct pgo_object as an LLVM raw profile.
 *
 * The file is: header, data records, counters, names, value blocks (and the
 * empty bitmap and vtable parts of version 10).  It does not mirror the
 * object's memory: each record's CounterPtr is rewritten to point at its
 * counters inside the file, so an object whose sections are not laid out
 * the way a linked executable's are still gives a valid file.
 *
 * Counters and value nodes change while they are copied.  Counters are read
 * one word at a time, so none is torn.  Value lists only ever grow at their
 * tail and every node comes from the object's own pool, so each list is
 * walked exactly once, and only nodes below a limit fixed before the buffer
 * was sized are written: the buffer cannot overflow, and the value block
 * sizes always agree with their contents.
 */

#include <linux/align.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/string.h>

#include "pgo.h"

/* One value and its count, as a value block holds them. */
struct pgo_value_data {
	u64 value;
	u64 count;
};

/**
 * pgo_counter_size() - size of one of an object's counters
 * @obj: the object
 *
 * Return: 1 for single-byte coverage counters, else sizeof(u64).
 */
size_t pgo_counter_size(const struct pgo_object *obj)
{
	return obj->version & VARIANT_MASK_BYTE_COVERAGE ? 1 : sizeof(u64);
}

static size_t pgo_nr_records(const struct pgo_object *obj)
{
	return obj->data_end - obj->data;
}

/**
 * pgo_nr_sites() - number of value sites of a record, all kinds together
 * @rec: the record
 *
 * Return: the sum of @rec's NumValueSites[] over all value kinds.
 */
unsigned int pgo_nr_sites(const struct llvm_prf_data *rec)
{
	unsigned int kind, n = 0;

	for (kind = 0; kind < PGO_NR_VALUE_KINDS; kind++)
		n += rec->NumValueSites[kind];
	return n;
}

/**
 * pgo_rec_counters() - where a record's counters are
 * @rec: the record, in place
 *
 * Return: the address of @rec's first counter, CounterPtr made absolute.
 */
char *pgo_rec_counters(const struct llvm_prf_data *rec)
{
	char *cnts = (char *)(uintptr_t)rec->CounterPtr;

	return PGO_RELATIVE_COUNTERS ? cnts + (uintptr_t)rec : cnts;
}

/**
 * pgo_rec_relocate() - point a copied record at its copied counters
 * @rec: the record, at its new place
 * @cnts: its counters
 * @vals: its value list heads, or NULL
 */
void pgo_rec_relocate(struct llvm_prf_data *rec, char *cnts, void *vals)
{
	u64 ptr = (uintptr_t)cnts, v = (uintptr_t)vals;

	if (PGO_RELATIVE_COUNTERS)
		ptr -= (uintptr_t)rec;
	memcpy((void *)rec + offsetof(struct llvm_prf_data, CounterPtr), &ptr,
	       sizeof(ptr));
	memcpy((void *)rec + offsetof(struct llvm_prf_data, Values), &v,
	       sizeof(v));
}

/* Size of a record's value block, without the values themselves. */
static size_t pgo_value_block_base(const struct llvm_prf_data *rec)
{
	size_t size = 2 * sizeof(u32);
	unsigned int kind;

	for (kind = 0; kind < PGO_NR_VALUE_KINDS; kind++)
		if (rec->NumValueSites[kind])
			size += ALIGN(2 * sizeof(u32) + rec->NumValueSites[kind], 8);
	return size;
}

/*
 * The binary id section: one {u64 length, id padded to 8} entry.  LLVM 13's
 * reader mishandles it (raw version 7): write none there.
 */
static size_t pgo_binary_ids_size(const struct pgo_object *obj)
{
	if (INSTR_PROF_RAW_VERSION < 8 || !obj->build_id_len)
		return 0;
	return sizeof(u64) + ALIGN(obj->build_id_len, 8);
}

/* Offsets of the parts of the file; all but the value blocks are fixed. */
struct pgo_layout {
	size_t ids;
	size_t data;
	size_t cnts;
	size_t names;
	size_t values;
};

static void pgo_layout(const struct pgo_object *obj, struct pgo_layout *l)
{
	l->ids = sizeof(struct llvm_prf_header);
	l->data = l->ids + pgo_binary_ids_size(obj);
	l->cnts = l->data + pgo_nr_records(obj) * sizeof(struct llvm_prf_data);
	l->names = l->cnts + ALIGN(obj->cnts_end - obj->cnts, 8);
	l->values = l->names + ALIGN(obj->names_end - obj->names, 8);
}

/**
 * pgo_profile_bound() - upper bound of an object's profile size
 * @obj: the object
 * @limit: set to the number of value nodes in use now; pass it on to
 *	pgo_profile_write() so that it writes no node handed out later
 *
 * Return: a buffer size that pgo_profile_write() never exceeds.
 */
size_t pgo_profile_bound(const struct pgo_object *obj, unsigned int *limit)
{
	const struct llvm_prf_data *rec;
	struct pgo_layout l;
	size_t size;

	pgo_layout(obj, &l);
	size = l.values;
	for (rec = obj->data; rec < obj->data_end; rec++)
		if (pgo_nr_sites(rec))
			size += pgo_value_block_base(rec);

	*limit = pgo_nodes_in_use(obj);
	return size + *limit * sizeof(struct pgo_value_data);
}

/*
 * Fill the header.  The field names and their initializers come from
 * InstrProfData.inc, so the locals below carry the names the compiler-rt
 * expressions use; each LLVM version picks the ones it needs.
 */
#define __llvm_profile_get_magic()	INSTR_PROF_RAW_MAGIC_64
#define __llvm_profile_get_version()	(obj->version)
#define __llvm_write_binary_ids(x)	((void)(x), pgo_binary_ids_size(obj))

static void pgo_write_header(const struct pgo_object *obj,
			     const struct pgo_layout *l, void *buf)
{
	/* "Addresses" are file offsets: the reader only uses differences. */
	uintptr_t DataBegin __maybe_unused = l->data;
	uintptr_t CountersBegin __maybe_unused = l->cnts;
	uintptr_t BitmapBegin __maybe_unused = l->names;
	uintptr_t NamesBegin __maybe_unused = 0;
	u64 NumData __maybe_unused = pgo_nr_records(obj);
	u64 DataSize __maybe_unused = NumData;
	u64 NumCounters __maybe_unused =
		(obj->cnts_end - obj->cnts) / pgo_counter_size(obj);
	u64 CountersSize __maybe_unused = NumCounters;
	u64 PaddingBytesBeforeCounters __maybe_unused = 0;
	u64 PaddingBytesAfterCounters __maybe_unused =
		l->names - l->cnts - (obj->cnts_end - obj->cnts);
	u64 NumBitmapBytes __maybe_unused = 0;
	u64 PaddingBytesAfterBitmapBytes __maybe_unused = 0;
	u64 NamesSize __maybe_unused = obj->names_end - obj->names;
	u64 NumVTables __maybe_unused = 0;
	u64 VNamesSize __maybe_unused = 0;
	const struct llvm_prf_header header = {
#define INSTR_PROF_RAW_HEADER(type, name, init) .name = (init),
#include PGO_INSTRPROF_INC
	};

	memcpy(buf, &header, sizeof(header));
}

/* Copy the records, pointing each one's counters into the file. */
static void pgo_write_data(const struct pgo_object *obj,
			   const struct pgo_layout *l, void *buf)
{
	const struct llvm_prf_data *rec;
	struct llvm_prf_data *out = buf + l->data;
	u64 fn;

	for (rec = obj->data; rec < obj->data_end; rec++, out++) {
		u64 ptr = l->cnts + (pgo_rec_counters(rec) - obj->cnts);

		if (PGO_RELATIVE_COUNTERS)
			ptr -= (void *)out - buf;

		memcpy(out, rec, sizeof(*out));
		memcpy((void *)out + offsetof(struct llvm_prf_data, CounterPtr),
		       &ptr, sizeof(ptr));
		fn = pgo_object_addr(obj, rec->FunctionPointer);
		memcpy((void *)out +
		       offsetof(struct llvm_prf_data, FunctionPointer),
		       &fn, sizeof(fn));
		/* Where the value lists live is of no use to the reader. */
		memset((void *)out + offsetof(struct llvm_prf_data, Values), 0,
		       sizeof(out->Values));
	}
}

static void pgo_write_counters(const struct pgo_object *obj,
			       const struct pgo_layout *l, void *buf)
{
	size_t size = obj->cnts_end - obj->cnts;
	u64 *out = buf + l->cnts;
	const u64 *in = (const u64 *)obj->cnts;
	size_t i;

	if (pgo_counter_size(obj) != sizeof(u64)) {
		memcpy(out, in, size);
		return;
	}
	/* Counters run on other CPUs: copy whole words, never tear one. */
	for (i = 0; i < size / sizeof(u64); i++)
		out[i] = READ_ONCE(in[i]);
}

/*
 * Write one kind's value sites of a record: the site count array, then the
 * values of every site in order.  Returns the bytes written.
 */
static size_t pgo_write_kind(const struct pgo_object *obj,
			     struct llvm_prf_value_node * const *sites,
			     unsigned int kind, unsigned int nr_sites,
			     unsigned int limit, void *buf)
{
	u32 *head = buf;
	u8 *site_count = buf + 2 * sizeof(u32);
	struct pgo_value_data *vd;
	unsigned int s;

	head[0] = kind;
	head[1] = nr_sites;
	vd = buf + ALIGN(2 * sizeof(u32) + nr_sites, 8);
	memset(site_count, 0, (void *)vd - (void *)site_count);

	for (s = 0; s < nr_sites; s++) {
		const struct llvm_prf_value_node *node;

		node = sites ? READ_ONCE(sites[s]) : NULL;
		for (; node; node = READ_ONCE(node->Next)) {
			if (site_count[s] == U8_MAX)
				break;
			/* Handed out after the buffer was sized: skip. */
			if ((unsigned long)(node - obj->vnds) >= limit)
				continue;
			vd->value = READ_ONCE(node->Value);
			if (pgo_value_is_addr(kind))
				vd->value = pgo_object_target(obj, vd->value);
			vd->count = READ_ONCE(node->Count);
			vd++;
			site_count[s]++;
		}
	}
	return (void *)vd - buf;
}

static size_t pgo_write_values(const struct pgo_object *obj, void *buf,
			       unsigned int limit)
{
	const struct llvm_prf_data *rec;
	void *pos = buf;

	for (rec = obj->data; rec < obj->data_end; rec++) {
		struct llvm_prf_value_node * const *sites;
		u32 *block = pos;
		unsigned int kind;

		if (!pgo_nr_sites(rec))
			continue;

		sites = (void *)(uintptr_t)rec->Values;
		block[1] = 0;
		pos += 2 * sizeof(u32);
		for (kind = 0; kind < PGO_NR_VALUE_KINDS; kind++) {
			unsigned int n = rec->NumValueSites[kind];

			if (!n)
				continue;
			pos += pgo_write_kind(obj, sites, kind, n, limit, pos);
			if (sites)
				sites += n;
			block[1]++;
		}
		block[0] = pos - (void *)block;
	}
	return pos - buf;
}

/**
 * pgo_profile_write() - serialize an object in LLVM's raw profile format
 * @obj: the object
 * @buf: destination
 * @size: size of @buf, as returned by pgo_profile_bound()
 * @limit: node limit set by that same pgo_profile_bound() call
 *
 * Neither sleeps nor allocates; takes time linear in the object's size.
 *
 * Return: the number of bytes written, at most @size.
 */
size_t pgo_profile_write(const struct pgo_object *obj, void *buf, size_t size,
			 unsigned int limit)
{
	struct pgo_layout l;

	pgo_layout(obj, &l);
	if (WARN_ON_ONCE(size < l.values))
		return 0;

	memset(buf, 0, l.values);
	pgo_write_header(obj, &l, buf);
	if (l.data > l.ids) {
		*(u64 *)(buf + l.ids) = obj->build_id_len;
		memcpy(buf + l.ids + sizeof(u64), obj->build_id,
		       obj->build_id_len);
	}
	pgo_write_data(obj, &l, buf);
	pgo_write_counters(obj, &l, buf);
	memcpy(buf + l.names, obj->names, obj->names_end - obj->names);

	return l.values + pgo_write_values(obj, buf + l.values, limit);
}

static bool pgo_vals_inside(const struct pgo_object *obj,
			    const struct llvm_prf_data *rec)
{
	struct llvm_prf_value_node **vals = (void *)(uintptr_t)rec->Values;

	return vals >= obj->vals && vals <= obj->vals_end &&
	       pgo_nr_sites(rec) <= obj->vals_end - vals;
}

/**
 * pgo_object_check() - validate an object's sections before using them
 * @obj: the object, sections filled in
 *
 * Records must tile their section, and each record's counters must lie
 * inside the counters section, or the runtime and the writer would touch
 * memory that is not the object's.
 *
 * Return: 0, or -EINVAL with the reason logged.
 */
int pgo_object_check(const struct pgo_object *obj)
{
	size_t data_size = (void *)obj->data_end - (void *)obj->data;
	size_t cnt_size = pgo_counter_size(obj);
	const struct llvm_prf_data *rec;
	const char *why = NULL;

	if (data_size % sizeof(*rec))
		why = "data section is not a whole number of records";
	else if ((obj->cnts_end - obj->cnts) % cnt_size)
		why = "counters section is not a whole number of counters";
	else if (obj->names_end < obj->names)
		why = "names section is malformed";
	else if (data_size && obj->names_end == obj->names)
		why = "records but no names section";
	for (rec = obj->data; !why && rec < obj->data_end; rec++) {
		const char *cnts = pgo_rec_counters(rec);

		if (!rec->NumCounters)
			why = "a record has no counters";
		else if (cnts < obj->cnts || cnts > obj->cnts_end ||
			 rec->NumCounters > (obj->cnts_end - cnts) / cnt_size ||
			 (cnts - obj->cnts) % cnt_size)
			why = "a record's counters lie outside the counters section";
		else if (pgo_nr_sites(rec) && !pgo_vals_inside(obj, rec))
			why = "a record's value sites lie outside the values section";
#if PGO_HAS_BITMAP
		/* MC/DC bitmaps (-fcoverage-mcdc) are not written: refuse. */
		else if (rec->NumBitmapBytes)
			why = "a record has an MC/DC bitmap, which is not supported";
#endif
	}
	if (!why)
		return 0;

	pr_warn("%s: not profiled: %s\n", obj->name, why);
	return -EINVAL;
}
