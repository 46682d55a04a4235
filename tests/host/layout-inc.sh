#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The include directory that holds clang N's profile/InstrProfData.inc (its
# raw profile layout), for building the host tests with that layout when
# clang N itself cannot run here (another suite's libc).
#
#   tests/host/layout-inc.sh N        prints the directory
#
# clang-N's own resource directory if it is installed; else the header of
# Debian's libclang-common-N-dev, from the first suite tests/llvm-versions
# gives for N (tests/apt-fetch.sh: apt-get download, dpkg-deb -x),
# kept in build/layouts/N.  Exit status 1 if neither works.
set -uo pipefail
v=${1:?usage: $0 N}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
if command -v "clang-$v" >/dev/null; then
	"clang-$v" -print-file-name=include
	exit
fi
dir=$TOP/build/layouts/$v
found() { find "$dir/usr" -path '*/include/profile/InstrProfData.inc' 2>/dev/null | head -n 1; }
if [ -z "$(found)" ]; then
	suite=$(awk -v v="$v" '$1 == v { print $3 }' "$TOP/tests/llvm-versions")
	case $suite in
	''|-) echo "layout-inc.sh: no suite packages clang $v (tests/llvm-versions)" >&2; exit 1 ;;
	esac
	rm -rf "$dir" && mkdir -p "$dir"
	if ! "$TOP/tests/apt-fetch.sh" "$suite" "$dir" "libclang-common-$v-dev" >"$dir.log" 2>&1; then
		echo "layout-inc.sh: cannot fetch libclang-common-$v-dev from $suite (see $dir.log)" >&2
		exit 1
	fi
	rm -rf "$dir/apt" "$dir/debs"
fi
f=$(found)
[ -n "$f" ] || { echo "layout-inc.sh: no InstrProfData.inc in libclang-common-$v-dev" >&2; exit 1; }
dirname "$(dirname "$f")"
