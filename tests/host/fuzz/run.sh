#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libFuzzer target for kernel/pgo's check, runtime, writer, reset and
# retention (tests/host/fuzz/fuzz.c says what it checks).
#
#   tests/host/fuzz/run.sh [VERSION...] [--seconds N]   (default: 13 22, 60 s)
#   tests/host/fuzz/run.sh --coverage [VERSION...]
#   tests/host/fuzz/run.sh --merge [VERSION...] [DIR...]
#
# VERSION is N, or N@L: clang-N builds the target for the raw layout of
# clang L (tests/host/layout-inc.sh fetches L's InstrProfData.inc if
# clang-L cannot run here).
#
# For each clang version N, kernel/pgo/format.c, runtime.c and objects.c,
# and retain.c (included by retain-host.c), are built unchanged through
# tests/host/shim (and tests/host/fuzz/shim, which comes first) with
# clang-N -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all.
# Then:
#   - every input of tests/host/fuzz/crashes/ is replayed: each must pass;
#   - the target fuzzes for N seconds from corpus-<raw version>/ (7: clang
#     13, 8: clang 14-16, 10: clang 19 and later) and the cases of
#     tests/host/crafted (mkseed.py crafted), in a copy, so the tree is left
#     as it was; an input that crashes is copied to crashes/ as
#     <version>-<name>, to be replayed from then on.
# Exit status 0 iff no input crashed and no sanitizer reported anything.
#
# --coverage builds the target without libFuzzer and with
# -fprofile-instr-generate -fcoverage-mapping, replays what a fuzzing run
# starts from (the corpus and the crafted cases) and prints llvm-cov
# report's line and branch coverage of format.c, runtime.c, objects.c and
# retain.c.
#
# --merge minimises corpus-<raw version>/ together with the DIRs given
# (new seeds, a fuzzing run's corpus: FUZZ_KEEP=1 keeps it) with
# libFuzzer's -set_cover_merge=1, in place.  Seeds: seeds.sh.
#
# Missing compilers and libFuzzer are installed with apt-get.  Environment:
# PGO_SRC=dir tests another copy of kernel/pgo (default: the tree's own);
# FUZZ_KEEP=1 keeps the work directory; FUZZ_ARGS adds libFuzzer options;
# FUZZ_CRASHES=dir collects new crashes elsewhere than in crashes/ (to try
# out a copy of kernel/pgo with a bug planted, say).

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
PGO_SRC=${PGO_SRC:-}
CRASHES=${FUZZ_CRASHES:-$HERE/crashes}
SECONDS_PER=60
MODE=fuzz
VERSIONS=
DIRS=
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) SECONDS_PER=$2; shift ;;
	--seconds=*) SECONDS_PER=${1#*=} ;;
	--coverage) MODE=coverage ;;
	--merge) MODE=merge ;;
	[0-9]*) VERSIONS="$VERSIONS $1" ;;
	*) if [ "$MODE" = merge ] && [ -d "$1" ]; then
		DIRS="$DIRS $(cd "$1" && pwd)"
	   else
		echo "usage: $0 [VERSION...] [--seconds N] | --coverage [VERSION...] | --merge [VERSION...] [DIR...]" >&2
		exit 2
	   fi ;;
	esac
	shift
done
VERSIONS=${VERSIONS:-13 22}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgo-fuzz.XXXXXX")
FAIL=0
declare -A STATS

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	if [ "${FUZZ_KEEP:-0}" = 1 ] || [ "$FAIL" -ne 0 ]; then
		echo "work directory kept: $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

fail() {
	FAIL=1
	echo "FAIL: $*"
}

has_candidate() {
	apt-cache policy "$1" 2>/dev/null |
		awk '$1 == "Candidate:" { ok = $2 != "(none)" } END { exit !ok }'
}

# libFuzzer of clang-N: libclang-rt-N-dev from clang 16 on, in
# libclang-common-N-dev (a dependency of clang-N) before.
have_fuzzer() {
	command -v "clang-$1" >/dev/null && command -v "llvm-profdata-$1" >/dev/null &&
		[ -f "$("clang-$1" -print-file-name=libclang_rt.fuzzer-x86_64.a)" ]
}

install_fuzzer() {
	local v=$1 pkgs log=$WORK/apt-$1.log

	echo "clang-$v or its libFuzzer missing: installing with apt-get"
	has_candidate "clang-$v" ||
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1
	pkgs="clang-$v llvm-$v"
	has_candidate "libclang-rt-$v-dev" && pkgs="$pkgs libclang-rt-$v-dev"
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >>"$log" 2>&1 ||
		{ tail -5 "$log"; return 1; }
	have_fuzzer "$v"
}

# raw_version N: the raw profile version clang-N writes.
raw_version() {
	sed -n 's/^#define INSTR_PROF_RAW_VERSION \([0-9]*\).*/\1/p' \
		"$("$HERE/../layout-inc.sh" "$1")/profile/InstrProfData.inc"
}

