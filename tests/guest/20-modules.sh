#!/bin/sh
# Per-module profile checks, run in the guest; judged by check-modules.sh.
set -u
D=/out/modules
mkdir -p $D
MOD=pgo_test_module
M=/sys/module/$MOD/pgo
PAR=/sys/module/$MOD/parameters

insmod /lib/modules/$MOD.ko || echo "insmod failed: $?" > $D/error.txt
stat -c '%n %a %U %G' $M/profraw $M/reset > $D/modes.txt

# Known counts: 3000 calls copying 7 bytes, 300 copying 100.
echo 7 > $PAR/memop_len
echo 3000 > $PAR/run
echo 100 > $PAR/memop_len
echo 300 > $PAR/run
cat $M/profraw > $D/driven.profraw
dd if=$M/profraw of=$D/driven-dd4k.profraw bs=4k 2>/dev/null
cat /sys/kernel/pgo/profraw > $D/vmlinux.profraw
# Where things are loaded, to show that no profile tells (check-kaslr.py).
cat /proc/kallsyms > $D/kallsyms.txt
for f in /sys/module/$MOD/sections/.[!.]*; do
	echo "$(basename "$f") $(cat "$f")"
done > $D/module-sections.txt

# A read at its last byte keeps its end while 80 other reads of the file
# come and go: they were closed, so their state goes first.
pgotest evict $M/profraw 80 > $D/evict.txt 2>&1

# Bad writes to the module's reset change nothing.
for v in 0 2 abc; do
	printf '%s: %s\n' "$v" "$(pgotest write $M/reset "$v")"
done > $D/badwrites.txt
cat $M/profraw > $D/after-bad.profraw

# The module's reset zeroes only the module.
echo 10 > $PAR/run
printf 'reset: %s\n' "$(pgotest write $M/reset 1)" > $D/reset.txt
cat $M/profraw > $D/reset.profraw
# The global reset zeroes modules too.
echo 20 > $PAR/run
printf 'global-reset: %s\n' "$(pgotest write /sys/kernel/pgo/reset 1)" >> $D/reset.txt
cat $M/profraw > $D/global-reset.profraw

# Unload while a slow reader is in the middle of the file.
echo 50 > $PAR/run
rm -f /tmp/ready
pgotest slowread $M/profraw 64 $D/unload-read.profraw /tmp/ready 2000 \
	> $D/unload-read.txt 2>&1 &
reader=$!
n=0
while [ ! -e /tmp/ready ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
rmmod $MOD
echo "rmmod: $?" > $D/unload.txt
wait $reader
echo "reader: $(cat $D/unload-read.txt)" >> $D/unload.txt
[ -e /sys/module/$MOD ] && echo "still-present" >> $D/unload.txt

# Its final profile is retained.
R=/sys/kernel/pgo/retained/$MOD
stat -c '%n %a %U %G' $R/profraw $R/reset > $D/retained-modes.txt
cat $R/profraw > $D/retained1.profraw

# Load again: a fresh live profile; unloading adds into the retained one.
insmod /lib/modules/$MOD.ko
echo 5 > $PAR/run
cat $M/profraw > $D/reload.profraw
rmmod $MOD
cat $R/profraw > $D/retained2.profraw
printf 'discard: %s\n' "$(pgotest write $R/reset 1)" > $D/discard.txt
[ -e $R ] && echo "retained-still-present" >> $D/discard.txt
# A module whose license is not the GPL loads, runs and is profiled.
N=/sys/module/pgo_nongpl
insmod /lib/modules/pgo_nongpl.ko 2> $D/nongpl-insmod.txt
echo "insmod: $?" >> $D/nongpl-insmod.txt
echo 1234 > $N/parameters/run
cat $N/pgo/profraw > $D/nongpl.profraw
cat /proc/sys/kernel/tainted > $D/nongpl-tainted.txt
rmmod pgo_nongpl
pgotest write /sys/kernel/pgo/retained/pgo_nongpl/reset 1 > /dev/null

# Value profiling on every vCPU at once (a weakly ordered CPU: arm64):
# pgo_hammer calls its one indirect-call site 6400 times on each online
# CPU in parallel, over 64 targets, so values are appended, counted and
# replaced concurrently.  check-modules.sh judges the profile.
H=/sys/module/pgo_hammer
if insmod /lib/modules/pgo_hammer.ko 2> $D/hammer-insmod.txt; then
	grep -c '^processor' /proc/cpuinfo > $D/hammer-cpus.txt
	echo 6400 > $H/parameters/run
	echo 6400 > $H/parameters/run
	cat $H/pgo/profraw > $D/hammer.profraw
	rmmod pgo_hammer
	pgotest write /sys/kernel/pgo/retained/pgo_hammer/reset 1 > /dev/null
fi

# A notifier that runs a going module's code after the module's exit
# (pgo_going_probe calls pgo_going_victim_fn() 1000 times): the retained
# profile, taken after every other notifier, counts those calls.
insmod /lib/modules/pgo_going_probe.ko 2> $D/going.txt
insmod /lib/modules/pgo_going_victim.ko 2>> $D/going.txt
rmmod pgo_going_victim 2>> $D/going.txt
cat /sys/kernel/pgo/retained/pgo_going_victim/profraw > $D/going.profraw
pgotest write /sys/kernel/pgo/retained/pgo_going_victim/reset 1 >> $D/going.txt
rmmod pgo_going_probe 2>> $D/going.txt

# The test module linked by GNU ld (the root Makefile builds it as
# pgo_test_bfd on x86_64): profiled for all its functions, as ld.lld's.
B=/sys/module/pgo_test_bfd
if [ -f /lib/modules/pgo_test_bfd.ko ]; then
	insmod /lib/modules/pgo_test_bfd.ko 2> $D/bfd-insmod.txt
	echo 700 > $B/parameters/run
	cat $B/pgo/profraw > $D/bfd.profraw
	rmmod pgo_test_bfd
	pgotest write /sys/kernel/pgo/retained/pgo_test_bfd/reset 1 > /dev/null
fi

# The test module built by another clang (pgo_test_xver): it loads and
# runs, unprofiled if its raw version is not vmlinux's.
X=/sys/module/pgo_test_xver
if [ -f /lib/modules/pgo_test_xver.ko ]; then
	insmod /lib/modules/pgo_test_xver.ko > $D/xver.txt 2>&1
	echo "insmod: $?" >> $D/xver.txt
	echo "run: $(pgotest write $X/parameters/run 300)" >> $D/xver.txt
	[ -e $X/pgo ] && echo "pgo-dir" >> $D/xver.txt
	rmmod pgo_test_xver
	echo "rmmod: $?" >> $D/xver.txt
	[ -e /sys/kernel/pgo/retained/pgo_test_xver ] && echo "retained" >> $D/xver.txt
fi
dmesg | grep -i pgo > $D/dmesg-pgo.txt
echo done
