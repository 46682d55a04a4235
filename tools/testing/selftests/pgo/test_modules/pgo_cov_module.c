// SPDX-License-Identifier: GPL-2.0
/*
 * pgo_cov_module: code whose source coverage the coverage tests know in
 * advance (CONFIG_PGO_CLANG_COVERAGE, with MC/DC).
 *
 * Writing a mask to /sys/module/pgo_cov_module/parameters/run evaluates
 * the decision of pgo_cov_decide(), (a && b) || c, with the test vectors
 * the mask selects, one call each:
 *
 *   bit 0: a=1 b=1 c=0 -> true      bit 2: a=0 b=0 c=1 -> true
 *   bit 1: a=0 b=1 c=0 -> false     bit 3: a=1 b=0 c=0 -> false
 *
 * Bits 0 and 1 show a deciding the outcome on its own, 0 and 3 show b,
 * 1 and 2 show c.  So mask 7 covers two of its three conditions (MC/DC
 * 66.67%), mask 15 all three.  Each call also runs pgo_cov_branch(),
 * whose "x > 1000" branch is never taken, and pgo_cov_never() is never
 * called.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static int pgo_cov_sink;

static noinline int pgo_cov_never(int x)
{
	return x * 3 + 1;
}

static noinline int pgo_cov_branch(int x)
{
	if (x > 1000)
		return pgo_cov_never(x);
	return x + 1;
}

static noinline int pgo_cov_decide(int a, int b, int c)
{
	if ((a && b) || c)
		return 1;
	return 0;
}

static const int pgo_cov_vectors[4][3] = {
	{ 1, 1, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1, 0, 0 },
};

static int pgo_cov_run_set(const char *val, const struct kernel_param *kp)
{
	unsigned long mask;
	unsigned int i;
	int ret;

	ret = kstrtoul(val, 0, &mask);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(pgo_cov_vectors); i++) {
		const int *v = pgo_cov_vectors[i];

		if (!(mask & BIT(i)))
			continue;
		pgo_cov_sink += pgo_cov_decide(v[0], v[1], v[2]);
		pgo_cov_sink += pgo_cov_branch(i);
	}
	return 0;
}

static const struct kernel_param_ops pgo_cov_run_ops = {
	.set = pgo_cov_run_set,
};
module_param_cb(run, &pgo_cov_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "evaluate the decision with these test vectors (mask)");

static int __init pgo_cov_init(void)
{
	return 0;
}

static void __exit pgo_cov_exit(void)
{
}

module_init(pgo_cov_init);
module_exit(pgo_cov_exit);
MODULE_DESCRIPTION("Code with known coverage for the clang coverage tests");
MODULE_LICENSE("GPL");
