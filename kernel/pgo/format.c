// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: write a struct pgo_object as an LLVM raw profile.
 *
 * The file is: header, binary id, data records, counters, (from version 9,
 * MC/DC bitmaps; from 11, uniform counters, which CPU code never has,)
 * names, (from version 10, empty vtables,) -- the fixed part: its size
 * never changes while the object exists -- then the value blocks.
 * Records are written as they are in memory, but for what would reveal
 * where the object is or is of no use to the reader (pgo_fix_record()),
 * so an object whose sections are not laid out the way a linked
 * executable's are still gives a valid file: the header's counters_delta
 * says where counters are relative to records.
 *
 * The fixed part is produced for any range of offsets straight from the
 * object (pgo_fixed_read()), so a reader needs no copy of it.  Only the
 * value blocks vary in size; they are written in one go (pgo_values_write())
 * into a buffer sized by pgo_values_bound().
 *
 * Counters and value nodes change while they are copied.  Counters are read
 * one word at a time, so none is torn.  Value lists are walked with
 * pgo_for_each_node(), which follows only nodes of the object's own pool,
 * a bounded number per site; only nodes below a limit fixed when the
 * buffer was sized are written, and never more of them than the limit:
 * whatever the lists hold, the writer stays inside its buffer and the value
 * block sizes agree with their contents.
 */

#define pr_fmt(fmt) "pgo: " fmt

#include <linux/align.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
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
	return obj->version & PGO_VARIANT_BYTE_COVERAGE ? 1 : sizeof(u64);
}

static size_t pgo_nr_records(const struct pgo_object *obj)
{
	return obj->data_end - obj->data;
}

/**
 * pgo_nr_sites() - number of value sites of a record, all kinds together
 * @rec: the record
 *
 * Return: the sum of @rec's num_value_sites[] over all value kinds.
 */
unsigned int pgo_nr_sites(const struct llvm_prf_data *rec)
{
	unsigned int kind, n = 0;

	for (kind = 0; kind < PGO_NR_VALUE_KINDS; kind++)
		n += rec->num_value_sites[kind];
	return n;
}

/*
 * Whether a record has a value block: value sites, with list heads (the
 * check refuses records with sites and none); most records have none, and
 * the test of rec->values alone tells them, so it comes first.
 */
static __always_inline bool pgo_rec_has_values(const struct llvm_prf_data *rec)
{
	return rec->values && pgo_nr_sites(rec);
}

/* counter_ptr of a record at @rec whose counters are at @cnts. */
static u64 pgo_counter_ptr(u64 rec, u64 cnts)
{
	return cnts - rec;
}

/**
 * pgo_rec_counters() - where a record's counters are
 * @rec: the record, in place
 *
 * Return: the address of @rec's first counter, counter_ptr made absolute.
 */
char *pgo_rec_counters(const struct llvm_prf_data *rec)
{
	/* In integers: a relative counter_ptr is no pointer of its own. */
	return (char *)(uintptr_t)(rec->counter_ptr + (uintptr_t)rec);
}

/**
 * pgo_rec_bitmap() - where a record's MC/DC bitmap is
 * @rec: the record, in place, with pgo_rec_bitmap_bytes()
 *
 * Return: the address of @rec's first bitmap byte (raw version 9 on,
 * where bitmap_ptr is relative to its record), or NULL before.
 */
char *pgo_rec_bitmap(const struct llvm_prf_data *rec)
{
#if PGO_HAS_BITMAP
	return (char *)(uintptr_t)(rec->bitmap_ptr + (uintptr_t)rec);
#else
	return NULL;
#endif
}

/**
 * pgo_rec_relocate() - point a copied record at its copied counters
 * @rec: the record, at its new place
 * @cnts: its counters
 * @bits: its MC/DC bitmap, or NULL if it has none
 * @vals: its value list heads, or NULL
 */
void pgo_rec_relocate(struct llvm_prf_data *rec, char *cnts, char *bits,
		      void *vals)
{
	pgo_rec_set(rec, counter_ptr,
		    pgo_counter_ptr((uintptr_t)rec, (uintptr_t)cnts));
#if PGO_HAS_BITMAP
	pgo_rec_set(rec, bitmap_ptr,
		    bits ? (uintptr_t)bits - (uintptr_t)rec : 0);
#endif
#if PGO_HAS_UNIFORM
	/* Only GPU code has uniform counters. */
	pgo_rec_set(rec, uniform_counter_ptr, 0);
#endif
	pgo_rec_set(rec, values, (uintptr_t)vals);
}

