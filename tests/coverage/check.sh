#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Judge a coverage kernel's guest run (tests/coverage/guest/10-coverage.sh)
# with the real llvm-profdata and llvm-cov, and write the reports.
#
#   check.sh LLVM_VERSION KBUILD_DIR EXT_DIR GUEST_OUT COV_DIR [html]
#
# COV_DIR gets, per object (vmlinux and each module profiled): the merged
# profile, `llvm-cov report -show-mcdc-summary` (report-<obj>.txt),
# `llvm-cov export` (<obj>.json) and, with "html", an HTML report
# (html/<obj>/index.html); summary.txt holds the totals.  Exit status 0
# iff every check passed.
set -uo pipefail
LLVM_VERSION=$1 obj=$2 ext=$3 out=$4 cov=$5 html=${6:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
g=$out/cov
src=$(readlink -f "$obj/source")
cov() { "llvm-cov-$LLVM_VERSION" "$@"; }
py() { python3 "$here/cov.py" "$@"; }
mkdir -p "$cov"
rm -rf "${cov:?}"/*

# CONFIG_PGO_CLANG_CORRELATE: every profile is merged with its binary
# (llvm-profdata --binary-file), a module's through a linked copy, as
# pgo-collect does; no MC/DC (the option excludes it).
corr='' mcdc=''
grep -qx CONFIG_PGO_CLANG_CORRELATE=y "$obj/.config" && corr=1
grep -qx CONFIG_PGO_CLANG_MCDC=y "$obj/.config" && mcdc=1
# pmerge BINARY OUT PROFILE...: llvm-profdata merge, with the binary if
# the kernel is correlated.
pmerge() {
	local b=$1 o=$2 c
	shift 2
	if [ -n "$corr" ]; then
		c=$b
		if [ "${b##*/}" != vmlinux ]; then
			c=$cov/$(basename "$b").elf
			[ -e "$c" ] || "ld.lld-$LLVM_VERSION" --unresolved-symbols=ignore-all -e 0 \
				-o "$c" "$b" || return 1
		fi
		profdata merge --binary-file="$c" -o "$o" "$@"
	else
		profdata merge -o "$o" "$@"
	fi
}

# The binary a profile name (<object>-<build id>[.N].profraw) belongs to.
binary_of() {
	local name=${1%-*}

	if [ "$name" = vmlinux ]; then
		echo "$obj/vmlinux"
	else
		find "$ext" "$obj" -name "$name.ko" 2>/dev/null | head -n 1
	fi
}

# 0. The run itself.
kunit=$("$here/../check-kunit.sh" "$LLVM_VERSION" "$obj" "$out" | grep -E '^(PASS|FAIL)')
if grep -q '^PASS: KUnit suite pgo ok' <<<"$kunit"; then
	pass "KUnit on the coverage kernel: $(grep -o '[0-9]*/[0-9]* cases passed' <<<"$kunit")"
else
	fail "KUnit suite pgo did not pass on the coverage kernel: $kunit"
fi
[ "$(cat "$g/kselftest.rc" 2>/dev/null)" = 0 ] &&
	pass "kselftest pgo_sysfs passed on the coverage kernel" ||
	fail "kselftest pgo_sysfs failed: $(grep -m3 '^not ok' "$g/kselftest.tap")"
[ "$(cat "$g/collect.rc" 2>/dev/null)" = 0 ] &&
	pass "pgo-collect: $(tail -n 1 "$g/collect.txt")" ||
	fail "pgo-collect failed: $(cat "$g/collect.txt")"

