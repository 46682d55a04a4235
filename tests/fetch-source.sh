#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pristine source of Linux KVER, as Debian ships it in linux-source-KVER.
#
#   tests/fetch-source.sh KVER DIR      unpack it into DIR (which must not exist)
#
# /usr/src/linux-source-KVER.tar.xz if that package is installed (make deps
# installs linux-source-6.12 from the host's own suites); else the package
# from the suite tests/kernel-versions names for KVER (7.3: trixie-backports),
# fetched and unpacked by tests/apt-fetch.sh; the .deb is kept in
# build/debs/<suite>/debs/, the unpacked tarball is not.
set -euo pipefail
kver=${1:?usage: $0 KVER DIR}
dir=${2:?usage: $0 KVER DIR}
TOP=$(cd "$(dirname "$0")/.." && pwd)
pkg=linux-source-$kver
tarball=/usr/src/$pkg.tar.xz
debs=

if ! dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null | grep -q '^install ok installed'; then
	suite=$(awk -v k="$kver" '$1 == k { print $2 }' "$TOP/tests/kernel-versions")
	[ -n "$suite" ] || { echo "fetch-source: no suite for Linux $kver in tests/kernel-versions" >&2; exit 1; }
	debs=$TOP/build/debs/$suite
	echo "fetch-source: $pkg from $suite (~170 MB the first time)"
	"$TOP/tests/apt-fetch.sh" "$suite" "$debs" "$pkg"
	tarball=$debs/usr/src/$pkg.tar.xz
fi

[ -f "$tarball" ] || { echo "fetch-source: $tarball: no such file" >&2; exit 1; }
rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
tar -C "$dir.tmp" -xf "$tarball"
mv "$dir.tmp/$pkg" "$dir" && rmdir "$dir.tmp"
[ -z "$debs" ] || rm -rf "${debs:?}/usr"
