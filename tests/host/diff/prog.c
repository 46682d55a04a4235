// SPDX-License-Identifier: GPL-2.0
/*
 * The instrumented program of the differential test (tests/host/run.sh).
 *
 * Deterministic: no input, no time, no addresses in the output.  It gives
 * the profile something of every kind the kernel runtime handles:
 *  - functions with known call counts (leaf_a 1000, leaf_b 650, leaf_c 144,
 *    never_called 0),
 *  - a loop with branches,
 *  - an indirect call site with three targets, called round robin,
 *  - an indirect call site with more targets (30) than compiler-rt keeps
 *    per site (24), so the counter-based eviction runs,
 *  - memcpy()/memset() with sizes in several memop buckets (0-8 exact,
 *    powers of two, ranges, >= 513),
 *  - a function that is never called.
 *
 * Built with -DPROG_RESET, main() runs everything, calls prog_reset() (the
 * runtime's reset: compiler-rt's __llvm_profile_reset_counters() in binary
 * A, the kernel's pgo_object_reset() in binary B), then runs a part again:
 * the profile holds that part's counts, and value nodes from before the
 * reset stay in the lists with count 0.
 */
#include <stdio.h>
#include <string.h>

#define noinline __attribute__((noinline))

/* Read through a volatile so the compiler cannot fold the sizes. */
static volatile unsigned int sizes[] = { 7, 100, 600, 7, 3, 64, 7, 1000, 17 };
#define NR_SIZES (sizeof(sizes) / sizeof(sizes[0]))

static unsigned long sink;

noinline unsigned long leaf_a(unsigned long x)
{
	return x * 3 + 1;
}

noinline unsigned long leaf_b(unsigned long x)
{
	return x ^ 0x5a5a;
}

noinline unsigned long leaf_c(unsigned long x)
{
	return x >> 1;
}

noinline void never_called(void)
{
	sink += 42;
}

/* The three targets of the round-robin indirect call site. */
noinline unsigned long op_add(unsigned long x) { return x + 7; }
noinline unsigned long op_mul(unsigned long x) { return x * 5; }
noinline unsigned long op_xor(unsigned long x) { return x ^ 0xff; }

typedef unsigned long (*op_fn)(unsigned long);
static op_fn volatile ops[] = { op_add, op_mul, op_xor };

/* Thirty targets for the site that overflows the per-site value limit. */
#define T(n) noinline unsigned long many_##n(unsigned long x) { return x + n; }
T(0) T(1) T(2) T(3) T(4) T(5) T(6) T(7) T(8) T(9)
T(10) T(11) T(12) T(13) T(14) T(15) T(16) T(17) T(18) T(19)
T(20) T(21) T(22) T(23) T(24) T(25) T(26) T(27) T(28) T(29)
#undef T
#define R(n) many_##n,
static op_fn volatile many[] = {
	R(0) R(1) R(2) R(3) R(4) R(5) R(6) R(7) R(8) R(9)
	R(10) R(11) R(12) R(13) R(14) R(15) R(16) R(17) R(18) R(19)
	R(20) R(21) R(22) R(23) R(24) R(25) R(26) R(27) R(28) R(29)
};
#undef R

noinline unsigned long call_op(unsigned int i, unsigned long x)
{
	return ops[i % 3](x);
}

noinline unsigned long call_many(unsigned int i, unsigned long x)
{
	return many[i](x);
}

noinline unsigned long branches(unsigned int n)
{
	unsigned long acc = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (i % 3 == 0)
			acc += leaf_a(i);
		else if (i % 5 == 0)
			acc ^= leaf_b(i);
		else if (i % 7 == 0 && i % 2)
			acc += leaf_c(i);
		else
			acc += i;
	}
	return acc;
}

/*
 * A decision of three conditions run with three of its test vectors:
 * MC/DC shows a and c deciding the outcome on their own, not b.
 */
noinline int decide(int a, int b, int c)
{
	if ((a && b) || c)
		return 1;
	return 0;
}

noinline unsigned long memops(unsigned int rounds)
{
	static char src[2048], dst[2048];
	unsigned long acc = 0;
	unsigned int i;

	for (i = 0; i < rounds; i++) {
		unsigned int n = sizes[i % NR_SIZES];

		memset(src, (int)i, n);
		memcpy(dst, src, n);
		acc += (unsigned char)dst[n - 1];
	}
	/* A second memset site that sees one size only. */
	for (i = 0; i < 5; i++) {
		memset(dst, 0, sizes[1]);
		acc += (unsigned char)dst[0];
	}
	return acc;
}

void prog_reset(void);

static unsigned long workload(void)
{
	unsigned long acc = 0;
	unsigned int i;

	acc += branches(3000);
	for (i = 0; i < 300; i++)
		acc += call_op(i, acc);
	/*
	 * Target k (0..29) is called k % 7 + 1 times in each of 40 rounds,
	 * interleaved, so later targets find the site full and evict.
	 */
	for (i = 0; i < 40; i++) {
		unsigned int k;

		for (k = 0; k < 30; k++) {
			unsigned int r;

			for (r = 0; r <= k % 7; r++)
				acc += call_many(k, acc);
		}
	}
	acc += memops(90);
	for (i = 0; i < 5; i++)
		acc += decide(1, 1, 0) + decide(0, 1, 0) + decide(0, 0, 1);
	for (i = 0; i < 250; i++)
		acc += leaf_b(i);
	for (i = 0; i < 30; i++)
		acc += leaf_c(i);
	if (acc == 1) /* never: keeps never_called() in the binary */
		never_called();
	return acc;
}

int main(void)
{
	unsigned long acc = workload();

#ifdef PROG_RESET
	unsigned int i;

	prog_reset();
	acc += branches(300);
	for (i = 0; i < 10; i++)
		acc += call_op(i, acc);
	acc += memops(4);
	acc += decide(1, 1, 0);
#endif
	printf("prog: %lu\n", acc);
	return 0;
}
