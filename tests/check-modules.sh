#!/bin/bash
# Per-module profiles: files, exact counts, value profiling, resets, unload.
# usage: check-modules.sh LLVM_VERSION KBUILD_DIR GUEST_OUT_DIR
set -uo pipefail
LLVM_VERSION=$1 obj=$2 out=$3
. "$(dirname "$0")/lib.sh"
D=$out/modules
M=/sys/module/pgo_test_module/pgo

[ "$(cat "$out/20-modules.rc" 2>/dev/null)" = 0 ] && [ ! -s "$D/error.txt" ] &&
	pass "module guest script ran" || fail "module guest script (see $out/20-modules.log)"
grep -qx "$M/profraw 400 root root" "$D/modes.txt" && pass "module profraw is 0400 root" ||
	fail "module profraw mode: $(cat "$D/modes.txt")"
grep -qx "$M/reset 200 root root" "$D/modes.txt" && pass "module reset is 0200 root" ||
	fail "module reset mode: $(cat "$D/modes.txt")"

for f in driven driven-dd4k after-bad reset global-reset reload; do
	check "module $f.profraw accepted by llvm-profdata-$LLVM_VERSION show and merge" \
		profile_valid "$D/$f.profraw"
done

# Exact counts (nothing else runs the module while it is read).
n=$(func_count "$D/driven.profraw" pgo_test_hot)
c=$(func_counters "$D/driven.profraw" pgo_test_hot)
[ "${c:-0}" -ge 1 ] && [ "$n" = 3300 ] && pass "pgo_test_hot driven 3300 times shows 3300" ||
	fail "pgo_test_hot shows '$n' (counters: $c), expected 3300"
# An external module's static functions are named by their path in its
# directory (M=): "pgo_test_module.c;pgo_test_hot", ':' before clang 18.
names=$(profdata show --all-functions "$D/driven.profraw" 2>/dev/null |
	sed -n 's/^  \(.*\):$/\1/p')
grep -qxE 'pgo_test_module\.c[;:]pgo_test_hot' <<<"$names" && ! grep -q / <<<"$names" &&
	pass "module's static functions named by their file in the module's directory" ||
	fail "module's function names: $(grep -E 'pgo_test_hot' <<<"$names" | tr '\n' ' ')"
n=$(func_count "$D/reload.profraw" pgo_test_hot)
[ "$n" = 5 ] && pass "reloaded module starts from zero (5)" || fail "reloaded count '$n', expected 5"

# Indirect-call targets inside the module, resolved, with exact counts.
profdata show --ic-targets --memop-sizes --function=pgo_test_hot \
	"$D/driven.profraw" > "$D/hot.txt" 2>&1
cat "$D/hot.txt"
for t in pgo_test_add pgo_test_sub pgo_test_mul; do
	grep -qE "\[ *[0-9]+, *([^ ]*[;:])?$t, *1100 \]" "$D/hot.txt" &&
		pass "indirect target $t resolved with count 1100" ||
		fail "indirect target $t not found with count 1100"
done
# Memop sizes: 7 bytes x3000, 100 bytes (bucket 65) x300.
grep -qE '\[ *[0-9]+, *7, *3000 \]' "$D/hot.txt" &&
	grep -qE '\[ *[0-9]+, *65, *300 \]' "$D/hot.txt" &&
	pass "memop sizes 7 x3000 and 65 x300" || fail "memop sizes wrong"

# Module reset and global reset.
for v in 0 2 abc; do
	grep -qx "$v: EINVAL" "$D/badwrites.txt" && pass "module reset rejects '$v'" ||
		fail "module reset '$v': $(grep "^$v:" "$D/badwrites.txt")"
