#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side differential tests of the kernel's raw-profile serializer.
#
#   tests/host/run.sh [VERSION...]        (default: 13 14 15 16 19 22)
#
# For each clang/LLVM version N, kernel/pgo/format.c, runtime.c, vmlinux.c
# and objects.c are built UNCHANGED for userspace through tests/host/shim,
# built with CONFIG_PGO_CLANG_RAW_VERSION set to the raw version of N's own
# InstrProfData.inc (which scripts/pgo/raw-version.sh, Kconfig's probe, must
# find too; tests/host/diff/layout.c compares instrprof.h's layout of that
# version with the file's, field by field, and must fail for another version),
# and one instrumented program (tests/host/diff/prog.c) is linked twice:
#   A  with compiler-rt (clang-N -fprofile-generate), which writes
#      $LLVM_PROFILE_FILE at exit;
#   B  with those and tests/host/diff/harness.c, no compiler-rt, which
#      writes $PGO_OUT at exit.
# Both run the same code, so their profiles must agree:
#   - llvm-profdata-N show/merge accept both,
#   - `show --all-functions --counts --ic-targets --memop-sizes` is identical,
#   - the files are byte-identical except the fields rawcmp.py masks
#     (CountersDelta, BitmapDelta, NamesDelta; each record's CounterPtr,
#     BitmapPtr and Values), and the counters found through the masked
#     CounterPtr agree,
#   - the same with a value node pool too small for the program (values
#     dropped in both runtimes),
#   - the same after a reset in the middle of the run (pgo_object_reset()
#     against __llvm_profile_reset_counters()), and with single-byte
#     coverage counters (-pgo-function-entry-coverage, LLVM 14+),
#   - with front-end instrumentation (-fprofile-instr-generate
#     -fcoverage-mapping, no __llvm_profile_raw_version): the raw files
#     compare equal, and llvm-cov report/export give the same results,
#   - with MC/DC bitmaps (-fcoverage-mcdc, clang 18+), also after a reset:
#     raw files, llvm-cov report -show-mcdc-summary and export agree,
#   - with binary correlation (-mllvm -profile-correlate=binary, LLVM 18+;
#     vmlinux.c built with CONFIG_PGO_CLANG_CORRELATE): front-end, IR
#     without value profiling, MC/DC, single-byte; each file merged with
#     its own binary (llvm-profdata --binary-file) shows the same as an
#     uncorrelated compiler-rt run, and llvm-cov agrees (corr_variant),
# and negative tests show that each kind of check can fail.
#
# Missing compilers are installed with apt-get (Debian bookworm ships all six).
# Environment: PGO_SRC=dir tests another copy of kernel/pgo (default: the
# tree's own); KEEP=1 keeps the build directory.  Exit status 0 iff every
# check passed.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIFF=$HERE/diff
SHIM=$HERE/shim/include
PGO_SRC=${PGO_SRC:-}
VERSIONS=${*:-13 14 15 16 19 22}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgo-host.XXXXXX")
START=$(date +%s)

PASS=0
FAIL=0
# Binary B's kernel side, linked from the build directory.
KOBJS="harness.o format.o runtime.o vmlinux.o objects.o"
declare -A RAWV SHOW BYTES COV FAILED CORR_MCDC

pass() { PASS=$((PASS + 1)); echo "PASS: $*"; }
fail() {
	local what=${1#clang-${V:-}}

	FAIL=$((FAIL + 1))
	echo "FAIL: $*"
	# Remember which checks of this version failed, for the summary.
	what=${what# }
	what=${what%%:*}
	what=${what:-build}
	[ -n "${V:-}" ] && case " ${FAILED[$V]:-} " in
		*" $what "*) ;;
		*) FAILED[$V]="${FAILED[$V]:-}${FAILED[$V]:+ }$what" ;;
	esac
}

