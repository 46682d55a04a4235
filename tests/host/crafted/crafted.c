// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pgo's check and writer against crafted sections, under ASan and
 * UBSan (tests/host/crafted/run.sh builds format.c and runtime.c unchanged
 * through tests/host/shim, with -fsanitize=address,undefined).
 *
 * Every section is a malloc() of its own exact size, so a byte read or
 * written past any of them, or a pointer followed outside them, is a
 * sanitizer report and the run fails.  Each case says what it shows:
 *   - the check refuses overlapping site ranges, misaligned or outside
 *     value heads, and non-empty lists in a module nothing ran in yet;
 *   - the writer, given sections the check would refuse (it must not rely
 *     on the check), stays inside the buffer pgo_values_bound() sized:
 *     overlapping sites, cyclic lists below and past the limit, pointers
 *     outside the pool or into the middle of a node; and given a buffer
 *     smaller than that (a caller's bug), it writes nothing past it;
 *   - the fixed part read in pieces equals one read;
 *   - the writer, given value sites and no pool, writes them empty;
 *   - the runtime takes nodes only from the object's own pool and counts
 *     what it drops.
 *
 *   crafted              run every case, exit 0 iff all passed
 *   crafted --asan-self  read one byte past a malloc(): ASan must abort
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/align.h>

#include "pgo.h"
/* LLVM's constants, from the compiler's file: the oracle's names. */
#include LLVM_INSTRPROF_INC

int shim_warnings;

/* The runtime's object lookup: here, whatever object the case set up. */
struct pgo_object pgo_vmlinux = { .name = "none" };
static struct pgo_object *crafted_obj;

struct pgo_object *pgo_object_of(const struct llvm_prf_data *rec)
{
	if (crafted_obj && pgo_object_contains(crafted_obj, rec))
		return crafted_obj;
	return NULL;
}

static int failures, passes;

#define EXPECT(cond, ...)						\
	do {								\
		if (cond) {						\
			passes++;					\
		} else {						\
			failures++;					\
			fprintf(stderr, "FAIL: %s:%d: %s: ", __func__,	\
				__LINE__, #cond);			\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
		}							\
	} while (0)

/* NR records, each with one indirect-call and one memop site, POOL nodes. */
#define NR	3
#define SITES	2
#define POOL	4

struct crafted {
	struct pgo_object obj;
	struct llvm_prf_data *data;
	u64 *cnts;
	char *names;
	struct llvm_prf_value_node **vals;
	struct llvm_prf_value_node *vnds;
};

static void *xcalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p) {
		perror("calloc");
		exit(2);
	}
	return p;
}

static struct crafted *crafted_new(void)
{
	struct crafted *c = xcalloc(sizeof(*c));
	struct pgo_object *obj = &c->obj;
	unsigned int i;

	c->data = xcalloc(NR * sizeof(*c->data));
	c->cnts = xcalloc(NR * 2 * sizeof(u64));
	c->names = xcalloc(5);
	c->vals = xcalloc(NR * SITES * sizeof(*c->vals));
	c->vnds = xcalloc(POOL * sizeof(*c->vnds));
	memcpy(c->names, "names", 5);
	for (i = 0; i < NR; i++) {
		struct llvm_prf_data rec = {
			.name_ref = 0x1000 + i, .func_hash = 0x2000 + i,
			.num_counters = 2,
			.num_value_sites = { [PGO_VK_INDIRECT_CALL_TARGET] = 1,
					   [PGO_VK_MEMOP_SIZE] = 1 },
		};

		memcpy(&c->data[i], &rec, sizeof(rec));
		pgo_rec_relocate(&c->data[i], (char *)&c->cnts[2 * i], NULL,
				 &c->vals[SITES * i]);
		c->cnts[2 * i] = 10 + i;
	}
	obj->name = "crafted";
	obj->version = INSTR_PROF_RAW_VERSION | VARIANT_MASK_IR_PROF;
	obj->data = c->data;
	obj->data_end = c->data + NR;
	obj->cnts = (char *)c->cnts;
	obj->cnts_end = (char *)(c->cnts + NR * 2);
	obj->names = c->names;
	obj->names_end = c->names + 5;
	obj->vals = c->vals;
	obj->vals_end = c->vals + NR * SITES;
	obj->vnds = c->vnds;
	obj->vnds_end = c->vnds + POOL;
	obj->build_id_len = BUILD_ID_SIZE_MAX;
	memset(obj->build_id, 0xb1, BUILD_ID_SIZE_MAX);
	return c;
}

