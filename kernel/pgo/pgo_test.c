// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the raw-format writer, the value-profiling runtime and
 * reset, on a synthetic object: two records, three counters, one indirect
 * call site and one memop site, and a value node pool of two nodes (or,
 * correlated, the counters alone).
 */

#include <kunit/test.h>
#include <linux/string.h>

#include "pgo.h"

struct pgo_test_ctx {
	struct llvm_prf_data data[2];
	u64 cnts[3];
	char bits[2];
	char names[5];
	struct llvm_prf_value_node *vals[2];
	struct llvm_prf_value_node vnds[2];
	struct pgo_object obj;
};

static struct pgo_test_ctx *pgo_test_new(struct kunit *test)
{
	const struct llvm_prf_data rec0 = {
		.name_ref = 0x1111, .func_hash = 0x2222, .num_counters = 2,
		.num_value_sites = { [PGO_VK_INDIRECT_CALL_TARGET] = 1,
				   [PGO_VK_MEMOP_SIZE] = 1 },
	};
	const struct llvm_prf_data rec1 = {
		.name_ref = 0x3333, .func_hash = 0x4444, .num_counters = 1,
	};
	struct pgo_test_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	struct pgo_object *obj;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	memcpy(&ctx->data[0], &rec0, sizeof(rec0));
	memcpy(&ctx->data[1], &rec1, sizeof(rec1));
	pgo_rec_relocate(&ctx->data[0], (char *)&ctx->cnts[0], NULL, ctx->vals);
	pgo_rec_relocate(&ctx->data[1], (char *)&ctx->cnts[2], NULL, NULL);
	memcpy(ctx->names, "abcde", sizeof(ctx->names));
	ctx->cnts[0] = 7;
	ctx->cnts[1] = 8;
	ctx->cnts[2] = 9;

	obj = &ctx->obj;
	obj->name = "pgo_test";
	obj->version = PGO_RAW_VERSION | PGO_VARIANT_IR;
	obj->data = ctx->data;
	obj->data_end = ctx->data + ARRAY_SIZE(ctx->data);
	obj->cnts = (char *)ctx->cnts;
	obj->cnts_end = (char *)(ctx->cnts + ARRAY_SIZE(ctx->cnts));
	obj->names = ctx->names;
	obj->names_end = ctx->names + sizeof(ctx->names);
	obj->vals = ctx->vals;
	obj->vals_end = ctx->vals + ARRAY_SIZE(ctx->vals);
	obj->vnds = ctx->vnds;
	obj->vnds_end = ctx->vnds + ARRAY_SIZE(ctx->vnds);
	KUNIT_ASSERT_EQ(test, pgo_object_check(obj, true), 0);
	return ctx;
}

/*
 * Call the runtime the way instrumented code does, through a pointer the
 * compiler cannot see through: called directly with constant arguments,
 * clang drops the calls.
 */
static void pgo_test_target(u64 value, struct llvm_prf_data *rec, u32 site)
{
	void (*fn)(u64 value, void *data, u32 index) =
		__llvm_profile_instrument_target;

	OPTIMIZER_HIDE_VAR(fn);
	fn(value, rec, site);
}

static void pgo_test_memop(u64 size, struct llvm_prf_data *rec, u32 site)
{
	void (*fn)(u64 value, void *data, u32 index) =
		__llvm_profile_instrument_memop;

	OPTIMIZER_HIDE_VAR(fn);
	fn(size, rec, site);
}

