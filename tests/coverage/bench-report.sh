#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make coverage-bench's table: each counter kind against the plain kernel,
# measured in one run (tests/coverage.mk), then the correlated coverage
# kernel against the uncorrelated one.
#
# usage: bench-report.sh COVB_DIR LLVM_VERSION MODE=OBJ...
#   MODE: plain, ir, cov, covn, corr, byte (COVB_DIR/MODE holds its bench
#   boots and, in ext/, its test modules)
set -uo pipefail
shopt -s nullglob
d=$(realpath "$1") llvm=$2
shift 2
declare -A obj
modes=()
for a; do obj[${a%%=*}]=$(realpath "${a#*=}"); modes+=("${a%%=*}"); done
declare -A what=([plain]="plain" [ir]="IR PGO counters" [cov]="coverage counters + MC/DC"
	[covn]="coverage counters" [corr]="coverage, correlated" [byte]="single-byte coverage")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/bench/lib.sh
. "$here/../bench/lib.sh"
# field K of read.txt's line for FILE, median of the rounds
rd() { awk -v f="$2" -v k="$3" '$1 == f { print $k }' "$1" | med; }
vm=/sys/kernel/pgo/profraw blob=/sys/module/pgo_blob/blob

echo "== make coverage-bench, LLVM $llvm, $(date -u '+%Y-%m-%d %H:%M') UTC: one run"
echo "   (workloads: guest instructions under -icount, sums of the make run sets;"
echo "    scaling: the counters-only loop, 2 threads on 2 vCPUs / 1 on 1, wall clock;"
echo "    loaded: bytes of vmlinux's __llvm_prf_* sections in kernel memory;"
echo "    read: bytes of one read of vmlinux's profile, and its throughput against"
echo "    a static bin attribute of the same size, 64 KiB read()s, medians)"
printf '%-26s %13s %7s %13s %7s %8s %10s %10s %9s\n' kernel train "/plain" heldout "/plain" \
	"2/1 vCPU" "loaded B" "read B" "read/blob"
pt=$(wl "$d/plain/instr/bench.txt" train 2>/dev/null) ph=$(wl "$d/plain/instr/bench.txt" heldout 2>/dev/null)
declare -A kinds loaded rbytes
for m in "${modes[@]}"; do
	b=$d/$m/instr/bench.txt s=$d/$m/smp/smp.txt r=$d/$m/instr/read.txt
	if [ ! -s "$b" ]; then
		printf '%-26s %s\n' "${what[$m]}" "not measured (see $d-$m.log)"
		continue
	fi
	t=$(wl "$b" train) h=$(wl "$b" heldout)
	sc=- rb=- rr=-
	if [ -s "$s" ]; then
		[ "$m" = plain ] && l=pgo_vp_none || l=pgo_vp_off
		sc=$(calc %.3fx "$(cps "$s" "$l" 2) / $(cps "$s" "$l" 1)")
	fi
	if [ -s "$r" ]; then
		rb=$(rd "$r" $vm 3)
		rr=$(calc %.3fx "($rb / $(rd "$r" $vm 4)) / ($(rd "$r" $blob 3) / $(rd "$r" $blob 4))")
	fi
	kinds[$m]=$(prf_vmlinux "${obj[$m]}/vmlinux")
	loaded[$m]=$(awk '{ t += $2 } END { print t + 0 }' <<<"${kinds[$m]}")
	rbytes[$m]=$rb
	rt=- rh=-
	if [ "${pt:-0}" != 0 ] && [ "${ph:-0}" != 0 ]; then
		rt=$(calc %.3fx "$t / $pt") rh=$(calc %.3fx "$h / $ph")
	fi
	printf '%-26s %13s %7s %13s %7s %8s %10s %10s %9s\n' "${what[$m]}" "$t" \
		"$rt" "$h" "$rh" "$sc" "${loaded[$m]}" "$rb" "$rr"
done
echo
echo "profile sections of vmlinux in kernel memory, by kind (bytes):"
for m in "${modes[@]}"; do
	[ "$m" = plain ] || [ -z "${kinds[$m]:-}" ] && continue
	echo "  ${what[$m]}: $(tr '\n' ' ' <<<"${kinds[$m]}")"
done
for m in cov covn; do
	[ -n "${obj[$m]:-}" ] || continue
	echo "coverage mapping in vmlinux, not loaded (bytes): $(python3 "$here/cov.py" elf "${obj[$m]}/vmlinux" | cut -d' ' -f1)"
	break
done

