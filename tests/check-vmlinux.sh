#!/bin/bash
# vmlinux profile: files, validity, real counts, value profiling, bad input.
# usage: check-vmlinux.sh LLVM_VERSION KBUILD_DIR GUEST_OUT_DIR
set -uo pipefail
LLVM_VERSION=$1 obj=$2 out=$3
. "$(dirname "$0")/lib.sh"
D=$out/vmlinux

[ -f "$out/10-vmlinux.rc" ] && [ "$(cat "$out/10-vmlinux.rc")" = 0 ] &&
	pass "guest script ran" || fail "guest script ran (see $out/10-vmlinux.log)"

# Modes and owners.
grep -qx '/sys/kernel/pgo/profraw 400 root root' "$D/modes.txt" &&
	pass "profraw is 0400 root" || fail "profraw mode: $(cat "$D/modes.txt")"
grep -qx '/sys/kernel/pgo/reset 200 root root' "$D/modes.txt" &&
	pass "reset is 0200 root" || fail "reset mode: $(cat "$D/modes.txt")"

# Every copy is a profile llvm-profdata accepts.
for f in cat cat2 cp dd4k dd1m before after after-bad reset busy busy4k conc1 conc2 conc3; do
	check "$f.profraw accepted by llvm-profdata-$LLVM_VERSION show and merge" \
		profile_valid "$D/$f.profraw"
done
cmp -s "$D/cat.profraw" "$D/dd4k.profraw" || true

# Coverage: functions in the profile vs records in vmlinux.
# Records in vmlinux: its __llvm_prf_data over the record size of its raw
# version (tests/build/name-collisions.py reads both).
expected=$("$(dirname "$0")/build/name-collisions.py" "$obj/vmlinux" |
	awk '/ records, / && !n++ { print $2 }')
got=$(profdata show --all-functions "$D/cat.profraw" 2>/dev/null |
	awk '/^Total functions:/ { print $3 }')
echo "functions: $got in profile, $expected records in vmlinux"
[ -n "$got" ] && [ "$expected" -gt 0 ] && [ $((got * 100)) -ge $((expected * 90)) ] &&
	pass "profile has >= 90% of vmlinux's functions ($got/$expected)" ||
	fail "profile has $got of $expected functions"

# Static functions are named by their path in the tree, "kernel/sys.c;f"
# (';' from clang 18, ':' before): none by the build directory's path, none
# by the file's name alone (tests/build/name-collisions.py).
statics=$("$(dirname "$0")/build/name-collisions.py" --names "$obj/vmlinux" | grep -E '[;:]')
n_static=$(grep -c . <<<"$statics")
n_sys=$(grep -c -E '^kernel/sys\.c[;:]' <<<"$statics")
n_dir=$(grep -c -E '^(/|\.\./)' <<<"$statics")
n_base=$(grep -c -E '^sys\.c[;:]' <<<"$statics")
echo "static functions: $n_static; of kernel/sys.c $n_sys; named by the build directory $n_dir, by sys.c alone $n_base"
[ "$n_sys" -gt 0 ] && [ "$n_dir" = 0 ] && [ "$n_base" = 0 ] &&
	pass "static functions named by their path in the tree ($n_sys of kernel/sys.c)" ||
	fail "static functions' names: $(grep -m3 -E '^(/|\.\./|sys\.c)' <<<"$statics" | tr '\n' ' ')"

# Real counts: 10000 getppid() between two reads, in the architecture's
# syscall wrapper (__x64_sys_getppid, __arm64_sys_getppid).
getppid=$(getppid_wrapper "$obj")
b=$(func_count "$D/before.profraw" "$getppid")
a=$(func_count "$D/after.profraw" "$getppid")
delta=$(( ${a:-0} - ${b:-0} ))
echo "$getppid: before $b, after $a, delta $delta (expected 10000)"
[ "$delta" -ge 9900 ] && [ "$delta" -le 10100 ] &&
	pass "getppid x10000 counted within 1% ($delta)" ||
	fail "getppid delta $delta, expected 10000 +- 1%"

# Bad writes change nothing; reset zeroes.
ab=$(func_count "$D/after-bad.profraw" "$getppid")
[ "${ab:-0}" -ge "${a:-1}" ] && pass "bad writes did not reset ($ab >= $a)" ||
	fail "bad writes reset the counters ($ab < $a)"
