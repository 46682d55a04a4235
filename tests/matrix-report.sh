#!/bin/bash
# Table of make matrix: per LLVM version, kernel built, booted, vmlinux and
# module profiles accepted by that version's llvm-profdata, raw version.
# usage: matrix-report.sh BUILD_DIR VERSION...
build=$1
shift
printf '%-6s %-6s %-6s %-9s %-9s %-4s %s\n' clang built booted vmlinux module raw result
for v in "$@"; do
	out=$build/out-$v/guest
	log=$build/matrix-$v.log
	built=no; booted=no; vml=no; mod=no; raw=-
	[ -f "$build/obj-$v/vmlinux" ] && built=yes
	grep -q 'guest: done' "$out/console.log" 2>/dev/null && booted=yes
	grep -q 'PASS: cat.profraw accepted' "$log" 2>/dev/null && vml=yes
	grep -q 'PASS: module driven.profraw accepted' "$log" 2>/dev/null && mod=yes
	[ -f "$out/vmlinux/cat.profraw" ] &&
		raw=$(od -An -tu4 -j8 -N4 "$out/vmlinux/cat.profraw" | tr -d ' ')
	rc=$(cat "$build/matrix-$v.rc" 2>/dev/null)
	printf '%-6s %-6s %-6s %-9s %-9s %-4s %s\n' "$v" $built $booted $vml $mod "$raw" \
		"$([ "$rc" = 0 ] && echo pass || echo "FAIL (see $log)")"
done
