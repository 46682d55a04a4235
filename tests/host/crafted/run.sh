#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/pgo's check and writer against crafted sections, under ASan and
# UBSan (tests/host/crafted/crafted.c says what each case shows).
#
#   tests/host/crafted/run.sh [VERSION...]     (default: 19)
#
# format.c and runtime.c are built unchanged through tests/host/shim, with
# -fsanitize=address,undefined -fno-sanitize-recover=all, for each clang
# given (run after tests/host/run.sh, which installs them).  A control run
# shows that the build really catches an out-of-bounds read.  Exit status 0
# iff every case passed with no sanitizer report.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
PGO_SRC=${PGO_SRC:-$ROOT/kernel/pgo}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgo-crafted.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail=0

for v in ${*:-19}; do
	inc=$("clang-$v" -print-file-name=include)
	flags="-std=gnu11 -O1 -g -Wall -fno-strict-aliasing -fno-common
		-fsanitize=address,undefined -fno-sanitize-recover=all
		-fno-omit-frame-pointer -I $ROOT/tests/host/shim/include
		-I $PGO_SRC -idirafter $inc"
	# shellcheck disable=SC2086 # a list of flags
	if ! "clang-$v" $flags "$HERE/crafted.c" "$PGO_SRC/format.c" \
		"$PGO_SRC/runtime.c" -o "$WORK/crafted-$v" 2>"$WORK/build-$v.log"; then
		echo "FAIL: clang-$v: crafted.c does not build with the sanitizers:"
		tail -n 15 "$WORK/build-$v.log" | sed 's/^/  | /'
		fail=1
		continue
	fi
	if "$WORK/crafted-$v" --asan-self >/dev/null 2>"$WORK/self-$v.log" ||
		! grep -q 'AddressSanitizer: heap-buffer-overflow' "$WORK/self-$v.log"; then
		echo "FAIL: clang-$v: control: ASan did not catch a read past a malloc()"
		fail=1
		continue
	fi
	if "$WORK/crafted-$v" >"$WORK/run-$v.log" 2>&1 &&
		! grep -q 'Sanitizer\|runtime error' "$WORK/run-$v.log"; then
		echo "PASS: clang-$v: crafted sections under ASan+UBSan: $(grep '^crafted:' "$WORK/run-$v.log" | sed 's/^crafted: //'); $(grep -c 'not profiled' "$WORK/run-$v.log") refusals logged; control: ASan catches a read past a malloc()"
	else
		echo "FAIL: clang-$v: crafted sections:"
		grep -v 'not profiled' "$WORK/run-$v.log" | head -n 30 | sed 's/^/  | /'
		fail=1
	fi
done
exit $fail
