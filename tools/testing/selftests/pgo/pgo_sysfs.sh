#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The sysfs interface of clang PGO (Documentation/ABI/testing/sysfs-kernel-pgo
# and sysfs-module-pgo):
# vmlinux's files, a module's pgo group over its lifetime, retention.
# Needs root, CONFIG_PGO_CLANG, and pgo_test_module.ko (built from
# test_modules/ with M=) in $PGO_TEST_MODULE or /lib/modules/.

DIR=$(dirname "$0")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

P=/sys/kernel/pgo
MOD=pgo_test_module
KO=${PGO_TEST_MODULE:-/lib/modules/$MOD.ko}
M=/sys/module/$MOD/pgo
R=$P/retained/$MOD

ktap_print_header
[ "$(id -u)" = 0 ] || { ktap_skip_all "must be root"; exit "$KSFT_SKIP"; }
[ -d $P ] || { ktap_skip_all "no $P (CONFIG_PGO_CLANG)"; exit "$KSFT_SKIP"; }
ktap_set_plan 12

# Mode and owner as one word: ktap_test_result word-splits its command.
# Owner by number: a minimal root (busybox, no /etc/passwd) has no names.
mode() { stat -c '%a:%u' "$1" 2>/dev/null; }
# The raw magic, \377lprofr\201, as od prints it.
magic() { dd if="$1" bs=8 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n'; }
write() { printf '%s' "$2" 2>/dev/null > "$1"; }
rejects() { ! write "$@"; }

ktap_test_result "profraw is 0400 root" [ "$(mode $P/profraw)" = 400:0 ]
ktap_test_result "reset is 0200 root" [ "$(mode $P/reset)" = 200:0 ]
ktap_test_result "profraw starts with LLVM's raw magic" \
	[ "$(magic $P/profraw)" = "8172666f72706cff" ]
ktap_test_result "reset rejects 0" rejects $P/reset 0
ktap_test_result "reset accepts 1" write $P/reset 1

if [ ! -f "$KO" ] || ! insmod "$KO"; then
	for t in "module group" "module profraw magic" "module reset rejects 2" \
		 "module reset accepts 1" "unload removes the group" \
		 "unload retains the profile" "retained reset discards it"; do
		ktap_test_skip "$t (no $KO)"
	done
	ktap_finished
fi
echo 100 > /sys/module/$MOD/parameters/run
ktap_test_result "module group: profraw 0400, reset 0200" \
	[ "$(mode $M/profraw),$(mode $M/reset)" = 400:0,200:0 ]
ktap_test_result "module profraw starts with LLVM's raw magic" \
	[ "$(magic $M/profraw)" = "8172666f72706cff" ]
ktap_test_result "module reset rejects 2" rejects $M/reset 2
ktap_test_result "module reset accepts 1" write $M/reset 1
rmmod $MOD
ktap_test_result "unload removes the module's group" [ ! -e $M ]
ktap_test_result "unload retains the final profile" \
	[ "$(magic $R/profraw)" = "8172666f72706cff" ]
write $R/reset 1
ktap_test_result "retained reset discards it" [ ! -e $R ]
ktap_finished
