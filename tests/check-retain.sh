#!/bin/bash
# Retained profiles of unloaded modules: udev rule and helper, counts adding
# up across loads, build ids, pgo-collect, the retain_kb bound.
# usage: check-retain.sh LLVM_VERSION KBUILD_DIR GUEST_OUT_DIR
# The test module's .ko is taken from $EXT_DIR/test_modules (default: the
# ext-* directory beside KBUILD_DIR, as the Makefile builds it).
set -uo pipefail
LLVM_VERSION=$1 obj=$2 out=$3
. "$(dirname "$0")/lib.sh"
D=$out/retain
R=/sys/kernel/pgo/retained/pgo_test_module
MOD=pgo_test_module
EXT_DIR=${EXT_DIR:-$(ext_dir "$obj")}
ko=$EXT_DIR/test_modules/$MOD.ko

fact() { sed -n "s/^$1: //p" "$D/facts.txt" 2>/dev/null | head -1; }
build_id() { readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3; exit }'; }
binary_ids() { profdata show --binary-ids "$1" 2>/dev/null |
	awk '/Binary IDs:/ { f = 1; next } f && $1 ~ /^[0-9a-fA-F]+$/ { print tolower($1) }'; }

[ "$(cat "$out/30-retain.rc" 2>/dev/null)" = 0 ] && [ -s "$D/facts.txt" ] &&
	pass "retain guest script ran" || fail "retain guest script (see $out/30-retain.log)"
grep -E -- '-failed:' "$D/facts.txt" 2>/dev/null | while read -r l; do echo "  $l"; done
grep -qE -- '-failed:' "$D/facts.txt" 2>/dev/null && fail "insmod/rmmod/run failed in the guest"

bid=$(build_id "$ko")
vbid=$(build_id "$obj/vmlinux")
[ -n "$bid" ] && pass "$MOD.ko has build id $bid" || fail "no build id in $ko"
[ -n "$vbid" ] && pass "vmlinux has build id $vbid" || fail "no build id in $obj/vmlinux"

# expect_hot WHAT FILE N: FILE is a valid profile with pgo_test_hot = N.
expect_hot() {
	local n
	if ! profile_valid "$2"; then
		fail "$1: $(basename "$2") not accepted by llvm-profdata-$LLVM_VERSION"
		return
	fi
	n=$(func_count "$2" pgo_test_hot)
	[ "$n" = "$3" ] && pass "$1: pgo_test_hot = $3" || fail "$1: pgo_test_hot = '$n', expected $3"
}
# expect_bid WHAT FILE: FILE's binary id is the module's build id (LLVM 14+).
expect_bid() {
	local ids
	[ "$LLVM_VERSION" -ge 14 ] || return 0
	ids=$(binary_ids "$2" | tr '\n' ' ')
	[ -n "$bid" ] && [ "${ids% }" = "$bid" ] &&
		pass "$1: show --binary-ids gives the module's build id" ||
		fail "$1: binary ids '${ids% }', module's build id '$bid'"
}

# Modes of the retained files.
grep -qx "$R/profraw 400 root root" "$D/modes.txt" 2>/dev/null &&
	pass "retained profraw is 0400 root" || fail "retained profraw mode: $(cat "$D/modes.txt" 2>&1)"
grep -qx "$R/reset 200 root root" "$D/modes.txt" 2>/dev/null &&
	pass "retained reset is 0200 root" || fail "retained reset mode: $(cat "$D/modes.txt" 2>&1)"
grep -qx "$R/id 400 root root" "$D/modes.txt" 2>/dev/null &&
	pass "retained id is 0400 root" || fail "retained id mode: $(cat "$D/modes.txt" 2>&1)"
grep -qx "$R/saved 200 root root" "$D/modes.txt" 2>/dev/null &&
	pass "retained saved is 0200 root" || fail "retained saved mode: $(cat "$D/modes.txt" 2>&1)"

# Raw version 7 (LLVM 13) profiles carry no binary id: a retained profile's
# file is then named <name>-unknown.profraw, a live module's gets its build id
# from /sys/module/<name>/notes.
rbid=$bid
[ "$LLVM_VERSION" -ge 14 ] || rbid=unknown

