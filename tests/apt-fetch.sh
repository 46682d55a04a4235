#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian packages of another suite than the host's, unpacked, not installed.
#
#   tests/apt-fetch.sh SUITE DIR PKG...   download PKG... from SUITE (main)
#                                         and unpack each into DIR
#
# apt-get download through a private sources list and state directory in
# DIR/apt (signed by Debian's archive keyring; unstable's indexes may be
# past their Valid-Until: not checked), so the host's apt configuration is
# not changed; dpkg-deb -x unpacks.  A .deb already in DIR/debs is not
# downloaded again.  Used for Linux 7.3's source (trixie-backports), the
# raw layouts of clangs the host cannot run and a newer sparse.
set -euo pipefail
suite=${1:?usage: $0 SUITE DIR PKG...}
dir=${2:?usage: $0 SUITE DIR PKG...}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
shift 2
[ $# -gt 0 ] || { echo "usage: $0 SUITE DIR PKG..." >&2; exit 2; }

apt=$dir/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dir/debs"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
	> "$apt/sources.list"
opts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
      -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root)
log=$dir/apt-fetch.log
updated=
for pkg; do
	name=${pkg%%=*}
	if ! ls "$dir/debs/${name}_"*.deb >/dev/null 2>&1; then
		if [ -z "$updated" ]; then
			apt-get "${opts[@]}" update -qq >"$log" 2>&1 ||
				{ echo "apt-fetch: cannot read the index of $suite (see $log)" >&2; exit 1; }
			updated=y
		fi
		(cd "$dir/debs" && apt-get "${opts[@]}" download -qq "$pkg") >>"$log" 2>&1 ||
			{ echo "apt-fetch: cannot download $pkg from $suite (see $log)" >&2; exit 1; }
	fi
	deb=$(ls "$dir/debs/${name}_"*.deb | tail -n 1)
	echo "apt-fetch: $(basename "$deb") from $suite"
	dpkg-deb -x "$deb" "$dir"
done
