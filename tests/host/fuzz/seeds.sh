#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Seed inputs of the fuzz target, for clang VERSION's raw layout:
#
#   tests/host/fuzz/seeds.sh VERSION OUTDIR [MODULE.ko...]
#
# The profile sections of tests/host/diff/prog.c as clang-VERSION builds it
# (IR instrumentation; with single-byte function entry counters from LLVM
# 14 on; front-end instrumentation with MC/DC bitmaps and single-byte
# counters from raw version 9 and 10 on), linked into an executable without the
# profile runtime so that its pointers are final, and the cases of
# tests/host/crafted/crafted.c (mkseed.py).  Each MODULE.ko given (a kernel
# module built by clang-VERSION, e.g. build/ext-debug-19/test_modules/
# pgo_test_module.ko of make test) is linked the same way: its sections as
# the module loader would hand them over.  To fold them into the corpus:
#
#   tests/host/fuzz/run.sh --merge VERSION OUTDIR

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
PROG=$HERE/../diff/prog.c
V=$1
OUT=$2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgo-seeds.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
LAYOUT=$(sed -n 's/^#define INSTR_PROF_RAW_VERSION \([0-9]*\).*/\1/p' \
	"$(clang-"$V" -print-file-name=include)/profile/InstrProfData.inc")

mkdir -p "$OUT"
python3 "$HERE/mkseed.py" crafted "$LAYOUT" "$OUT"

# elf NAME CFLAGS [MKSEED OPTIONS]: prog.c built with CFLAGS, as a seed.
elf() {
	local name=$1 cflags=$2
	shift 2
	# shellcheck disable=SC2086 # a list of flags
	if ! "clang-$V" -O2 -fno-pie $cflags -c "$PROG" -o "$TMP/$name.o" 2>/dev/null; then
		echo "seeds: clang-$V cannot build $name, skipped"
		return 0
	fi
	"clang-$V" -nostdlib -static -Wl,-e,0 -Wl,--unresolved-symbols=ignore-all \
		-Wl,--build-id=none "$TMP/$name.o" -o "$TMP/$name.elf"
	python3 "$HERE/mkseed.py" elf "$LAYOUT" "$TMP/$name.elf" "$OUT/prog-$name" "$@"
}

elf ir "-fprofile-generate"
elf ir-small "-fprofile-generate -mllvm -vp-counters-per-site=0.25"
elf ir-big "-fprofile-generate -mllvm -vp-counters-per-site=16"
[ "$LAYOUT" -ge 8 ] &&
	elf entry "-fprofile-generate -mllvm -pgo-function-entry-coverage" bytecov
if [ "$LAYOUT" -ge 9 ]; then
	elf mcdc "-fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc" fe
	# Single-byte front-end counters from clang 19 (raw version 10) on.
	[ "$LAYOUT" -ge 10 ] &&
		elf fe-byte "-fprofile-instr-generate -fcoverage-mapping -mllvm -enable-single-byte-coverage" fe bytecov
else
	elf fe "-fprofile-instr-generate -fcoverage-mapping" fe
fi
shift 2
for ko; do
	ld.lld-"$V" -e 0 --unresolved-symbols=ignore-all --noinhibit-exec \
		-o "$TMP/ko.elf" "$ko" 2>/dev/null &&
		python3 "$HERE/mkseed.py" elf "$LAYOUT" "$TMP/ko.elf" \
			"$OUT/ko-$(basename "$ko" .ko)-$(readelf -h "$ko" | awk '/Machine:/ { print $NF }')" ||
		echo "seeds: $ko: not linked, skipped"
done
echo "seeds: $(find "$OUT" -type f | wc -l) inputs for raw version $LAYOUT in $OUT"
