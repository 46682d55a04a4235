#!/bin/bash
# The KUnit suite "pgo" ran at boot: parse its KTAP output from dmesg.
# usage: check-kunit.sh LLVM_VERSION KBUILD_DIR GUEST_OUT_DIR
set -uo pipefail
LLVM_VERSION=$1 obj=$2 out=$3
. "$(dirname "$0")/lib.sh"
log=$out/dmesg.txt
# Lines start with a timestamp, and a caller with CONFIG_PRINTK_CALLER.
sed -n '/# Subtest: pgo$/,/ok [0-9]* pgo$/p' "$log" |
	sed -E 's/^(\[[ 0-9.]*\])?(\[ *[TC][0-9]+\])? *//' > "$out/kunit-pgo.tap"
cat "$out/kunit-pgo.tap"
total=$(grep -cE '^ *(not )?ok [0-9]+ pgo_test_' "$out/kunit-pgo.tap")
ok=$(grep -cE '^ *ok [0-9]+ pgo_test_' "$out/kunit-pgo.tap")
[ "$total" -ge 6 ] && [ "$ok" = "$total" ] && pass "KUnit pgo: $ok/$total cases passed" ||
	fail "KUnit pgo: $ok/$total cases passed"
grep -qE '^ok [0-9]+ pgo$' "$out/kunit-pgo.tap" && pass "KUnit suite pgo ok" ||
	fail "KUnit suite pgo not ok"
summary "KUnit"
