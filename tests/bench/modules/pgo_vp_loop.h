/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The value-profiling benchmark loop.  The guest modules (pgo_vp_on.c,
 * pgo_vp_off.c) and the host program (tests/bench/vp-host.c) compile this
 * same text, so the two sides differ only in the runtime behind
 * __llvm_profile_instrument_target(): the kernel's or compiler-rt's.
 *
 * Each iteration makes one indirect call through a table of
 * PGO_VP_TARGETS functions, round robin: one value site whose list, once
 * warm, holds every target.  The includer provides noinline and READ_ONCE().
 */
#ifndef PGO_VP_LOOP_H
#define PGO_VP_LOOP_H

#define PGO_VP_TARGETS	3

static noinline unsigned long pgo_vp_add(unsigned long x)
{
	return x + 3;
}

static noinline unsigned long pgo_vp_sub(unsigned long x)
{
	return x - 1;
}

static noinline unsigned long pgo_vp_mul(unsigned long x)
{
	return x * 5;
}

/* Not const, read with READ_ONCE(): the calls must stay indirect. */
static unsigned long (*pgo_vp_targets[PGO_VP_TARGETS])(unsigned long x) = {
	pgo_vp_add, pgo_vp_sub, pgo_vp_mul,
};

static noinline unsigned long pgo_vp_loop(unsigned long n)
{
	unsigned long i, sum = 0;

	for (i = 0; i < n; i++) {
		unsigned long (*fn)(unsigned long x) =
			READ_ONCE(pgo_vp_targets[i % PGO_VP_TARGETS]);

		sum += fn(i);
	}
	return sum;
}

#endif /* PGO_VP_LOOP_H */
