#!/bin/bash
# Combine the measured boots of one kernel: OUT gets the first boot's
# results (its console and dmesg) and a bench.txt whose each "set workload"
# line has the median over the boots (the lower of the two middle ones for
# an even count).  A boot of a few milliseconds per workload is still at
# the mercy of where the kernel's own deferred work lands; the plain kernel
# of the same 7.3 tree measured 50.3 to 52.3 million instructions on the
# training set in four boots.  Every boot must have run the same workloads.
# usage: median.sh OUT BOOT_DIR...
set -euo pipefail
out=$1
shift
[ $# -ge 1 ] || { echo "usage: median.sh OUT BOOT_DIR..." >&2; exit 2; }
for d in "$@"; do
	[ -s "$d/bench.txt" ] || { echo "median.sh: $d/bench.txt: missing or empty" >&2; exit 1; }
	if ! cmp -s <(cut -d' ' -f1,2 "$1/bench.txt") <(cut -d' ' -f1,2 "$d/bench.txt"); then
		echo "median.sh: $d ran other workloads than $1" >&2
		exit 1
	fi
done
rm -rf "$out"
cp -a "$1" "$out"
# Per line of the first boot's file, in its order: the median of column 3.
paste -d' ' "${@/%//bench.txt}" | awk -v n=$# '{
	for (i = 1; i <= n; i++) {	# insertion sort, as mawk has no asort()
		x = $(3 * i); j = i - 1
		while (j > 0 && v[j] > x) { v[j + 1] = v[j]; j-- }
		v[j + 1] = x
	}
	print $1, $2, v[int((n + 1) / 2)] }' > "$out/bench.txt"
for d in "$@"; do
	sed "s|^|$(basename "$d") |" "$d/bench.txt"
done > "$out/bench-boots.txt"
