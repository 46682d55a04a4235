#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Debian suite of this host as tests/llvm-versions names it: bookworm,
# trixie, or unstable.  Testing and unstable share a codename in
# /etc/os-release (forky in 2026) and say "<codename>/sid" in
# /etc/debian_version: both count as unstable, whose clangs testing gets.
. /etc/os-release 2>/dev/null
case ${VERSION_CODENAME:-} in
bookworm|trixie) echo "$VERSION_CODENAME" ;;
*)	if grep -q '/sid$' /etc/debian_version 2>/dev/null; then
		echo unstable
	else
		echo "${VERSION_CODENAME:-unknown}"
	fi ;;
esac
