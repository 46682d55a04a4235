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
# fetched with apt-get download through a private sources list (signed by
# Debian's archive keyring; the host's apt configuration is not changed)
# and unpacked with dpkg-deb -x.  The .deb is kept in build/debs/.
set -euo pipefail
kver=${1:?usage: $0 KVER DIR}
dir=${2:?usage: $0 KVER DIR}
TOP=$(cd "$(dirname "$0")/.." && pwd)
pkg=linux-source-$kver
tarball=/usr/src/$pkg.tar.xz

if ! dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null | grep -q '^install ok installed'; then
	suite=$(awk -v k="$kver" '$1 == k { print $2 }' "$TOP/tests/kernel-versions")
	[ -n "$suite" ] || { echo "fetch-source: no suite for Linux $kver in tests/kernel-versions" >&2; exit 1; }
	debs=$TOP/build/debs
	apt=$debs/apt-$suite
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
		> "$apt/sources.list"
	opts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
	      -o APT::Sandbox::User=root)
	if ! ls "$debs/${pkg}_"*.deb >/dev/null 2>&1; then
		echo "fetch-source: $pkg from $suite (apt-get download, ~170 MB)"
		apt-get "${opts[@]}" update -qq >"$debs/$pkg.log" 2>&1 &&
			(cd "$debs" && apt-get "${opts[@]}" download -qq "$pkg") >>"$debs/$pkg.log" 2>&1 ||
			{ echo "fetch-source: cannot download $pkg from $suite (see $debs/$pkg.log)" >&2; exit 1; }
	fi
	deb=$(ls "$debs/${pkg}_"*.deb | tail -n 1)
	echo "fetch-source: $(basename "$deb")"
	rm -rf "$debs/root" && mkdir -p "$debs/root"
	dpkg-deb -x "$deb" "$debs/root"
	tarball=$debs/root/usr/src/$pkg.tar.xz
fi

[ -f "$tarball" ] || { echo "fetch-source: $tarball: no such file" >&2; exit 1; }
rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
tar -C "$dir.tmp" -xf "$tarball"
mv "$dir.tmp/$pkg" "$dir" && rmdir "$dir.tmp"
rm -rf "${debs:-/nonexistent}/root"
