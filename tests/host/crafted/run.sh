#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/pgo's check and writer against crafted sections, under ASan and
# UBSan (tests/host/crafted/crafted.c says what each case shows).
#
#   tests/host/crafted/run.sh [VERSION...]     (default: 19)
#
# VERSION is N, or N@L: built by clang-N with the raw layout of clang L
# (tests/host/layout-inc.sh fetches L's InstrProfData.inc if clang-L cannot
# run here).
#
# format.c and runtime.c are built unchanged through tests/host/shim, with
# -fsanitize=address,undefined -fno-sanitize-recover=all, for each clang
# given (run after tests/host/run.sh, which installs them).  A control run
# shows that the build really catches an out-of-bounds read.  Exit status 0
# iff every case passed with no sanitizer report.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
PGO_SRC=${PGO_SRC:-}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgo-crafted.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail=0

for spec in "${@:-19}"; do
	v=${spec%@*}
	if ! inc=$("$HERE/../layout-inc.sh" "${spec#*@}"); then
		echo "FAIL: $spec: no InstrProfData.inc of clang ${spec#*@}"
		fail=1
		continue
	fi
	inc=$inc/profile/InstrProfData.inc
	raw=$(sed -n 's/^#define INSTR_PROF_RAW_VERSION \([0-9]*\).*/\1/p' "$inc")
	if ! src=$("$HERE/../pgo-src.sh" "$raw"); then
		echo "FAIL: $spec: no kernel/pgo for raw version ${raw:-?}"
		fail=1
		continue
	fi
	# The kernel's layouts of that version; the compiler's file, a C
	# string, gives crafted.c LLVM's constants.
	# shellcheck disable=SC2089
	flags="-std=gnu11 -O1 -g -Wall -fno-strict-aliasing -fno-common
		-fsanitize=address,undefined -fno-sanitize-recover=all
		-fno-omit-frame-pointer -I $ROOT/tests/host/shim/include
		-I $src -DCONFIG_PGO_CLANG_RAW_VERSION=$raw
		-DLLVM_INSTRPROF_INC=\"$inc\""
	tag=${spec/@/-}
	label=$v
	[ "$spec" = "$v" ] || label="$v (layout of clang ${spec#*@})"
	# shellcheck disable=SC2086,SC2090 # a list of flags
	if ! "clang-${spec%@*}" $flags "$HERE/crafted.c" "$src/format.c" \
		"$src/runtime.c" -o "$WORK/crafted-$tag" 2>"$WORK/build-$tag.log"; then
		echo "FAIL: clang-$label: crafted.c does not build with the sanitizers:"
		tail -n 15 "$WORK/build-$tag.log" | sed 's/^/  | /'
		fail=1
		continue
	fi
	if "$WORK/crafted-$tag" --asan-self >/dev/null 2>"$WORK/self-$tag.log" ||
		! grep -q 'AddressSanitizer: heap-buffer-overflow' "$WORK/self-$tag.log"; then
		echo "FAIL: clang-$label: control: ASan did not catch a read past a malloc()"
		fail=1
		continue
	fi
	if "$WORK/crafted-$tag" >"$WORK/run-$tag.log" 2>&1 &&
		! grep -q 'Sanitizer\|runtime error' "$WORK/run-$tag.log"; then
		echo "PASS: clang-$label: crafted sections under ASan+UBSan: $(grep '^crafted:' "$WORK/run-$tag.log" | sed 's/^crafted: //'); $(grep -c 'not profiled' "$WORK/run-$tag.log") refusals logged; control: ASan catches a read past a malloc()"
	else
		echo "FAIL: clang-$label: crafted sections:"
		grep -v 'not profiled' "$WORK/run-$tag.log" | head -n 30 | sed 's/^/  | /'
		fail=1
	fi
done
exit $fail