# 1. udev (busybox's uevent listener where the guest has no systemd-udevd:
#    arm64).
if [ "$(fact udevd)" = up ]; then
	pass "systemd-udevd runs in the guest"
elif [ "${GUEST_ARCH:-x86_64}" != x86_64 ] && [ "$(fact udevd)" = busybox-uevent ]; then
	pass "busybox uevent runs in the guest (no systemd-udevd for $GUEST_ARCH)"
else
	fail "systemd-udevd: $(fact udevd) (tests/qemu/udev.sh, tests/qemu/udev.config; see $D/udevd.log)"
fi
[ "$(fact udev-saved-files)" = 1 ] && pass "udev saved one file to /var/lib/pgo" ||
	fail "udev saved $(fact udev-saved-files) files: $(cat "$D/var-lib-pgo.txt" 2>&1)"
[ "$(fact udev-saved-name)" = "$MOD-$rbid.profraw" ] &&
	pass "saved as $MOD-$rbid.profraw" ||
	fail "saved as '$(fact udev-saved-name)', expected $MOD-$rbid.profraw"
expect_hot "udev-saved profile" "$D/udev-saved.profraw" 300
expect_bid "udev-saved profile" "$D/udev-saved.profraw"
[ "$(fact udev-retained)" = gone ] && pass "the helper discarded the kernel copy" ||
	fail "retained profile after udev: $(fact udev-retained)"
grep -q "pgo-save-retained: $MOD: saved /var/lib/pgo/$MOD-$rbid.profraw ([0-9]* bytes); discarded the kernel copy" \
	"$D/dmesg.txt" 2>/dev/null && pass "the helper logged one line to the kernel log" ||
	fail "no helper log line in dmesg: $(grep -i 'pgo-save' "$D/dmesg.txt" "$D/udevd.log" 2>/dev/null | head -5)"

# 1b. pgo-collect with the udev helper's directory: saved (300) + live (50).
sum=0 nfiles=0
for f in "$D"/collect-saved-*.profraw; do
	[ -e "$f" ] || continue
	nfiles=$((nfiles + 1))
	n=$(func_count "$f" pgo_test_hot)
	sum=$((sum + ${n:-0}))
done
[ "$(fact collect-saved-rc)" = 0 ] && [ "$nfiles" = 2 ] && [ "$sum" = 350 ] &&
	grep -q '(1 saved in /var/lib/pgo)' "$D/collect-saved.txt" &&
	pass "pgo-collect with /var/lib/pgo: the saved (300) and the live (50) profile, each once" ||
	fail "pgo-collect with /var/lib/pgo: rc $(fact collect-saved-rc), $nfiles files of $MOD summing to $sum, expected 2 and 350: $(cat "$D/collect-saved.txt" 2>&1)"

# 2. Two loads of the same binary add up.
if [ "$(fact summed)" = yes ]; then
	expect_hot "retained profile of two loads (300 + 300)" "$D/summed.profraw" 600
	expect_bid "retained profile" "$D/summed.profraw"
else
	fail "no retained profile after two loads without udevd"
fi

# 3. pgo-collect in the guest.
[ "$(fact collect-rc)" = 0 ] && grep -q '^pgo-collect: [0-9]* profiles, [0-9]* bytes in' "$D/collect.txt" &&
	pass "pgo-collect ran: $(grep '^pgo-collect:' "$D/collect.txt")" ||
	fail "pgo-collect: rc $(fact collect-rc): $(cat "$D/collect.txt" 2>&1)"
check "collected vmlinux-<vmlinux build id>.profraw is valid" \
	profile_valid "$D/collect/vmlinux-$vbid.profraw"
sum=0 nfiles=0
for f in "$D"/collect/$MOD-*.profraw; do
	[ -e "$f" ] || continue
	nfiles=$((nfiles + 1))
	n=$(func_count "$f" pgo_test_hot)
	sum=$((sum + ${n:-0}))
done
[ "$nfiles" = 2 ] && [ "$sum" = 607 ] &&
	pass "collected the live (7) and the retained (600) profile of $MOD" ||
	fail "collected $nfiles files of $MOD with pgo_test_hot summing to $sum, expected 2 and 607"
if [ "$rbid" = "$bid" ]; then
	names="$MOD-$bid.profraw $MOD-$bid.1.profraw"
else
	names="$MOD-$bid.profraw $MOD-unknown.profraw"