/* The whole file, as a read from offset 0 to the end gets it. */
static void *pgo_test_write(struct kunit *test, struct pgo_object *obj,
			    size_t *size)
{
	size_t fixed = pgo_fixed_size(obj), bound, values;
	unsigned int limit;
	void *buf;

	bound = pgo_values_bound(obj, pgo_values_base(obj), &limit);
	buf = kunit_kzalloc(test, fixed + bound, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	pgo_fixed_read(obj, buf, 0, fixed);
	values = pgo_values_write(obj, buf + fixed, bound, limit);
	KUNIT_EXPECT_LE(test, values, bound);
	*size = fixed + values;
	return buf;
}

/*
 * Offset in the counters section of a record's first counter, computed as
 * LLVM's raw reader does: a relative counter_ptr against a counters_delta
 * that moves back by one record per record.
 */
static u64 pgo_test_counters_at(const struct llvm_prf_header *h,
				const struct llvm_prf_data *out, size_t i)
{
	return out[i].counter_ptr - (h->counters_delta - i * sizeof(*out));
}

/* Header, records pointing at their counters in the file, padding. */
static void pgo_test_layout(struct kunit *test)
{
	struct pgo_test_ctx *ctx = pgo_test_new(test);
	const size_t hdr = sizeof(struct llvm_prf_header);
	const size_t rec = sizeof(struct llvm_prf_data);
	struct llvm_prf_header *h;
	struct llvm_prf_data *out;
	size_t size, cnts, names;
	void *buf;

	buf = pgo_test_write(test, &ctx->obj, &size);
	h = buf;
	KUNIT_EXPECT_EQ(test, h->magic, PGO_RAW_MAGIC);
	KUNIT_EXPECT_EQ(test, h->version, ctx->obj.version);
	KUNIT_EXPECT_EQ(test, h->binary_ids_size, 0);

	cnts = hdr + 2 * rec;
	names = cnts + 3 * sizeof(u64);
	out = buf + hdr;
	/* Record 1's counters are the file's third, as LLVM's reader finds them. */
	KUNIT_EXPECT_EQ(test, pgo_test_counters_at(h, out, 0), 0);
	KUNIT_EXPECT_EQ(test, pgo_test_counters_at(h, out, 1), 2 * sizeof(u64));
	KUNIT_EXPECT_EQ(test, ((u64 *)(buf + cnts))[2], 9);
	KUNIT_EXPECT_EQ(test, out[0].values, 0);
	KUNIT_EXPECT_MEMEQ(test, buf + names, "abcde", 5);
	/* Names padded to 8, then one empty value block for record 0. */
	KUNIT_EXPECT_EQ(test, size, names + 8 + 8 + 2 * 16);
	KUNIT_EXPECT_EQ(test, *(u32 *)(buf + names + 8), 8 + 2 * 16);
	KUNIT_EXPECT_EQ(test, *(u32 *)(buf + names + 12), 2);
}

/* Values land in the object's own pool; exhaustion drops and counts. */
static void pgo_test_values(struct kunit *test)
{
	struct pgo_test_ctx *ctx = pgo_test_new(test);
	struct llvm_prf_value_node *n;

	pgo_object_add(&ctx->obj);
	pgo_test_target(0xabc, &ctx->data[0], 0);
	pgo_test_target(0xabc, &ctx->data[0], 0);
	pgo_test_memop(100, &ctx->data[0], 1);
	pgo_test_target(0xdef, &ctx->data[0], 0);
	pgo_object_del(&ctx->obj);

	n = ctx->vals[0];
	KUNIT_ASSERT_PTR_EQ(test, n, &ctx->vnds[0]);
	KUNIT_EXPECT_EQ(test, n->value, 0xabc);
	KUNIT_EXPECT_EQ(test, n->count, 2);
	KUNIT_EXPECT_NULL(test, n->next);
	/* 100 bytes fall in the bucket LLVM names 65. */
	KUNIT_ASSERT_PTR_EQ(test, ctx->vals[1], &ctx->vnds[1]);
	KUNIT_EXPECT_EQ(test, ctx->vals[1]->value, 65);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&ctx->obj.values_dropped), 1);
	KUNIT_EXPECT_EQ(test, pgo_nodes_in_use(&ctx->obj), 2);
}