done
n=$(func_count "$D/after-bad.profraw" pgo_test_hot)
[ "$n" = 3300 ] && pass "bad writes left the module's counts alone" || fail "after bad writes: '$n'"
n=$(func_count "$D/reset.profraw" pgo_test_hot)
[ "$n" = 0 ] && pass "module reset zeroes the module" || fail "after module reset: '$n'"
n=$(func_count "$D/global-reset.profraw" pgo_test_hot)
[ "$n" = 0 ] && pass "global reset zeroes the module" || fail "after global reset: '$n'"

# Unload during a read: a valid file or an errno, and the module is gone.
grep -q '^rmmod: 0$' "$D/unload.txt" && ! grep -q still-present "$D/unload.txt" &&
	pass "module unloaded during a read" || fail "unload: $(cat "$D/unload.txt")"
case "$(grep '^reader:' "$D/unload.txt")" in
"reader: complete "*)
	check "read completed across unload gives a valid profile" \
		profile_valid "$D/unload-read.profraw" ;;
"reader: E"*)
	pass "read cut by unload failed with $(grep '^reader:' "$D/unload.txt")" ;;
*)
	fail "read across unload: $(cat "$D/unload.txt")" ;;
esac

# Retention: the final profile stays, and the same binary adds up.
R=/sys/kernel/pgo/retained/pgo_test_module
grep -qx "$R/profraw 400 root root" "$D/retained-modes.txt" &&
	grep -qx "$R/reset 200 root root" "$D/retained-modes.txt" &&
	pass "retained profile files are 0400/0200 root" ||
	fail "retained modes: $(cat "$D/retained-modes.txt")"
for f in retained1 retained2; do
	check "$f.profraw accepted by llvm-profdata-$LLVM_VERSION" profile_valid "$D/$f.profraw"
done
n=$(func_count "$D/retained1.profraw" pgo_test_hot)
[ "$n" = 50 ] && pass "retained profile has the unloaded module's count (50)" ||
	fail "retained count '$n', expected 50"
n=$(func_count "$D/retained2.profraw" pgo_test_hot)
[ "$n" = 55 ] && pass "second unload of the same binary adds up (50 + 5 = 55)" ||
	fail "retained count after second unload '$n', expected 55"
profdata show --ic-targets --function=pgo_test_hot "$D/retained2.profraw" > "$D/retained2-hot.txt" 2>&1
grep -qE "\[ *[0-9]+, *([^ ]*[;:])?pgo_test_add, *19 \]" "$D/retained2-hot.txt" &&
	pass "retained indirect-call targets stay resolved across loads (add x19)" ||
	fail "retained targets: $(grep -A6 'Indirect Target' "$D/retained2-hot.txt")"
grep -qx 'discard: ok 1' "$D/discard.txt" && ! grep -q still-present "$D/discard.txt" &&
	pass "writing 1 to retained reset discards it" || fail "discard: $(cat "$D/discard.txt")"
if [ "$LLVM_VERSION" -ge 14 ]; then
	want=$(readelf -n "$(ext_dir "$obj")/test_modules/pgo_test_module.ko" |
		awk '/Build ID:/ { print $3 }')
	got=$(profdata show --binary-ids "$D/driven.profraw" 2>/dev/null |
		awk '/Binary IDs:/ { getline; print $1 }')
	[ -n "$want" ] && [ "$got" = "$want" ] &&
		pass "binary id of the module's profile is its build id ($got)" ||
		fail "binary id '$got', build id '$want'"
fi

# 80 other reads, read to their end and closed, do not take the state of
# a read at its last byte: it ends with EOF, not ESTALE.
grep -qx 'eof: ok 0' "$D/evict.txt" &&
	pass "a read keeps its end while 80 other reads come and go" ||
	fail "read after 80 others: $(cat "$D/evict.txt")"
# The module's own profile never names vmlinux functions as its records.
nf=$(profdata show --all-functions "$D/driven.profraw" 2>/dev/null | grep -c '^  [^ ]*:$')
[ "$nf" -ge 4 ] && [ "$nf" -le 20 ] &&
	pass "module profile holds the module's $nf functions" ||
	fail "module profile has $nf functions"