cleanup() {
	if [ "${KEEP:-0}" = 1 ] || [ "$FAIL" -ne 0 ]; then
		echo "build directory kept: $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

# run LOG cmd...: run quietly into LOG; on failure show its end.
run() {
	local log=$1
	shift
	if "$@" >>"$log" 2>&1; then
		return 0
	fi
	echo "  \$ $*" >&2
	tail -n 15 "$log" | sed 's/^/  | /' >&2
	return 1
}

profile_rt() {
	local b
	b=$("clang-$1" -print-libgcc-file-name --rtlib=compiler-rt 2>/dev/null) || return 1
	[ -f "${b/builtins/profile}" ]
}

have_toolchain() {
	command -v "clang-$1" >/dev/null && command -v "llvm-profdata-$1" >/dev/null &&
		command -v "llvm-cov-$1" >/dev/null && profile_rt "$1"
}

# has_candidate PKG: whether apt can install PKG.  `apt-cache show` is not
# enough: it succeeds for a package that is only referenced (bookworm's
# libclang-rt-15-dev has no candidate; clang 13 to 16 carry the profile
# runtime in libclang-common-N-dev).
has_candidate() {
	apt-cache policy "$1" 2>/dev/null |
		awk '$1 == "Candidate:" { ok = $2 != "(none)" } END { exit !ok }'
}

# Install clang-N and llvm-N (and, where it is a package of its own, the
# compiler-rt that holds the profile runtime) on a fresh machine.
install_toolchain() {
	local v=$1 pkgs log=$WORK/apt-$1.log

	echo "clang-$v/llvm-$v missing: installing with apt-get"
	has_candidate "clang-$v" ||
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1
	pkgs="clang-$v llvm-$v"
	has_candidate "libclang-rt-$v-dev" && pkgs="$pkgs libclang-rt-$v-dev"
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >>"$log" 2>&1 ||
		{ tail -5 "$log"; return 1; }
	have_toolchain "$v"
}

show() {
	"llvm-profdata-$V" show --all-functions --counts --ic-targets --memop-sizes "$@"
}

# first_count PROFILE FUNCTION: first block count of a function.
first_count() {
	show "$1" 2>/dev/null | awk -v f="  $2:" '$0 == f { found = 1 }
		found && /Block counts:/ { gsub(/[^0-9]/, " ", $0); print $1; exit }'
}

# Build and run A (compiler-rt) and B (kernel/pgo) from one object.
# pair NAME OBJECT A-LINK-FLAG
pair() {
	local n=$1 obj=$2 aflags=$3 log=$D/$1.log x
	local ld="-no-pie -Wl,--build-id=none -Wl,-T,$DIFF/prog.ld"

	(cd "$D" &&
		run "$log" "clang-$V" $ld $aflags "$obj" -o "$n-A" &&
		run "$log" "clang-$V" $ld "$obj" $KOBJS -o "$n-B") || return 1
	# B must get its value profiling from kernel/pgo/runtime.c, not compiler-rt.
	if nm "$D/$n-B" | grep -q '__llvm_profile_write_file\|__llvm_profile_runtime$' ||
		! nm "$D/$n-A" | grep -q '__llvm_profile_write_file'; then
		echo "  $n: compiler-rt is linked into B, or missing from A" >&2
		return 1
	fi
	rm -f "$D/$n-A.profraw" "$D/$n-B.profraw"
	for x in A B; do
		if ! (cd "$D" && LLVM_PROFILE_FILE=$n-A.profraw PGO_OUT=$n-B.profraw \
			"./$n-$x" >"$n-$x.stdout" 2>"$n-$x.stderr"); then
			echo "  $n-$x failed:" >&2
			tail -n 5 "$D/$n-$x.stderr" | sed 's/^/  | /' >&2
			return 1
		fi
	done
	grep -h '^harness:' "$D/$n-B.stderr" | sed "s/^/  $n: /"
	if ! cmp -s "$D/$n-A.stdout" "$D/$n-B.stdout"; then
		echo "  $n: A and B printed different results" >&2
		return 1
	fi
	[ -s "$D/$n-A.profraw" ] && [ -s "$D/$n-B.profraw" ]
}

# compare_raw NAME [RAWCMP FLAGS]: accepted by show and merge, show identical, bytes
# identical except masked fields.  Sets SHOW_OK and BYTES_OK.
compare_raw() {
	local n=$1 ok=1 f
	shift

	SHOW_OK=no
	BYTES_OK=no
	RAW_SEEN=
	for f in A B; do
		if show "$D/$n-$f.profraw" >"$D/$n-$f.show" 2>"$D/$n-$f.show.err" &&
			"llvm-profdata-$V" merge -o "$D/$n-$f.profdata" "$D/$n-$f.profraw" \
				>"$D/$n-$f.merge.log" 2>&1; then
			pass "clang-$V $n: llvm-profdata-$V show and merge accept $f's profile"
		else
			fail "clang-$V $n: llvm-profdata-$V rejects $f's profile: $(cat "$D/$n-$f.show.err" "$D/$n-$f.merge.log" 2>/dev/null | head -c 300)"
			ok=0
		fi
	done
	if [ $ok = 0 ]; then
		: # no show to compare
	elif diff -u "$D/$n-A.show" "$D/$n-B.show" >"$D/$n.show.diff"; then
		SHOW_OK=yes
		pass "clang-$V $n: show --all-functions --counts --ic-targets --memop-sizes identical ($(wc -l <"$D/$n-A.show") lines)"
	else
		fail "clang-$V $n: show output differs:"
		head -n 20 "$D/$n.show.diff" | sed 's/^/  /'
	fi
	if python3 "$DIFF/rawcmp.py" "$@" "$D/$n-A.profraw" "$D/$n-B.profraw" >"$D/$n.rawcmp"; then
		BYTES_OK=yes
		pass "clang-$V $n: $(cat "$D/$n.rawcmp")"
	else
		fail "clang-$V $n: raw files differ beyond the masked fields:"
		sed 's/^/  /' "$D/$n.rawcmp"
	fi
	RAW_SEEN=$(sed -n 's/.*(raw v\([0-9]*\),.*/\1/p' "$D/$n.rawcmp")
	[ "$SHOW_OK" = yes ] && [ "$BYTES_OK" = yes ]
}

# variant NAME "PROG CFLAGS" "A LINK FLAGS" [RAWCMP FLAGS]: build prog.c, link
# A and B, run, compare; a failure marks the version's show/bytes columns.
# Succeeds if both profiles were written, whether or not they agree.
variant() {
	local n=$1 ran=1
	if run "$D/build.log" "clang-$V" $2 -c "$DIFF/prog.c" -o "$D/prog-$n.o" &&
		pair "$n" "prog-$n.o" "$3"; then
		pass "clang-$V $n: A (compiler-rt) and B (kernel/pgo) built and ran"
		compare_raw "$n" ${4:-}
	else
		fail "clang-$V $n: building or running A/B failed"
		SHOW_OK=no
		BYTES_OK=no
		ran=0
	fi
	[ "$SHOW_OK" = yes ] || SHOW[$V]=no
	[ "$BYTES_OK" = yes ] || BYTES[$V]=no
	[ $ran = 1 ]
}

test_version() {
	V=$1
	D=$WORK/$V
	mkdir -p "$D"
	RAWV[$V]=-
	SHOW[$V]=no
	BYTES[$V]=no
	COV[$V]=no
	echo "=== clang-$V / llvm-$V"

	if ! have_toolchain "$V" && ! install_toolchain "$V"; then
		fail "clang-$V toolchain: not installed, and apt-get failed (see $WORK/apt-$V.log)"
		return
	fi
	local inc expect src
	inc=$("clang-$V" -print-file-name=include)/profile/InstrProfData.inc
	expect=$(sed -n 's/^#define INSTR_PROF_RAW_VERSION \([0-9]*\).*/\1/p' "$inc")
	if ! src=$("$HERE/pgo-src.sh" "$expect"); then
		fail "clang-$V: no kernel/pgo for raw version ${expect:-?}"
		return
	fi

	# Kconfig's probe of the compiler finds that version.
	local probe
	probe=$("$ROOT/scripts/pgo/raw-version.sh" "clang-$V")
	if [ -n "$expect" ] && [ "$probe" = "$expect" ]; then
		pass "clang-$V: scripts/pgo/raw-version.sh finds raw version $probe, as InstrProfData.inc says"
	else
		fail "clang-$V: scripts/pgo/raw-version.sh finds raw version '$probe', InstrProfData.inc says '$expect'"
	fi

	# The kernel's layouts (CONFIG_PGO_CLANG_RAW_VERSION, as Kconfig
	# finds it) against the compiler's InstrProfData.inc.
	local lflags="-std=gnu11 -O2 -Wall -I $SHIM -I $src
		-DLLVM_INSTRPROF_INC=\"$inc\""
	# shellcheck disable=SC2086 # a list of flags
	if run "$D/build.log" "clang-$V" $lflags -DCONFIG_PGO_CLANG_RAW_VERSION="$expect" \
		"$DIFF/layout.c" -o "$D/layout" && run "$D/layout.log" "$D/layout"; then
		pass "clang-$V layout: kernel/pgo/instrprof.h's version $expect is InstrProfData.inc's ($(cat "$D/layout.log"))"
	else
		fail "clang-$V layout: kernel/pgo/instrprof.h's version $expect differs from InstrProfData.inc's (see $D/build.log, $D/layout.log)"
	fi
	# The check can fail: the layout of the version before is not it.
	# shellcheck disable=SC2086 # a list of flags
	if [ "$expect" -gt 7 ] && "clang-$V" $lflags \
		-DCONFIG_PGO_CLANG_RAW_VERSION=$((expect == 8 ? 9 : expect - 1)) \
		"$DIFF/layout.c" -o "$D/layout-wrong" > "$D/layout-wrong.log" 2>&1; then
		fail "clang-$V layout: another version's layout passed the check"
	elif [ "$expect" -gt 7 ]; then
		pass "clang-$V layout: the check refuses raw version $((expect == 8 ? 9 : expect - 1))'s layout"
	fi

	# The kernel code, as kernel/pgo/Makefile builds it, minus the kernel.
	local kflags="-std=gnu11 -O2 -Wall -fno-strict-aliasing -fno-common -fno-pie
		-I $SHIM -I $src -DCONFIG_PGO_CLANG_RAW_VERSION=$expect"
	local PGO_SRC=$src f ok=1
	for f in "$PGO_SRC/format.c" "$PGO_SRC/runtime.c" "$PGO_SRC/vmlinux.c" \
		"$PGO_SRC/objects.c" "$DIFF/harness.c"; do
		run "$D/build.log" "clang-$V" $kflags -c "$f" -o "$D/$(basename "${f%.c}").o" || ok=0
	done
	# vmlinux.c as CONFIG_PGO_CLANG_CORRELATE builds it.
	run "$D/build.log" "clang-$V" $kflags -DCONFIG_PGO_CLANG_CORRELATE=1 \
		-c "$PGO_SRC/vmlinux.c" -o "$D/vmlinux-corr.o" || ok=0
	if [ $ok = 1 ]; then
		pass "clang-$V: kernel/pgo/{format,runtime,vmlinux,objects}.c build unchanged in userspace"
	else
		fail "clang-$V: kernel/pgo/{format,runtime,vmlinux,objects}.c do not build (see above)"
		return
	fi
	if grep -q 'warning:' "$D/build.log"; then
		echo "  note: compiler warnings in $D/build.log:"
		grep 'warning:' "$D/build.log" | sort -u | sed 's/^/  /'
	fi
	SHOW[$V]=yes
	BYTES[$V]=yes

	local covbyte=
	local irflags="-O2 -fno-pie -fprofile-generate"
	local big="-mllvm -vp-counters-per-site=16"
	if ! run "$D/build.log" "clang-$V" -O2 -fno-pie -c "$DIFF/reset-crt.c" -o "$D/reset-crt.o"; then
		fail "clang-$V: reset-crt.c does not build"
		return
	fi

	# 1. IR instrumentation, value node pool large enough for every value.
	if variant ir "$irflags $big" -fprofile-generate; then
		RAWV[$V]=${RAW_SEEN:--}
		if [ "${RAW_SEEN:-}" = "$expect" ]; then
			pass "clang-$V ir: raw version $RAW_SEEN, as InstrProfData.inc says"
		else
			fail "clang-$V ir: raw version ${RAW_SEEN:-?}, InstrProfData.inc says $expect"
		fi
		local want got fn ok=1
		for want in leaf_a:1000 leaf_b:650 leaf_c:144 never_called:0 op_add:100 many_0:40; do
			fn=${want%:*}
			got=$(first_count "$D/ir-B.profraw" "$fn")
			if [ "$got" != "${want#*:}" ]; then
				fail "clang-$V ir: $fn counted ${got:-nothing}, expected ${want#*:}"
				ok=0
			fi
		done
		# 3 + 24 targets, 6 + 1 memop buckets: the value paths really ran.
		got=$(grep -c '^	\[' "$D/ir-B.show")
		if [ $ok = 1 ] && [ "$got" -ge 34 ]; then
			pass "clang-$V ir: B's profile has the expected call counts and $got value entries (ic targets + memop sizes)"
		else
			fail "clang-$V ir: B's profile lists $got value entries, expected >= 34"
		fi

		# Code addresses relative to the code (the kernel's KASLR
		# hiding): same show output, no function address of A's file.
		if (cd "$D" && PGO_TEXT=1 PGO_OUT=ir-T.profraw ./ir-B >/dev/null 2>ir-T.stderr) &&
			show "$D/ir-T.profraw" >"$D/ir-T.show" 2>&1 &&
			cmp -s "$D/ir-A.show" "$D/ir-T.show" &&
			got=$(python3 -c '
import struct, sys
sys.path.insert(0, sys.argv[1])
from rawcmp import Profile
a, t = Profile(sys.argv[2]), Profile(sys.argv[3])
fa = {r["FunctionPointer"] for r in a.records} - {0}
words = set(struct.unpack_from(f"<{len(t.raw) // 8}Q", t.raw))
ft = [r["FunctionPointer"] for r in t.records]
assert len(fa) > 10 and not fa & words and min(ft) == 0x1000, (len(fa), fa & words, min(ft))
print(len(fa))' "$DIFF" "$D/ir-A.profraw" "$D/ir-T.profraw"); then
			pass "clang-$V ir: addresses relative to the code: show identical (ic targets resolved), none of A's $got function addresses in the file"
		else
			fail "clang-$V ir: relative code addresses (PGO_TEXT=1): see $D/ir-T.*"
		fi

		# Negative tests: damage B's file, the checks must notice.
		local m
		for m in counter value; do
			python3 "$DIFF/rawcmp.py" --corrupt $m "$D/ir-B.profraw" "$D/ir-B.$m.profraw"
			python3 "$DIFF/rawcmp.py" "$D/ir-A.profraw" "$D/ir-B.$m.profraw" >"$D/ir.$m.rawcmp"
			if [ $? = 1 ] && ! show "$D/ir-B.$m.profraw" 2>&1 | cmp -s - "$D/ir-A.show"; then
				pass "clang-$V negative: one changed $m in B's file is caught by rawcmp ($(sed -n 2p "$D/ir.$m.rawcmp" | sed 's/^rawcmp: *//')) and by the show diff"
			else
				fail "clang-$V negative: a changed $m in B's file went unnoticed"
			fi
		done
		python3 "$DIFF/rawcmp.py" --corrupt masked "$D/ir-B.profraw" "$D/ir-B.masked.profraw"
		if python3 "$DIFF/rawcmp.py" "$D/ir-A.profraw" "$D/ir-B.masked.profraw" >/dev/null &&
			show "$D/ir-B.masked.profraw" 2>&1 | cmp -s - "$D/ir-A.show"; then
			pass "clang-$V control: changing only masked fields (NamesDelta, Values) changes neither rawcmp's verdict nor show"
		else
			fail "clang-$V control: a change to masked fields only was reported"
		fi
	fi

	# 1b. Reset in the middle of the run: pgo_object_reset() against
	# compiler-rt's __llvm_profile_reset_counters().
	variant reset "$irflags $big -DPROG_RESET" "-fprofile-generate reset-crt.o"

	# 1c. Single-byte counters (LLVM 14+): function-entry coverage, with
	# and without a reset.  compiler-rt 14-16 (raw v8) writes no padding
	# after single-byte counters, format.c pads them to 8 bytes: both are
	# valid, so with v8 that padding's size may differ.
	if "clang-$V" $irflags -mllvm -pgo-function-entry-coverage -c "$DIFF/prog.c" \
		-o /dev/null >/dev/null 2>&1; then
		local pad=
		[ "$expect" = 8 ] && pad=--allow-padding
		variant bytecov "$irflags -mllvm -pgo-function-entry-coverage" -fprofile-generate $pad
		variant bytecov-reset "$irflags -mllvm -pgo-function-entry-coverage -DPROG_RESET" \
			"-fprofile-generate reset-crt.o" $pad
	else
		echo "SKIP: clang-$V has no single-byte coverage counters (-pgo-function-entry-coverage)"
	fi

	# 2. IR instrumentation, the compiler's default (small) value node pool.
	# compiler-rt adds a shared pool of 1024 nodes (lprofValueProfNodes) to
	# __llvm_prf_vnds, the kernel gives each object only the compiler's
	# nodes: B runs out, A does not.  B's file must still be valid, agree
	# with A's in everything but the values, and hold exactly the values
	# its pool took.
	if run "$D/build.log" "clang-$V" $irflags -c "$DIFF/prog.c" -o "$D/prog-pool.o" &&
		pair pool prog-pool.o -fprofile-generate; then
		local used
		used=$(sed -n 's|.*, \([0-9]*\)/\1 value nodes, [1-9][0-9]* values dropped.*|\1|p' "$D/pool-B.stderr")
		if show "$D/pool-B.profraw" >"$D/pool-B.show" 2>&1 &&
			"llvm-profdata-$V" merge -o "$D/pool-B.profdata" "$D/pool-B.profraw" >/dev/null 2>&1 &&
			python3 "$DIFF/rawcmp.py" --no-values "$D/pool-A.profraw" "$D/pool-B.profraw" >"$D/pool.rawcmp" &&
			[ -n "$used" ] && [ "$(grep -c '^	\[' "$D/pool-B.show")" = "$used" ]; then
			pass "clang-$V pool: B's pool (${used} nodes) ran out; its file is accepted, holds exactly ${used} values, and is identical to A's except the values and masked fields"
		else
			fail "clang-$V pool: exhausted pool: $(grep -h 'harness:' "$D/pool-B.stderr") $(cat "$D/pool.rawcmp")"
			BYTES[$V]=no
		fi
	else
		fail "clang-$V pool: building or running A/B failed"
		BYTES[$V]=no
	fi

	# 3. Front-end instrumentation with coverage mapping.
	if cov_variant fe ""; then
		# Negative: never_called() "ran" once in B's file.
		if python3 "$DIFF/rawcmp.py" --corrupt wake "$D/fe-B.profraw" "$D/fe-B.wake.profraw" &&
			"llvm-profdata-$V" merge -o "$D/fe-B.wake.profdata" "$D/fe-B.wake.profraw" 2>/dev/null &&
			"llvm-cov-$V" report "$D/fe-A" -instr-profile="$D/fe-B.wake.profdata" \
				>"$D/fe-wake.report" 2>&1 &&
			! cmp -s "$D/fe-A.report" "$D/fe-wake.report"; then
			pass "clang-$V negative: a never-run function marked run in B's file changes llvm-cov report"
		else
			fail "clang-$V negative: llvm-cov report did not notice a woken function"
		fi
	fi

	# 4. MC/DC (-fcoverage-mcdc): records with bitmap bytes, which the
	# kernel writes from raw version 9 (clang 18) on, resets to zero with
	# the counters, and which llvm-cov must read the same from A and B.
	if [[ ${RAWV[$V]:-} =~ ^[0-9]+$ ]] && [ "${RAWV[$V]}" -ge 9 ]; then
		cov_variant mcdc -fcoverage-mcdc &&
			cov_variant mcdc-reset "-fcoverage-mcdc -DPROG_RESET"
		# 5. Single-byte coverage counters (CONFIG_PGO_CLANG_SINGLE_BYTE):
		# one byte per counter, 0xff until covered, reset to 0xff.  From
		# clang 19 on: Kconfig offers the option only where clang takes it.
		if echo 'int x;' | "clang-$V" -fprofile-instr-generate -fcoverage-mapping \
			-mllvm -enable-single-byte-coverage -x c -c - -o /dev/null 2>/dev/null; then
			covbyte=1
			cov_variant fe-byte "-mllvm -enable-single-byte-coverage" &&
				cov_variant fe-byte-reset "-mllvm -enable-single-byte-coverage -DPROG_RESET"
		else
			echo "  clang-$V has no -enable-single-byte-coverage: no fe-byte variants"
		fi
	fi

	# 6. Binary correlation (CONFIG_PGO_CLANG_CORRELATE, LLVM 18+):
	# records and names stay in the binary, the file has the header,
	# counters and bitmaps only.
	if echo 'int x;' | "clang-$V" -fprofile-instr-generate -mllvm -profile-correlate=binary \
		-x c -c - -o /dev/null 2>/dev/null; then
		corr_variant corr-fe fe &&
			corr_variant corr-fe-reset fe -DPROG_RESET
		corr_variant corr-ir ir
		if [ "${RAWV[$V]}" -ge 9 ] 2>/dev/null; then
			corr_variant corr-mcdc fe -fcoverage-mcdc
		fi
		if [ -n "$covbyte" ]; then
			corr_variant corr-fe-byte fe "-mllvm -enable-single-byte-coverage"
		fi
	else
		echo "  clang-$V has no -profile-correlate=binary: no corr variants"
	fi
}

# corr_variant NAME fe|ir [CFLAGS]: prog.c instrumented with
# -profile-correlate=binary, front-end (with coverage mapping) or IR (with
# value profiling off: compiler-rt crashes at the first indirect call of a
# correlated program, whose records are not loaded), run as A and B
# (vmlinux.c built with CONFIG_PGO_CLANG_CORRELATE).  Each file, merged with
# its own binary (llvm-profdata --binary-file), must show the same as the
# other and as an uncorrelated compiler-rt run (U) of the same flags; for
# fe, llvm-cov report and export must agree too.  A correlated file merged
# without its binary must not pass for a profile.
corr_variant() {
	local n=$1 kind=$2 cflags=${3:-} x ok=1 aflags uflags
	local KOBJS="harness.o format.o runtime.o vmlinux-corr.o objects.o"
	local ld="-no-pie -Wl,--build-id=none -Wl,-T,$DIFF/prog.ld"

	if [ "$kind" = fe ]; then
		uflags="-fprofile-instr-generate -fcoverage-mapping" aflags=-fprofile-instr-generate
	else
		uflags="-fprofile-generate -mllvm -disable-vp=true" aflags=-fprofile-generate
	fi
	case $cflags in *-DPROG_RESET*) aflags="$aflags reset-crt.o" ;; esac
	# shellcheck disable=SC2086 # lists of flags
	if ! run "$D/build.log" "clang-$V" -O2 -fno-pie $uflags $cflags \
			-mllvm -profile-correlate=binary -c "$DIFF/prog.c" -o "$D/prog-$n.o" ||
		! run "$D/build.log" "clang-$V" -O2 -fno-pie $uflags $cflags \
			-c "$DIFF/prog.c" -o "$D/prog-$n-u.o" ||
		! (cd "$D" && run "$n.log" "clang-$V" $ld $aflags "prog-$n-u.o" -o "$n-U" &&
			LLVM_PROFILE_FILE=$n-U.profraw "./$n-U" >/dev/null 2>&1) ||
		! pair "$n" "prog-$n.o" "$aflags"; then
		fail "clang-$V $n: building or running A/B/U failed"
		SHOW[$V]=no
		BYTES[$V]=no
		return 1
	fi
	if python3 "$DIFF/rawcmp.py" "$D/$n-A.profraw" "$D/$n-B.profraw" >"$D/$n.rawcmp" &&
		grep -q ', 0 records,.* 0 name bytes' "$D/$n.rawcmp"; then
		pass "clang-$V $n: $(cat "$D/$n.rawcmp")"
	else
		fail "clang-$V $n: raw files differ beyond the masked fields, or hold records or names:"
		sed 's/^/  /' "$D/$n.rawcmp"
		BYTES[$V]=no
		ok=0
	fi
	"llvm-profdata-$V" merge -o "$D/$n-U.profdata" "$D/$n-U.profraw" >"$D/$n-U.merge.log" 2>&1 &&
		show "$D/$n-U.profdata" >"$D/$n-U.show" 2>&1 || ok=0
	for x in A B; do
		"llvm-profdata-$V" merge --binary-file="$D/$n-$x" -o "$D/$n-$x.profdata" \
			"$D/$n-$x.profraw" >"$D/$n-$x.merge.log" 2>&1 &&
			show "$D/$n-$x.profdata" >"$D/$n-$x.show" 2>&1 || ok=0
	done
	if [ $ok = 1 ] && grep -q 'Block counts: \[[1-9]' "$D/$n-U.show" &&
		cmp -s "$D/$n-U.show" "$D/$n-A.show" && cmp -s "$D/$n-U.show" "$D/$n-B.show"; then
		pass "clang-$V $n: merged with their binaries, A's and B's files show the same as the uncorrelated run ($(grep -c 'Hash:' "$D/$n-B.show") functions)"
	else
		fail "clang-$V $n: show of the correlated files (merged with --binary-file) differs from the uncorrelated run's, or failed:"
		diff "$D/$n-U.show" "$D/$n-B.show" 2>&1 | head -n 10 | sed 's/^/  /'
		SHOW[$V]=no
		ok=0
	fi
	# Without its binary, a correlated file holds no function.
	if "llvm-profdata-$V" show "$D/$n-B.profraw" 2>/dev/null | grep -q '^Total functions: 0$'; then
		pass "clang-$V $n: without --binary-file, B's file shows no function (why pgo-collect must give it)"
	else
		fail "clang-$V $n: B's correlated file read without its binary is not empty"
		ok=0
	fi
	if [ "$kind" = fe ]; then
		local rflags='' mcdc='' crashed='' r1 r2 ok0=$ok uok=1
		case $cflags in *-fcoverage-mcdc*) rflags=-show-mcdc-summary mcdc=1 ;; esac
		for x in U A B; do
			# shellcheck disable=SC2086
			"llvm-cov-$V" report $rflags "$D/$n-$x" -instr-profile="$D/$n-$x.profdata" \
				>"$D/$n-$x.report" 2>&1
			r1=$?
			"llvm-cov-$V" export "$D/$n-$x" -instr-profile="$D/$n-$x.profdata" \
				>"$D/$n-$x.json" 2>&1
			r2=$?
			if [ $r1 != 0 ] || [ $r2 != 0 ]; then
				ok=0
				[ $x = U ] && uok=0
			fi
			# Killed by a signal (128 + N).
			[ $r1 -gt 128 ] || [ $r2 -gt 128 ] && crashed="$crashed $x"
		done
		# Before LLVM 23 correlation drops the MC/DC bitmaps, and
		# trixie's llvm-cov 18 (1:18.1.8-18+b1) crashes, every time, on
		# the profiles merged without them
		# (CounterMappingContext::evaluateBitmap), compiler-rt's as the
		# kernel's; Kconfig refuses PGO_CLANG_CORRELATE with MC/DC there.
		# Only that is a known failure: both correlated files crash, the
		# uncorrelated one does not.
		if [ -n "$mcdc" ] && [ "$crashed" = " A B" ] && [ "$V" -lt 23 ] &&
			[ $uok = 1 ] && grep -q '^TOTAL' "$D/$n-U.report"; then
			echo "  clang-$V $n: llvm-cov-$V crashes on the correlated files, compiler-rt's (A) as the kernel's (B), not on the uncorrelated one: LLVM $V drops MC/DC bitmaps in correlation"
			CORR_MCDC[$V]=crash
			[ "$ok0" = 1 ]
			return
		fi
		if [ $ok = 1 ] && grep -q '^TOTAL' "$D/$n-U.report" &&
			cmp -s "$D/$n-A.report" "$D/$n-B.report" &&
			cmp -s "$D/$n-A.json" "$D/$n-B.json"; then
			pass "clang-$V $n: llvm-cov-$V report and export agree for A's and B's correlated files"
		else
			fail "clang-$V $n: llvm-cov-$V results of A's and B's correlated files differ:"
			diff "$D/$n-A.report" "$D/$n-B.report" 2>&1 | head -n 10 | sed 's/^/  /'
			ok=0
		fi
		if [ $ok = 0 ]; then
			:
		elif cmp -s "$D/$n-U.report" "$D/$n-B.report" &&
			cmp -s "$D/$n-U.json" "$D/$n-B.json"; then
			pass "clang-$V $n: ... and with the uncorrelated run's${mcdc:+ (MC/DC included)}"
			[ -n "$mcdc" ] && CORR_MCDC[$V]=yes
		elif [ -n "$mcdc" ] && cmp -s <(cut -c1-150 "$D/$n-U.report") \
			<(cut -c1-150 "$D/$n-B.report"); then
			# Regions, functions, lines, branches agree; MC/DC does not.
			echo "  clang-$V $n: LLVM $V's correlation drops MC/DC bitmaps, compiler-rt's file as the kernel's: MC/DC $(awk '/^TOTAL/ { print $14 - $15 "/" $14 }' "$D/$n-B.report") conditions covered, uncorrelated $(awk '/^TOTAL/ { print $14 - $15 "/" $14 }' "$D/$n-U.report")"
			CORR_MCDC[$V]=no
		else
			fail "clang-$V $n: llvm-cov-$V results of the correlated files differ from the uncorrelated run's:"
			diff "$D/$n-U.report" "$D/$n-B.report" 2>&1 | head -n 10 | sed 's/^/  /'
			ok=0
		fi
	fi
	[ $ok = 1 ]
}