/* A node handed out after the size was fixed is left out, consistently. */
static void pgo_test_limit(struct kunit *test)
{
	struct pgo_test_ctx *ctx = pgo_test_new(test);
	unsigned int limit;
	size_t bound, size;
	void *buf;

	pgo_object_add(&ctx->obj);
	pgo_test_target(0xabc, &ctx->data[0], 0);
	bound = pgo_values_bound(&ctx->obj, pgo_values_base(&ctx->obj), &limit);
	pgo_test_memop(3, &ctx->data[0], 1);
	pgo_object_del(&ctx->obj);

	buf = kunit_kzalloc(test, bound, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	size = pgo_values_write(&ctx->obj, buf, bound, limit);
	KUNIT_EXPECT_EQ(test, limit, 1);
	KUNIT_EXPECT_EQ(test, size, bound);
}

/* Reset zeroes counters and value counts but keeps the nodes linked. */
static void pgo_test_reset(struct kunit *test)
{
	struct pgo_test_ctx *ctx = pgo_test_new(test);

	pgo_object_add(&ctx->obj);
	pgo_test_target(0xabc, &ctx->data[0], 0);
	pgo_object_del(&ctx->obj);
	pgo_object_reset(&ctx->obj);

	KUNIT_EXPECT_EQ(test, ctx->cnts[0] + ctx->cnts[1] + ctx->cnts[2], 0);
	KUNIT_ASSERT_NOT_NULL(test, ctx->vals[0]);
	KUNIT_EXPECT_EQ(test, ctx->vals[0]->value, 0xabc);
	KUNIT_EXPECT_EQ(test, ctx->vals[0]->count, 0);
}

/*
 * MC/DC bitmaps (raw version 9 on): record 1's two bytes are in the file
 * where LLVM's reader looks through bitmap_ptr and bitmap_delta; reset
 * zeroes them.
 */
static void pgo_test_bitmap(struct kunit *test)
{
#if PGO_HAS_BITMAP
	struct pgo_test_ctx *ctx = pgo_test_new(test);
	struct pgo_object *obj = &ctx->obj;
	const size_t hdr = sizeof(struct llvm_prf_header);
	const u32 n = sizeof(ctx->bits);
	struct llvm_prf_header *h;
	struct llvm_prf_data *out;
	size_t size, bits;
	void *buf;
	u64 at;

	memcpy((void *)&ctx->data[1] +
	       offsetof(struct llvm_prf_data, num_bitmap_bytes), &n, sizeof(n));
	pgo_rec_relocate(&ctx->data[1], (char *)&ctx->cnts[2], ctx->bits, NULL);
	obj->bits = ctx->bits;
	obj->bits_end = ctx->bits + n;
	KUNIT_ASSERT_EQ(test, pgo_object_check(obj, true), 0);

	/* A record's bitmap past its section's end, or before it. */
	obj->bits_end = ctx->bits + n - 1;
	KUNIT_EXPECT_EQ(test, pgo_object_check(obj, false), -EINVAL);
	obj->bits_end = ctx->bits + n;
	obj->bits = ctx->bits + 1;
	KUNIT_EXPECT_EQ(test, pgo_object_check(obj, false), -EINVAL);
	obj->bits = ctx->bits;
	KUNIT_ASSERT_EQ(test, pgo_object_check(obj, true), 0);

	ctx->bits[0] = 0x81;
	ctx->bits[1] = 0x42;

	buf = pgo_test_write(test, obj, &size);
	h = buf;
	out = buf + hdr;
	KUNIT_EXPECT_EQ(test, h->num_bitmap_bytes, n);
	KUNIT_EXPECT_EQ(test, h->padding_bytes_after_bitmap_bytes, 8 - n);
	at = out[1].bitmap_ptr - (h->bitmap_delta - sizeof(*out));
	KUNIT_EXPECT_EQ(test, at, 0);
	bits = hdr + 2 * sizeof(*out) + sizeof(ctx->cnts);
	KUNIT_EXPECT_MEMEQ(test, buf + bits, "\x81\x42", 2);
	KUNIT_EXPECT_MEMEQ(test, buf + bits + 8, "abcde", 5);

	pgo_object_reset(obj);
	KUNIT_EXPECT_EQ(test, ctx->bits[0] | ctx->bits[1], 0);
#else
	kunit_skip(test, "no MC/DC bitmaps before raw version 9");
#endif
}

/*
 * Single-byte coverage counters: a byte is 0 once covered, 0xff until
 * then, and reset marks every byte not covered.
 */
static void pgo_test_byte_reset(struct kunit *test)
{
	struct pgo_test_ctx *ctx = pgo_test_new(test);

	ctx->obj.version |= PGO_VARIANT_BYTE_COVERAGE;
	KUNIT_EXPECT_EQ(test, pgo_counter_size(&ctx->obj), 1);
	KUNIT_ASSERT_EQ(test, pgo_object_check(&ctx->obj, true), 0);
	memset(ctx->cnts, 0, sizeof(ctx->cnts));
	pgo_object_reset(&ctx->obj);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(ctx->cnts, 0xff, sizeof(ctx->cnts)),
			    NULL);
}

