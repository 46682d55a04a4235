#!/bin/bash
# Judge `make torture` (tests/torture.mk, tests/guest-torture/10-torture.sh)
# on the host: no kernel splat, every completed read a valid profile,
# nothing of kernel/pgo leaked, the bad-input matrix as expected; print the
# figures.
# usage: check-torture.sh LLVM_VERSION KBUILD_DIR TORTURE_OUT_DIR
set -uo pipefail
LLVM_VERSION=$1 obj=$2 tout=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
out=$tout/guest
D=$out/torture
LD=$tout/guest-lockdown/torture
ext=$(dirname "$obj")/ext-debug-$LLVM_VERSION/test_modules

# tests/check-guest.sh runs every check-*.sh on the normal guest's results:
# nothing of the torture there.
if [ ! -d "$out" ]; then
	echo "check-torture.sh: no torture run in $tout (see make torture); skipped"
	exit 0
fi
if [ ! -d "$D" ]; then
	fail "no torture results in $D"
	grep -q '^guest: up' "$out/console.log" 2>/dev/null ||
		echo "the guest never reached /init; the console ends with:"
	grep -q 'Linux version' "$out/console.log" 2>/dev/null ||
		echo "(no kernel output at all: it died before its console came up;" \
			"TORTURE_APPEND='earlyprintk=serial,ttyS0' shows more)"
	tail -15 "$out/console.log" 2>/dev/null
	summary "torture checks"
	exit 1
fi
[ "$(cat "$out/10-torture.rc" 2>/dev/null)" = 0 ] && grep -qx done "$out/10-torture.log" &&
	pass "guest torture script ran to the end" ||
	fail "guest torture script (rc $(cat "$out/10-torture.rc" 2>/dev/null), see $out/10-torture.log)"
read -r _ iters _ keep _ ncpu _ < "$D/params.txt"
# The workers race each other and the hammer on every vCPU: one is no test.
[ "${ncpu:-0}" -ge 2 ] && pass "the guest ran on $ncpu vCPUs" ||
	fail "the guest ran on ${ncpu:-?} vCPU(s); the races need 2 or more (QEMU_SMP, the MP table)"

# ---------------------------------------------------------------- splats
# dmesg as saved at the end, and the console (which also has what came
# after the last save, up to a crash).
splat_re='BUG:|WARNING:|Oops|general protection|Kernel panic|KASAN|UBSAN:|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|self-detected stall|rcu_.* detected stalls|soft lockup|blocked for more than|sleeping function called from invalid context|DEBUG_LOCKS_WARN_ON|list_add corruption|list_del corruption|ODEBUG:|kmemleak: .*error|Call Trace'
cat "$out/dmesg.txt" "$out/console.log" "$tout/guest-lockdown/console.log" \
	"$tout/guest-lockdown/dmesg.txt" 2>/dev/null |
	grep -E "$splat_re" | grep -v 'kasan: KernelAddressSanitizer initialized' \
	> "$out/splats.txt"
splats=$(grep -cE 'BUG:|WARNING:|Oops|general protection|Kernel panic|UBSAN:|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|self-detected stall|soft lockup|blocked for more than|sleeping function called|DEBUG_LOCKS_WARN_ON|corruption|ODEBUG:' "$out/splats.txt")
if [ -s "$out/splats.txt" ]; then
	fail "kernel splats: $splats (see $out/splats.txt)"
	head -20 "$out/splats.txt"
else
	pass "no BUG/WARNING/KASAN/UBSAN/lockdep/RCU/hung-task report in dmesg or on the console"
fi

# ---------------------------------------------------------------- reads
# Every completed read was checked in the guest (pgotest rawcheck); the kept
# ones (all module and retained reads, every n-th vmlinux read) are checked
# here again, and by llvm-profdata.
cat "$D"/reader-*.log > "$out/reads.txt" 2>/dev/null
reads_ok=$(grep -c '^read [^ ]* [0-9]* ok ' "$out/reads.txt")
reads_bad=$(grep -c '^read [^ ]* [0-9]* bad ' "$out/reads.txt")
reads_fail=$(grep -c '^read [^ ]* [0-9]* fail ' "$out/reads.txt")
vm_ok=$(grep -c '^read vmlinux [0-9]* ok ' "$out/reads.txt")
vm_fail=$(grep -c '^read vmlinux [0-9]* fail ' "$out/reads.txt")
live_ok=$(grep -c '^read live-[^ ]* [0-9]* ok ' "$out/reads.txt")
ret_ok=$(grep -c '^read retained-[^ ]* [0-9]* ok ' "$out/reads.txt")
[ "$reads_bad" = 0 ] && pass "every completed read has a valid raw layout in the guest ($reads_ok)" ||
	{ fail "$reads_bad completed reads with a broken layout"; grep ' bad ' "$out/reads.txt" | head; }