# 1. Per object: merge, report, export (and HTML).
# vmlinux's profile from before the kselftest's reset: what KUnit ran.
cp "$g/vmlinux-boot.profraw" "$g/collect/vmlinux-boot.profraw" 2>/dev/null
declare -A PROFS
for f in "$g"/collect/*.profraw; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .profraw)
	b=${b%.[0-9]*}
	PROFS[${b%-*}]+=" $f"
done
# The columns of llvm-cov report's TOTAL row, which summary.txt lists.
{
	echo "llvm-cov report totals: regions, functions, lines, branches, MC/DC conditions (none without MC/DC): count, missed, cover"
	echo "(a module: its own sources first, then with the kernel headers it includes)"
} >"$cov/summary.txt"
for o in vmlinux pgo_cov_module pgo_test_module; do
	[ -n "${PROFS[$o]:-}" ] || fail "no profile of $o collected"
done
for o in $(printf '%s\n' "${!PROFS[@]}" | sort); do
	bin=$(binary_of "$o-x")
	# shellcheck disable=SC2086 # a list of files
	if [ -z "$bin" ] || ! pmerge "$bin" "$cov/$o.profdata" ${PROFS[$o]} 2>"$cov/$o.err"; then
		fail "$o: no binary, or llvm-profdata-$LLVM_VERSION merge failed: $(head -c 300 "$cov/$o.err")"
		continue
	fi
	# llvm-cov 19's export of all of vmlinux takes more than 24 GB, even
	# for one source file: the JSON is for modules only.
	# llvm-cov exits 0 on a profile that does not fit the binary.
	if cov report -show-mcdc-summary "$bin" -instr-profile="$cov/$o.profdata" \
			>"$cov/report-$o.txt" 2>"$cov/$o.err" &&
		! grep -qi 'mismatched\|no coverage data' "$cov/$o.err" &&
		grep -q '^TOTAL' "$cov/report-$o.txt" &&
		{ [ "$o" = vmlinux ] ||
		  cov export "$bin" -instr-profile="$cov/$o.profdata" \
			>"$cov/$o.json" 2>>"$cov/$o.err"; }; then
		pass "$o: llvm-cov-$LLVM_VERSION report$([ "$o" = vmlinux ] || echo " and export") read $(basename "$bin") with its profile"
		# A module's own sources: those of its directory, not the
		# headers whose inline functions it could have used.
		if [ "$o" != vmlinux ] &&
			cov report -show-mcdc-summary "$bin" -instr-profile="$cov/$o.profdata" \
				"$(dirname "$bin")/" >"$cov/report-$o-own.txt" 2>>"$cov/$o.err" &&
			grep -q '^TOTAL' "$cov/report-$o-own.txt"; then
			printf '%-26s %s\n' "$o (own sources)" \
				"$(grep '^TOTAL' "$cov/report-$o-own.txt" | tr -s ' ' | cut -d' ' -f2-)" >>"$cov/summary.txt"
		fi
		printf '%-26s %s\n' "$o$([ "$o" = vmlinux ] || echo ' (with headers)')" \
			"$(grep '^TOTAL' "$cov/report-$o.txt" | tr -s ' ' | cut -d' ' -f2-)" >>"$cov/summary.txt"
	else
		fail "$o: llvm-cov-$LLVM_VERSION failed: $(head -c 300 "$cov/$o.err")"
		continue
	fi
	if [ -n "$html" ]; then
		cov show -format=html -show-branches=count -show-mcdc \
			-output-dir="$cov/html/$o" "$bin" \
			-instr-profile="$cov/$o.profdata" 2>>"$cov/$o.err" ||
			fail "$o: llvm-cov show -format=html failed"
	fi
done

# 1b. A module's report leads with its own sources: pgo_cov_module's lists
# its one file, not the headers (each at 0 %) it includes.
rows=$(awk '$1 ~ /\.[ch]$/ { print $1 }' "$cov/report-pgo_cov_module-own.txt" 2>/dev/null)
allrows=$(awk '$1 ~ /\.[ch]$/' "$cov/report-pgo_cov_module.txt" 2>/dev/null | wc -l)
[ "$(wc -w <<<"$rows")" = 1 ] && [ "${rows##*/}" = pgo_cov_module.c ] && [ "$allrows" -gt 1 ] &&
	pass "pgo_cov_module: its own report lists pgo_cov_module.c alone ($(awk '/^TOTAL/ { print $4 }' "$cov/report-pgo_cov_module-own.txt") of regions; with headers $allrows files, $(awk '/^TOTAL/ { print $4 }' "$cov/report-pgo_cov_module.txt"))" ||
	fail "pgo_cov_module: own-sources report lists '$rows' (with headers: $allrows files)"

