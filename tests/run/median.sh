#!/bin/bash
# Combine the measured boots of one kernel.  OUT gets the first boot's
# console and dmesg, a bench.txt whose each "set workload" line has the
# median over the boots (the lower of the two middle ones for an even
# count), bench-boots.txt (every boot's bench.txt) and bench-samples.txt
# (every run of every boot).  Runs of a few milliseconds per workload are
# at the mercy of where the kernel's own deferred work lands: in five boots
# of the plain 7.3 kernel, the training set took 51.1 to 52.3 million
# instructions.  Every boot must have passed and run the same workloads.
# usage: median.sh OUT BOOT_DIR...
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: median.sh OUT BOOT_DIR..." >&2; exit 2; }
out=$1
shift
for d in "$@"; do
	for rc in "$d"/*.rc; do
		[ "$(cat "$rc" 2>/dev/null)" = 0 ] ||
			{ echo "median.sh: $rc: the guest script failed or did not run (see ${rc%.rc}.log)" >&2; exit 1; }
	done
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
# Each line of these two prefixed with its boot's directory name.
boots() {
	local d
	for d in "${@:2}"; do
		sed "s|^|$(basename "$d") |" "$d/$1"
	done
}
boots bench.txt "$@" > "$out/bench-boots.txt"
boots bench-samples.txt "$@" > "$out/bench-samples.txt"