# Correlated against uncorrelated: what stays in memory and is read,
# against the coverage+MC/DC kernel (the one users measure today) and the
# one without MC/DC; then the same profiles once each is merged the user's
# way (pgo-collect, --binaries for the correlated one), against the kernel
# without MC/DC where there is one (tests/coverage/correlate.config has no
# MC/DC: its LLVM would drop the bitmaps).  Modules the guest ran a fixed
# number of times must have the same llvm-cov export with their counts;
# vmlinux, whose counts differ from boot to boot, the same functions,
# hashes and counters, and nearly the same functions run (cov.py shows).
[ -n "${obj[corr]:-}" ] && [ -n "${loaded[corr]:-}" ] || exit 0
ref=
for m in covn cov; do [ -n "${loaded[$m]:-}" ] && [ -z "$ref" ] && ref=$m; done
if [ -z "$ref" ]; then
	echo
	echo "correlated coverage: no uncorrelated coverage kernel measured (COVB_MODES covn or cov), no comparison"
	exit 0
fi
# Against cov, MC/DC's branches may count differently: told, not failed.
strict=1
[ "$ref" = covn ] || strict=0
echo
echo "correlated against uncorrelated coverage:"
for m in cov covn; do
	if [ -z "${loaded[$m]:-}" ] || [ -z "${loaded[corr]:-}" ] ||
	   [ "${rbytes[$m]}" = - ] || [ "${rbytes[corr]}" = - ]; then
		continue
	fi
	echo "  vmlinux's profile sections in memory against ${what[$m]}: ${loaded[corr]} / ${loaded[$m]} B = $(calc %.1f "100 * ${loaded[corr]} / ${loaded[$m]}")%$([ $m = cov ] && echo " (goal < 15%)")"
	echo "  bytes per read of vmlinux's profile against ${what[$m]}: ${rbytes[corr]} / ${rbytes[$m]} B = $(calc %.1f "100 * ${rbytes[corr]} / ${rbytes[$m]}")%"
done
echo "  the profiles merged, against ${what[$ref]}$([ $ref = cov ] && echo " (MC/DC in one only: its branches' counts may differ)"):"
rc=0
for m in $ref corr; do
	out=$d/$m/collect
	rm -rf "$out" && mkdir -p "$out/none"
	# This LLVM's llvm-profdata, and so its ld.lld and llvm-readelf.
	LLVM_PROFDATA=llvm-profdata-$llvm \
	"$here/../../scripts/pgo/pgo-collect" --sysfs "$out/none" --saved "$d/$m/instr/saved" \
		-o "$out/raw" --binaries "${obj[$m]}" --binaries "$d/$m/ext" \
		--merge-dir "$out/pd" > "$out.txt" 2>&1 ||
		{ echo "  pgo-collect of the $m kernel's profiles failed: $(tail -n 2 "$out.txt")"; exit 1; }
	for p in "$out"/pd/*.profdata; do
		o=$(basename "$p" .profdata)
		# llvm-cov export of the whole-coverage vmlinux needs more
		# than 24 GB: its profile's functions instead.
		if [ "$o" = vmlinux ]; then
			"llvm-profdata-$llvm" show --all-functions --counts "$p" \
				> "$out/$o.show" 2>&1 ||
				{ echo "  llvm-profdata show of $o ($m) failed"; rc=1; }
			continue
		fi
		bin=$(find "$d/$m/ext" -name "$o.ko" | head -n 1)
		"llvm-cov-$llvm" export "$bin" -instr-profile="$p" > "$out/$o.json" 2>/dev/null ||
			{ echo "  llvm-cov export of $o ($m) failed"; rc=1; }
	done
done
objs() { for j in "$d/$1"/collect/pd/*.profdata; do basename "$j" .profdata; done; }
if [ "$(objs $ref)" != "$(objs corr)" ] || [ -z "$(objs $ref)" ]; then
	echo "  objects differ: uncorrelated '$(objs $ref | tr '\n' ' ')', correlated '$(objs corr | tr '\n' ' ')'"
	rc=1
fi
r=$(python3 "$here/cov.py" shows "$d/$ref/collect/vmlinux.show" "$d"/corr/collect/vmlinux.show 2>&1) || rc=1
echo "  llvm-profdata show of vmlinux: $r"
# File names: the test modules' directories, and generated headers named
# relative to each kernel's build directory.
for j in "$d/$ref"/collect/*.json; do
	o=$(basename "$j" .json)
	r=$(python3 "$here/cov.py" same "$j" "$d/corr/collect/$o.json" \
		"$d/$ref/ext/" "$d/corr/ext/" "${obj[$ref]}/" "${obj[corr]}/" 2>&1) ||
		[ $strict = 0 ] || rc=1
	echo "  llvm-cov export of $o, with counts: $r"
done
p=$(wc -c < "$d/corr/instr/saved/pgo_test_module-x.profraw" 2>/dev/null)
k=$(find "$d/corr/ext" -name pgo_test_module.ko | head -n 1)
[ -n "$k" ] && echo "  pgo_test_module: its correlated profile $p B; its .ko's sections: $("llvm-size-$llvm" -A "$k" | awk '/__llvm_(prf|cov)/ { printf "%s %s ", $1, $2 }')"
exit $rc