/* Size of a record's value block, without the values themselves. */
static size_t pgo_value_block_base(const struct llvm_prf_data *rec)
{
	size_t size = 2 * sizeof(u32);
	unsigned int kind;

	for (kind = 0; kind < PGO_NR_VALUE_KINDS; kind++)
		if (rec->num_value_sites[kind])
			size += ALIGN(2 * sizeof(u32) + rec->num_value_sites[kind], 8);
	return size;
}

/* The binary id section: one {u64 length, id padded to 8} entry. */
static size_t pgo_binary_ids_size(const struct pgo_object *obj)
{
	if (!obj->build_id_len)
		return 0;
	return sizeof(u64) + ALIGN(obj->build_id_len, 8);
}

/* Offsets of the parts of the file; all but the value blocks are fixed. */
struct pgo_layout {
	size_t ids;
	size_t data;
	size_t cnts;
	size_t bits;
	size_t names;
	size_t values;
};

/* Bytes of MC/DC bitmaps; none before version 9. */
static size_t pgo_bitmap_size(const struct pgo_object *obj)
{
	return PGO_HAS_BITMAP ? obj->bits_end - obj->bits : 0;
}

static void pgo_layout(const struct pgo_object *obj, struct pgo_layout *l)
{
	l->ids = sizeof(struct llvm_prf_header);
	l->data = l->ids + pgo_binary_ids_size(obj);
	l->cnts = l->data + pgo_nr_records(obj) * sizeof(struct llvm_prf_data);
	l->bits = l->cnts + ALIGN(obj->cnts_end - obj->cnts, 8);
	l->names = l->bits + ALIGN(pgo_bitmap_size(obj), 8);
	l->values = l->names + ALIGN(obj->names_end - obj->names, 8);
}

/**
 * pgo_fixed_size() - size of the part of an object's profile that is fixed
 * @obj: the object
 *
 * Return: the offset of the value blocks, which follow the fixed part.
 */
size_t pgo_fixed_size(const struct pgo_object *obj)
{
	struct pgo_layout l;

	pgo_layout(obj, &l);
	return l.values;
}

static void pgo_header(const struct pgo_object *obj,
		       const struct pgo_layout *l, struct llvm_prf_header *h)
{
	memset(h, 0, sizeof(*h));
	h->magic = PGO_RAW_MAGIC;
	h->version = obj->version;
	h->binary_ids_size = pgo_binary_ids_size(obj);
	h->num_data = pgo_nr_records(obj);
	h->num_counters = (obj->cnts_end - obj->cnts) / pgo_counter_size(obj);
	h->padding_bytes_after_counters = l->bits - l->cnts -
				       (obj->cnts_end - obj->cnts);
#if PGO_HAS_BITMAP
	h->num_bitmap_bytes = pgo_bitmap_size(obj);
	h->padding_bytes_after_bitmap_bytes = l->names - l->bits -
					  h->num_bitmap_bytes;
#endif
	h->names_size = obj->names_end - obj->names;
	/*
	 * "Addresses" are file offsets: the reader only uses differences.
	 * Relative counter_ptrs and bitmap_ptrs are written as they are, so
	 * counters_delta and bitmap_delta are the object's own, not the
	 * file's (see pgo_fix_record()).  The records a correlated file is
	 * read with, from the binary, hold offsets into the counters and
	 * bitmap sections: no delta (llvm-profdata refuses a correlated
	 * file whose counters_delta or names_delta is not 0).
	 */
	if (!obj->correlated)
		h->counters_delta = (uintptr_t)obj->cnts - (uintptr_t)obj->data;
#if PGO_HAS_BITMAP
	if (!obj->correlated)
		h->bitmap_delta = !obj->bits ? l->bits - l->data :
			(uintptr_t)obj->bits - (uintptr_t)obj->data;
#endif
	h->value_kind_last = PGO_VK_LAST;
}

/*
 * Bytes [@off, @off + @len) of a part of the file that holds @size bytes of
 * @src, then zeros.  Returns @len.
 */
