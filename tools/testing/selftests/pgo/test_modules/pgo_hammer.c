// SPDX-License-Identifier: GPL-2.0
/*
 * pgo_hammer: drive the value-profiling runtime hard, on every CPU at once.
 *
 * pgo_hammer_call() makes one indirect call through a table of
 * PGO_HAMMER_TARGETS small functions: one value site with many more
 * distinct values than the module's own value node pool holds (clang sizes
 * the pool at max(10, about one node per value site) per object file, and
 * this module has a single value site), so the pool runs out and the
 * kernel counts the values it drops.
 *
 *   run=N      call pgo_hammer_call() N times on every online CPU in
 *              parallel (one work item per CPU), and return when all are
 *              done.  Writes of module parameters are serialized, so the
 *              parallelism comes from the work items, not from the writers.
 *   irq_run=N  the same, from hard interrupt context (an IPI on every
 *              online CPU, the writer's included); N is capped at 4096.
 *   local_run=N  N calls in the writer's own context only.
 *   calls      (read only) indirect calls made so far by this instance.
 *
 * Calls cycle through the targets in order, i % PGO_HAMMER_TARGETS, from
 * i = 0 on each CPU, so a single-CPU run of N calls (local_run) from a
 * freshly loaded module with its pool of P nodes drops exactly
 * N - (calls to the first P targets) values.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#define PGO_HAMMER_TARGETS	64
#define PGO_HAMMER_IRQ_MAX	4096

static atomic_long_t pgo_hammer_calls = ATOMIC_LONG_INIT(0);
static u64 pgo_hammer_sink;

#define PGO_HAMMER_T(n)						\
	static noinline u64 pgo_hammer_t##n(u64 x)		\
	{							\
		return x * (2 * (n) + 1) + (n);			\
	}
#define PGO_HAMMER_T8(n)						\
	PGO_HAMMER_T(n##0) PGO_HAMMER_T(n##1) PGO_HAMMER_T(n##2)	\
	PGO_HAMMER_T(n##3) PGO_HAMMER_T(n##4) PGO_HAMMER_T(n##5)	\
	PGO_HAMMER_T(n##6) PGO_HAMMER_T(n##7)

/* 64 targets, pgo_hammer_t00 .. pgo_hammer_t77 (octal-looking names). */
PGO_HAMMER_T8(0) PGO_HAMMER_T8(1) PGO_HAMMER_T8(2) PGO_HAMMER_T8(3)
PGO_HAMMER_T8(4) PGO_HAMMER_T8(5) PGO_HAMMER_T8(6) PGO_HAMMER_T8(7)

#define PGO_HAMMER_E8(n)						\
	pgo_hammer_t##n##0, pgo_hammer_t##n##1, pgo_hammer_t##n##2,	\
	pgo_hammer_t##n##3, pgo_hammer_t##n##4, pgo_hammer_t##n##5,	\
	pgo_hammer_t##n##6, pgo_hammer_t##n##7

/* Not const: the calls must stay indirect. */
static u64 (*pgo_hammer_targets[PGO_HAMMER_TARGETS])(u64) = {
	PGO_HAMMER_E8(0), PGO_HAMMER_E8(1), PGO_HAMMER_E8(2), PGO_HAMMER_E8(3),
	PGO_HAMMER_E8(4), PGO_HAMMER_E8(5), PGO_HAMMER_E8(6), PGO_HAMMER_E8(7),
};

/* The module's only value site. */
static noinline void pgo_hammer_call(unsigned long i)
{
	u64 (*fn)(u64 x) = READ_ONCE(pgo_hammer_targets[i % PGO_HAMMER_TARGETS]);

	WRITE_ONCE(pgo_hammer_sink, pgo_hammer_sink + fn(i));
}

static void pgo_hammer_loop(unsigned long n, bool may_sleep)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		pgo_hammer_call(i);
		if (may_sleep && !(i & 255))
			cond_resched();
	}
	atomic_long_add(n, &pgo_hammer_calls);
}

struct pgo_hammer_work {
	struct work_struct work;
	unsigned long n;
};

static DEFINE_PER_CPU(struct pgo_hammer_work, pgo_hammer_works);

static void pgo_hammer_work_fn(struct work_struct *work)
{
	struct pgo_hammer_work *w = container_of(work, struct pgo_hammer_work,
						 work);

	pgo_hammer_loop(w->n, true);
}

static int pgo_hammer_run_set(const char *val, const struct kernel_param *kp)
{
	unsigned long n;
	int cpu, ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct pgo_hammer_work *w = per_cpu_ptr(&pgo_hammer_works, cpu);

		w->n = n;
		queue_work_on(cpu, system_highpri_wq, &w->work);
	}
	for_each_online_cpu(cpu)
		flush_work(&per_cpu_ptr(&pgo_hammer_works, cpu)->work);
	cpus_read_unlock();
	return 0;
}

static const struct kernel_param_ops pgo_hammer_run_ops = {
	.set = pgo_hammer_run_set,
};
module_param_cb(run, &pgo_hammer_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "call the value site N times on every online CPU in parallel");

static void pgo_hammer_ipi(void *info)
{
	pgo_hammer_loop((unsigned long)info, false);
}

static int pgo_hammer_irq_run_set(const char *val,
				  const struct kernel_param *kp)
{
	unsigned long n;
	int ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	on_each_cpu(pgo_hammer_ipi, (void *)min_t(unsigned long, n,
						  PGO_HAMMER_IRQ_MAX), 1);
	return 0;
}

static const struct kernel_param_ops pgo_hammer_irq_run_ops = {
	.set = pgo_hammer_irq_run_set,
};
module_param_cb(irq_run, &pgo_hammer_irq_run_ops, NULL, 0200);
MODULE_PARM_DESC(irq_run, "call the value site N times from an IPI on every online CPU");

static int pgo_hammer_local_run_set(const char *val,
				    const struct kernel_param *kp)
{
	unsigned long n;
	int ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	pgo_hammer_loop(n, true);
	return 0;
}

static const struct kernel_param_ops pgo_hammer_local_run_ops = {
	.set = pgo_hammer_local_run_set,
};
module_param_cb(local_run, &pgo_hammer_local_run_ops, NULL, 0200);
MODULE_PARM_DESC(local_run, "call the value site N times in the writer's context");

static int pgo_hammer_calls_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&pgo_hammer_calls));
}

static const struct kernel_param_ops pgo_hammer_calls_ops = {
	.get = pgo_hammer_calls_get,
};
module_param_cb(calls, &pgo_hammer_calls_ops, NULL, 0444);
MODULE_PARM_DESC(calls, "indirect calls made so far");

static int __init pgo_hammer_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_WORK(&per_cpu_ptr(&pgo_hammer_works, cpu)->work,
			  pgo_hammer_work_fn);
	return 0;
}

static void __exit pgo_hammer_exit(void)
{
	int cpu;

	/* A run= write may still be in progress (see delete_module()). */
	for_each_possible_cpu(cpu)
		flush_work(&per_cpu_ptr(&pgo_hammer_works, cpu)->work);
}

module_init(pgo_hammer_init);
module_exit(pgo_hammer_exit);
MODULE_DESCRIPTION("Value-profiling stress for the clang PGO selftests");
MODULE_LICENSE("GPL");
