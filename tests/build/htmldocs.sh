#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own documentation build (Sphinx, with its kernel-doc and ABI
# extensions) of some Documentation/ directories, then its cleandocs: 6.12's
# htmldocs writes the netlink spec pages into the source tree
# (Documentation/networking/netlink_spec/), which make series would then
# find differing from the series.
#
#   htmldocs.sh SRC O LOG "DIRS" [DEST]
#
# Builds with O=O, logs to LOG; with DEST, copies the HTML there and removes
# O.  Exit status: 1 if htmldocs failed, plus 2 if cleandocs did; else 0.
set -uo pipefail
src=${1:?usage: $0 SRC O LOG DIRS [DEST]} o=${2:?} log=${3:?} dirs=${4:?} dest=${5:-}
rc=0

rm -rf "$o"
make -C "$src" O="$o" SPHINXDIRS="$dirs" htmldocs > "$log" 2>&1 || rc=1
if [ -n "$dest" ] && [ "$rc" = 0 ]; then
	rm -rf "$dest" && cp -r "$o/Documentation/output" "$dest" || rc=1
fi
make -C "$src" O="$o" cleandocs >> "$log" 2>&1 || rc=$((rc | 2))
[ -z "$dest" ] || rm -rf "$o"
exit "$rc"