fi
[ -e "$D/collect/${names% *}" ] && [ -e "$D/collect/${names#* }" ] &&
	pass "named $names" ||
	fail "collected names: $(cd "$D/collect" 2>/dev/null && ls | tr '\n' ' ')"
[ "$(fact collect-merge-rc)" != 0 ] &&
	grep -q "which only llvm-profdata of LLVM .* reads" "$D/collect-merge.txt" &&
	pass "--merge without llvm-profdata in the guest fails clearly" ||
	fail "--merge in the guest: rc $(fact collect-merge-rc): $(cat "$D/collect-merge.txt" 2>&1)"

# 4. retain_kb: the oldest retained profile is dropped with a log line.
[ "$(fact retain_kb-1)" = 0 ] && pass "retain_kb is writable" || fail "writing retain_kb: $(fact retain_kb-1)"
if [ -f "$D/dmesg-after-drop.txt" ]; then
	drop=$(diff "$D/dmesg-before-drop.txt" "$D/dmesg-after-drop.txt" |
		sed -n 's/^> //p' | grep -i "$MOD" | grep -iE 'drop|evict|discard')
	[ -n "$drop" ] && pass "retain_kb=1 dropped the retained profile: $drop" ||
		fail "no log line naming $MOD as dropped at retain_kb=1 (retained profile: $(fact summed-bytes) bytes; after shrink: $(fact after-shrink), after unload: $(fact after-small-unload))"
else
	fail "no dmesg around the retain_kb test"
fi
[ "$(fact retain0)" = absent ] && pass "retain_kb=0 retains nothing" ||
	fail "retain_kb=0: $(fact retain0)"
[ -n "$(fact retain_kb-restored)" ] && [ "$(fact retain_kb-restored)" = "$(fact retain_kb)" ] &&
	pass "retain_kb restored to $(fact retain_kb)" || fail "retain_kb restored: $(fact retain_kb-restored)"

# 6. pgo-save-retained --all against the real sysfs.
[ "$(fact save-all-rc)" = 0 ] && [ "$(fact save-all-retained)" = gone ] &&
	[ "$(fact save-all-name)" = "$MOD-$rbid.profraw" ] &&
	pass "pgo-save-retained --all saved and discarded" ||
	fail "save --all: rc $(fact save-all-rc), $(fact save-all-retained), $(fact save-all-name): $(cat "$D/save-all.txt" 2>&1)"
expect_hot "pgo-save-retained --all profile" "$D/saved-all.profraw" 300

# 7. Races, one step at a time: the counts before equal the counts after.
# 7a. A copy read to its end by another reader is not saved: the saver's
#     discard by the id it read fails once a reload added counts.
ida=$(fact race-id-a) idb=$(fact race-id-b)
case "$ida:$idb" in
*[!0-9:]* | :* | *:) fail "copy ids: A '$ida', B '$idb', expected two numbers" ;;
*)	[ "$ida" != "$idb" ] && [ "$(fact race-a-id-after-read)" = "$ida" ] &&
		pass "copy ids: A $ida, B $idb (a reload and unload make a new copy, a read does not)" ||
		fail "copy ids: A $ida (after its read: $(fact race-a-id-after-read)), B $idb" ;;
esac
[ "$(fact race-a-rc)" = 0 ] && [ "$(fact race-b-rc)" = 0 ] &&
	pass "copies A and B read to their end with cat" ||
	fail "reads of A and B: rc $(fact race-a-rc), $(fact race-b-rc)"
expect_hot "copy A (one load)" "$D/race-a.profraw" 300
[ "$(fact race-saved-a)" = ESTALE ] && [ "$(fact race-after-saved-a)" = present ] &&
	[ "$(fact race-id-after-saved-a)" = "$idb" ] &&
	pass "A's id written to saved after a reload: ESTALE, B still retained" ||
	fail "A's id to saved: '$(fact race-saved-a)' (expected ESTALE), B $(fact race-after-saved-a), id '$(fact race-id-after-saved-a)' (expected $idb)"
expect_hot "copy B after the refused discard (300 + 200)" "$D/race-b.profraw" 500
[ "$(fact race-saved-junk)" = EINVAL ] && pass "saved refuses what is no number (EINVAL)" ||
	fail "saved of '${idb}x': '$(fact race-saved-junk)', expected EINVAL"
