#!/bin/sh
# Retained profiles of unloaded modules, run in the guest; judged by
# tests/check-retain.sh.  Needs what tests/qemu/udev.sh puts in the initramfs
# (systemd-udevd, udevadm, 90-pgo.rules, /usr/lib/pgo/*; on arm64 all but the
# first two) and a kernel with tests/qemu/udev.config.  Results go to /out/retain/: facts.txt holds
# "key: value" lines, the rest are copies of profiles and logs.
#
#  0. whatever is still retained (20-modules.sh discards its own) is
#     discarded;
#  1. with systemd-udevd running (or, without it, busybox's uevent
#     listener): load, run 300, unload: 90-pgo.rules and pgo-save-retained
#     save it to /var/lib/pgo and discard it in the kernel; then load and
#     run 50: pgo-collect takes the saved profile (300) and the live one
#     (50), each once; the unload after it is saved by udev too;
#  2. udevd stopped: load/run 300/unload twice: one retained profile (600);
#  3. pgo-collect with that retained profile and a live load (7), without
#     the saved ones (--saved ''), and its --merge with no llvm-profdata in
#     the guest;
#  4. retain_kb=1, load/run 300/unload: the oldest retained profile is
#     dropped with a log line;
#  5. retain_kb=0: nothing retained;
#  6. pgo-save-retained --all without udev;
#  7. races, one step at a time: a copy read to its end by another reader
#     (pgo-collect, say) and then added to by a reload: the saver's discard
#     by the id it read fails with ESTALE and the sum stays, then the new
#     copy's id discards it; a reload during a save (the reader fails, the
#     counts add up), a global reset before and after an unload; the id of
#     a copy that was dropped, written to a later copy's saved: taken,
#     nothing discarded.
set -u
D=/out/retain
mkdir -p $D
: > $D/facts.txt
MOD=pgo_test_module
KO=/lib/modules/$MOD.ko
PAR=/sys/module/$MOD/parameters
R=/sys/kernel/pgo/retained
RK=/sys/module/pgo/parameters/retain_kb
TOOLS=/usr/lib/pgo
PATH=/bin:/sbin:/usr/bin:/usr/sbin
export PATH

fact() { echo "$*" >> $D/facts.txt; echo "fact: $*"; }

