#!/bin/bash
# The pgo kselftest's KTAP output from the guest.
# usage: check-kselftest.sh LLVM_VERSION KBUILD_DIR GUEST_OUT_DIR
set -uo pipefail
LLVM_VERSION=$1 obj=$2 out=$3
. "$(dirname "$0")/lib.sh"
tap=$out/kselftest/pgo_sysfs.tap
cat "$tap"
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tap")
ok=$(grep -cE '^ok [0-9]+ ' "$tap")
notok=$(grep -cE '^not ok [0-9]+ ' "$tap")
skip=$(grep -cE '^ok [0-9]+ .*# SKIP' "$tap")
echo "kselftest pgo: plan $plan, ok $ok (skipped $skip), not ok $notok"
[ -n "$plan" ] && [ "$ok" = "$plan" ] && [ "$notok" = 0 ] && [ "$skip" = 0 ] &&
	[ "$(cat "$out/kselftest/pgo_sysfs.rc")" = 0 ] &&
	pass "kselftest pgo_sysfs: $ok/$plan" || fail "kselftest pgo_sysfs: $ok/$plan, $notok failed, $skip skipped"
summary "kselftest"
