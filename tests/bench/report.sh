#!/bin/bash
# make bench's table: figures 1 to 5, each a ratio of two measurements of
# the same run, with the raw numbers beside it.
#
# usage: report.sh BENCH_DIR RUN_DIR INSTR_OBJ PLAIN_OBJ BENCH_EXT LTO_RUN_DIR
#
# Guest figures under -icount are instructions (1 ns = 1 instruction);
# every repeated figure is the median of its rounds.
set -euo pipefail
bench=$1 run=$2 instr=$3 plain=$4 ext=$5 lto=$6
llvm=${instr##*-}
top=$(cd "$(dirname "$0")/../.." && pwd)

# shellcheck source=tests/bench/lib.sh
. "$top/tests/bench/lib.sh"
# field 4 (ns) or 3 (bytes) of read.txt for one file
rd() { awk -v f="$1" -v k="$2" '$1 == f { print $k }' "$bench/instr/read.txt" | med; }
# the bytes of a module's __llvm_prf_* sections
prf_ko() { "llvm-size-$llvm" -A "$1" | awk '/^__llvm_prf_/ { t += $2 } END { print t + 0 }'; }
# text + data + bss
mem() { "llvm-size-$llvm" "$1" | awk 'NR == 2 { print $4 }'; }

row() { printf '%-3s %-44s %8s  %-12s %s\n' "$@"; }
hit() { awk "BEGIN { exit !($1) }" && echo yes || echo NO; }
# the first of the files given that is missing or empty, if any
missing() {
	local f
	for f; do [ -s "$f" ] || { echo "${f#"$bench"/}"; return 0; }; done
	return 1
}
# a row for figures whose measurement failed
nofig() { row "$1" "$2" n/a - "not measured: no $3 (see build/bench.log)"; }
# pgo_row ID WHAT PGO_INSN PLAIN_INSN MAX: a PGO / plain row, target <= MAX
pgo_row() {
	local r
	r=$(calc %.3f "$3 / $4")
	row "$1" "$2" "${r}x" "<=$5 $(hit "$r <= $5")" \
		"$3 | $4 insn ($(calc %.1f "100 * (1 - $3 / $4)")% fewer)"
}

echo "== make bench, LLVM $llvm, $(date -u '+%F %H:%M UTC'): one run, each ratio from measurements side by side"
echo "   (insn: guest instructions under QEMU -icount shift=0; repeated figures are medians)"
echo
row "#" "figure" "ratio" "target" "raw: numerator | denominator"
row "--" "------" "-----" "------" "----------------------------"

# 1. reads
if m=$(missing "$bench/instr/read.txt"); then
	nofig 1 "profile reads" "$m"
else
vm=/sys/kernel/pgo/profraw blob=/sys/module/pgo_blob/blob
s1=/sys/module/pgo_size1/pgo/profraw s2=/sys/module/pgo_size2/pgo/profraw
rounds=$(awk -v f=$vm '$1 == f' "$bench/instr/read.txt" | wc -l)
vb=$(rd $vm 3) vt=$(rd $vm 4) bb=$(rd $blob 3) bt=$(rd $blob 4)
vf=$(rd $vm 5) bf=$(rd $blob 5)
r=$(calc %.3f "($vb / $vt) / ($bb / $bt)")
row 1a "profile read throughput / static bin attr" "${r}x" ">=0.95 $(hit "$r >= 0.95")" \
	"vmlinux profraw $vb B in $vt insn | pgo_blob $bb B in $bt insn ($rounds alternated reads each, 64 KiB read()s; first read(), which writes the value blocks: $vf | $bf insn)"
# What an open reader holds: the value blocks (sized at offset 0 by
# pgo_values_bound(), which is their size unless nodes are handed out
# while they are written); the rest is served from the object.
if [ -s "$bench/instr/vmlinux.profraw" ] &&
	vals=$(python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
from rawcmp import Profile
p = Profile(sys.argv[2])
print(p.offsets["value blocks"][1], len(p.raw))' "$top/tests/host/diff" "$bench/instr/vmlinux.profraw"); then
	read -r vv vall <<< "$vals"
	row 1c "memory per open reader / whole profile" "$(calc %.3f "$vv / $vall")x" "value blocks only" \
		"vmlinux of the embedded default: a reader holds its value blocks, $vv B (pgo_values_bound(): their size, plus 16 B per node handed out while they are written), of the $vall B profile; header, records, counters and names are read from the kernel's sections, page by page"
else
	nofig 1c "memory per open reader" "no copy of vmlinux's profile"
fi
ab=$(rd $s1 3) at=$(rd $s1 4) cb=$(rd $s2 3) ct=$(rd $s2 4)
cf=$(rd $s2 5) af=$(rd $s1 5)
r=$(calc %.3f "$ct / $at")
row 1b "time per read, profile 2x larger" "${r}x" "~2 (linear)" \
	"pgo_size2 (8000 fns) $cb B in $ct insn | pgo_size1 (4000 fns) $ab B in $at insn (bytes $(calc %.2f "$cb / $ab")x; first read() $cf | $af insn)"
fi

# 2. value profiling
if m=$(missing "$bench/instr/vp.txt" "$bench/vp-host.txt"); then
	nofig 2a "VP insn per call, kernel / compiler-rt" "$m"
else
vcalls=$(awk 'NR == 1 { print $3 }' "$bench/instr/vp.txt")
von=$(awk '$1 == "pgo_vp_on" { print $4 }' "$bench/instr/vp.txt" | med)
voff=$(awk '$1 == "pgo_vp_off" { print $4 }' "$bench/instr/vp.txt" | med)
read -r _ hcalls hon < <(grep '^on ' "$bench/vp-host.txt")
read -r _ _ hoff < <(grep '^off ' "$bench/vp-host.txt")
g=$(calc %.2f "($von - $voff) / $vcalls") h=$(calc %.2f "($hon - $hoff) / $hcalls")
r=$(calc %.3f "$g / $h")
row 2a "VP insn per call, kernel / compiler-rt" "${r}x" "<=1.0 $(hit "$r <= 1.0")" \
	"guest $g = ($von - $voff insn) / $vcalls calls | host $h = ($hon - $hoff Ir) / $hcalls calls (callgrind)"
fi
if m=$(missing "$bench/smp/smp.txt"); then
	nofig 2b "VP throughput, 2 vCPUs / 1" "$m"
else
smp=$bench/smp/smp.txt
on1=$(cps "$smp" pgo_vp_on 1) on2=$(cps "$smp" pgo_vp_on 2) off1=$(cps "$smp" pgo_vp_off 1) off2=$(cps "$smp" pgo_vp_off 2)
r=$(calc %.3f "$on2 / $on1")
sr=$(awk '$1 == "pgo_vp_on" && $2 == 1 { n++ } END { print n }' "$bench/smp/smp.txt")
row 2b "VP throughput, 2 threads on 2 vCPUs / 1 on 1" "${r}x" "~2" \
	"$(calc %.2f "$on2 / 1e6") | $(calc %.2f "$on1 / 1e6") Mcalls/s (wall, no -icount, $sr alternated rounds); same loop with counters but no VP: $(calc %.2f "$off2 / 1e6") | $(calc %.2f "$off1 / 1e6") = $(calc %.3f "$off2 / $off1")x$(
	if grep -q '^pgo_vp_none ' "$bench/smp/smp.txt"; then
		n1=$(cps "$smp" pgo_vp_none 1) n2=$(cps "$smp" pgo_vp_none 2)
		echo "; not instrumented: $(calc %.2f "$n2 / 1e6") | $(calc %.2f "$n1 / 1e6") = $(calc %.3f "$n2 / $n1")x"
	fi)"
if grep -q '^pgo_vp_none ' "$bench/smp/smp.txt" &&
   [ "$(hit "$(cps "$smp" pgo_vp_none 2) < 1.8 * $(cps "$smp" pgo_vp_none 1)")" = yes ]; then
	echo "    2b: NOT MEANINGFUL in this run: the uninstrumented loop did not scale to ~2x, so the host did not give the two vCPUs two free cores (other load)"
fi
fi

# 3, 4. workloads
if m=$(missing "$run/plain/bench.txt" "$run/pgo/bench.txt" "$bench/instr/bench.txt"); then
	nofig 3 "workloads" "$m"
else
pt=$(wl "$run/plain/bench.txt" train) ph=$(wl "$run/plain/bench.txt" heldout)
it=$(wl "$bench/instr/bench.txt" train)
gt=$(wl "$run/pgo/bench.txt" train) gh=$(wl "$run/pgo/bench.txt" heldout)
r=$(calc %.3f "$it / $pt")
row 3 "instrumented / plain, training workload" "${r}x" "<=1.25 $(hit "$r <= 1.25")" \
	"$it | $pt insn"
pgo_row 4a "PGO / plain, training workload" "$gt" "$pt" 0.90
pgo_row 4b "PGO / plain, held-out workload" "$gh" "$ph" 0.97
fi

# 4c, 4d. the same cycle with ThinLTO: plain, instrumented and PGO kernels
# all built with CONFIG_LTO_CLANG_THIN (make run LTO=thin, this make bench).
# The targets are issue 15's (20% and 10% fewer instructions): ThinLTO
# lets the profile drive inlining across files, not only within them.
if m=$(missing "$lto/plain/bench.txt" "$lto/pgo/bench.txt"); then
	nofig 4c "workloads with ThinLTO" "$m"
else
pt=$(wl "$lto/plain/bench.txt" train) ph=$(wl "$lto/plain/bench.txt" heldout)
gt=$(wl "$lto/pgo/bench.txt" train) gh=$(wl "$lto/pgo/bench.txt" heldout)
pgo_row 4c "PGO+ThinLTO / plain+ThinLTO, training" "$gt" "$pt" 0.80
pgo_row 4d "PGO+ThinLTO / plain+ThinLTO, held-out" "$gh" "$ph" 0.90
fi
for r in "$run" "$lto"; do
	echo "    4: PGO build of ${r##*/}: $(cat "$r/pgo-warnings.txt" 2>/dev/null ||
		echo "no profile-warnings summary")"
