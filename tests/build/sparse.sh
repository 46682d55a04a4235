#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sparse that make check runs on a tree: prints its command.
#
#   tests/build/sparse.sh SRC BUILD
#
# The host's sparse, unless the tree's own scripts/checker-valid.sh (Linux
# 6.14 and later) rejects it: 7.3's headers use __typeof_unqual__, which
# Debian's sparse 0.6.4 (bookworm, trixie) does not parse, and Kbuild then
# skips sparse with a warning.  In that case, Debian unstable's sparse
# (0.6.5~rc1, which parses it), unpacked under BUILD/tools/sparse with
# unstable's libc6 by tests/apt-fetch.sh and run by that libc's loader
# (it needs glibc 2.38; bookworm has 2.36).  Nothing is installed.
set -euo pipefail
src=${1:?usage: $0 SRC BUILD}
build=${2:?usage: $0 SRC BUILD}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
# checker-valid.sh fails a sparse only on an "error" in its output: one
# that does not run at all passes it, so --version must work too.
valid() {
	"$1" --version >/dev/null 2>&1 &&
		[ "$(sh "$src/scripts/checker-valid.sh" "$1" -m64 2>/dev/null)" = 1 ]
}

if [ ! -f "$src/scripts/checker-valid.sh" ] || valid sparse; then
	echo sparse
	exit
fi
mkdir -p "$build" && d=$(cd "$build" && pwd)/tools/sparse
if [ ! -x "$d/sparse" ] || ! valid "$d/sparse"; then
	rm -rf "$d" && mkdir -p "$d"
	"$TOP/tests/apt-fetch.sh" unstable "$d" sparse libc6 >&2
	# Found from the wrapper's own directory, which may move with the tree.
	cat > "$d/sparse" <<-'EOF'
	#!/bin/sh
	d=$(dirname "$(readlink -f "$0")")
	lib=$d/usr/lib/x86_64-linux-gnu
	exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$d/usr/bin/sparse" "$@"
	EOF
	chmod +x "$d/sparse"
	rm -rf "$d/apt" "$d/debs"
	valid "$d/sparse" || { echo "sparse.sh: Debian unstable's sparse fails $src/scripts/checker-valid.sh too" >&2; exit 1; }
fi
echo "$d/sparse"