# 2. pgo_cov_module, run with test vectors 0..2 (mask 7).
ko=$(binary_of pgo_cov_module-x)
m=$cov/module
mkdir -p "$m"
for p in known live1 retained1 live2 retained2; do
	pmerge "$ko" "$m/$p.profdata" "$g/$p.profraw" 2>"$m/$p.err" &&
		cov export "$ko" -instr-profile="$m/$p.profdata" >"$m/$p.json" 2>>"$m/$p.err" ||
		fail "pgo_cov_module $p: llvm-profdata or llvm-cov refused it: $(head -c 300 "$m/$p.err")"
done
read -r n _ <<<"$(py func "$m/known.json" pgo_cov_never)"
[ "$n" = 0 ] && pass "pgo_cov_module: pgo_cov_never() is not covered (count 0)" ||
	fail "pgo_cov_module: pgo_cov_never() count '$n', expected 0"
read -r n _ <<<"$(py func "$m/known.json" pgo_cov_decide)"
[ "$n" = 3 ] && pass "pgo_cov_module: pgo_cov_decide() ran 3 times (mask 7)" ||
	fail "pgo_cov_module: pgo_cov_decide() count '$n', expected 3"
line=$(grep -n 'if (x > 1000)' "$here/../../tools/testing/selftests/pgo/test_modules/pgo_cov_module.c" | cut -d: -f1)
read -r t f <<<"$(py branch "$m/known.json" pgo_cov_branch "$line")"
[ "$t" = 0 ] && [ "$f" = 3 ] &&
	pass "pgo_cov_module: branch 'x > 1000' (line $line) never taken: true 0, false 3" ||
	fail "pgo_cov_module: branch 'x > 1000' true '$t' false '$f', expected 0 and 3"
if [ -n "$mcdc" ]; then
	read -r c k <<<"$(py mcdc "$m/known.json" pgo_cov_decide)"
	[ "$c" = 3 ] && [ "$k" = 2 ] &&
		pass "pgo_cov_module: MC/DC of (a && b) || c: 2 of 3 conditions shown (66.67%), b not" ||
		fail "pgo_cov_module: MC/DC '$k' of '$c' conditions, expected 2 of 3"
fi

# 3. Retention: a copy is what the module had; a reload ORs its bitmaps in.
# The export's functions but the module's exit, which runs at unload, after
# the live profile was read.
funcs() {
	python3 -c 'import json, sys
for x in json.load(open(sys.argv[1]))["data"]:
	for f in x["functions"]:
		if not f["name"].endswith("pgo_cov_exit"):
			print(json.dumps(f, sort_keys=True))' "$1"
}
if [ "$(funcs "$m/live1.json" | wc -l)" -gt 0 ] &&
	cmp -s <(funcs "$m/live1.json") <(funcs "$m/retained1.json"); then
	pass "retained after unload: llvm-cov export equals the live profile before it ($(funcs "$m/live1.json" | wc -l) functions; the exit function, which ran at unload, aside)"
else
	fail "retained after unload: llvm-cov export differs from the live profile"
fi
if [ -n "$mcdc" ]; then
	read -r c1 k1 <<<"$(py mcdc "$m/live1.json" pgo_cov_decide)"
	read -r c2 k2 <<<"$(py mcdc "$m/live2.json" pgo_cov_decide)"
	read -r c kr <<<"$(py mcdc "$m/retained2.json" pgo_cov_decide)"
	[ "$c1" = 3 ] && [ "$c2" = 3 ] && [ "$c" = 3 ] &&
		[ "$k1" = 1 ] && [ "$k2" = 0 ] && [ "$kr" = 3 ] &&
		pass "retained after a reload: MC/DC 3 of 3 conditions, from loads showing 1 and 0 (bitmaps OR-ed)" ||
		fail "retained after a reload: MC/DC '$kr' of '$c', loads '$k1' and '$k2' (expected 3 of 3 from 1 and 0)"
fi
pmerge "$ko" "$m/sum.profdata" "$g/live1.profraw" "$g/live2.profraw" 2>/dev/null &&
	cov export "$ko" -instr-profile="$m/sum.profdata" >"$m/sum.json" 2>/dev/null
