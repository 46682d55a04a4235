// SPDX-License-Identifier: GPL-2.0
/*
 * pgo_test_module: code with call counts the PGO selftests control.
 *
 * Writing N to /sys/module/pgo_test_module/parameters/run calls
 * pgo_test_hot() N times; each call makes one indirect call to one of
 * three module functions (round robin), one indirect call into vmlinux,
 * and copies pgo_test_memop_len bytes with memcpy() (a memop site).
 * The parameter's set() is itself an indirect call from vmlinux.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

static unsigned int pgo_test_memop_len = 7;
module_param_named(memop_len, pgo_test_memop_len, uint, 0600);
MODULE_PARM_DESC(memop_len, "bytes each call copies (1..256)");

static u64 pgo_test_sink;
static char pgo_test_src[256], pgo_test_dst[256];

static noinline u64 pgo_test_add(u64 x)
{
	return x + 3;
}

static noinline u64 pgo_test_sub(u64 x)
{
	return x - 1;
}

static noinline u64 pgo_test_mul(u64 x)
{
	return x * 5;
}

static u64 (*pgo_test_targets[])(u64 x) = {
	pgo_test_add, pgo_test_sub, pgo_test_mul,
};

/* Called through a pointer so the call into vmlinux is indirect. */
static size_t (*pgo_test_vmlinux_fn)(const char *s) = strlen;

static noinline void pgo_test_hot(unsigned long i)
{
	u64 (*fn)(u64 x) = READ_ONCE(pgo_test_targets[i % 3]);
	size_t (*ext)(const char *s) = READ_ONCE(pgo_test_vmlinux_fn);
	size_t len = min_t(size_t, READ_ONCE(pgo_test_memop_len),
			   sizeof(pgo_test_dst));

	pgo_test_sink += fn(i);
	pgo_test_sink += ext("pgo");
	memcpy(pgo_test_dst, pgo_test_src, len);
	pgo_test_sink += pgo_test_dst[i % sizeof(pgo_test_dst)];
}

static int pgo_test_run_set(const char *val, const struct kernel_param *kp)
{
	unsigned long i, n;
	int ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		pgo_test_hot(i);
	return 0;
}

static const struct kernel_param_ops pgo_test_run_ops = {
	.set = pgo_test_run_set,
};
module_param_cb(run, &pgo_test_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "call pgo_test_hot() this many times");

static int __init pgo_test_init(void)
{
	return 0;
}

static void __exit pgo_test_exit(void)
{
}

module_init(pgo_test_init);
module_exit(pgo_test_exit);
MODULE_DESCRIPTION("Code with known call counts for the clang PGO selftests");
MODULE_LICENSE("GPL");