[ "$(fact race-saved-zero)" = EINVAL ] && [ "$(fact race-saved-later)" = EINVAL ] &&
	pass "saved refuses ids never issued to the copy: 0 and its own + 1 (EINVAL)" ||
	fail "saved of 0: '$(fact race-saved-zero)', of $((idb + 1)): '$(fact race-saved-later)', expected EINVAL"
[ "$(fact race-saved-b)" = "ok ${#idb}" ] && [ "$(fact race-after-saved-b)" = gone ] &&
	pass "B's id written to saved discards B" ||
	fail "B's id to saved: '$(fact race-saved-b)' (expected 'ok ${#idb}'), B $(fact race-after-saved-b)"
# 7b, 7c.
[ "$(fact race-rest-rc)" != 0 ] && [ -n "$(fact race-rest-rc)" ] &&
	pass "a save half done when the module was unloaded again fails: $(head -c 80 "$D/race-rest.txt")" ||
	fail "the half-done save went on after the reload (rc '$(fact race-rest-rc)')"
expect_hot "the half-saved copy and the reload, added" "$D/race-summed.profraw" 120
expect_hot "a global reset before the unload" "$D/race-reset-before.profraw" 0
[ "$(fact race-reset-after)" = gone ] && pass "a global reset after an unload drops the retained copy" ||
	fail "global reset after an unload: retained copy $(fact race-reset-after)"
# 7d. A dropped copy's id is taken by a later copy of its own line, which stays.
idd=$(fact dropped-id-d) ide=$(fact dropped-id-e)
case "$idd:$ide" in
*[!0-9:]* | :* | *:) fail "7d copy ids: D '$idd', E '$ide', expected two numbers" ;;
*)	[ "$ide" -gt "$idd" ] && pass "7d: copy E ($ide) has a later id than dropped copy D ($idd)" ||
		fail "7d copy ids: D $idd, E $ide" ;;
esac
[ "$(fact dropped-saved-d)" = "ok ${#idd}" ] && [ "$(fact dropped-after-saved-d)" = present ] &&
	[ "$(fact dropped-id-after-saved-d)" = "$ide" ] &&
	pass "a dropped copy's id to saved is taken ('ok ${#idd}') and discards nothing (E $ide stays)" ||
	fail "D's id to E's saved: '$(fact dropped-saved-d)' (expected 'ok ${#idd}'), E $(fact dropped-after-saved-d), id '$(fact dropped-id-after-saved-d)' (expected $ide)"
[ "$(fact dropped-e-rc)" = 0 ] && pass "7d: copy E read" || fail "7d: reading copy E: rc '$(fact dropped-e-rc)'"
expect_hot "copy E after D's id was written (a line of its own: 50)" "$D/dropped-e.profraw" 50
[ "$(fact dropped-saved-e)" = "ok ${#ide}" ] && [ "$(fact dropped-after-saved-e)" = gone ] &&
	pass "E's own id then discards E" ||
	fail "E's id to saved: '$(fact dropped-saved-e)' (expected 'ok ${#ide}'), E $(fact dropped-after-saved-e)"

if grep -E 'BUG:|WARNING:|Oops|Call Trace' "$D/dmesg.txt" >/dev/null 2>&1; then
	fail "kernel splat in dmesg"
	grep -E -A5 'BUG:|WARNING:|Oops' "$D/dmesg.txt" | head -30
else
	pass "no splat in dmesg"
fi
# What pgo-collect brought out merges on the host into one profile holding
# vmlinux's, the live and the retained module's functions.
C=$out/retain/collect
if profdata merge -o "$C.merged.profdata" "$C"/*.profraw 2>/dev/null; then
	g=$(func_count "$C.merged.profdata" "$(getppid_wrapper "$obj")")
	h=$(func_count "$C.merged.profdata" pgo_test_hot)
	[ -n "$g" ] && [ "$h" = 607 ] &&
		pass "collected profiles merge: vmlinux (getppid $g) + live and retained module (7 + 600)" ||
		fail "merged collection: getppid '$g', pgo_test_hot '$h'"
else
	fail "llvm-profdata-$LLVM_VERSION merge of the collected profiles"
fi
summary "retain checks"