# cov_variant NAME CFLAGS: prog.c with front-end instrumentation and
# coverage mapping (and CFLAGS), A and B compared as raw files and through
# llvm-cov report and export, which must agree; with -fcoverage-mcdc, MC/DC
# included.  Fails if anything differs.
cov_variant() {
	local n=$1 cflags=$2 ok=1 x aflags=-fprofile-instr-generate rflags=
	local what=coverage

	case $cflags in *-DPROG_RESET*) aflags="$aflags reset-crt.o" ;; esac
	case $cflags in *-fcoverage-mcdc*) rflags=-show-mcdc-summary what="coverage and MC/DC" ;; esac
	# shellcheck disable=SC2086 # lists of flags
	if ! run "$D/build.log" "clang-$V" -O2 -fno-pie -fprofile-instr-generate \
			-fcoverage-mapping $cflags -c "$DIFF/prog.c" -o "$D/prog-$n.o" ||
		! pair "$n" "prog-$n.o" "$aflags"; then
		fail "clang-$V $n: building or running A/B failed"
		SHOW[$V]=no
		BYTES[$V]=no
		return 1
	fi
	compare_raw "$n" || ok=0
	[ "$SHOW_OK" = yes ] || SHOW[$V]=no
	[ "$BYTES_OK" = yes ] || BYTES[$V]=no
	for x in A B; do
		# shellcheck disable=SC2086
		"llvm-cov-$V" report $rflags "$D/$n-$x" -instr-profile="$D/$n-$x.profdata" \
			>"$D/$n-$x.report" 2>&1 || ok=0
		"llvm-cov-$V" export "$D/$n-$x" -instr-profile="$D/$n-$x.profdata" \
			>"$D/$n-$x.json" 2>&1 || ok=0
	done
	# A's binary with B's profile: the same objects, so the same report.
	# shellcheck disable=SC2086
	"llvm-cov-$V" report $rflags "$D/$n-A" -instr-profile="$D/$n-B.profdata" \
		>"$D/$n-AB.report" 2>&1 || ok=0
	if [ $ok = 1 ] && grep -q '^TOTAL' "$D/$n-A.report" &&
		cmp -s "$D/$n-A.report" "$D/$n-B.report" &&
		cmp -s "$D/$n-A.report" "$D/$n-AB.report" &&
		cmp -s "$D/$n-A.json" "$D/$n-B.json"; then
		[ "$n" = fe ] && COV[$V]=yes
		pass "clang-$V $n: llvm-cov-$V report and export agree for A and B, $what ($(awk '/^TOTAL/ { s = "regions " $2 " missed " $3 " functions " $5 " missed " $6; if (NF >= 16) s = s " MC/DC conditions " $14 " missed " $15; print s }' "$D/$n-A.report"))"
	else
		[ "$n" = fe ] && COV[$V]=no
		fail "clang-$V $n: llvm-cov-$V results differ between A and B (or failed):"
		diff "$D/$n-A.report" "$D/$n-B.report" | head -n 10 | sed 's/^/  /'
		return 1
	fi
	if [ -n "$rflags" ] && ! grep -q '"mcdc_records":\[\[' "$D/$n-A.json"; then
		fail "clang-$V $n: llvm-cov export shows no MC/DC record: the test proves nothing"
		return 1
	fi
}