# Code another module notifier ran of a going module is in its retained copy.
n=$(func_count "$D/going.profraw" pgo_going_victim_fn)
[ "$n" = 1000 ] &&
	pass "retained copy taken after the other GOING notifiers: their 1000 calls counted" ||
	fail "retained copy of pgo_going_victim: pgo_going_victim_fn count '$n', want 1000 ($(tr '\n' ' ' < "$D/going.txt"))"
# The same module linked by GNU ld: as many functions, counted as they ran.
# Not on an LTO kernel, whose modules only ld.lld links (the root Makefile
# builds no pgo_test_bfd there).
if [ "${GUEST_ARCH:-x86_64}" = x86_64 ] && ! grep -qx CONFIG_LTO_CLANG=y "$obj/.config"; then
	# The link command kbuild recorded.
	bcmd=$(ext_dir "$obj")/bfd/.pgo_test_bfd.ko.cmd
	grep -q ':= ld.bfd -r .*--force-group-allocation' "$bcmd" 2>/dev/null &&
		pass "pgo_test_bfd.ko was linked by GNU ld -r --force-group-allocation" ||
		fail "pgo_test_bfd.ko not linked by GNU ld: $(head -c 120 "$bcmd" 2>&1)"
	nb=$(profdata show --all-functions "$D/bfd.profraw" 2>/dev/null | grep -c '^  [^ ]*:$')
	[ "$nb" = "$nf" ] &&
		pass "linked by GNU ld: the module profile holds its $nb functions, as with ld.lld" ||
		fail "linked by GNU ld: $nb functions in the profile, $nf with ld.lld ($(grep -i bfd "$D/dmesg-pgo.txt" | head -2))"
	n=$(func_count "$D/bfd.profraw" pgo_test_hot)
	[ "$n" = 700 ] && pass "linked by GNU ld: pgo_test_hot ran 700 times" ||
		fail "linked by GNU ld: pgo_test_hot count '$n', want 700"
elif [ "${GUEST_ARCH:-x86_64}" = x86_64 ]; then
	echo "pgo_test_bfd: an LTO kernel, whose modules GNU ld cannot link: its checks skipped"
fi
# The test module built by another clang than vmlinux: it loads and runs;
# with another raw version it is not profiled, and the log says why.
if [ "${GUEST_ARCH:-x86_64}" = x86_64 ]; then
	ko=$(ext_dir "$obj")/xver/pgo_test_xver.ko
	xv=$("llvm-readelf-$LLVM_VERSION" -p .comment "$ko" 2>/dev/null |
		grep -o 'clang version [0-9]*' | head -1 | awk '{ print $3 }')
	rawv() { "$(dirname "$0")/../scripts/pgo/raw-version.sh" "clang-$1"; }
	kv=$(rawv "$LLVM_VERSION")
	mv=$(rawv "${xv:-0}")
	x=$D/xver.txt
	grep -qx 'insmod: 0' "$x" && grep -qx 'run: ok 3' "$x" && grep -qx 'rmmod: 0' "$x" &&
		pass "a module built by clang-$xv (raw version $mv) loads, runs and unloads" ||
		fail "module built by clang-${xv:-?}: $(tr '\n' ' ' < "$x" 2>/dev/null)"
	if [ -n "$mv" ] && [ "$mv" != "$kv" ]; then
		# At build time: modpost refused it, and with
		# KBUILD_MODPOST_WARN=1 warned and recorded its version.
		want="pgo_test_xver.ko: built by a clang that writes LLVM raw profile version $mv, the kernel's writes $kv"
		xd=$(ext_dir "$obj")/xver
		grep -a '^ERROR: modpost: ' "$xd/refused.log" | grep -qF "$want" &&
			pass "modpost refused it: $want" ||
			fail "modpost did not refuse it: $(grep -a -i -m1 -e modpost -e error "$xd/refused.log")"
		grep -a '^WARNING: modpost: ' "$xd/build.log" | grep -qF "$want" &&
			pass "built anyway with KBUILD_MODPOST_WARN=1, with modpost's warning" ||
			fail "no modpost warning in $xd/build.log"
		mi=$("/sbin/modinfo" -F pgo_raw_version "$ko" 2>/dev/null ||
			"llvm-readelf-$LLVM_VERSION" -p .modinfo "$ko" | grep -o 'pgo_raw_version=[^ ]*' | cut -d= -f2)
		[ $((mi & 0xffffffff)) = "$mv" ] 2>/dev/null &&
			pass "its modinfo: pgo_raw_version=$mi" ||
			fail "its modinfo's pgo_raw_version is '$mi', not raw version $mv"
		want="pgo_test_xver: not profiled: built for raw version $mv, vmlinux has raw version $kv"
		grep -qF "$want" "$D/dmesg-pgo.txt" && pass "its log line: $want" ||
			fail "no log line '$want': $(grep xver "$D/dmesg-pgo.txt")"
		! grep -qx -e pgo-dir -e retained "$x" &&
			pass "no pgo files, nothing retained for it" ||
			fail "pgo files for a module of raw version $mv: $(tr '\n' ' ' < "$x")"
	else
		fail "the second clang (${xv:-none}) writes vmlinux's raw version $kv: the test shows nothing"
	fi
