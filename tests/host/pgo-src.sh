#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel/pgo sources that build for an LLVM raw profile version, for
# the host tests:
#
#   tests/host/pgo-src.sh RAW        prints the directory
#
# $PGO_SRC if set; else the tree's kernel/pgo, which has the layouts of
# versions 8 and later (what mainline's LLVM 17.0.1 minimum can write).
# Version 7 (clang 13) is Linux 6.12's alone: its patch of kernel/pgo
# (patches/6.12, "pgo: write raw profile version 7 for clang 13") applied
# to a copy in build/pgo-src-7.  Exit status 1 if the patch does not apply.
set -uo pipefail
raw=${1:?usage: $0 RAW}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${PGO_SRC:-}" ] || [ "$raw" != 7 ]; then
	echo "${PGO_SRC:-$TOP/kernel/pgo}"
	exit 0
fi
p=$(grep -l '^Subject: .*raw profile version 7' "$TOP"/patches/6.12/*.patch | head -n 1)
[ -n "$p" ] || { echo "pgo-src.sh: no raw version 7 patch in patches/6.12" >&2; exit 1; }
dir=$TOP/build/pgo-src-7
# A fresh copy each time: cheap, and never stale against the tree.
tmp=$(mktemp -d "$TOP/build/.pgo-src-7.XXXXXX") || exit 1
# The files the patch touches (kernel/pgo's and the guide), as the tree has them.
for f in $(sed -n 's,^+++ b/\([^\t]*\).*,\1,p' "$p"); do
	mkdir -p "$tmp/$(dirname "$f")" && cp "$TOP/$f" "$tmp/$f" || exit 1
done
mkdir -p "$tmp/kernel" && cp -r "$TOP/kernel/pgo" "$tmp/kernel/" &&
	patch -d "$tmp" -p1 -s --no-backup-if-mismatch < "$p" >&2 || {
	echo "pgo-src.sh: $p does not apply to kernel/pgo" >&2
	rm -rf "$tmp"
	exit 1
}
rm -rf "$dir" && mv "$tmp/kernel/pgo" "$dir" && rm -rf "$tmp"
echo "$dir"