static size_t pgo_read_part(void *buf, size_t off, size_t len,
			    const void *src, size_t size)
{
	size_t n = off < size ? min(len, size - off) : 0;

	memcpy(buf, src + off, n);
	memset(buf + n, 0, len - n);
	return len;
}

/*
 * A record as the file holds it.  Its relative counter_ptr stays: the
 * header's counters_delta takes the difference between the object's layout
 * and the file's.  function_pointer was rewritten once when the object was
 * added (pgo_object_hide_code()).  Where the value lists live is of no use
 * to the reader: most records have none.
 */
static __always_inline void pgo_fix_record(void *out)
{
	if (pgo_rec_get(out, values))
		pgo_rec_set(out, values, 0);
}

/* Bytes [@at, @at + @len) of record @i as the file holds it. */
static void pgo_read_record(const struct pgo_object *obj, size_t i,
			    void *buf, size_t at, size_t len)
{
	/* Bytes: the record's fields are const. */
	u8 tmp[sizeof(struct llvm_prf_data)] __aligned(8);

	memcpy(tmp, &obj->data[i], sizeof(tmp));
	pgo_fix_record(tmp);
	memcpy(buf, tmp + at, len);
}

/*
 * Bytes [@off, @off + @len) of the records, @off relative to them: whole
 * records are copied in one go, then fixed in place.
 */
static size_t pgo_read_records(const struct pgo_object *obj,
			       const struct pgo_layout *l, void *buf,
			       size_t off, size_t len)
{
	const size_t size = sizeof(struct llvm_prf_data);
	size_t i = off / size, at = off % size, done = 0, whole;

	if (at) {
		done = min(len, size - at);
		pgo_read_record(obj, i++, buf, at, done);
	}
	whole = (len - done) / size;
	memcpy(buf + done, &obj->data[i], whole * size);
	for (; whole; whole--, i++, done += size)
		pgo_fix_record(buf + done);
	if (done < len)
		pgo_read_record(obj, i, buf + done, 0, len - done);
	return len;
}

/*
 * Bytes [@off, @off + @len) of the counters and their padding.  Counters
 * run on other CPUs: read each 64-bit one as a whole, never tear it.
 * Every read copies all counters through here: not covered itself (with
 * PGO_CLANG_COVERAGE), which would add a store to every 64 bytes copied.
 * Being __no_profile, it is called, not inlined: once per read() call.
 */
static __no_profile size_t pgo_read_counters(const struct pgo_object *obj,
					     void *buf, size_t off, size_t len)
{
	size_t size = obj->cnts_end - obj->cnts, n, done = 0, at;
	const u64 *word;
	u64 v;

	if (pgo_counter_size(obj) != sizeof(u64))
		return pgo_read_part(buf, off, len, obj->cnts, size);

	n = off < size ? min(len, size - off) : 0;
	word = (const u64 *)obj->cnts + off / sizeof(u64);
	at = off % sizeof(u64);
	if (at && n) {
		v = READ_ONCE(*word++);
		done = min(n, sizeof(v) - at);
		memcpy(buf, (void *)&v + at, done);
	}
	/* Whole words, the common case: 64 bytes at a time, then one. */
	for (; n - done >= 8 * sizeof(v); done += 8 * sizeof(v), word += 8) {
		u64 w[8] = { READ_ONCE(word[0]), READ_ONCE(word[1]),
			     READ_ONCE(word[2]), READ_ONCE(word[3]),
			     READ_ONCE(word[4]), READ_ONCE(word[5]),
			     READ_ONCE(word[6]), READ_ONCE(word[7]) };

		memcpy(buf + done, w, sizeof(w));
	}
	for (; n - done >= sizeof(v); done += sizeof(v)) {
		v = READ_ONCE(*word++);
		memcpy(buf + done, &v, sizeof(v));
	}
	if (done < n) {
		v = READ_ONCE(*word);
		memcpy(buf + done, &v, n - done);
		done = n;
	}
	memset(buf + done, 0, len - done);
	return len;
}

