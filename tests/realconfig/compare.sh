#!/bin/bash
# make realconfig-compare: the instrumented defconfig-based build against
# the plain one (make realconfig-plain): objtool warnings, none of them new,
# and build times.  Offsets differ between the builds, so warnings are
# compared without them.
# usage: compare.sh INSTRUMENTED_KBUILD_DIR PLAIN_KBUILD_DIR
set -uo pipefail
instr=$1 plain=$2

# The log of the build from scratch, when there was one: an incremental
# build.log has the warnings of the objects it rebuilt only.
log_of() { if [ -f "$1/build-full.log" ]; then echo "$1/build-full.log"; else echo "$1/build.log"; fi; }
warnings() { grep 'warning: objtool:' "$(log_of "$1")" | sed -E 's/\+0x[0-9a-f]+//g' | sort -u; }

for d in "$instr" "$plain"; do
	[ -f "$(log_of "$d")" ] || { echo "compare: no build log in $d (make realconfig / realconfig-plain)" >&2; exit 2; }
done
new=$(comm -23 <(warnings "$instr") <(warnings "$plain") | sed 's/^/  /')

row() { printf '  %-28s %-34s %s\n' "$1" "$2" "$3"; }
echo "== make realconfig-compare"
row "" "instrumented" "plain"
row "objtool warnings" "$(grep -c 'warning: objtool:' "$(log_of "$instr")") ($(basename "$(log_of "$instr")"))" \
	"$(grep -c 'warning: objtool:' "$(log_of "$plain")") ($(basename "$(log_of "$plain")"))"
row "build time (from scratch)" "$(cat "$instr/build-time.txt" 2>/dev/null || echo -)" \
	"$(cat "$plain/build-time.txt" 2>/dev/null || echo -)"
row "vmlinux size" "$(stat -c %s "$instr/vmlinux" 2>/dev/null || echo -)" \
	"$(stat -c %s "$plain/vmlinux" 2>/dev/null || echo -)"
if [ -n "$new" ]; then
	echo "FAIL: objtool warnings only in the instrumented build:"
	echo "$new"
	exit 1
fi
echo "PASS: no objtool warning that the plain build does not have"
