#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make coverage-bench's table: each counter kind against the plain kernel,
# measured in one run (tests/coverage.mk).
#
# usage: bench-report.sh COVB_DIR LLVM_VERSION PLAIN_OBJ IR_OBJ COV_OBJ BYTE_OBJ
set -uo pipefail
d=$1 llvm=$2
declare -A obj=([plain]=$3 [ir]=$4 [cov]=$5 [byte]=$6)
declare -A what=([plain]="plain" [ir]="IR PGO counters" [cov]="coverage counters + MC/DC" [byte]="single-byte coverage")
# shellcheck source=tests/bench/lib.sh
. "$(dirname "$0")/../bench/lib.sh"

echo "== make coverage-bench, LLVM $llvm, $(date -u '+%Y-%m-%d %H:%M') UTC: one run"
echo "   (workloads: guest instructions under -icount, sums of the make run sets;"
echo "    scaling: the counters-only loop, 2 threads on 2 vCPUs / 1 on 1, wall clock)"
printf '%-28s %14s %8s %14s %8s %10s %12s\n' kernel train "/plain" heldout "/plain" "2/1 vCPU" "prf bytes"
pt=$(wl "$d/plain/instr/bench.txt" train 2>/dev/null) ph=$(wl "$d/plain/instr/bench.txt" heldout 2>/dev/null)
for m in plain ir cov byte; do
	b=$d/$m/instr/bench.txt s=$d/$m/smp/smp.txt
	if [ ! -s "$b" ]; then
		printf '%-28s %s\n' "${what[$m]}" "not measured (see $d-$m.log)"
		continue
	fi
	t=$(wl "$b" train) h=$(wl "$b" heldout)
	sc=-
	[ -s "$s" ] && sc=$(calc %.3fx "$(cps "$s" pgo_vp_off 2) / $(cps "$s" pgo_vp_off 1)")
	[ "$m" = plain ] && [ -s "$s" ] && sc=$(calc %.3fx "$(cps "$s" pgo_vp_none 2) / $(cps "$s" pgo_vp_none 1)")
	bytes=$(prf_vmlinux "${obj[$m]}/vmlinux" | awk '{ t += $2 } END { print t + 0 }')
	printf '%-28s %14s %8s %14s %8s %10s %12s\n' "${what[$m]}" "$t" \
		"$(calc %.3fx "$t / $pt")" "$h" "$(calc %.3fx "$h / $ph")" "$sc" "$bytes"
done
echo
echo "profile sections of vmlinux, by kind (bytes):"
for m in ir cov byte; do
	echo "  ${what[$m]}: $(prf_vmlinux "${obj[$m]}/vmlinux" | tr '\n' ' ')"
done
echo "coverage mapping in vmlinux, not loaded (bytes): $(python3 "$(dirname "$0")/cov.py" elf "${obj[cov]}/vmlinux" | cut -d' ' -f1)"