# wait_until TENTHS COMMAND...: poll COMMAND every 0.1 s, at most TENTHS times.
wait_until() {
	w_n=$1
	shift
	while [ "$w_n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		w_n=$((w_n - 1))
	done
	"$@"
}
retained() { [ -e $R/$MOD/profraw ]; }
not_retained() { [ ! -e $R/$MOD ]; }
saved() { ls /var/lib/pgo/$MOD-*.profraw > /dev/null 2>&1; }
saved_and_gone() { saved && not_retained; }

# drive N: load the module, call pgo_test_hot() N times, unload it.
drive() {
	insmod $KO || fact "insmod-failed: $?"
	echo "$1" > $PAR/run || fact "run-failed: $1"
	rmmod $MOD || fact "rmmod-failed: $?"
}

discard() {
	if [ -e $R/$MOD/reset ]; then
		echo 1 > $R/$MOD/reset
		wait_until 50 not_retained
	fi
}

fact "retain_kb: $(cat $RK 2>&1)"
ls -l $R > $D/retained-at-start.txt 2>&1

# 0. Start with nothing retained (20-modules.sh discards its own).
if retained; then
	fact "leftover: yes"
	cat $R/$MOD/profraw > $D/leftover.profraw
	echo 1 > $R/$MOD/reset
	wait_until 50 not_retained && fact "leftover-reset: gone" ||
		fact "leftover-reset: still-present"
else
	fact "leftover: no"
fi

# 1. udev: the rule runs pgo-save-retained.  Where the initramfs has no
#    systemd-udevd (arm64: tests/qemu/udev.sh copies the host's), busybox's
#    netlink listener runs the helper for the same uevent, as the rule would.
# saved_files DIR KEY COPY: facts KEY-files (how many profiles of $MOD DIR
# holds) and KEY-name (the first one's name, copied to COPY).
saved_files() {
	n=0
	for f in "$1"/$MOD-*.profraw; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		[ $n = 1 ] && cp "$f" "$3" && fact "$2-name: $(basename "$f")"
	done
	fact "$2-files: $n"
}
saved_results() {
	ls -la /var/lib/pgo > $D/var-lib-pgo.txt 2>&1
	saved_files /var/lib/pgo udev-saved $D/udev-saved.profraw
	not_retained && fact "udev-retained: gone" || fact "udev-retained: present"
}
# collect_saved: a live load (50) beside the saved one: pgo-collect reads
# /var/lib/pgo (the default where it exists) and sysfs.
collect_saved() {
	insmod $KO || fact "insmod-failed: $?"
	echo 50 > $PAR/run || fact "run-failed: 50"
	rm -rf /tmp/cs
	$TOOLS/pgo-collect -o /tmp/cs > $D/collect-saved.txt 2>&1
	fact "collect-saved-rc: $?"
	rmmod $MOD || fact "rmmod-failed: $?"
	n=0
	for f in /tmp/cs/$MOD-*.profraw; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		cp "$f" $D/collect-saved-$n.profraw
	done
	fact "collect-saved-files: $n"
	# udev saves this unload's copy: nothing of it may stay for phase 2.
	wait_until 600 not_retained
}
mkdir -p /run/udev
rm -rf /var/lib/pgo
if command -v systemd-udevd > /dev/null && command -v udevadm > /dev/null; then
	SYSTEMD_LOG_TARGET=console SYSTEMD_LOG_LEVEL=debug \
		systemd-udevd --daemon > $D/udevd.log 2>&1
	fact "udevd-start: $?"
	if udevadm control --ping --timeout=30; then
		fact "udevd: up"
	else
		fact "udevd: no-ping"
	fi
	drive 300
	udevadm settle --timeout=60
	fact "settle: $?"
	# The uevent may arrive after settle looked (it cannot know of it).
	wait_until 600 saved_and_gone
	saved_results
	collect_saved
	udevadm control --exit --timeout=30
	fact "udevd-exit: $?"
	# Make sure it is gone: nothing may save what phase 2 leaves.
	for p in $(ps | awk '/systemd-udevd/ && !/awk/ { print $1 }'); do
		kill "$p" 2>/dev/null
	done
elif busybox --list 2>/dev/null | grep -qx uevent; then
	cat > /tmp/pgo-uevent <<'EOF'
#!/bin/sh
# What 90-pgo.rules does, for busybox's uevent listener.
if [ "$ACTION" = add ] && [ "$SUBSYSTEM" = pgo ] && [ -n "$PGO_MODULE" ]; then
	exec /usr/lib/pgo/pgo-save-retained "$PGO_MODULE"
fi
EOF
	chmod 755 /tmp/pgo-uevent
	busybox uevent /tmp/pgo-uevent > $D/udevd.log 2>&1 &
	uev=$!
	sleep 1
	kill -0 $uev 2>/dev/null && fact "udevd: busybox-uevent" ||
		fact "udevd: busybox-uevent-died"
	drive 300
	wait_until 600 saved_and_gone
	saved_results
	collect_saved
	kill $uev 2>/dev/null
	wait $uev 2>/dev/null
else
	fact "udevd: missing"
fi
discard

# 2. No udevd: two loads add up into one retained profile.
drive 300
wait_until 100 retained
drive 300
wait_until 100 retained
if retained; then
	fact "summed: yes"
	stat -c '%n %a %U %G' $R/$MOD/profraw $R/$MOD/reset $R/$MOD/id \
		$R/$MOD/saved > $D/modes.txt
	cat $R/$MOD/profraw > $D/summed.profraw
	fact "summed-bytes: $(wc -c < $D/summed.profraw)"
else
	fact "summed: no"
fi

# 3. pgo-collect: vmlinux, the live module (7 calls), the retained one (600).
insmod $KO
echo 7 > $PAR/run
$TOOLS/pgo-collect -o $D/collect --saved '' > $D/collect.txt 2>&1
fact "collect-rc: $?"
ls -l $D/collect > $D/collect-ls.txt 2>&1
$TOOLS/pgo-collect -o /tmp/collect2 --merge /tmp/merged.profdata \
	> $D/collect-merge.txt 2>&1
fact "collect-merge-rc: $?"
rm -rf /tmp/collect2
rmmod $MOD
wait_until 100 retained

# 4. A tiny bound drops the oldest retained profile, with a log line.
old_kb=$(cat $RK)
dmesg > $D/dmesg-before-drop.txt
rc=0
echo 1 > $RK || rc=1
fact "retain_kb-1: $rc"
retained && fact "after-shrink: present" || fact "after-shrink: gone"
drive 300
sleep 1
retained && fact "after-small-unload: present" || fact "after-small-unload: gone"
dmesg > $D/dmesg-after-drop.txt
discard

# 5. retain_kb=0: no retention.
rc=0
echo 0 > $RK || rc=1
fact "retain_kb-0: $rc"
drive 300
sleep 1
[ -e $R/$MOD ] && fact "retain0: present" || fact "retain0: absent"
discard
echo "$old_kb" > $RK
fact "retain_kb-restored: $(cat $RK)"

# 6. pgo-save-retained --all, no udev.
drive 300
wait_until 100 retained
$TOOLS/pgo-save-retained -o /tmp/saved-all --all > $D/save-all.txt 2>&1
fact "save-all-rc: $?"
not_retained && fact "save-all-retained: gone" || fact "save-all-retained: present"
saved_files /tmp/saved-all save-all $D/saved-all.profraw

# 7a. A saver reads copy A's id; another reader (pgo-collect) reads A to
#     its end; a reload and unload make B = A + 200; the saver's discard of
#     A by A's id must fail (ESTALE) and leave B, which B's id discards.
#     No udevd runs since phase 1: nothing else saves or discards.
discard
drive 300
wait_until 100 retained
ida=$(cat $R/$MOD/id)
fact "race-id-a: $ida"
cat $R/$MOD/profraw > $D/race-a.profraw
fact "race-a-rc: $?"
fact "race-a-id-after-read: $(cat $R/$MOD/id)"
drive 200
wait_until 100 retained
idb=$(cat $R/$MOD/id)
fact "race-id-b: $idb"
fact "race-saved-a: $(pgotest write $R/$MOD/saved "$ida")"
fact "race-after-saved-a: $(retained && echo present || echo gone)"
fact "race-id-after-saved-a: $(cat $R/$MOD/id 2>&1)"
cat $R/$MOD/profraw > $D/race-b.profraw
fact "race-b-rc: $?"
fact "race-saved-junk: $(pgotest write $R/$MOD/saved "${idb}x")"
fact "race-saved-zero: $(pgotest write $R/$MOD/saved 0)"
fact "race-saved-later: $(pgotest write $R/$MOD/saved $((idb + 1)))"
fact "race-saved-b: $(pgotest write $R/$MOD/saved "$idb")"
wait_until 50 not_retained
fact "race-after-saved-b: $(retained && echo present || echo gone)"
discard
# 7b. Reload and unload while a save is half done: the reader fails.
drive 100
wait_until 100 retained
exec 3< $R/$MOD/profraw
dd bs=64 count=1 <&3 > $D/race-head.bin 2>/dev/null
drive 20
dd bs=4096 <&3 > /dev/null 2>$D/race-rest.txt
fact "race-rest-rc: $?"
exec 3<&-
cat $R/$MOD/profraw > $D/race-summed.profraw
discard
# 7c. A global reset before an unload, then one after.
insmod $KO
echo 30 > $PAR/run
echo 1 > /sys/kernel/pgo/reset
rmmod $MOD
wait_until 100 retained
cat $R/$MOD/profraw > $D/race-reset-before.profraw
drive 30
echo 1 > /sys/kernel/pgo/reset
not_retained && fact "race-reset-after: gone" || fact "race-reset-after: present"
# 7d. A dropped copy's id: copy D is read, then discarded by reset (as a
#     trim or a global reset would drop it); a load and unload make copy
#     E, a line of its own.  D's id written to E's saved is taken (D's
#     counts are in no copy: its saver keeps its file) and E stays.
discard
drive 100
wait_until 100 retained
idd=$(cat $R/$MOD/id)
fact "dropped-id-d: $idd"
echo 1 > $R/$MOD/reset
wait_until 50 not_retained
drive 50
wait_until 100 retained
ide=$(cat $R/$MOD/id)
fact "dropped-id-e: $ide"
fact "dropped-saved-d: $(pgotest write $R/$MOD/saved "$idd")"
fact "dropped-after-saved-d: $(retained && echo present || echo gone)"
fact "dropped-id-after-saved-d: $(cat $R/$MOD/id 2>&1)"
cat $R/$MOD/profraw > $D/dropped-e.profraw
fact "dropped-e-rc: $?"
fact "dropped-saved-e: $(pgotest write $R/$MOD/saved "$ide")"
wait_until 50 not_retained
fact "dropped-after-saved-e: $(retained && echo present || echo gone)"

dmesg > $D/dmesg.txt
echo done