if [ "$(funcs "$m/sum.json" | wc -l)" -gt 0 ] &&
	cmp -s <(funcs "$m/sum.json") <(funcs "$m/retained2.json"); then
	pass "retained after a reload: llvm-cov export equals llvm-profdata merge of the two loads"
else
	fail "retained after a reload: llvm-cov export differs from llvm-profdata merge of the two loads"
fi

# 4. vmlinux: a system call the guest made, one it never made (per-function
# rows of llvm-cov report: name, regions, missed, cover, ...).
cov report -show-functions "$obj/vmlinux" -instr-profile="$cov/vmlinux.profdata" \
	"$src/kernel/sys.c" >"$cov/vmlinux-sys.txt" 2>>"$cov/vmlinux.err"
row() { awk -v f="$1" '$1 ~ ("[:;]" f "$") { print $2, $3 }' "$cov/vmlinux-sys.txt"; }
read -r r miss <<<"$(row __do_sys_getppid)"
n=$(profdata show --counts --function=__do_sys_getppid "$cov/vmlinux.profdata" |
	awk '/Function count:/ { print $3; exit }')
[ -n "$r" ] && [ "$miss" -lt "$r" ] && [ "${n:-0}" -gt 0 ] &&
	pass "vmlinux: getppid(2) covered (__do_sys_getppid: $((r - miss)) of $r regions, entered $n times)" ||
	fail "vmlinux: __do_sys_getppid regions '$r' missed '$miss', count '$n'"
read -r r miss <<<"$(row __do_sys_sethostname)"
[ -n "$r" ] && [ "$miss" = "$r" ] &&
	pass "vmlinux: sethostname(2) not covered (__do_sys_sethostname: 0 of $r regions)" ||
	fail "vmlinux: __do_sys_sethostname regions '$r' missed '$miss', expected all missed"

# 5. The mapping stays in the files: no allocated __llvm_cov* section.
bytes=0 bad=
kos=$(find "$ext" -name '*.ko')
[ -n "$kos" ] || bad="no .ko"
for b in "$obj/vmlinux" $kos; do
	read -r n alloc <<<"$(py elf "$b")"
	bytes=$((bytes + n))
	[ "$n" -gt 0 ] && [ "$alloc" = 0 ] || bad="$bad $(basename "$b") ($n bytes, $alloc allocated)"
done
[ -z "$bad" ] &&
	pass "coverage mapping: $bytes bytes in vmlinux and $(wc -w <<<"$kos") modules, some in each file, none in an allocated section" ||
	fail "coverage mapping: $bad"
echo "coverage mapping bytes (not loaded): $bytes" >>"$cov/summary.txt"

# 6. kernel/pgo covered by its own tests (KUnit, kselftest, the guest run):
# its rows of the vmlinux report.
awk '$1 ~ "kernel/pgo/[a-z_]+[.]c$" { sub(".*kernel/pgo/", "", $1);
	printf "  %-10s functions %4d of %4d  lines %5d of %5d  branches %4d of %4d\n",
		$1, $5 - $6, $5, $8 - $9, $8, $11 - $12, $11
	f += $5; fm += $6; l += $8; lm += $9; b += $11; bm += $12 }
	END { printf "  %-10s functions %4d of %4d  lines %5d of %5d  branches %4d of %4d\n",
		"total", f - fm, f, l - lm, l, b - bm, b; exit f == 0 || f == fm }' \
	"$cov/report-vmlinux.txt" >"$cov/kernel-pgo.txt"
pgo_rows=$?
echo "kernel/pgo/ covered by its own tests (KUnit, kselftest, the guest run):" >>"$cov/summary.txt"
cat "$cov/kernel-pgo.txt" >>"$cov/summary.txt"
[ "$pgo_rows" = 0 ] && grep -q '^  format.c' "$cov/kernel-pgo.txt" && pass "kernel/pgo/ coverage: $(tail -n 1 "$cov/kernel-pgo.txt" | tr -s ' ')" ||
	fail "kernel/pgo/ has no row in vmlinux's report, or none of its functions ran"
