#!/bin/sh
# The PGO cycle's guest side.  On the instrumented kernel: reset, run the
# training workload, collect every profile to /out/train/.  On the plain
# and the PGO kernel: run the training and the held-out workloads and
# record their cost to /out/bench.txt.
set -u

train() {
	pgobench getppid 20000
	pgobench pipe 3000
	pgobench files 1000
}

heldout() {
	pgobench hackbench 2 100
	pgobench procread 3000
}

insmod /lib/modules/pgo_test_module.ko
if [ -e /sys/kernel/pgo/reset ]; then
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
	# Warm up once, then measure.
	train > /dev/null
	heldout > /dev/null
	{
		train | sed 's/^/train /'
		heldout | sed 's/^/heldout /'
	} > /out/bench.txt
fi
