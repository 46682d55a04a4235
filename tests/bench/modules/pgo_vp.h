/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The body of pgo_vp_on and pgo_vp_off: the loop of pgo_vp_loop.h behind
 * module parameters.  The two modules differ only in their build flags
 * (pgo_vp_off.o has -mllvm -disable-vp=true, see the Makefile), so the
 * difference of their times is what value profiling costs.
 *
 *   run=N      N calls in the writer's context; last_ns gets the time.
 *              Under QEMU -icount shift=0 a nanosecond is an instruction.
 *   threads=T  how many online CPUs par_run uses (default 1).
 *   par_run=N  N calls on each of the first T online CPUs at once (one
 *              work item per CPU); last_ns gets the time from queueing
 *              the first to the end of the last.
 *   last_ns    (read only) the time the last run took, in ns.
 */
#ifndef PGO_VP_H
#define PGO_VP_H

#include <linux/compiler.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "pgo_vp_loop.h"

/* Calls between two cond_resched() in par_run. */
#define PGO_VP_CHUNK	4096

static u64 pgo_vp_last_ns;
module_param_named(last_ns, pgo_vp_last_ns, ullong, 0400);
MODULE_PARM_DESC(last_ns, "time the last run took, in ns");

static unsigned int pgo_vp_threads = 1;
module_param_named(threads, pgo_vp_threads, uint, 0600);
MODULE_PARM_DESC(threads, "online CPUs par_run uses");

static unsigned long pgo_vp_sink;

static int pgo_vp_run_set(const char *val, const struct kernel_param *kp)
{
	unsigned long n;
	u64 start;
	int ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	start = ktime_get_ns();
	WRITE_ONCE(pgo_vp_sink, pgo_vp_loop(n));
	pgo_vp_last_ns = ktime_get_ns() - start;
	return 0;
}

static const struct kernel_param_ops pgo_vp_run_ops = {
	.set = pgo_vp_run_set,
};
module_param_cb(run, &pgo_vp_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "make N indirect calls here and time them");

struct pgo_vp_work {
	struct work_struct work;
	unsigned long n;
	unsigned long sum;
	bool queued;
};

static DEFINE_PER_CPU(struct pgo_vp_work, pgo_vp_works);

static void pgo_vp_work_fn(struct work_struct *work)
{
	struct pgo_vp_work *w = container_of(work, struct pgo_vp_work, work);
	unsigned long done, sum = 0;

	for (done = 0; done < w->n; done += PGO_VP_CHUNK) {
		sum += pgo_vp_loop(min_t(unsigned long, PGO_VP_CHUNK,
					 w->n - done));
		cond_resched();
	}
	w->sum = sum;
}

static int pgo_vp_par_run_set(const char *val, const struct kernel_param *kp)
{
	struct pgo_vp_work *w;
	unsigned int nr = 0;
	unsigned long n;
	u64 start;
	int cpu, ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	cpus_read_lock();
	if (!pgo_vp_threads || pgo_vp_threads > num_online_cpus()) {
		cpus_read_unlock();
		return -EINVAL;
	}
	start = ktime_get_ns();
	for_each_online_cpu(cpu) {
		w = per_cpu_ptr(&pgo_vp_works, cpu);
		w->queued = nr++ < pgo_vp_threads;
		if (!w->queued)
			continue;
		w->n = n;
		queue_work_on(cpu, system_highpri_wq, &w->work);
	}
	for_each_online_cpu(cpu) {
		w = per_cpu_ptr(&pgo_vp_works, cpu);
		if (w->queued)
			flush_work(&w->work);
	}
	pgo_vp_last_ns = ktime_get_ns() - start;
	cpus_read_unlock();
	return 0;
}

static const struct kernel_param_ops pgo_vp_par_run_ops = {
	.set = pgo_vp_par_run_set,
};
module_param_cb(par_run, &pgo_vp_par_run_ops, NULL, 0200);
MODULE_PARM_DESC(par_run, "make N indirect calls on each of threads CPUs at once");

static int __init pgo_vp_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_WORK(&per_cpu_ptr(&pgo_vp_works, cpu)->work,
			  pgo_vp_work_fn);
	return 0;
}

static void __exit pgo_vp_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		flush_work(&per_cpu_ptr(&pgo_vp_works, cpu)->work);
}

module_init(pgo_vp_init);
module_exit(pgo_vp_exit);
MODULE_LICENSE("GPL");

#endif /* PGO_VP_H */
