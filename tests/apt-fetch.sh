#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian packages of another suite than the host's, unpacked, not installed.
#
#   tests/apt-fetch.sh SUITE DIR PKG...   download PKG... from SUITE (main)
#                                         and unpack each into DIR
#
# apt-get download through a private sources list and state directory in
# DIR/apt (signed by Debian's archive keyring; the indexes of unstable and
# experimental may be past their Valid-Until, which is not checked for
# them), so the host's apt configuration is not changed; dpkg-deb -x
# unpacks.  A .deb already in DIR/debs is not downloaded again.  Used for
# Linux 7.3's source (trixie-backports), the raw layouts of clangs the
# host cannot run and a newer sparse.
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
      -o APT::Sandbox::User=root)
case $suite in
unstable|sid|experimental) opts+=(-o Acquire::Check-Valid-Until=false) ;;
esac
log=$dir/apt-fetch.log
updated=
# deb: the newest .deb of package $name already in DIR/debs, if any.
deb() { find "$dir/debs" -maxdepth 1 -name "${name}_*.deb" | sort | tail -n 1; }
for pkg; do
	name=${pkg%%=*}
	if [ -z "$(deb)" ]; then
		if [ -z "$updated" ]; then
			apt-get "${opts[@]}" update -qq --error-on=any >"$log" 2>&1 ||
				{ echo "apt-fetch: cannot read the index of $suite (see $log)" >&2; exit 1; }
			updated=y
		fi
		(cd "$dir/debs" && apt-get "${opts[@]}" download -qq "$pkg") >>"$log" 2>&1 ||
			{ echo "apt-fetch: cannot download $pkg from $suite (see $log)" >&2; exit 1; }
	fi
	deb=$(deb)
	[ -n "$deb" ] || { echo "apt-fetch: $pkg: no .deb after apt-get download (see $log)" >&2; exit 1; }
	echo "apt-fetch: $(basename "$deb") from $suite"
	dpkg-deb -x "$deb" "$dir"
done