# 7. What the kernel instrumented: all of it, or (CONFIG_PGO_CLANG_PROFILE_ALL
# not set, tests/coverage.mk) the files the checks read, and no runtime.
inst=$(cov_objects "$obj")
ninst=$(grep -c . <<<"$inst")
echo "objects of the tree compiled with coverage: $ninst" >>"$cov/summary.txt"
if grep -q '^# CONFIG_PGO_CLANG_PROFILE_ALL is not set' "$obj/.config"; then
	# PGO_PROFILE_<stem>.o=y on make's command line, for the stems of
	# COV_FILES (tests/coverage.mk): every file of that name, no other.
	miss= other=
	for f in ${COV_FILES:-}; do
		[ "$f" = sys ] && o=kernel/sys.o || o=kernel/pgo/$f.o
		grep -qxF "$o" <<<"$inst" || miss="$miss $o"
	done
	for o in $inst; do
		case " ${COV_FILES:-} " in *" $(basename "$o" .o) "*) ;; *) other="$other $o";; esac
	done
	[ -n "${COV_FILES:-}" ] && [ -z "$miss$other" ] &&
		pass "partial coverage: $ninst objects of the tree compiled with coverage, those named $(sed 's/ /.o, /g' <<<"${COV_FILES:-}").o: $(tr '\n' ' ' <<<"$inst" | sed 's/ $//')" ||
		fail "partial coverage: missing '$miss', not asked for '$other' (COV_FILES '${COV_FILES:-}')"
else
	[ "$ninst" -gt 400 ] && pass "whole coverage: $ninst objects of the tree compiled with coverage" ||
		fail "whole coverage: only $ninst objects compiled with coverage"
fi
# 8. Correlated: the kernel exported counters only, and pgo-collect merges
# each profile with its binary (the user's path) into what the checks
# above merged.
if [ -n "$corr" ]; then
	# NumData, NumCounters and NamesSize of each header (rawcmp.py knows
	# the header of every raw version).
	bad=$(python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
from rawcmp import Profile
for f in sys.argv[2:]:
	h = Profile(f).h
	if h["NumData"] or h["NamesSize"] or not h["NumCounters"]:
		print(f.rsplit("/", 1)[-1])' "$here/../host/diff" "$g"/collect/*.profraw "$g"/*.profraw 2>&1 |
		tr '\n' ' ')
	[ -z "$bad" ] &&
		pass "correlated: every profile holds counters only (no record, no name): $(ls "$g"/collect/*.profraw "$g"/*.profraw | wc -l) files, vmlinux's $(wc -c <"$g/vmlinux-boot.profraw") bytes" ||
		fail "correlated: profiles with records or names, or no counter:$bad"
	pc=$cov/pgo-collect
	# This LLVM's llvm-profdata, and so its ld.lld and llvm-readelf.
	LLVM_PROFDATA=llvm-profdata-$LLVM_VERSION \
	"$here/../../scripts/pgo/pgo-collect" --sysfs "$pc/none" --saved "$g/collect" \
		-o "$pc/raw" --binaries "$obj" --binaries "$ext" --merge-dir "$pc/pd" \
		>"$pc.out" 2>&1
	rc=$? bad=
	for o in $(printf '%s\n' "${!PROFS[@]}" | sort); do
		[ "$o" = vmlinux ] && continue
		cov export "$(binary_of "$o-x")" -instr-profile="$pc/pd/$o.profdata" \
			>"$pc/$o.json" 2>/dev/null &&
			cmp -s "$pc/$o.json" "$cov/$o.json" || bad="$bad $o"
	done
	# vmlinux.profdata of check 1 also holds vmlinux-boot.profraw.
	[ "$rc" = 0 ] && [ -s "$pc/pd/vmlinux.profdata" ] && [ -z "$bad" ] &&
		pass "correlated: pgo-collect --binaries merged every profile with its binary ($(ls "$pc/pd" | wc -l) objects; each module's llvm-cov export as above)" ||
		fail "correlated: pgo-collect --merge-dir (exit $rc): differs for:$bad; $(tail -n 3 "$pc.out")"
fi
cat "$cov/summary.txt"
summary "coverage"
