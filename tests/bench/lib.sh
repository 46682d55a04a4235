#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2154 # llvm: set by the sourcing script
# Helpers of the bench reports (tests/bench/report.sh,
# tests/coverage/bench-report.sh); sourced, needs $llvm.

# median of the numbers on stdin
med() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "nan"; exit }
		printf "%.0f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# calc FORMAT EXPR: EXPR evaluated by awk
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

# wl BENCH_TXT SET: the sum of a set's workloads in a bench.txt
wl() { awk -v s="$2" '$1 == s { t += $3 } END { print t + 0 }' "$1"; }

# cps SMP_TXT MODULE THREADS: calls per second, from the median time
cps() {
	awk -v m="$2" -v t="$3" '$1 == m && $2 == t { print $5 }' "$1" | med |
		awk -v t="$3" -v n="$(awk 'NR == 1 { print $4 }' "$1")" \
			'{ printf "%.0f", t * n / ($1 / 1e9) }'
}

# prf_vmlinux VMLINUX: the bytes of its __llvm_prf_* sections, from their
# bounds, one "name bytes" line per section
prf_vmlinux() {
	"llvm-nm-$llvm" "$1" | awk '
		/ __start___llvm_prf_/ { s[substr($3, 9)] = $1 }
		/ __stop___llvm_prf_/  { e[substr($3, 8)] = $1 }
		END { for (k in s) print k, s[k], e[k] }' |
	while read -r name start stop; do
		echo "$name $(( 0x$stop - 0x$start ))"
	done | sort
}
