#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An indexed profile without its value profiles (indirect-call targets,
# memcpy sizes), as a correlated IR profile (PGO_CLANG_CORRELATE) is: the
# same functions, hashes and counters, no value site.  A build from it,
# as one from a correlated profile, takes -mllvm -disable-vp to silence
# clang's "Inconsistent number of value sites" warnings (same code).
# Made through llvm-profdata's text format, where a function's value data
# is the block from "# Num Value Kinds:" to the blank line that ends the
# function; all of it goes (text cannot carry every target a binary
# profile holds, so this is no way to edit value profiles).
# usage: strip-vp.sh LLVM_VERSION IN.profdata OUT.profdata
set -euo pipefail
[ $# = 3 ] || { echo "usage: $0 LLVM_VERSION IN.profdata OUT.profdata" >&2; exit 2; }
v=$1 in=$2 out=$3
pd=llvm-profdata-$v
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$pd" merge --text -o "$tmp/in.proftext" "$in"
awk '/^# Num Value Kinds:$/ { skip = 1 } skip && /^$/ { skip = 0 } !skip' \
	"$tmp/in.proftext" >"$tmp/out.proftext"
"$pd" merge -o "$tmp/out.profdata" "$tmp/out.proftext"

# The same kind of profile, the same functions (context-sensitive ones
# too) with the same counts (each function one line: show's order is its
# hash table's), and no value left.
functions() {
	{ "$pd" show --all-functions --counts "$1"
	  "$pd" show --all-functions --counts --showcs "$1"; } |
		awk '/^Instrumentation level:/ { print "~" $0 }
		     /^  [^ ]/ { if (f != "") print f; f = $0; next }
		     /^    / { f = f "|" $0 }
		     END { if (f != "") print f }' | sort
}
with_values() {
	"$pd" show --all-functions --ic-targets --memop-sizes "$1" |
		awk '/Total number of sites with values:/ { s += $NF } END { print s + 0 }'
}
functions "$in" >"$tmp/in.show"
functions "$tmp/out.profdata" >"$tmp/out.show"
if ! grep -q '^  ' "$tmp/in.show"; then
	echo "strip-vp: $in: no function" >&2
	exit 1
fi
if ! cmp -s "$tmp/in.show" "$tmp/out.show"; then
	echo "strip-vp: $out: functions or counters would differ from $in's:" >&2
	diff "$tmp/in.show" "$tmp/out.show" | head -n 5 >&2
	exit 1
fi
left=$(with_values "$tmp/out.profdata")
[ "$left" = 0 ] || { echo "strip-vp: $out: $left value sites left" >&2; exit 1; }
mv "$tmp/out.profdata" "$out"
echo "$(basename "$out"): $(with_values "$in") value sites with values dropped"