static void crafted_free(struct crafted *c)
{
	free(c->data);
	free(c->cnts);
	free(c->names);
	free(c->vals);
	free(c->vnds);
	free(c);
}

/* Use nodes 0..n-1 of the pool, as the runtime would have handed out. */
static void crafted_use(struct crafted *c, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		c->vnds[i].value = 0x100 + i;
		c->vnds[i].count = 1 + i;
	}
	atomic_set(&c->obj.vnds_used, n);
}

/*
 * Write the value blocks into a buffer of exactly the bound (ASan sees a
 * byte past it) and return how many values they hold.
 */
static unsigned int crafted_write(struct crafted *c, const char *what)
{
	unsigned int limit, values = 0, r, k;
	size_t bound, len;
	char *buf, *pos;

	bound = pgo_values_bound(&c->obj, pgo_values_base(&c->obj), &limit);
	buf = xcalloc(bound ? bound : 1);
	len = pgo_values_write(&c->obj, buf, bound, limit);
	EXPECT(len <= bound, "%s: wrote %zu bytes, bound %zu", what, len, bound);
	/* Walk the blocks as LLVM's reader does: sizes must add up. */
	for (pos = buf, r = 0; r < NR && pos < buf + len; r++) {
		u32 size = ((u32 *)pos)[0], kinds = ((u32 *)pos)[1];
		char *kp = pos + 8;

		for (k = 0; k < kinds; k++) {
			u32 sites = ((u32 *)kp)[1], s, n = 0;

			for (s = 0; s < sites; s++)
				n += (u8)kp[8 + s];
			values += n;
			kp += ALIGN(8 + sites, 8) + n * 16;
		}
		EXPECT(kp == pos + size, "%s: block %u size %u, holds %td",
		       what, r, size, kp - pos);
		pos += size;
	}
	EXPECT(pos == buf + len, "%s: blocks end at %td of %zu", what,
	       pos - buf, len);
	free(buf);
	return values;
}

static void case_valid(void)
{
	struct crafted *c = crafted_new();

	EXPECT(!pgo_object_check(&c->obj, true), "a well-formed object");
	crafted_use(c, 3);
	c->vals[0] = &c->vnds[0];
	c->vnds[0].next = &c->vnds[1];
	c->vals[5] = &c->vnds[2];
	EXPECT(crafted_write(c, "valid") == 3, "three values");
	crafted_free(c);
}

static void case_overlap(void)
{
	struct crafted *c = crafted_new();

	/* Record 1's sites start at record 0's second one. */
	pgo_rec_relocate(&c->data[1], (char *)&c->cnts[2], NULL, &c->vals[1]);
	EXPECT(pgo_object_check(&c->obj, true) == -EINVAL, "overlapping sites");
	EXPECT(pgo_object_check(&c->obj, false) == -EINVAL, "overlapping sites");

	/* The writer does not rely on the check: the shared list, twice. */
	crafted_use(c, 4);
	c->vals[1] = &c->vnds[0];
	c->vnds[0].next = &c->vnds[1];
	c->vnds[1].next = &c->vnds[2];
	c->vnds[2].next = &c->vnds[3];
	EXPECT(crafted_write(c, "overlap") == 4, "budget of 4 values");
	crafted_free(c);
}

static void case_heads(void)
{
	struct crafted *c = crafted_new();
	struct llvm_prf_value_node **vals = c->vals;

	pgo_rec_relocate(&c->data[2], (char *)&c->cnts[4], NULL,
			 (char *)&vals[4] + 1);
	EXPECT(pgo_object_check(&c->obj, false) == -EINVAL, "misaligned heads");
	pgo_rec_relocate(&c->data[2], (char *)&c->cnts[4], NULL, &vals[5]);
	EXPECT(pgo_object_check(&c->obj, false) == -EINVAL, "heads past the end");
	pgo_rec_relocate(&c->data[2], (char *)&c->cnts[4], NULL, vals - 2);
	EXPECT(pgo_object_check(&c->obj, false) == -EINVAL, "heads before the start");
	pgo_rec_relocate(&c->data[2], (char *)&c->cnts[4], NULL, NULL);
	EXPECT(pgo_object_check(&c->obj, false) == -EINVAL, "no heads");
	pgo_rec_relocate(&c->data[2], (char *)&c->cnts[4], NULL, &vals[4]);
	EXPECT(!pgo_object_check(&c->obj, false), "restored");

	/* Lists filled in before any code ran (a crafted module). */
	vals[3] = &c->vnds[1];
	EXPECT(pgo_object_check(&c->obj, true) == -EINVAL, "pre-filled lists");
	EXPECT(!pgo_object_check(&c->obj, false), "live lists are vmlinux's");

	/* Counters outside, a misaligned counters section. */
	pgo_rec_relocate(&c->data[2], (char *)&c->cnts[5], NULL, &vals[4]);
	EXPECT(pgo_object_check(&c->obj, false) == -EINVAL, "counters past the end");
	pgo_rec_relocate(&c->data[2], (char *)&c->cnts[4], NULL, &vals[4]);
	c->obj.cnts += 1;
	EXPECT(pgo_object_check(&c->obj, false) == -EINVAL, "misaligned counters");
	c->obj.cnts -= 1;
	c->obj.vnds = (void *)((char *)c->vnds + 4);
	EXPECT(pgo_object_check(&c->obj, false) == -EINVAL, "misaligned pool");
	c->obj.vnds = c->vnds;
	crafted_free(c);
}

