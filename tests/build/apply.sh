#!/bin/bash
# make apply on the user's own tree: twice on a pristine copy of the base
# (the second run recognises the series and changes nothing), and with a
# tool missing (it names the tool).
# usage: apply.sh BASE   (environment: TOP OVERLAY_FILES PATCHES)
set -uo pipefail
base=$(cd "$1" && pwd)
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -al "$base" "$work/t"
out1=$("$TOP/tests/apply.sh" "$work/t" 2>&1)
[[ $out1 == *"patches applied"* ]] && pass "make apply on a pristine tree: $out1" ||
	fail "make apply on a pristine tree: $out1"
sum1=$(cd "$work/t" && find . -type f -newer "$base/Makefile" -exec md5sum {} + | sort | md5sum)
out2=$("$TOP/tests/apply.sh" "$work/t" 2>&1)
sum2=$(cd "$work/t" && find . -type f -newer "$base/Makefile" -exec md5sum {} + | sort | md5sum)
[[ $out2 == *"the patches are in the tree already"* ]] && [ "$sum1" = "$sum2" ] &&
	pass "make apply again: $out2" || fail "make apply again: $out2"
mkdir -p "$work/bin"
for t in cp mkdir cmp tac sed sort cat head; do ln -s "$(command -v $t)" "$work/bin/$t"; done
out3=$(PATH=$work/bin /bin/bash "$TOP/tests/apply.sh" "$work/t" 2>&1)
[[ $out3 == "apply: needs patch "* ]] && pass "make apply without patch(1): $out3" ||
	fail "make apply without patch(1): $out3"
summary "apply"