if ! command -v python3 >/dev/null; then
	echo "python3 missing: installing with apt-get"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >"$WORK/apt-python3.log" 2>&1
fi
for v in $VERSIONS; do
	test_version "$v"
done

echo
echo "=== summary (kernel/pgo from ${PGO_SRC:-the tree})"
printf '%-6s %-8s %-15s %-28s %-16s %-13s %s\n' clang "raw ver" "show identical" "bytes identical exc. masked" "llvm-cov agrees" "corr. MC/DC" "failed checks"
for v in $VERSIONS; do
	printf '%-6s %-8s %-15s %-28s %-16s %-13s %s\n' "$v" "${RAWV[$v]:--}" "${SHOW[$v]:-no}" \
		"${BYTES[$v]:-no}" "${COV[$v]:-no}" "${CORR_MCDC[$v]:--}" "${FAILED[$v]:--}"
done
echo "(show/bytes: all variants -- ir, reset, bytecov, bytecov-reset, pool, fe, mcdc, mcdc-reset, fe-byte, fe-byte-reset,"
echo " and from LLVM 18 the correlated corr-fe, corr-fe-reset, corr-ir, corr-mcdc, corr-fe-byte -- must agree;"
echo " corr. MC/DC: whether llvm-profdata --binary-file keeps MC/DC bitmaps, for compiler-rt's file as for the kernel's;"
echo " crash: llvm-cov crashes on both correlated files, not on the uncorrelated one)"
echo "masked fields: header CountersDelta, NamesDelta (v10: BitmapDelta); record CounterPtr, Values (v10: BitmapPtr)"
echo "host tests: $PASS passed, $FAIL failed in $(($(date +%s) - START)) s"
[ "$FAIL" -eq 0 ]