static void case_cycles(void)
{
	struct crafted *c = crafted_new();

	/* A cycle of nodes below the limit. */
	crafted_use(c, 2);
	c->vals[0] = &c->vnds[0];
	c->vnds[0].next = &c->vnds[1];
	c->vnds[1].next = &c->vnds[0];
	EXPECT(crafted_write(c, "cycle below") == 2, "budget of 2 values");

	/* A cycle past the limit: skipped nodes, but not forever. */
	crafted_use(c, 1);
	c->vnds[0].next = &c->vnds[2];
	c->vnds[2].next = &c->vnds[3];
	c->vnds[3].next = &c->vnds[2];
	EXPECT(crafted_write(c, "cycle past") == 1, "node 0 only");

	/* A node pointing to itself. */
	c->vnds[0].next = &c->vnds[0];
	EXPECT(crafted_write(c, "self") == 1, "node 0 once");
	crafted_free(c);
}

static void case_outside(void)
{
	struct crafted *c = crafted_new();
	struct llvm_prf_value_node *stray = xcalloc(sizeof(*stray));

	crafted_use(c, 4);
	stray->next = stray;
	c->vals[0] = stray;				/* another allocation */
	c->vals[1] = (void *)((char *)&c->vnds[1] + 8);	/* inside a node */
	c->vals[2] = c->vnds + POOL;			/* one past the pool */
	c->vals[3] = &c->vnds[3];
	c->vnds[3].next = (void *)((char *)c->vnds - sizeof(*c->vnds));
	EXPECT(crafted_write(c, "outside") == 1, "node 3 only");
	free(stray);
	crafted_free(c);
}

/* A buffer smaller than the bound (a caller's bug): never written past. */
static void case_small(void)
{
	struct crafted *c = crafted_new();
	int warnings = shim_warnings;
	unsigned int limit;
	size_t bound, size, len;
	char *buf;

	crafted_use(c, 4);
	c->vals[0] = &c->vnds[0];
	c->vnds[0].next = &c->vnds[1];
	c->vals[2] = &c->vnds[2];
	c->vals[5] = &c->vnds[3];
	bound = pgo_values_bound(&c->obj, pgo_values_base(&c->obj), &limit);
	for (size = 0; size < bound; size += 8) {
		buf = xcalloc(size ? size : 1);
		len = pgo_values_write(&c->obj, buf, size, limit);
		EXPECT(len <= size, "wrote %zu bytes into %zu", len, size);
		free(buf);
	}
	shim_warnings = warnings;
	crafted_free(c);
}

/* The fixed part, read in pieces of every size, equals one read. */
static void case_pieces(void)
{
	struct crafted *c = crafted_new();
	size_t fixed = pgo_fixed_size(&c->obj), step, off, n;
	char *whole = xcalloc(fixed), *piece;

	pgo_fixed_read(&c->obj, whole, 0, fixed);
	EXPECT(((u64 *)whole)[0] == (INSTR_PROF_RAW_MAGIC_64), "magic");
	for (step = 1; step <= fixed; step++) {
		for (off = 0; off < fixed; off += n) {
			n = fixed - off < step ? fixed - off : step;
			piece = xcalloc(n);
			pgo_fixed_read(&c->obj, piece, off, n);
			if (memcmp(piece, whole + off, n)) {
				EXPECT(0, "step %zu offset %zu differs", step, off);
				step = fixed;
			}
			free(piece);
		}
	}
	free(whole);
	crafted_free(c);
}