# build N DIR FLAGS HARNESS-FLAGS [FILE]: the target, into DIR/fuzz; the
# kernel's files (and retain-host.c, which includes retain.c) with FLAGS,
# the harness's with HARNESS-FLAGS: the fuzzer follows the kernel's code.
build() {
	local v=$1 d=$2 san=$3 hsan=$4 f f_san o objs='' inc raw src
	# INC_FROM=N: the raw layout of clang N, whatever clang builds.
	inc=$("$HERE/../layout-inc.sh" "${INC_FROM:-$v}") || return 1
	inc=$inc/profile/InstrProfData.inc
	raw=$(sed -n 's/^#define INSTR_PROF_RAW_VERSION \([0-9]*\).*/\1/p' "$inc")
	src=$("$HERE/../pgo-src.sh" "$raw") || return 1
	# The kernel's layouts of that version (CONFIG_PGO_CLANG_RAW_VERSION);
	# the compiler's file, a C string, gives the harness LLVM's constants.
	# shellcheck disable=SC2089
	local flags="-std=gnu11 -O1 -g -Wall -fno-strict-aliasing -fno-common
		-fno-omit-frame-pointer -DCONFIG_MODULES
		-I $HERE/shim/include -I $ROOT/tests/host/shim/include -I $src
		-DCONFIG_PGO_CLANG_RAW_VERSION=$raw -DLLVM_INSTRPROF_INC=\"$inc\""

	mkdir -p "$d"
	for f in "$src/format.c" "$src/runtime.c" "$src/objects.c" \
		"$HERE/retain-host.c" "$HERE/fuzz.c" ${5:-}; do
		o=$d/$(basename "${f%.c}").o
		case $f in
		"$HERE"/fuzz.c | "$HERE"/replay.c) f_san=$hsan ;;
		*) f_san=$san ;;
		esac
		# shellcheck disable=SC2086,SC2090 # a list of flags
		nice -n 19 "clang-$v" $flags $f_san -c "$f" -o "$o" >>"$d/build.log" 2>&1 || {
			tail -n 20 "$d/build.log" | sed 's/^/  | /'
			return 1
		}
		objs="$objs $o"
	done
	# shellcheck disable=SC2086,SC2090
	nice -n 19 "clang-$v" $flags $san $objs -o "$d/fuzz" >>"$d/build.log" 2>&1 || {
		tail -n 20 "$d/build.log" | sed 's/^/  | /'
		return 1
	}
}

SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
HSAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
# The coverage build: clang's profile runtime has hooks of the same names.
COV="-fprofile-instr-generate -fcoverage-mapping
	-D__llvm_profile_instrument_target=pgo_fuzz_instrument_target
	-D__llvm_profile_instrument_memop=pgo_fuzz_instrument_memop"
# Reports go to the log; any of them fails the run.
# Ours last: an inherited setting cannot turn them off.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1
REPORTS='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|FUZZ INVARIANT BROKEN|deadly signal'

