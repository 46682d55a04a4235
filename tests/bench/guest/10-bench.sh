#!/bin/sh
# make bench's guest side, on the instrumented kernel.  Two boots:
#
#  default (QEMU -icount, 1 vCPU: a nanosecond is an instruction):
#    /out/bench.txt  the training and held-out workloads, exactly as
#                    tests/run/guest/10-cycle.sh runs them on the plain and
#                    the PGO kernel (the functions come from that file)
#    /out/read.txt   whole reads of vmlinux's profile, of a static bin
#                    attribute of the same size and of two module profiles,
#                    one twice the other, alternated
#    /out/vp.txt     the value-profiling loop, on and off, alternated
#    /out/saved/     with bench_save=1 (make coverage-bench): every profile
#                    at the end, as <object>-x.profraw
#  bench_mode=smp (no -icount, 2 vCPUs, wall clock):
#    /out/smp.txt    the same loop on 1 and 2 CPUs at once, alternated, with
#                    value profiling, counters only, no instrumentation
#
# bench_rounds=, vp_calls=, smp_calls= on the kernel command line reach
# this script as environment variables (see tests/bench.mk).
set -eu

BENCH_ROUNDS=${bench_rounds:-5}
VP_CALLS=${vp_calls:-1000000}
SMP_CALLS=${smp_calls:-4000000}
m=/lib/modules
p=/sys/module

# train(), heldout() and measure(), from tests/run/guest/10-cycle.sh.
# shellcheck source=/dev/null
. /bench/workloads.sh

insmod $m/pgo_vp_on.ko
insmod $m/pgo_vp_off.ko

if [ "${bench_mode:-}" = smp ]; then
	insmod $m/pgo_vp_none.ko
	for mod in pgo_vp_on pgo_vp_off pgo_vp_none; do
		echo 1000 > $p/$mod/parameters/run
	done
	for r in $(seq "$BENCH_ROUNDS"); do
		for mod in pgo_vp_on pgo_vp_off pgo_vp_none; do
			for t in 1 2; do
				echo "$t" > $p/$mod/parameters/threads
				echo "$SMP_CALLS" > $p/$mod/parameters/par_run
				echo "$mod $t $r $SMP_CALLS $(cat $p/$mod/parameters/last_ns)"
			done
		done
	done > /out/smp.txt
	exit 0
fi

# Workloads: measure() of 10-cycle.sh.
insmod $m/pgo_test_module.ko
measure || exit 1

# Reads (not on a plain kernel, which make coverage-bench also measures).
# One copy of vmlinux's profile: how much of it a reader holds.
[ -e /sys/kernel/pgo/profraw ] || exit 0
cat /sys/kernel/pgo/profraw > /out/vmlinux.profraw
size=$(wc -c < /sys/kernel/pgo/profraw)
insmod $m/pgo_blob.ko size="$size"
insmod $m/pgo_size1.ko
insmod $m/pgo_size2.ko
benchread 1 4096 /sys/kernel/pgo/profraw /sys/module/pgo_blob/blob > /dev/null
benchread "$BENCH_ROUNDS" 65536 /sys/kernel/pgo/profraw \
	/sys/module/pgo_blob/blob /sys/module/pgo_size1/pgo/profraw \
	/sys/module/pgo_size2/pgo/profraw > /out/read.txt

# Value profiling: the first run fills the site's list.
for mod in pgo_vp_on pgo_vp_off; do
	echo 1000 > $p/$mod/parameters/run
done
for r in $(seq "$BENCH_ROUNDS"); do
	for mod in pgo_vp_on pgo_vp_off; do
		echo "$VP_CALLS" > $p/$mod/parameters/run
		echo "$mod $r $VP_CALLS $(cat $p/$mod/parameters/last_ns)"
	done
done > /out/vp.txt

# Every profile as it stands now, named as pgo-collect --saved reads them,
# for make coverage-bench's comparison of its coverage kernels
# (tests/coverage/bench-report.sh).
[ "${bench_save:-}" = 1 ] || exit 0
mkdir -p /out/saved
cat /sys/kernel/pgo/profraw > /out/saved/vmlinux-x.profraw
for d in $p/*/pgo; do
	mod=${d%/pgo}
	mod=${mod##*/}
	cat "$d/profraw" > "/out/saved/$mod-x.profraw"
done