#if PGO_HAS_BITMAP
/* Give record @i @n bitmap bytes at @bits. */
static void crafted_bitmap(struct crafted *c, unsigned int i, char *bits,
			   u32 n)
{
	memcpy((char *)&c->data[i] + offsetof(struct llvm_prf_data,
					      num_bitmap_bytes), &n, sizeof(n));
	pgo_rec_relocate(&c->data[i], (char *)&c->cnts[2 * i], bits,
			 &c->vals[SITES * i]);
}

/*
 * MC/DC bitmaps: a record's bytes must lie in the bitmap section (its own
 * malloc(), so a byte read past it is an ASan report); the file holds
 * them, found through BitmapPtr and BitmapDelta as LLVM's reader does.
 */
static void case_bitmap(void)
{
	struct crafted *c = crafted_new();
	struct pgo_object *obj = &c->obj;
	char *bits = xcalloc(3);
	const struct llvm_prf_header *h;
	const struct llvm_prf_data *out;
	size_t fixed;
	char *file;
	u64 at;

	obj->bits = bits;
	obj->bits_end = bits + 3;
	crafted_bitmap(c, 1, bits + 1, 3);
	EXPECT(pgo_object_check(obj, true) == -EINVAL, "bitmap past the end");
	crafted_bitmap(c, 1, bits - 1, 1);
	EXPECT(pgo_object_check(obj, true) == -EINVAL, "bitmap before the start");
	obj->bits_end = bits - 1;
	EXPECT(pgo_object_check(obj, true) == -EINVAL, "section ends first");
	obj->bits_end = bits + 3;
	crafted_bitmap(c, 1, bits + 1, 2);
	EXPECT(!pgo_object_check(obj, true), "bitmap inside");

	bits[1] = 0x5a;
	bits[2] = 0xa5;
	fixed = pgo_fixed_size(obj);
	file = xcalloc(fixed);
	pgo_fixed_read(obj, file, 0, fixed);
	h = (const void *)file;
	out = (const void *)(file + sizeof(*h) + sizeof(u64) +
			     ALIGN(BUILD_ID_SIZE_MAX, 8));
	EXPECT(h->num_bitmap_bytes == 3, "NumBitmapBytes %llu",
	       (unsigned long long)h->num_bitmap_bytes);
	/* Record 1's bytes, as the reader finds them. */
	at = out[1].bitmap_ptr - (h->bitmap_delta - sizeof(*out));
	EXPECT(at == 1, "record 1's bitmap at %llu", (unsigned long long)at);
	at += sizeof(*h) + sizeof(u64) + ALIGN(BUILD_ID_SIZE_MAX, 8) +
	      NR * sizeof(*out) + ALIGN(NR * 2 * sizeof(u64), 8);
	EXPECT(at + 2 <= fixed && file[at] == 0x5a && file[at + 1] == (char)0xa5,
	       "bitmap bytes in the file");
	free(file);
	free(bits);
	crafted_free(c);
}
#endif

/*
 * Value sites but no node pool (a crafted module): the check refuses it,
 * and the writer, which must not rely on the check, writes the sites
 * empty without computing from the absent pool (UBSan: no NULL + 0).
 */
static void case_no_pool(void)
{
	struct crafted *c = crafted_new();

	c->obj.vnds = NULL;
	c->obj.vnds_end = NULL;
	c->vals[0] = (void *)0x40;
	EXPECT(crafted_write(c, "no pool") == 0, "no values without a pool");
	crafted_free(c);
}

/* The runtime: nodes from this object's pool only, drops counted. */
static void case_runtime(void)
{
	struct crafted *c = crafted_new();
	unsigned int i;

	crafted_obj = &c->obj;
	for (i = 0; i < 10; i++)
		__llvm_profile_instrument_target(0x500 + i, &c->data[1], 0);
	EXPECT(pgo_nodes_in_use(&c->obj) == POOL, "pool used up");
	EXPECT(atomic_long_read(&c->obj.values_dropped) == 10 - POOL,
	       "%ld dropped", atomic_long_read(&c->obj.values_dropped));
	EXPECT(crafted_write(c, "runtime") == POOL, "%d values", POOL);
	crafted_obj = NULL;
	crafted_free(c);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--asan-self")) {
		char *p = malloc(8), x;

		memcpy(&x, p + 8, 1);
		free(p);
		return x;
	}
	case_valid();
	case_overlap();
	case_heads();
	case_cycles();
	case_outside();
	case_small();
	case_pieces();
	case_no_pool();
	case_runtime();
#if PGO_HAS_BITMAP
	case_bitmap();
#endif
	EXPECT(!shim_warnings, "%d WARN_ON fired", shim_warnings);
	printf("crafted: %d checks passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
