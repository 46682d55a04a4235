// SPDX-License-Identifier: MIT
/*
 * pgo_nongpl: a stand-in for an out-of-tree vendor module, which declares
 * a license that is not GPL-compatible (and taints the kernel when it
 * loads), to show that instrumented modules of any license load and are
 * profiled: the compiler makes every one of them call the kernel's
 * value-profiling hooks.  Part of the test harness, not of the kernel.
 *
 * Writing N to /sys/module/pgo_nongpl/parameters/run calls
 * pgo_nongpl_hot() N times: one indirect call (to pgo_nongpl_twice())
 * and one memcpy() of 5 bytes each.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

static u64 pgo_nongpl_sink;
static char pgo_nongpl_src[64], pgo_nongpl_dst[64];
static unsigned int pgo_nongpl_len = 5;
module_param_named(len, pgo_nongpl_len, uint, 0600);
MODULE_PARM_DESC(len, "bytes each call copies (1..64)");

static noinline u64 pgo_nongpl_twice(u64 x)
{
	return 2 * x;
}

static u64 (*pgo_nongpl_fn)(u64 x) = pgo_nongpl_twice;

static noinline void pgo_nongpl_hot(unsigned long i)
{
	u64 (*fn)(u64 x) = READ_ONCE(pgo_nongpl_fn);
	size_t len = min_t(size_t, READ_ONCE(pgo_nongpl_len),
			   sizeof(pgo_nongpl_dst));

	pgo_nongpl_sink += fn(i);
	memcpy(pgo_nongpl_dst, pgo_nongpl_src, len);
	pgo_nongpl_sink += pgo_nongpl_dst[i % sizeof(pgo_nongpl_dst)];
}

static int pgo_nongpl_run_set(const char *val, const struct kernel_param *kp)
{
	unsigned long i, n;
	int ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		pgo_nongpl_hot(i);
	return 0;
}

static const struct kernel_param_ops pgo_nongpl_run_ops = {
	.set = pgo_nongpl_run_set,
};
module_param_cb(run, &pgo_nongpl_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "call pgo_nongpl_hot() this many times");

MODULE_DESCRIPTION("A non-GPL module for the clang PGO selftests");
MODULE_LICENSE("Proprietary");