fi
# Its init function ran once, at insmod.  clang may name it after the
# alias module_init() gives it, init_module: every module is
# built with its own profile (CLANG_PGO_PROFILE=dir), so that name is
# never another module's record.
ic=$(profdata show --all-functions --counts "$D/driven.profraw" 2>/dev/null |
	awk '/^  ([^ ]*[;:])?(pgo_test_init|init_module):$/ { f = 1; next }
	     f && /Counters:/ && $2 != 1 { exit }
	     f && /Block counts:/ { gsub(/[^0-9]/, " "); print $1; exit }')
[ "$ic" = 1 ] && pass "module init function counted once (as pgo_test_init or init_module)" ||
	fail "module init function count '$ic' in the profile, want 1"

# A non-GPL module (MODULE_LICENSE("Proprietary")) loads and is profiled.
grep -qx 'insmod: 0' "$D/nongpl-insmod.txt" && pass "non-GPL module pgo_nongpl loads" ||
	fail "non-GPL module: $(cat "$D/nongpl-insmod.txt")"
t=$(cat "$D/nongpl-tainted.txt" 2>/dev/null)
[ $(( ${t:-0} & 1 )) = 1 ] && pass "it is taken for proprietary (taint P, tainted=$t)" ||
	fail "pgo_nongpl did not taint the kernel as proprietary (tainted='$t')"
n=$(func_count "$D/nongpl.profraw" pgo_nongpl_hot)
[ "$n" = 1234 ] && pass "pgo_nongpl_hot run 1234 times shows 1234" ||
	fail "pgo_nongpl_hot shows '$n', expected 1234"
profdata show --ic-targets --memop-sizes --function=pgo_nongpl_hot "$D/nongpl.profraw" \
	> "$D/nongpl-hot.txt" 2>&1
grep -qE "\[ *[0-9]+, *([^ ]*[;:])?pgo_nongpl_twice, *1234 \]" "$D/nongpl-hot.txt" &&
	grep -qE '\[ *[0-9]+, *5, *1234 \]' "$D/nongpl-hot.txt" &&
	pass "its value profiling works: target pgo_nongpl_twice x1234, memcpy size 5 x1234" ||
	fail "pgo_nongpl values: $(cat "$D/nongpl-hot.txt")"

# Concurrent value profiling (2 vCPUs): 2 runs x 6400 calls on each CPU of
# one indirect-call site over 64 targets.  Counts may lose racing
# increments (plain ++, as compiler-rt's), but the list must stay sound:
# accepted, no target twice, only pgo_hammer_t* targets, at most 24
# (PGO_MAX_VALUES_PER_SITE) entries, no more counted than made, and the
# site's entry count within what was run.
cpus=$(cat "$D/hammer-cpus.txt" 2>/dev/null)
calls=$(( ${cpus:-0} * 2 * 6400 ))
if [ -s "$D/hammer.profraw" ] && [ "${cpus:-0}" -ge 2 ]; then
	profdata show --ic-targets --counts --function=pgo_hammer_call "$D/hammer.profraw" \
		> "$D/hammer-ic.txt" 2>&1
	t=$(grep -oE '\[ *[0-9]+, *[^ ,]+, *[0-9]+ \]' "$D/hammer-ic.txt" |
		sed -E 's/\[ *[0-9]+, *([^ ,]+), *([0-9]+) \]/\1 \2/; s/^.*[;:]//')
	nt=$(grep -c . <<< "$t") nd=$(awk '{ print $1 }' <<< "$t" | sort | uniq -d | grep -c .)
	nbad=$(awk '$1 !~ /^pgo_hammer_t[0-7][0-7]$/' <<< "$t" | grep -c .)
	vsum=$(awk '{ s += $2 } END { print s + 0 }' <<< "$t")
	ent=$(func_count "$D/hammer.profraw" pgo_hammer_call)
	if profile_valid "$D/hammer.profraw" && [ "$nt" -ge 1 ] && [ "$nt" -le 24 ] &&
	   [ "$nd" = 0 ] && [ "$nbad" = 0 ] && [ "$vsum" -le "$calls" ] &&
	   [ "${ent:-0}" -le "$calls" ] && [ "${ent:-0}" -ge $((calls / 2)) ]; then
		pass "value profiling on $cpus vCPUs at once: $nt targets, none twice, $vsum values counted of $calls calls, entry count $ent"
	else
		fail "value profiling on $cpus vCPUs: $nt targets ($nd twice, $nbad unknown), $vsum values of $calls calls, entry count '$ent'; see $D/hammer-ic.txt"
	fi
else
	fail "no pgo_hammer profile from 2+ vCPUs (cpus '$cpus'): $(cat "$D/hammer-insmod.txt" 2>&1)"
fi

# KASLR: no word of a profile is a runtime address, and the records'
# function addresses are exactly offsets into their object's code.
# vmlinux's are relative to _text, which arm64's kallsyms does not list
# (its image header comes first): there, _stext's runtime address less
# its distance from _text in the vmlinux file.
vbase=_text
if ! grep -q ' _text$' "$D/kallsyms.txt"; then
	link() { "llvm-nm-$LLVM_VERSION" "$obj/vmlinux" | awk -v s="$1" '$3 == s { print $1; exit }'; }
	run=$(awk '$3 == "_stext" { print $1; exit }' "$D/kallsyms.txt")
	vbase=$(printf '0x%x' $(( 0x$run - (0x$(link _stext) - 0x$(link _text)) )))
fi
# A module's are relative to the start of its core text: its lowest text
# section, which is .text on x86_64 but arm64's PLTs and ftrace trampoline
# (.plt, .text.ftrace_trampoline) come before it.
mtext=$(awk '$1 ~ /^\.(text|plt|exit\.text)/ { print $2 }' "$D/module-sections.txt" | sort | head -n 1)
if python3 "$(dirname "$0")/check-kaslr.py" "$D/kallsyms.txt" \
	"$D/vmlinux.profraw:$vbase" "$D/driven.profraw:$mtext" \
	"$D/retained2.profraw:$mtext" > "$D/kaslr.txt" 2>&1; then
	pass "profiles reveal no load address: $(tr '\n' ' ' < "$D/kaslr.txt")"
else
	fail "profiles and load addresses: $(cat "$D/kaslr.txt")"
fi

if grep -E 'BUG:|WARNING:|Oops|Call Trace' "$out/dmesg.txt" >/dev/null; then
	fail "kernel splat in dmesg"
else
	pass "no splat in dmesg"
fi
summary "module checks"
