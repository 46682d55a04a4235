#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host tests (tests/host/run.sh, the differential test against each
# LLVM's compiler-rt, llvm-profdata and llvm-cov; tests/host/crafted/run.sh)
# for every clang of tests/llvm-versions that Debian packages, released
# ones only (not experimental's snapshot): on the host for the versions its
# distribution has, in a minimal root of another suite (tests/host/in-root.sh)
# for the others.
#
#   tests/host/matrix.sh [VERSION...]     (default: every packaged one)
#
# Logs: build/matrix-host/<suite>.log; a table at the end.  Exit status 0
# iff every run passed.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
out=$TOP/build/matrix-host
mkdir -p "$out"
host=$("$TOP/tests/host-suite.sh")

# suites_of V: the suites that package clang-V.
suites_of() {
	awk -v v="$1" '$1 == v { $1 = $2 = ""; print }' "$TOP/tests/llvm-versions"
}
raw_of() {
	awk -v v="$1" '$1 == v { print $2 }' "$TOP/tests/llvm-versions"
}

versions=${*:-$(awk '!/^#/ && NF >= 3 && $3 != "-" && $3 != "experimental" { print $1 }' \
	"$TOP/tests/llvm-versions")}
declare -A where
for v in $versions; do
	s=$(suites_of "$v")
	[ -n "$s" ] || { echo "matrix: clang $v is not in tests/llvm-versions" >&2; exit 2; }
	case " $s " in
	*" $host "*) where[$v]=host ;;
	*) read -r first _ <<< "$s"; where[$v]=${first%-backports} ;;
	esac
done

rc=0
declare -A result
for place in host $(printf '%s\n' "${where[@]}" | sort -u | grep -vx host); do
	vs=
	for v in $versions; do
		[ "${where[$v]}" = "$place" ] && vs="$vs $v"
	done
	[ -n "$vs" ] || continue
	cmd="tests/host/run.sh$vs && tests/host/crafted/run.sh$vs"
	echo "== clang$vs: $( [ "$place" = host ] && echo "on the host ($host)" || echo "in a $place root")"
	if [ "$place" = host ]; then
		bash -c "cd '$TOP' && $cmd" > "$out/$place.log" 2>&1
	else
		"$TOP/tests/host/in-root.sh" "$place" "$cmd" > "$out/$place.log" 2>&1
	fi
	r=$?
	grep -E '^(host tests|crafted):|^FAIL' "$out/$place.log" | head -20
	for v in $vs; do result[$v]=$r; done
	[ "$r" = 0 ] || rc=1
done

echo
printf '%-6s %-4s %-12s %s\n' clang raw "run on" result
for v in $versions; do
	printf '%-6s %-4s %-12s %s\n' "$v" "$(raw_of "$v")" "${where[$v]}" \
		"$([ "${result[$v]:-2}" = 0 ] && echo passed || echo FAILED)"
done
exit "$rc"
