#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Judge make realconfig-cov (issue 30): one real module of the realconfig
# kernel (defconfig + tests/realconfig/real.config) built for clang's
# source-based coverage with correlated profiles (tests/realconfig/cov.config,
# PGO_PROFILE_<stem>.o=y for its objects), booted with make realconfig's
# guest, which saved every profile with pgo-collect.  With the llvm-profdata
# and llvm-cov of the clang that built it: the module's .ko keeps its
# records and names in sections that are not loaded, its profile holds
# counters only, pgo-collect merges it with the .ko, and llvm-cov reads the
# module's own sources with that profile.
#
#   check-cov.sh LLVM_VERSION KBUILD_DIR EXT_DIR GUEST_OUT COV_DIR MODULE
#
# COV_DIR gets MODULE.profdata, report-MODULE-own.txt (its own sources),
# report-MODULE.txt (with the kernel headers it includes), MODULE.json
# (llvm-cov export) and the figures (figures.txt).
set -uo pipefail
LLVM_VERSION=$1 obj=$2 ext=$3 out=$4 cov=$5 mod=$6
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/../lib.sh"
D=$out/real
src=$(readlink -f "$obj/source")
llvm() { "$1-$LLVM_VERSION" "${@:2}"; }
mkdir -p "$cov"
rm -rf "${cov:?}"/*

# shellcheck source=tests/realconfig/run-checks.sh
. "$here/run-checks.sh"

# ------------------------------------------------------------ the run
run_checks realconfig-cov
grep -qx "loaded $mod" "$D/insmod.txt"
verdict $? "$mod loaded" "$(grep " $mod" "$D/insmod.txt")"
[ -f "$D/no-pgo.txt" ] && ! grep -qx "$mod" "$D/no-pgo.txt"
verdict $? "/sys/module/$mod/pgo exists"
[ "$(cat "$D/collect.rc" 2>/dev/null)" = 0 ]
verdict $? "pgo-collect in the guest: $(tail -n 1 "$D/collect.txt" 2>/dev/null)" "$(cat "$D/collect.txt" 2>/dev/null)"

# ------------------------------------------------------------ the build
for opt in CONFIG_PGO_CLANG_COVERAGE=y CONFIG_PGO_CLANG_CORRELATE=y \
	CONFIG_RANDOMIZE_BASE=y CONFIG_UNWINDER_ORC=y \
	'# CONFIG_PGO_CLANG_PROFILE_ALL is not set'; do
	grep -qxF "$opt" "$obj/.config"
	verdict $? "config: $opt"
done
ko=$(find "$obj" -name "$mod.ko" | head -n 1)
[ -n "$ko" ]
verdict $? "$mod.ko: ${ko#"$obj"/}"
# The module's objects (its .mod file) and their sources.
objs=$([ -n "$ko" ] && tr ' ' '\n' <"${ko%.ko}.mod" | grep '\.o$')
mapfile -t srcs < <(for o in $objs; do echo "$src/${o%.o}.c"; done)
# Objects of the tree compiled with coverage: the module's, and no other.
inst=$(cov_objects "$obj")
[ -n "$objs" ] && [ "$inst" = "$(sort <<<"$objs")" ]
verdict $? "compiled with coverage: $(tr '\n' ' ' <<<"$inst")" "the module's objects: $objs"
corr=$(cd "$obj" && for o in $objs; do
	grep -l -e '-profile-correlate=binary' "$(dirname "$o")/.$(basename "$o").cmd"; done | wc -l)
[ "$corr" = "$(wc -w <<<"$objs")" ]
verdict $? "compiled with -mllvm -profile-correlate=binary: $corr of $(wc -w <<<"$objs") objects"

# Sections of the .ko: name, size, whether the module loader allocates it.
declare -A size alloc
while read -r name sz flags; do
	size[$name]=$((16#$sz))
	[[ $flags == *A* ]] && alloc[$name]=1
done < <(llvm llvm-readelf -S -W "$ko" | sed 's/^ *\[ *[0-9]*\] //' |
	awk '$1 ~ /^__llvm_(prf|cov)/ { print $1, $5, $7 }')
# (an empty Flg column leaves $7 the link number: no A)
# A correlated object's records and names are __llvm_covdata and
# __llvm_covnames (never loaded: module.lds.S leaves them out), its
# __llvm_prf_data and __llvm_prf_names absent.
bad=
for s in __llvm_covdata __llvm_covnames __llvm_covfun __llvm_covmap; do
	{ [ "${size[$s]:-0}" -gt 0 ] && [ -z "${alloc[$s]:-}" ]; } || bad="$bad $s"
done
for s in __llvm_prf_data __llvm_prf_names; do
	[ "${size[$s]:-0}" = 0 ] || bad="$bad $s"
done
{ [ "${size[__llvm_prf_cnts]:-0}" -gt 0 ] && [ -n "${alloc[__llvm_prf_cnts]:-}" ]; } ||
	bad="$bad __llvm_prf_cnts"
[ -z "$bad" ]
verdict $? "$mod.ko: records ${size[__llvm_covdata]:-0} and names ${size[__llvm_covnames]:-0} bytes not loaded, counters ${size[__llvm_prf_cnts]:-0} bytes loaded" \
	"wrong:$bad"

# ------------------------------------------------------------ the profile
prof=$(find "$D/collect" -name "$mod-*.profraw" 2>/dev/null | head -n 1)
hdr=$(python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
from rawcmp import Profile
h = Profile(sys.argv[2]).h
print(h["NumData"], h["NamesSize"], h["NumCounters"])' "$here/../host/diff" "$prof" 2>&1)
read -r ndata nnames ncnts <<<"$hdr"
[ -n "$prof" ] && [ "$ndata" = 0 ] && [ "$nnames" = 0 ] &&
	[ "$((ncnts * 8))" = "${size[__llvm_prf_cnts]:-0}" ]
verdict $? "$mod's profile ($(basename "$prof")): counters only, $ncnts of them, no record, no name" "$hdr"

# pgo-collect on the host, as a user runs it on the guest's copies: every
# profile merged with its binary, found by build id.
pc=$cov/pgo-collect
LLVM_PROFDATA=llvm-profdata-$LLVM_VERSION \
"$here/../../scripts/pgo/pgo-collect" -v --sysfs "$pc/none" --saved "$D/collect" \
	-o "$pc/raw" --binaries "$obj" --binaries "$ext" --merge-dir "$pc/pd" \
	>"$pc.out" 2>&1
verdict $? "pgo-collect --binaries: $(tail -n 1 "$pc.out")" "$(tail -n 5 "$pc.out")"
pd=$cov/$mod.profdata
cp "$pc/pd/$mod.profdata" "$pd" 2>/dev/null
llvm llvm-profdata show --all-functions --counts "$pd" >"$cov/$mod.show" 2>&1
nfun=$(grep -c '^  [^ ].*:$' "$cov/$mod.show")
[ "${nfun:-0}" -gt 0 ]
verdict $? "$mod.profdata: $nfun functions with their names, from the .ko" "$(head -n 5 "$cov/$mod.show")"

# ------------------------------------------------------------ llvm-cov
# llvm-cov exits 0 on a profile that does not fit the binary.
llvm llvm-cov report "$ko" -instr-profile="$pd" "${srcs[@]}" \
	>"$cov/report-$mod-own.txt" 2>"$cov/llvm-cov.err" &&
llvm llvm-cov report "$ko" -instr-profile="$pd" >"$cov/report-$mod.txt" 2>>"$cov/llvm-cov.err" &&
llvm llvm-cov export "$ko" -instr-profile="$pd" >"$cov/$mod.json" 2>>"$cov/llvm-cov.err" &&
	! grep -qi 'mismatched\|no coverage data' "$cov/llvm-cov.err"
verdict $? "llvm-cov-$LLVM_VERSION report and export of $mod.ko" "$(head -n 5 "$cov/llvm-cov.err")"
rows=$(awk '$1 ~ /\.[ch]$/ { print $1 }' "$cov/report-$mod-own.txt")
allrows=$(awk '$1 ~ /\.[ch]$/' "$cov/report-$mod.txt" | wc -l)
own=$(awk '/^TOTAL/ { print $4 }' "$cov/report-$mod-own.txt")
[ "$(wc -w <<<"$rows")" = "${#srcs[@]}" ] && [ -n "$own" ] && [ "${own%.*}" -gt 0 ]
verdict $? "$mod's own report: $(tr '\n' ' ' <<<"$rows")at $own of regions (with the headers it includes: $allrows files, $(awk '/^TOTAL/ { print $4 }' "$cov/report-$mod.txt"))"

# What the guest's workload must have run (brd: the minix image on
# /dev/ram0): the entry count of the function, from the export.
if [ "$mod" = brd ]; then
	for fn in brd_submit_bio brd_insert_page brd_alloc; do
		c=$(python3 "$here/../coverage/cov.py" func "$cov/$mod.json" "$fn" 2>/dev/null | cut -d' ' -f1)
		[ "${c:-0}" -gt 0 ]
		verdict $? "$mod: $fn ran ${c:-0} times"
	done
fi

# ------------------------------------------------------------ figures
{
	echo "== make realconfig-cov, LLVM $LLVM_VERSION, $mod.ko ($(stat -c %s "$ko") bytes)"
	printf '  %-44s %s\n' "profile read from sysfs" "$(stat -c %s "$prof") bytes" \
		"  uncorrelated, it would add records, names" \
		"$((size[__llvm_covdata] + size[__llvm_covnames])) bytes" \
		"coverage mapping in the .ko (not loaded)" \
		"$((size[__llvm_covfun] + size[__llvm_covmap])) bytes"
	echo
	cat "$cov/report-$mod-own.txt"
} | tee "$cov/figures.txt"
summary realconfig-cov
