#!/bin/bash
# Compare the plain and the PGO kernel on the workloads (instructions under
# QEMU -icount, where a guest nanosecond is one instruction).
# usage: report.sh RUN_DIR
run=$1
printf '%-8s %-10s %14s %14s %8s\n' set workload plain pgo "pgo/plain"
join <(awk '{ print $1 "_" $2, $3 }' "$run/plain/bench.txt" | sort) \
     <(awk '{ print $1 "_" $2, $3 }' "$run/pgo/bench.txt" | sort) |
while read -r key plain pgo; do
	printf '%-8s %-10s %14d %14d %8.3f\n' "${key%%_*}" "${key#*_}" \
		"$plain" "$pgo" "$(echo "$pgo / $plain" | bc -l)"
done
for k in train heldout; do
	p=$(awk -v k=$k '$1 == k { s += $3 } END { print s }' "$run/plain/bench.txt")
	g=$(awk -v k=$k '$1 == k { s += $3 } END { print s }' "$run/pgo/bench.txt")
	printf '%-8s %-10s %14d %14d %8.3f\n' "$k" total "$p" "$g" "$(echo "$g / $p" | bc -l)"
done