done

# 5. build
if m=$(missing "$bench/build-time.txt"); then
	nofig 5a "build time" "$m"
else
read -r dirs < <(sed -n 's/^dirs //p' "$bench/build-time.txt")
read -r _ pn pw pc < <(grep '^plain ' "$bench/build-time.txt")
read -r _ _ iw ic < <(grep '^instr ' "$bench/build-time.txt")
row 5a "build time, instrumented / plain (CPU)" "$(calc %.3f "$ic / $pc")x" "-" \
	"$ic | $pc CPU s; wall $iw | $pw s = $(calc %.3f "$iw / $pw")x (cores busy $(calc %.2f "$ic / $iw") | $(calc %.2f "$pc / $pw")): the $pn C objects (clang + objtool) of $dirs both trees build, no ccache, $(nproc) jobs"
fi
iv=$(stat -c %s "$instr/vmlinux") pv=$(stat -c %s "$plain/vmlinux")
im=$(mem "$instr/vmlinux") pm=$(mem "$plain/vmlinux")
row 5b "vmlinux size, instrumented / plain" "$(calc %.3f "$iv / $pv")x" "-" \
	"file $iv | $pv B; loaded (text+data+bss) $im | $pm B = $(calc %.3f "$im / $pm")x"
prf=$(prf_vmlinux "$instr/vmlinux")
pt_sum=$(awk '{ t += $2 } END { print t }' <<< "$prf")
ko=$(prf_ko "$ext/test_modules/pgo_test_module.ko")
kot=$("llvm-size-$llvm" -A "$ext/test_modules/pgo_test_module.ko" | awk '$1 == "Total" { print $2 }')
row 5c "profile sections / plain vmlinux (memory)" "$(calc %.3f "$pt_sum / $pm")x" "-" \
	"vmlinux __llvm_prf_* $pt_sum B ($(tr '\n' ' ' <<< "$prf" | sed 's/ $//')) | $pm B loaded; pgo_test_module.ko: $ko of $kot B"