vm_all=$(grep -c '^read vmlinux ' "$out/reads.txt")
# A read during which the resetter reset vmlinux fails with ESTALE (the ABI:
# never counters from both sides of a reset); every other one completes.
vm_stale=$(grep -c '^read vmlinux [0-9]* fail ESTALE$' "$out/reads.txt")
[ $((vm_ok + vm_stale)) = "$vm_all" ] && [ "$vm_ok" -ge 2 ] &&
	pass "vmlinux reads: $vm_ok of $vm_all completed, $vm_stale ESTALE (a reset during the read)" ||
	fail "vmlinux reads: $vm_ok of $vm_all completed, $vm_fail failed ($vm_stale ESTALE)"
# Module reads may only fail because the file went away, or (ESTALE)
# because the module was reset during the read (dd's and cat's errno is
# told from their message: EDD or ECAT is another one).
odd=$(grep '^read [^ ]* [0-9]* fail ' "$out/reads.txt" |
	grep -vE ' fail (ENOENT|ENODEV|ESTALE)$' | head -5)
[ -z "$odd" ] && pass "failed reads ($reads_fail) all because the module or profile went away, or a reset came during them" ||
	fail "reads failed otherwise: $odd"
failures=$(grep '^read [^ ]* [0-9]* fail ' "$out/reads.txt" | awk '{ print $5 }' |
	sort | uniq -c | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')

gcc -static -O2 -o "$tout/pgotest-host" "$here/guest/pgotest.c" 2>/dev/null
validate() {
	local f=$1
	"$tout/pgotest-host" rawcheck "$f" > /dev/null &&
		"llvm-profdata-$LLVM_VERSION" show --all-functions --counts --ic-targets \
			--memop-sizes "$f" > /dev/null 2>&1 &&
		"llvm-profdata-$LLVM_VERSION" merge -o /dev/null "$f" > /dev/null 2>&1 &&
		echo "valid $f" || echo "rejected $f"
}
export -f validate
export LLVM_VERSION tout
find "$D/reads" "$D/cases" -name '*.profraw' ! -name 'crafted-*' ! -name 'seek-mid*' \
	! -name 'bad-*' ! -name 'unload-read*' > "$out/kept.txt" 2>/dev/null
# The read across an unload is a profile only if it completed.
grep -q $'^read across unload\t.*reader complete' "$D/badinput.txt" &&
	echo "$D/cases/unload-read.profraw" >> "$out/kept.txt"
# multiread outputs have no .profraw suffix.
find "$D/cases" -name 'multi.*' -o -name 'multihammer.*' >> "$out/kept.txt"
xargs -a "$out/kept.txt" -P "$(nproc)" -I{} bash -c 'validate {}' > "$out/validated.txt"
validated=$(grep -c '^valid ' "$out/validated.txt")
rejected=$(grep -c '^rejected ' "$out/validated.txt")
kept=$(wc -l < "$out/kept.txt")
[ "$rejected" = 0 ] && [ "$validated" = "$kept" ] && [ "$kept" -gt 0 ] &&
	pass "llvm-profdata-$LLVM_VERSION accepts all $validated kept reads" ||
	{ fail "llvm-profdata-$LLVM_VERSION rejected $rejected of $kept kept reads"; grep ^rejected "$out/validated.txt" | head; }
rejected=$((rejected + reads_bad))

# ---------------------------------------------------------------- workers
cat "$D/loader-test.log" "$D/loader-hammer.log" > "$out/loads.txt"
loads=$(grep -c '^load .* ok$' "$out/loads.txt")
unloads=$(grep -c '^unload .* ok$' "$out/loads.txt")
lfail=$(grep -cE '^(load|unload) .* fail$' "$out/loads.txt")
[ "$loads" = $((2 * iters)) ] && [ "$unloads" = $((2 * iters)) ] &&
	pass "all $loads loads and $unloads unloads succeeded" ||
	fail "loads $loads, unloads $unloads of $((2 * iters)) each; $lfail failed"

resets=$(grep -c '^reset .* ok [0-9]*$' "$D/resetter.log")
reset_gone=$(grep -cE '^reset .* (ENOENT|ENODEV)$' "$D/resetter.log")
reset_odd=$(grep '^reset ' "$D/resetter.log" | grep -vE ' (ok [0-9]+|ENOENT|ENODEV)$' | head -3)
reset_kinds=$(grep '^reset .* ok [0-9]*$' "$D/resetter.log" | awk '{ sub(/-.*/, "", $2); print $2 }' |
	sort | uniq -c | awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }')
[ -z "$reset_odd" ] && pass "resets: $resets done, $reset_gone found their file gone" ||
	fail "resets failed otherwise: $reset_odd"
rk_odd=$(grep '^retain_kb ' "$D/resetter.log" | grep -v ' ok [0-9]*$' | head -3)
[ -z "$rk_odd" ] && pass "retain_kb writes during the run all accepted" ||
	fail "retain_kb writes: $rk_odd"

# Value-profiling calls of pgo_hammer: run and irq_run call on every CPU,
# local_run on the writer's.  pgo_test_module's run=N makes 3 per call.
cat "$D"/hammer*.log "$D/loader-hammer.log" | grep '^hammer ' > "$out/hammer.txt"
hcalls=$(awk -v c="$ncpu" '$6 == "ok" { n = $5; if ($4 != "local_run") n *= c; s += n }
	END { print s + 0 }' "$out/hammer.txt")
hwrites=$(awk '$6 == "ok"' "$out/hammer.txt" | wc -l)
hgone=$(awk '$6 == "ENOENT" || $6 == "ENODEV"' "$out/hammer.txt" | wc -l)
hodd=$(awk '$6 != "ok" && $6 != "ENOENT" && $6 != "ENODEV"' "$out/hammer.txt" | head -3)
[ -z "$hodd" ] && pass "pgo_hammer writes: $hwrites ran, $hgone found the module unloaded" ||
	fail "pgo_hammer writes failed otherwise: $hodd"
tcalls=$(awk '$1 == "drive" && $6 == "ok" { s += $5 } END { print 3 * s }' "$D/loader-test.log")

# ---------------------------------------------------------------- dropped
grep -h 'value node pool exhausted' "$out/dmesg.txt" > "$out/dropped.txt"
dropped=$(sed -n 's/.*exhausted, \([0-9]*\) values dropped.*/\1/p' "$out/dropped.txt" |
	awk '{ s += $1 } END { print s + 0 }')
dropped_lines=$(wc -l < "$out/dropped.txt")

# ---------------------------------------------------------------- kmemleak
if grep -q 'kmemleak: on' "$D/kmemleak-state.txt" 2>/dev/null; then
	leaks=$(grep -c '^unreferenced object' "$D/kmemleak.txt")
	awk '/^unreferenced object/ { if (obj != "" && hit) print obj; obj = $0; hit = 0; next }
	     /pgo/ { hit = 1; obj = obj "\n" $0; next } { obj = obj "\n" $0 }
	     END { if (obj != "" && hit) print obj }' "$D/kmemleak.txt" > "$out/kmemleak-pgo.txt"
	pgoleaks=$(grep -c '^unreferenced object' "$out/kmemleak-pgo.txt")
	[ "$pgoleaks" = 0 ] && pass "kmemleak: nothing with pgo in its backtrace ($leaks other suspects)" ||
		{ fail "kmemleak: $pgoleaks leaks from pgo"; head -40 "$out/kmemleak-pgo.txt"; }
else
	fail "kmemleak did not run: $(cat "$D/kmemleak-state.txt" 2>/dev/null)"
	leaks=- pgoleaks=-
fi

# ---------------------------------------------------------------- bad input
# The pool of pgo_hammer.ko and its value sites, for the exact drop count.
ko=$ext/pgo_hammer.ko
sect_size() {
	readelf -SW "$ko" 2>/dev/null | sed 's/^ *\[ *[0-9]*\]//' |
		awk -v s="$1" '$1 == s { print $5 }'
}
vnds=$(sect_size __llvm_prf_vnds)
vals=$(sect_size __llvm_prf_vals)
pool=$(( 16#${vnds:-0} / 24 ))
sites=$(( 16#${vals:-0} / 8 ))
# 6400 calls on one CPU through 64 targets in turn: the first $pool
# targets get a node each, every call to the others is dropped.
want_drop=$(( 6400 - 100 * (pool < 64 ? pool : 64) ))
echo "pgo_hammer.ko: $sites value site(s), a pool of $pool nodes: expect $want_drop dropped"

E='insmod ok, pgo absent, log:'
expect() {
	cat <<EOF
reset '0'	^EINVAL$
reset '2'	^EINVAL$
reset '-1'	^EINVAL$
reset '1x'	^EINVAL$
reset '11'	^EINVAL$
reset ' 1'	^EINVAL$
reset 'one'	^EINVAL$
reset '1\n\n'	^EINVAL$
reset '\n'	^EINVAL$
reset empty write	^ok 0$
reset page of garbage	^EINVAL$
reset 1 MiB of 1s	^EINVAL$
reset 1 as uid 65534	^EACCES$
reset read	^EACCES$
profraw write	^EACCES$
profraw read as uid 65534	^EACCES$
pread past the end	^ok 0$
pread at 2^62	^ok 0$
pread at -1	^EINVAL$
pread at an odd offset	^ok 333$
pread of 0 bytes	^ok 0$
lseek to -1	^s:-1:SET=EINVAL$
lseek to the end	^s:0:END=ok 0$
lseek SEEK_DATA	^s:0:DATA=ENXIO$
lseek SEEK_HOLE	^s:0:HOLE=ENXIO$
lseek past the end, read	^s:1000000000:SET=ok 1000000000 r:4096=ok 0$
read 4 KiB, lseek 0, read all	^ok [0-9]+ [0-9]+$
read to EOF, read, lseek 0, read all	^4 ops ok, ok [0-9]+ [0-9]+$
read 4 KiB, lseek 100, read 1000	^r:4096=ok 4096 s:100:SET=ok 100 r:1000=ok 1000 s:0:CUR=ok 1100$
module reset 0	^EINVAL$
module reset 1 and a newline	^ok 2$
module profraw write	^EACCES$
17 readers in turns, 256 bytes a read	^16 complete and valid, 1 ESTALE$
24 readers with pauses during the hammer	^16 complete and valid, 8 ESTALE, 0 other$
read across unload	^rmmod 0, reader (complete [0-9]+, ok|ENODEV)$
retained reset 2	^EINVAL$
retained reset 1	^ok 1$
retained reset 1 again	^ENOENT$
retain_kb abc	^EINVAL$
retain_kb -1	^EINVAL$
retain_kb 1, unload	^retained absent, 1 not-retained line\(s\)$
retain_kb 0, unload	^retained absent$
crafted data_truncated	^$E data section is not a whole number of aligned records$
crafted counters_after	^$E a record's counters lie outside the counters section$
crafted counters_before	^$E a record's counters lie outside the counters section$
crafted numcounters_huge	^$E a record's counters lie outside the counters section$
crafted numcounters_zero	^$E a record has no counters$
crafted values_outside	^$E a record's value sites are outside their section or shared$
crafted values_overlap	^$E a record's value sites are outside their section or shared$
crafted values_prefilled	^$E a value site's list is not empty before any code ran$
crafted data_readonly	^$E its __llvm_prf_data section is not writable data$
crafted no_counters	^$E a record's counters lie outside the counters section$
crafted no_names	^$E records but no names section$
crafted no_values	^$E a record's value sites are outside their section or shared$
crafted no_data	^$E it has counters but no __llvm_prf_data section \(correlated, and this kernel is not\?\)$
crafted duplicate	^insmod ok, pgo absent, log: 2 __llvm_prf_cnts sections, not one \(linked by GNU ld without --force-group-allocation\?\)$
crafted unknown	^insmod ok, pgo present, read ok [0-9]+ [0-9]+, no log line$
crafted bitmap	^insmod ok, pgo present, read ok [0-9]+ [0-9]+, no log line$
value node pool exhausted	^1 line\(s\): $want_drop values dropped$
kprobe on __llvm_profile_instrument_target	^blacklisted, E[A-Z]+$
kprobe on __llvm_profile_instrument_memop	^blacklisted, E[A-Z]+$
kprobe on pgo_object_of	^blacklisted, E[A-Z]+$
function tracer and kprobe during the hammer	^ok [0-9]+, tracer function, vmlinux ok, module ok, kprobe hits [1-9][0-9]*$
lockdown raised to confidentiality	^ok 15, .*\[confidentiality\]
lockdown: vmlinux profraw read	^EPERM$
lockdown: module profraw read	^EPERM$
lockdown: retained profraw read	^EPERM$
lockdown: cat vmlinux profraw	^exit 1, 0 bytes$
EOF
	# The short boot with lockdown=confidentiality (not in torture-ci).
	[ -d "$LD" ] || return 0
	cat <<EOF
lockdown boot: lockdown	\[confidentiality\]
lockdown boot: vmlinux-read	^EPERM$
lockdown boot: vmlinux-pread	^EPERM$
lockdown boot: vmlinux-cat-bytes	^0$
EOF
}
# The lockdown boot's facts join the table.
cp "$D/badinput.txt" "$out/badinput-all.txt"
sed -n 's/^\(lockdown\|vmlinux-[a-z-]*\): \(.*\)/lockdown boot: \1\t\2/p' \
	"$LD/lockdown-boot.txt" >> "$out/badinput-all.txt" 2>/dev/null
table=$out/badinput-table.txt
{
	printf '%-40s | %-70s | %s\n' case expected got
	ncase=0 nbad=0
	while IFS=$'\t' read -r name re; do
		got=$(N=$name awk -F'\t' '$1 == ENVIRON["N"] { $1 = ""; sub(/^ /, ""); print; exit }' "$out/badinput-all.txt")
		ncase=$((ncase + 1))
		if grep -qE -- "$re" <<< "$got" && [ -n "$got" ]; then v=ok; else v=MISMATCH; nbad=$((nbad + 1)); fi
		printf '%-40s | %-70s | %s%s\n' "$name" "$re" "${got:-(none)}" "$([ $v = ok ] || echo '   <== MISMATCH')"
	done < <(expect)
	echo "$ncase cases, $nbad mismatches"
} > "$table"
cat "$table"
nbad=$(awk '/ cases, / { print $3 }' "$table")
ncase=$(awk '/ cases, / { print $1 }' "$table")
[ "$nbad" = 0 ] && pass "bad-input matrix: all $ncase cases as expected" ||
	fail "bad-input matrix: $nbad of $ncase cases differ"
missing=$(awk -F'\t' '{ print $1 }' "$D/badinput.txt" | while read -r c; do
	expect | cut -f1 | grep -qxF -- "$c" || echo "$c"; done)
[ -z "$missing" ] || fail "guest cases without an expectation: $missing"

# Crafted modules that were profiled anyway: what their profile looks like.
for f in "$D"/cases/crafted-*.profraw; do
	[ -e "$f" ] || continue
	echo "profiled crafted module $(basename "$f"): $("$tout/pgotest-host" rawcheck "$f" | cut -d' ' -f1,3-);" \
		"llvm-profdata: $("llvm-profdata-$LLVM_VERSION" show "$f" 2>&1 | grep -m1 -iE 'error|warning|Total functions' || true)"
done

# The exhausted pool: the first $pool targets, 100 calls each, in the
# profile read right after the 6400 single-CPU calls.
if [ -s "$D/cases/hammer-1.profraw" ]; then
	profdata show --ic-targets --function=pgo_hammer_call "$D/cases/hammer-1.profraw" \
		> "$out/hammer-ic.txt" 2>&1
	n=$(grep -cE '\[ *[0-9]+, *([^ ]*[;:])?pgo_hammer_t[0-7]+, *100 \]' "$out/hammer-ic.txt")
	[ "$n" = "$((pool < 64 ? pool : 64))" ] &&
		pass "exhausted pool keeps $n targets with 100 calls each" ||
		fail "exhausted pool: $n targets with 100 calls (expected $pool); see $out/hammer-ic.txt"
fi

# ---------------------------------------------------------------- figures
times=$(tr '\n' ' ' < "$D/times.txt" 2>/dev/null)
workers=$(for f in "$D"/reader-*.log "$D"/loader-*.log "$D"/resetter.log "$D"/hammer*.log; do
	awk -v w="$(basename "$f" .log)" '$1 == "start" { s = $2 } $1 == "end" { e = $2 }
		END { if (e) printf "%s %.0f, ", w, e - s }' "$f"; done | sed 's/, $//')
cat <<EOF

torture figures (LLVM $LLVM_VERSION, $ncpu vCPUs)
  iterations                 $iters per worker
  reads completed            $((reads_ok + reads_bad)) (vmlinux $vm_ok, live modules $live_ok, retained $ret_ok)
  reads interrupted          $reads_fail (${failures:-none})
  reads checked in guest     $((reads_ok + reads_bad)), $reads_bad bad
  reads validated on host    $validated of $kept kept (llvm-profdata-$LLVM_VERSION show + merge)
  loads / unloads            $loads / $unloads ($lfail failed)
  resets                     $resets (${reset_kinds:-none}); $reset_gone found the file gone
  value-profiling calls      pgo_hammer $hcalls ($hwrites writes), pgo_test_module $tcalls
  values dropped             $dropped, in $dropped_lines log line(s)
  splats                     $splats
  rejected files             $rejected
  kmemleak                   $leaks suspects, $pgoleaks from pgo
  guest times (s)            $times
  worker times (s)           $workers
EOF
cat "$out/host-times.txt" 2>/dev/null
summary "torture checks"
