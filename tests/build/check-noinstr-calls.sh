#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# noinstr code must not call instrumented code outside its
# instrumentation_begin()/end() windows.  x86 has objtool to say so;
# arm64 has nothing.  Profiling adds such calls when the compiler will not
# inline a profiled "static inline" helper into a __no_profile caller
# (LLVM does not inline across a noprofile mismatch): the helper becomes
# an out-of-line, profiled copy.  So compare: the functions called from
# .noinstr.text and .cpuidle.text of an instrumented vmlinux, less those
# the plain build of the same configuration calls (upstream's own calls,
# in the windows).  What is left came from the instrumentation, or from
# other inlining choices of the instrumented build: a list to triage, not
# a verdict (x86_64, embedded default, clang 19: 41 calls, among them
# whole fault-path callees inlined differently), so no test runs it yet.
#
# usage: check-noinstr-calls.sh PGO_OBJ PLAIN_OBJ [LLVM_VERSION]
#   -> lists the calls only the PGO build has; exit 1 if any
set -uo pipefail
pgo=$1 plain=$2 llvm=${3:-19}

# calls FILE: "section callee" for each direct call or tail call from
# the noinstr and cpuidle text to a symbol outside them.
calls() {
	local vml=$1 sec lo hi
	for sec in noinstr cpuidle; do
		lo=$("llvm-nm-$llvm" "$vml" | awk -v s="__${sec}_text_start" '$3 == s { print $1 }')
		hi=$("llvm-nm-$llvm" "$vml" | awk -v s="__${sec}_text_end" '$3 == s { print $1 }')
		if [ -z "$lo" ] || [ -z "$hi" ]; then continue; fi
		"llvm-objdump-$llvm" -d --no-show-raw-insn --start-address="0x$lo" \
			--stop-address="0x$hi" "$vml" |
		grep -oE '\s(bl|b|callq?|jmpq?)\s+(0x)?[0-9a-f]+ <[^>+]+>' |
		awk -v lo="$lo" -v hi="$hi" -v sec="$sec" '{
			a = $2; sub(/^0x/, "", a)
			a = sprintf("%016s", a); gsub(/ /, "0", a)
			if (a < lo || a >= hi) { n = $3; gsub(/[<>]/, "", n); print sec, n }
		}'
	done | sort -u
}

calls "$pgo/vmlinux" > "$pgo/noinstr-calls.txt"
calls "$plain/vmlinux" > "$plain/noinstr-calls.txt"
extra=$(comm -23 "$pgo/noinstr-calls.txt" "$plain/noinstr-calls.txt")
n=$(grep -c . <<< "$extra")
echo "noinstr calls: $(grep -c . "$pgo/noinstr-calls.txt") from noinstr/cpuidle text of the instrumented vmlinux, $(grep -c . "$plain/noinstr-calls.txt") of the plain one; $n only with instrumentation"
[ "$n" -eq 0 ] && exit 0
while read -r l; do echo "  $l"; done <<< "$extra"
exit 1
