#!/bin/sh
# make coverage's guest side, on the coverage kernel (tests/coverage.mk):
# KUnit ran at boot; run the pgo kselftest and the test modules, the
# retention sequence of pgo_cov_module, then collect every profile.
# Judged on the host by tests/coverage/check.sh.  Results in /out/cov/.
#
#  1. a copy of vmlinux's profile (what KUnit ran at boot), then the
#     kselftest (it resets everything, loads and runs pgo_test_module);
#  2. pgo_cov_module: load, vectors 0+1 (mask 3), copy its live profile,
#     unload, copy the retained one (the same coverage); load, vectors
#     2+3 (mask 12), copy, unload: the retained copy now holds all four
#     vectors (bitmaps OR-ed); discard it;
#  3. load it once more and run vectors 0..2 (mask 7): the profile the
#     known-coverage checks read; pgo_test_module run 100 times;
#  4. pgo-collect of everything (vmlinux, loaded modules, retained ones).
set -u
D=/out/cov
M=pgo_cov_module
KO=/lib/modules/$M.ko
P=/sys/module/$M
R=/sys/kernel/pgo/retained/$M
mkdir -p $D
PATH=/bin:/sbin:/usr/bin:/usr/sbin
export PATH

# What ran so far (KUnit at boot): the kselftest resets everything.
cat /sys/kernel/pgo/profraw > $D/vmlinux-boot.profraw
sh /kselftest/pgo/pgo_sysfs.sh > $D/kselftest.tap 2>&1
echo "$?" > $D/kselftest.rc

# No udevd runs here: retained copies stay until discarded.
insmod $KO
echo 3 > $P/parameters/run
cat $P/pgo/profraw > $D/live1.profraw
rmmod $M
cat $R/profraw > $D/retained1.profraw
insmod $KO
echo 12 > $P/parameters/run
cat $P/pgo/profraw > $D/live2.profraw
rmmod $M
cat $R/profraw > $D/retained2.profraw
echo 1 > $R/reset

insmod $KO
echo 7 > $P/parameters/run
insmod /lib/modules/pgo_test_module.ko
echo 100 > /sys/module/pgo_test_module/parameters/run
cat $P/pgo/profraw > $D/known.profraw

# getppid(2) runs, sethostname(2) does not: see check.sh.
pgobench getppid 10 > /dev/null
/usr/lib/pgo/pgo-collect -v -o $D/collect > $D/collect.txt 2>&1
echo "$?" > $D/collect.rc
cat $D/collect.txt
ls -l $D
