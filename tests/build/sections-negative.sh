#!/bin/bash
# check-sections.sh must be able to fail: a function placed in .head.text
# that makes an indirect call, built with -fprofile-generate, is found;
# the same function in .text is not.
# usage: sections-negative.sh LLVM_VERSION
set -uo pipefail
llvm=$1
. "$(dirname "$0")/../lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
for sec in .head.text .text; do
	mkdir -p "$d/$sec"
	printf '%s\n' "void (*hook)(void);" \
		"__attribute__((section(\"$sec\"))) void early(void) { hook(); }" > "$d/$sec/t.c"
	"clang-$llvm" -O2 -fprofile-generate -c "$d/$sec/t.c" -o "$d/$sec/vmlinux.o"
	"$(dirname "$0")/check-sections.sh" "$d/$sec" "$llvm" > "$d/$sec.log" 2>&1
	echo $? > "$d/$sec.rc"
done
[ "$(cat "$d/.head.text.rc")" = 1 ] && grep -q '__llvm_profile_instrument_target' "$d/.head.text.log" &&
	pass "check-sections finds a value-profiling call in .head.text" ||
	fail "check-sections missed a call in .head.text: $(cat "$d/.head.text.log")"
[ "$(cat "$d/.text.rc")" = 0 ] && pass "check-sections accepts the same call in .text" ||
	fail "check-sections on .text: $(cat "$d/.text.log")"
summary "sections check"