# What the instrumented config has besides instrumentation (pgo.config).
extra=$(for a in "$instr/lib/kunit/built-in.a" "$instr/kernel/pgo/built-in.a"; do
	[ -f "$a" ] && "llvm-size-$llvm" "$a" | awk 'NR > 1 { t += $4 } END { print t + 0 }'
done | awk '{ t += $1 } END { print t + 0 }')
echo "    5b: the instrumented config also has CONFIG_KUNIT and the PGO runtime and KUnit test (tests/qemu/pgo.config): $extra B of text+data+bss in lib/kunit/ and kernel/pgo/"

missing "$run/plain/bench.txt" "$run/pgo/bench.txt" "$bench/instr/bench.txt" > /dev/null &&
	exit 0
echo
echo "Workloads (insn): instrumented and PGO against plain"
printf '%-8s %-10s %12s %12s %12s %8s %8s\n' set workload plain instr pgo instr/pl pgo/pl
while read -r set name p; do
	i=$(awk -v s="$set" -v n="$name" '$1 == s && $2 == n { print $3 }' "$bench/instr/bench.txt")
	o=$(awk -v s="$set" -v n="$name" '$1 == s && $2 == n { print $3 }' "$run/pgo/bench.txt")
	printf '%-8s %-10s %12d %12d %12d %8.3f %8.3f\n' "$set" "$name" "$p" "$i" "$o" \
		"$(calc %f "$i / $p")" "$(calc %f "$o / $p")"
done < "$run/plain/bench.txt"