# replay N DIR: every input of crashes/ must pass.
replay() {
	local v=$1 d=$2 f n=0 bad=0

	for f in "$HERE"/crashes/*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		if ! "$d/fuzz" "$f" >"$d/replay.log" 2>&1 || grep -Eq "$REPORTS" "$d/replay.log"; then
			fail "clang-$v: regression input $(basename "$f") still crashes:"
			grep -E -A12 "$REPORTS" "$d/replay.log" | head -n 30 | sed 's/^/  | /'
			bad=$((bad + 1))
		fi
	done
	[ $bad = 0 ] && echo "PASS: clang-$v: $n regression input(s) of crashes/ replayed"
	[ $bad = 0 ]
}

# fuzz N DIR LAYOUT: N seconds from the corpus; a crash goes to crashes/.
fuzz() {
	local v=$1 d=$2 layout=$3 corpus=$HERE/corpus-$3 log=$2/fuzz.log a execs rate
	local t0=$SECONDS

	mkdir -p "$d/corpus" "$d/artifacts"
	[ -d "$corpus" ] && cp "$corpus"/* "$d/corpus/" 2>/dev/null
	# The cases of tests/host/crafted, whatever the minimised corpus kept.
	python3 "$HERE/mkseed.py" crafted "$layout" "$d/corpus"
	# shellcheck disable=SC2086 # FUZZ_ARGS: a list of options
	nice -n 19 "$d/fuzz" -max_total_time="$SECONDS_PER" -max_len=32768 \
		-timeout=20 -rss_limit_mb=2048 -use_value_profile=1 \
		-print_final_stats=1 -artifact_prefix="$d/artifacts/" \
		${FUZZ_ARGS:-} "$d/corpus" >"$log" 2>&1
	local rc=$? t=$((SECONDS - t0))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	STATS[$v]="${execs:-?} executions, ${rate:-?}/s, corpus $(find "$d/corpus" -type f | wc -l) inputs"
	if [ $rc != 0 ] || grep -Eq "$REPORTS" "$log"; then
		fail "clang-$v: fuzzing crashed (exit $rc) after $t s, ${STATS[$v]}:"
		grep -E -B2 -A25 "$REPORTS" "$log" | head -n 50 | sed 's/^/  | /'
		mkdir -p "$CRASHES"
		for a in "$d"/artifacts/*; do
			[ -f "$a" ] || continue
			cp "$a" "$CRASHES/$v-$(basename "$a")"
			echo "  regression input: $CRASHES/$v-$(basename "$a")"
		done
		return 1
	fi
	echo "PASS: clang-$v (raw version $layout): fuzzed ${SECONDS_PER} s from corpus-$layout: ${STATS[$v]}"
}

# coverage N DIR LAYOUT: replay the corpus, report line and branch coverage.
coverage() {
	local v=$1 d=$2 layout=$3 files

	if ! build "$v" "$d" "$COV" "$COV" "$HERE/replay.c"; then
		fail "clang-$v: the coverage build failed"
		return 1
	fi
	python3 "$HERE/mkseed.py" crafted "$layout" "$d/crafted"
	LLVM_PROFILE_FILE="$d/cov.profraw" "$d/fuzz" "$HERE/corpus-$layout" \
		"$d/crafted" >"$d/cov.log" 2>&1 || {
		fail "clang-$v: replaying corpus-$layout failed"
		tail -n 20 "$d/cov.log" | sed 's/^/  | /'
		return 1
	}
	"llvm-profdata-$v" merge -o "$d/cov.profdata" "$d/cov.profraw" || return 1
	local src
	src=$("$HERE/../pgo-src.sh" "$layout") || return 1
	files="$src/format.c $src/runtime.c $src/objects.c $src/retain.c"
	echo "=== clang-$v: corpus-$layout ($(find "$HERE/corpus-$layout" -type f | wc -l) inputs) and $(find "$d/crafted" -type f | wc -l) crafted cases: kernel/pgo coverage"
	# shellcheck disable=SC2086 # a list of files
	"llvm-cov-$v" report "$d/fuzz" -instr-profile="$d/cov.profdata" $files 2>&1 |
		sed "s|$src/||"
}

# merge N DIR LAYOUT: minimise corpus-LAYOUT with DIRS, in place: few
# inputs that reach every edge of the kernel's code, whatever the number
# of times (libFuzzer's -set_cover_merge).  libFuzzer 13 has none: then
# the target is built for clang N's raw layout by a newer clang.
merge() {
	local v=$1 d=$2 layout=$3 new=$2/merged m fuzz=$2/fuzz

	if ! "$fuzz" -help=1 2>&1 | grep -q set_cover_merge; then
		for m in 22 21 20 19 18 17 16 15 14; do
			have_fuzzer "$m" || continue
			INC_FROM=$v build "$m" "$d/cover" "$SAN" "$HSAN" ||
				{ fail "clang-$m: the fuzz target does not build for clang-$v's layout"; return 1; }
			fuzz=$d/cover/fuzz
			echo "clang-$v's libFuzzer has no -set_cover_merge: clang-$m builds the target for its layout"
			break
		done
	fi
	mkdir -p "$new" "$HERE/corpus-$layout"
	# shellcheck disable=SC2086 # a list of directories
	"$fuzz" -set_cover_merge=1 -use_counters=0 -max_len=32768 "$new" \
		"$HERE/corpus-$layout" $DIRS >"$d/merge.log" 2>&1 ||
		{ fail "clang-$v: merge failed"; tail "$d/merge.log"; return 1; }
	rm -f "$HERE/corpus-$layout"/*
	cp "$new"/* "$HERE/corpus-$layout/"
	echo "corpus-$layout: $(find "$HERE/corpus-$layout" -type f | wc -l) inputs"
}

if ! command -v python3 >/dev/null; then
	echo "python3 missing: installing with apt-get"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >"$WORK/apt-python3.log" 2>&1
fi
START=$(date +%s)
for spec in $VERSIONS; do
	# N@L: clang-N builds the target for clang L's raw layout.
	v=${spec%@*}
	INC_FROM=${spec#*@}
	d=$WORK/${spec/@/-}
	if ! have_fuzzer "$v" && ! install_fuzzer "$v"; then
		fail "clang-$v: no clang-$v with libFuzzer, and apt-get failed"
		continue
	fi
	layout=$(raw_version "$INC_FROM")
	case $MODE in
	coverage) coverage "$v" "$d" "$layout"; continue ;;
	esac
	if ! build "$v" "$d" "$SAN" "$HSAN"; then
		fail "clang-$v: the fuzz target does not build (kernel/pgo from ${PGO_SRC:-the tree})"
		continue
	fi
	if grep -q 'warning:' "$d/build.log"; then
		echo "  note: compiler warnings in the build:"
		grep 'warning:' "$d/build.log" | sort -u | sed 's/^/  /'
	fi
	case $MODE in
	merge) merge "$v" "$d" "$layout"; continue ;;
	esac
	# A known crash would only be found again: fix it first.
	replay "$v" "$d" && fuzz "$v" "$d" "$layout"
done
echo "fuzz (kernel/pgo from ${PGO_SRC:-the tree}): $([ $FAIL = 0 ] && echo passed || echo FAILED) in $(($(date +%s) - START)) s"
exit $FAIL