/**
 * pgo_fixed_read() - read a range of the fixed part of an object's profile
 * @obj: the object
 * @buf: destination, @len bytes
 * @off: offset in the file
 * @len: bytes to read; @off + @len is at most pgo_fixed_size()
 *
 * Produces the bytes of the header, binary id, records, counters and names
 * that the whole file would hold at these offsets, with no copy of the
 * rest: any range can be read at any time.  Neither sleeps nor allocates.
 */
void pgo_fixed_read(const struct pgo_object *obj, void *buf, size_t off,
		    size_t len)
{
	struct llvm_prf_header header;
	struct pgo_layout l;
	u64 ids[1 + BUILD_ID_SIZE_MAX / sizeof(u64) + 1];

	pgo_layout(obj, &l);
	if (WARN_ON_ONCE(off > l.values || len > l.values - off)) {
		memset(buf, 0, len);
		return;
	}

	while (len) {
		size_t n;

		if (off < l.ids) {
			pgo_header(obj, &l, &header);
			n = pgo_read_part(buf, off, min(len, l.ids - off),
					  &header, sizeof(header));
		} else if (off < l.data) {
			memset(ids, 0, sizeof(ids));
			ids[0] = obj->build_id_len;
			memcpy(&ids[1], obj->build_id, obj->build_id_len);
			n = pgo_read_part(buf, off - l.ids,
					  min(len, l.data - off), ids,
					  sizeof(ids));
		} else if (off < l.cnts) {
			n = pgo_read_records(obj, &l, buf, off - l.data,
					     min(len, l.cnts - off));
		} else if (off < l.bits) {
			n = pgo_read_counters(obj, buf, off - l.cnts,
					      min(len, l.bits - off));
		} else if (off < l.names) {
			/* Bytes: none can be torn (updates can be lost). */
			n = pgo_read_part(buf, off - l.bits,
					  min(len, l.names - off), obj->bits,
					  pgo_bitmap_size(obj));
		} else {
			n = pgo_read_part(buf, off - l.names,
					  min(len, l.values - off), obj->names,
					  obj->names_end - obj->names);
		}
		buf += n;
		off += n;
		len -= n;
	}
}

/**
 * pgo_values_base() - size of an object's value blocks without their values
 * @obj: the object
 *
 * Fixed for the object's life: callers that size many buffers keep it.
 *
 * Return: the size of the value blocks if no site had a value.
 */
size_t pgo_values_base(const struct pgo_object *obj)
{
	const struct llvm_prf_data *rec;
	size_t size = 0;

	for (rec = obj->data; rec < obj->data_end; rec++)
		if (pgo_rec_has_values(rec))
			size += pgo_value_block_base(rec);
	return size;
}

/**
 * pgo_values_bound() - upper bound of the size of an object's value blocks
 * @obj: the object
 * @base: pgo_values_base() of @obj
 * @limit: set to the number of value nodes in use now; pass it on to
 *	pgo_values_write() so that it writes no node handed out later
 *
 * Return: a buffer size that pgo_values_write() needs at most.
 */
size_t pgo_values_bound(const struct pgo_object *obj, size_t base,
			unsigned int *limit)
{
	*limit = pgo_nodes_in_use(obj);
	return base + (size_t)*limit * sizeof(struct pgo_value_data);
}

/*
 * Write one kind's value sites of a record: the site count array, then the
 * values of every site in order.  Writes at most *@budget values, and
 * takes those it wrote off it, and none past @end.  Returns the bytes
 * written.
 */
static size_t pgo_write_kind(const struct pgo_object *obj,
			     struct llvm_prf_value_node * const *sites,
			     unsigned int kind, unsigned int nr_sites,
			     unsigned int limit, unsigned int *budget,
			     void *buf, const void *end)
{
	u32 *head = buf;
	u8 *site_count = buf + 2 * sizeof(u32);
	/* No pool (a crafted module): no node to write, and no NULL + 0. */
	const struct llvm_prf_value_node *below = obj->vnds ?
						  obj->vnds + limit : NULL;
	struct pgo_value_data *vd;
	unsigned int s, steps;

	head[0] = kind;
	head[1] = nr_sites;
	vd = buf + ALIGN(2 * sizeof(u32) + nr_sites, 8);
	memset(site_count, 0, (void *)vd - (void *)site_count);

	for (s = 0; s < nr_sites && sites; s++) {
		const struct llvm_prf_value_node *node;

		pgo_for_each_node(obj, node, sites[s], steps) {
			/* Handed out after the buffer was sized: skip. */
			if (node >= below)
				continue;
			if (!*budget || site_count[s] == U8_MAX ||
			    (void *)(vd + 1) > end)
				break;
			vd->value = READ_ONCE(node->value);
			if (pgo_value_is_addr(kind))
				vd->value = pgo_object_target(obj, vd->value);
			vd->count = READ_ONCE(node->count);
			vd++;
			site_count[s]++;
			(*budget)--;
		}
	}
	return (void *)vd - buf;
}