/* Malformed sections are refused before anything uses them. */
static void pgo_test_check(struct kunit *test)
{
	const struct llvm_prf_data no_counters = {
		.name_ref = 0x3333, .func_hash = 0x4444, .num_counters = 0,
	};
	struct pgo_test_ctx *ctx = pgo_test_new(test);
	struct pgo_object obj = ctx->obj;

	obj.data_end = (void *)obj.data_end - 1;
	KUNIT_EXPECT_EQ(test, pgo_object_check(&obj, false), -EINVAL);

	obj = ctx->obj;
	obj.cnts_end -= sizeof(u64);
	KUNIT_EXPECT_EQ(test, pgo_object_check(&obj, false), -EINVAL);

	obj = ctx->obj;
	obj.vals_end = obj.vals;
	KUNIT_EXPECT_EQ(test, pgo_object_check(&obj, false), -EINVAL);

	obj = ctx->obj;
	obj.names_end = obj.names;
	KUNIT_EXPECT_EQ(test, pgo_object_check(&obj, false), -EINVAL);

	/* Counters past the section's end, and a record with none. */
	obj = ctx->obj;
	pgo_rec_relocate(&ctx->data[1], (char *)ctx->vals, NULL, NULL);
	KUNIT_EXPECT_EQ(test, pgo_object_check(&obj, false), -EINVAL);
	memcpy(&ctx->data[1], &no_counters, sizeof(no_counters));
	pgo_rec_relocate(&ctx->data[1], (char *)&ctx->cnts[2], NULL, NULL);
	KUNIT_EXPECT_EQ(test, pgo_object_check(&obj, false), -EINVAL);
}

static void pgo_test_empty(struct kunit *test)
{
	struct pgo_test_ctx *ctx = pgo_test_new(test);
	struct pgo_object obj = ctx->obj;
	size_t size;

	obj.data_end = obj.data;
	obj.cnts_end = obj.cnts;
	obj.names_end = obj.names;
	pgo_test_write(test, &obj, &size);
	KUNIT_EXPECT_EQ(test, size, sizeof(struct llvm_prf_header));
}

/*
 * A correlated object (CONFIG_PGO_CLANG_CORRELATE) has counters only: its
 * file is the header, with no delta (llvm-profdata refuses a correlated
 * file with one), and the counters; an object with records, names or
 * value sections in memory cannot be correlated.
 */
static void pgo_test_correlated(struct kunit *test)
{
#if PGO_RAW_VERSION >= 9
	struct pgo_test_ctx *ctx = pgo_test_new(test);
	struct pgo_object obj = ctx->obj;
	const size_t hdr = sizeof(struct llvm_prf_header);
	struct llvm_prf_header *h;
	size_t size;
	void *buf;

	obj.correlated = true;
	KUNIT_EXPECT_EQ(test, pgo_object_check(&obj, false), -EINVAL);
	obj.data_end = obj.data;
	KUNIT_EXPECT_EQ(test, pgo_object_check(&obj, false), -EINVAL);
	obj.names_end = obj.names;
	obj.vals_end = obj.vals;
	KUNIT_EXPECT_EQ(test, pgo_object_check(&obj, false), -EINVAL);
	obj.vnds_end = obj.vnds;
	KUNIT_ASSERT_EQ(test, pgo_object_check(&obj, false), 0);

	buf = pgo_test_write(test, &obj, &size);
	h = buf;
	KUNIT_EXPECT_EQ(test, h->num_data, 0);
	KUNIT_EXPECT_EQ(test, h->names_size, 0);
	KUNIT_EXPECT_EQ(test, h->counters_delta, 0);
	KUNIT_EXPECT_EQ(test, h->bitmap_delta, 0);
	KUNIT_EXPECT_EQ(test, h->names_delta, 0);
	KUNIT_EXPECT_EQ(test, h->num_counters, 3);
	KUNIT_EXPECT_EQ(test, size, hdr + 3 * sizeof(u64));
	KUNIT_EXPECT_EQ(test, ((u64 *)(buf + hdr))[2], 9);
#else
	kunit_skip(test, "no correlated profiles before raw version 9 (LLVM 18)");
#endif
}

