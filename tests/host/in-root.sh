#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a command in a minimal root of another Debian suite, for the LLVM
# versions the host distribution does not package (tests/llvm-versions).
#
#   tests/host/in-root.sh SUITE COMMAND...
#
# The root is made once with mmdebstrap (--variant=apt, plus what the host
# tests need to start: python3, make, ca-certificates) in
# $PGO_ROOTS/SUITE (default build/roots/SUITE), with trixie-backports
# enabled in a trixie root; Debian packages only.  The repository is
# bind-mounted at the same path inside, so COMMAND (run by bash, from the
# repository's top, as root, with a clean environment) sees the tree and
# writes its results into it; the test scripts install the compilers they
# miss with apt-get, inside the root.  /proc, /sys and /dev are mounted for
# the time of the command and unmounted after it.  Exit status: COMMAND's,
# or 2 if the root cannot be made.
#
# Unstable's and testing's indexes can be past their Valid-Until date on a
# mirror snapshot: the root does not check it.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 SUITE COMMAND..." >&2; exit 2; }
suite=$1
shift
TOP=$(cd "$(dirname "$0")/../.." && pwd)
roots=${PGO_ROOTS:-$TOP/build/roots}
root=$roots/$suite
[ "$(id -u)" = 0 ] || { echo "in-root.sh: needs root (mmdebstrap, chroot)" >&2; exit 2; }

if [ ! -e "$root/.made" ]; then
	command -v mmdebstrap >/dev/null ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null ||
		{ echo "in-root.sh: cannot install mmdebstrap" >&2; exit 2; }
	mirror=http://deb.debian.org/debian
	sources=("deb $mirror $suite main")
	[ "$suite" = trixie ] && sources+=("deb $mirror trixie-backports main")
	echo "in-root.sh: making a minimal $suite root in $root (about 2 minutes)"
	rm -rf "$root" && mkdir -p "$roots"
	mmdebstrap --quiet --variant=apt --include=ca-certificates,python3,make \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		"$suite" "$root" "${sources[@]}" > "$roots/$suite.log" 2>&1 ||
		{ tail -20 "$roots/$suite.log"; rm -rf "$root"; exit 2; }
	touch "$root/.made"
fi

mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount -R "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}"
	done
}
trap cleanup EXIT
mnt() {
	mkdir -p "$2" && mount "${@:3}" "$1" "$2" && mounts+=("$2")
}
cp /etc/resolv.conf "$root/etc/resolv.conf"
mnt proc "$root/proc" -t proc || exit 2
mnt /sys "$root/sys" --rbind || exit 2
mnt /dev "$root/dev" --rbind || exit 2
mnt "$TOP" "$root$TOP" --bind || exit 2

chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	TMPDIR=/tmp bash -c "cd '$TOP' && $*" </dev/null