/**
 * pgo_values_write() - write an object's value blocks
 * @obj: the object
 * @buf: destination
 * @size: size of @buf, as returned by pgo_values_bound()
 * @limit: node limit set by that same pgo_values_bound() call
 *
 * Writes at most @limit values, of nodes below @limit, so the result fits
 * in @size whatever the lists hold; and checks each block and value
 * against @size before writing it.  May sleep; allocates nothing.
 *
 * Return: the number of bytes written, at most @size.
 */
size_t pgo_values_write(const struct pgo_object *obj, void *buf, size_t size,
			unsigned int limit)
{
	const struct llvm_prf_data *rec;
	unsigned int budget = limit, n = 0;
	void *pos = buf, *end = buf + size;

	for (rec = obj->data; rec < obj->data_end; rec++) {
		struct llvm_prf_value_node * const *sites;
		u32 *block = pos;
		unsigned int kind;

		if (!(++n % 1024))
			cond_resched();
		if (!pgo_rec_has_values(rec))
			continue;
		if (WARN_ON_ONCE(2 * sizeof(u32) > (size_t)(end - pos)))
			break;

		sites = (void *)(uintptr_t)rec->values;
		block[1] = 0;
		pos += 2 * sizeof(u32);
		for (kind = 0; kind < PGO_NR_VALUE_KINDS; kind++) {
			unsigned int n = rec->num_value_sites[kind];

			if (!n)
				continue;
			/* Sized by pgo_values_bound(), it fits: if not, stop. */
			if (WARN_ON_ONCE(ALIGN(2 * sizeof(u32) + n, 8) >
					 (size_t)(end - pos))) {
				block[0] = pos - (void *)block;
				return pos - buf;
			}
			pos += pgo_write_kind(obj, sites, kind, n, limit,
					      &budget, pos, end);
			if (sites)
				sites += n;
			block[1]++;
		}
		block[0] = pos - (void *)block;
	}
	return pos - buf;
}

/* Whether [@p, @p + @n) lies in [@start, @end). */
static bool pgo_in_section(const char *p, size_t n, const char *start,
			   const char *end)
{
	return p >= start && p <= end && n <= end - p;
}

/*
 * Whether a record's value list heads lie in the values section, on whole
 * pointers, and none of them is another record's (@seen: the heads taken).
 */
static bool pgo_vals_own(const struct pgo_object *obj,
			 const struct llvm_prf_data *rec, unsigned long *seen)
{
	unsigned long off = (unsigned long)rec->values - (unsigned long)obj->vals;
	unsigned long nr = obj->vals_end - obj->vals, i;
	unsigned int n = pgo_nr_sites(rec);

	if (off % sizeof(*obj->vals) || off / sizeof(*obj->vals) > nr ||
	    n > nr - off / sizeof(*obj->vals))
		return false;
	for (i = off / sizeof(*obj->vals); n; n--, i++)
		if (__test_and_set_bit(i, seen))
			return false;
	return true;
}