/*
 * Code addresses are written relative to the object's code: records'
 * function pointers and indirect-call targets agree, memop sizes stay,
 * a target outside the object is written as 0.
 */
static void pgo_test_addresses(struct kunit *test)
{
	struct pgo_test_ctx *ctx = pgo_test_new(test);
	struct pgo_object *obj = &ctx->obj;
	const unsigned long text = 0x100000, init = 0x900000;
	const u64 fn = text + 0x40;
	struct llvm_prf_data *out;
	size_t size, vals;
	u64 *vd;
	void *buf;

	memcpy((void *)&ctx->data[0] +
	       offsetof(struct llvm_prf_data, function_pointer), &fn, sizeof(fn));
	obj->text[0] = (struct pgo_text){ text, 0x1000, PGO_TEXT_BASE, false };
	obj->text[1] = (struct pgo_text){ init, 0x200, PGO_TEXT_BASE + 0x1000,
					  true };
	obj->nr_text = 2;
	KUNIT_EXPECT_EQ(test, pgo_object_addr(obj, init + 8),
			PGO_TEXT_BASE + 0x1008);
	/* Freed init text may hold another object's code by then. */
	KUNIT_EXPECT_EQ(test, pgo_object_target(obj, init + 8), 0);
	KUNIT_EXPECT_EQ(test, pgo_object_target(obj, fn), PGO_TEXT_BASE + 0x40);
	KUNIT_EXPECT_EQ(test, pgo_object_addr(obj, init + 0x200), 0);
	KUNIT_EXPECT_EQ(test, pgo_object_addr(obj, text - 1), 0);

	pgo_object_hide_code(obj);
	pgo_object_add(obj);
	pgo_test_target(fn, &ctx->data[0], 0);
	pgo_test_target(0xdead0000, &ctx->data[0], 0);
	pgo_object_del(obj);
	buf = pgo_test_write(test, obj, &size);
	out = buf + sizeof(struct llvm_prf_header);
	KUNIT_EXPECT_EQ(test, out[0].function_pointer, PGO_TEXT_BASE + 0x40);
	KUNIT_EXPECT_EQ(test, out[1].function_pointer, 0);
	/* Value data of site 0, after the value block's two headers. */
	vals = sizeof(struct llvm_prf_header) + 2 * sizeof(*out) +
	       3 * sizeof(u64) + 8;
	vd = buf + vals + 8 + ALIGN(8 + 1, 8);
	KUNIT_EXPECT_EQ(test, vd[0], PGO_TEXT_BASE + 0x40);
	KUNIT_EXPECT_EQ(test, vd[2], 0);
	KUNIT_EXPECT_LE(test, vals + 8 + ALIGN(8 + 1, 8) + 4 * sizeof(u64), size);

	obj->nr_text = 0;
	KUNIT_EXPECT_EQ(test, pgo_object_addr(obj, fn), fn);
}

static struct kunit_case pgo_test_cases[] = {
	KUNIT_CASE(pgo_test_layout),
	KUNIT_CASE(pgo_test_values),
	KUNIT_CASE(pgo_test_limit),
	KUNIT_CASE(pgo_test_reset),
	KUNIT_CASE(pgo_test_bitmap),
	KUNIT_CASE(pgo_test_byte_reset),
	KUNIT_CASE(pgo_test_check),
	KUNIT_CASE(pgo_test_empty),
	KUNIT_CASE(pgo_test_correlated),
	KUNIT_CASE(pgo_test_addresses),
	{}
};

static struct kunit_suite pgo_test_suite = {
	.name = "pgo",
	.test_cases = pgo_test_cases,
};

kunit_test_suite(pgo_test_suite);

MODULE_DESCRIPTION("KUnit tests of clang PGO's raw format writer and runtime");
MODULE_LICENSE("GPL");
