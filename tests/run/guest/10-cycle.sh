#!/bin/sh
# The PGO cycle's guest side.  On the instrumented kernel: reset, run the
# training workload, collect every profile to /out/train/.  On the plain
# and the PGO kernel, and on the instrumented one booted with run_measure=1
# (make run RUN_INSTR=1): run the training and the held-out workloads and
# record their cost to /out/bench.txt: the median of $reps runs of each
# workload (every run in /out/bench-samples.txt), as a single run of a few
# milliseconds can catch deferred work of the one before it.
set -u

train() {
	pgobench -r "${reps:-1}" getppid 20000
	pgobench -r "${reps:-1}" pipe 3000
	pgobench -r "${reps:-1}" files 1000
}

heldout() {
	pgobench -r "${reps:-1}" hackbench 2 100
	pgobench -r "${reps:-1}" procread 3000
}

# Warm up once, then measure.  A failed run printed its error among the
# samples, and no figure.
measure() {
	train > /dev/null
	heldout > /dev/null
	reps=5
	{
		train | sed 's/^/train /'
		heldout | sed 's/^/heldout /'
	} > /out/bench.txt 2> /out/bench-samples.txt
	! grep -v '^# ' /out/bench-samples.txt >&2
}

insmod /lib/modules/pgo_test_module.ko
if [ -e /sys/kernel/pgo/reset ] && [ "${run_measure:-}" != 1 ]; then
	mkdir -p /out/train
	echo 1 > /sys/kernel/pgo/reset
	train > /out/train/workload.txt
	echo 3000 > /sys/module/pgo_test_module/parameters/run
	cat /sys/kernel/pgo/profraw > /out/train/vmlinux.profraw
	for m in /sys/module/*/pgo; do
		name=$(basename "$(dirname "$m")")
		cat "$m/profraw" > "/out/train/$name.profraw"
	done
else
	measure || exit 1
fi