/* The reason @obj's sections are unusable, or NULL. */
static const char *pgo_object_unusable(const struct pgo_object *obj,
				       bool unused, unsigned long *seen)
{
	size_t data_size = (void *)obj->data_end - (void *)obj->data;
	size_t cnt_size = pgo_counter_size(obj);
	const struct llvm_prf_data *rec;
	struct llvm_prf_value_node **head;

	if (data_size % sizeof(*rec) ||
	    !IS_ALIGNED((unsigned long)obj->data, sizeof(u64)))
		return "data section is not a whole number of aligned records";
	if ((obj->cnts_end - obj->cnts) % cnt_size ||
	    !IS_ALIGNED((unsigned long)obj->cnts, cnt_size))
		return "counters section is not a whole number of aligned counters";
	if (obj->names_end < obj->names)
		return "names section is malformed";
	if (obj->bits_end < obj->bits)
		return "bitmap section is malformed";
	if (data_size && obj->names_end == obj->names)
		return "records but no names section";
	if (obj->correlated && (data_size || obj->names_end != obj->names))
		return "records or names in memory, but its profile is correlated";
	/* Value profiling would pass records that are not loaded. */
	if (obj->correlated && (obj->vals_end != obj->vals ||
				obj->vnds_end != obj->vnds))
		return "value sites, but its records are not in memory";
	/* The runtime updates list heads and nodes with atomics. */
	if (obj->vals_end < obj->vals || obj->vnds_end < obj->vnds ||
	    ((void *)obj->vals_end - (void *)obj->vals) % sizeof(*obj->vals) ||
	    !IS_ALIGNED((unsigned long)obj->vals, sizeof(*obj->vals)) ||
	    !IS_ALIGNED((unsigned long)obj->vnds, sizeof(u64)))
		return "value sections are malformed";
	for (head = obj->vals; unused && head < obj->vals_end; head++)
		if (*head)
			return "a value site's list is not empty before any code ran";

	for (rec = obj->data; rec < obj->data_end; rec++) {
		const char *cnts = pgo_rec_counters(rec);

		if (!rec->num_counters)
			return "a record has no counters";
		if (cnts < obj->cnts || cnts > obj->cnts_end ||
		    rec->num_counters > (obj->cnts_end - cnts) / cnt_size ||
		    (cnts - obj->cnts) % cnt_size)
			return "a record's counters lie outside the counters section";
		if (pgo_nr_sites(rec) && !pgo_vals_own(obj, rec, seen))
			return "a record's value sites are outside their section or shared";
		if (pgo_rec_bitmap_bytes(rec) &&
		    !pgo_in_section(pgo_rec_bitmap(rec),
				    pgo_rec_bitmap_bytes(rec), obj->bits,
				    obj->bits_end))
			return "a record's MC/DC bitmap lies outside the bitmap section";
#if PGO_HAS_UNIFORM
		/* GPU offload's; the file says a CPU's object has none. */
		if (pgo_rec_get(rec, uniform_counter_ptr))
			return "a record has GPU uniform counters";
#endif
	}
	return NULL;
}

/**
 * pgo_object_check() - validate an object's sections before using them
 * @obj: the object, sections filled in
 * @unused: none of the object's code has run yet (a module coming): its
 *	value list heads must still be the zeros the compiler emitted
 *
 * Records must tile their section, each record's counters must lie inside
 * the counters section and its value sites inside the values section, no
 * two records may share a site, or the runtime and the writer would touch
 * memory that is not the object's, or the same list twice.
 *
 * Return: 0, -ENOMEM, or -EINVAL with the reason logged.
 */
int pgo_object_check(const struct pgo_object *obj, bool unused)
{
	unsigned long *seen = NULL;
	const char *why;

	if (obj->vals_end > obj->vals) {
		seen = bitmap_zalloc(obj->vals_end - obj->vals, GFP_KERNEL);
		if (!seen)
			return -ENOMEM;
	}
	why = pgo_object_unusable(obj, unused, seen);
	bitmap_free(seen);
	if (!why)
		return 0;

	pr_warn("%s: not profiled: %s\n", obj->name, why);
	return -EINVAL;
}

/**
 * pgo_object_hide_code() - write an object's function addresses as its
 *	profiles show them
 * @obj: an object that passed pgo_object_check(), its code ranges set,
 *	before any of its profiles is read
 *
 * Records go to the file as they are in memory, but a record's
 * function_pointer would reveal where its code is loaded: rewrite each,
 * once, relative to the object's code (pgo_object_addr()).  Nothing in the
 * kernel reads it: the runtime uses a record's counters and value sites.
 */
void pgo_object_hide_code(struct pgo_object *obj)
{
	struct llvm_prf_data *rec;

	if (!obj->nr_text)
		return;
	for (rec = obj->data; rec < obj->data_end; rec++)
		pgo_rec_set(rec, function_pointer,
			    pgo_object_addr(obj, rec->function_pointer));
}