r=$(func_count "$D/reset.profraw" "$getppid")
echo "after reset: $getppid = $r"
[ -n "$r" ] && [ "$r" -le 5 ] && pass "reset zeroes counters ($r)" ||
	fail "count after reset is '$r'"
grep -qx 'reset: ok 1' "$D/reset.txt" && grep -qx 'reset-newline: ok 2' "$D/reset.txt" &&
	pass "reset accepts 1 and 1\\n" || fail "reset: $(cat "$D/reset.txt")"

while IFS= read -r line; do
	case "$line" in
	empty-write:*) want="ok 0" ;;
	profraw-write:*) want="EACCES" ;;
	*) want="EINVAL" ;;
	esac
	[ "${line##*: }" = "$want" ] && pass "bad write '$line'" ||
		fail "bad write '$line' (want $want)"
done < "$D/badwrites.txt"
[ "$(wc -l < "$D/badwrites.txt")" -ge 12 ] && pass "12 bad writes tried" ||
	fail "bad writes missing"

grep -qx 'pread-past-end: ok 0' "$D/pread.txt" && pass "pread past the end gives 0" ||
	fail "pread past end: $(cat "$D/pread.txt")"
grep -qx 'pread-odd: ok 333' "$D/pread.txt" && pass "pread at an odd offset" ||
	fail "pread odd: $(cat "$D/pread.txt")"
# A reset between two pread()s of one read: the rest fails, a new read works.
[ "$(grep -E '^(first|second|third|again):' "$D/resetread.txt" | tr '\n' ' ')" = \
  "first: ok 4096 second: ESTALE third: ESTALE again: ok 4096 " ] &&
	pass "a reset during a read: the rest of it fails with ESTALE" ||
	fail "reset during a read: $(tr '\n' ' ' < "$D/resetread.txt")"
[ "$(grep -E '^(first|second|third|again):' "$D/resetread-control.txt" | tr '\n' ' ')" = \
  "first: ok 4096 second: ok 4096 third: ok 4096 again: ok 4096 " ] &&
	pass "the same read without a reset reads on" ||
	fail "read without reset: $(tr '\n' ' ' < "$D/resetread-control.txt")"
grep -qx 'nobody-read: EACCES' "$D/nobody.txt" && pass "uid 65534 cannot read" ||
	fail "nobody read: $(cat "$D/nobody.txt")"
grep -qx 'nobody-write: EACCES' "$D/nobody.txt" && pass "uid 65534 cannot write" ||
	fail "nobody write: $(cat "$D/nobody.txt")"

# Value profiling: resolved indirect-call targets and memop sizes.
profdata show --all-functions --ic-targets "$D/busy.profraw" > "$D/ic.txt" 2>&1
resolved=$(grep -cE '^\s+\[ *[0-9]+, *[A-Za-z_][A-Za-z0-9_.]*, *[0-9]+ *\]' "$D/ic.txt")
echo "resolved indirect-call targets: $resolved"
# The workload's reads of pipes and /proc go through vfs_read()'s call of
# f_op->read_iter: both targets must be named, with the workload's counts.
# A pipe's is pipe_read() in 6.12, anon_pipe_read() in 7.3.
sed -n '/^  vfs_read:/,/^  [^ ]*:$/p' "$D/ic.txt" > "$D/ic-vfs_read.txt"
cat "$D/ic-vfs_read.txt"
for t in '(anon_)?pipe_read' proc_reg_read_iter; do
	n=$(grep -E "\[ *[0-9]+, *([^ ]*[;:])?$t, *[0-9]+ \]" "$D/ic-vfs_read.txt" |
		sed -E 's/.*, *([0-9]+) *\].*/\1/' | head -1)
	# The debug kernel under TCG reads ~70 times a second (1000 or more
	# without the debug options).
	[ "${n:-0}" -ge 100 ] && pass "vfs_read -> $t resolved, count $n" ||
		fail "vfs_read -> $t count '${n}'"
done

# Read cost.
echo "read 4k: $(cat "$D/read-4k.txt") (bytes ns); read 1M: $(cat "$D/read-1m.txt")"

# No splat.
if grep -E 'BUG:|WARNING:|Oops|Call Trace' "$out/dmesg.txt" >/dev/null; then
	fail "kernel splat in dmesg"; grep -E -A5 'BUG:|WARNING:|Oops' "$out/dmesg.txt" | head -30
else
	pass "no splat in dmesg"
fi
summary "vmlinux checks"
