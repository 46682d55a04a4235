#!/bin/bash
# The cheap form of the PGO cycle, for make test: the test module, rebuilt
# with CLANG_PGO_PROFILE= from the profile the guest took of it, must use
# it without a single hash mismatch, and its hot code must carry the
# profile's weights in the IR.
# usage: pgo-use.sh SRC OBJ LLVM_VERSION GUEST_OUT_DIR MODULE_SRC_DIR WORK_DIR
set -uo pipefail
src=$1 obj=$2 llvm=$3 out=$4 modsrc=$5 work=$6
LLVM_VERSION=$llvm
. "$(dirname "$0")/../lib.sh"

rm -rf "$work" && mkdir -p "$work/mod"
cp -a "$modsrc/pgo_test_module.c" "$work/mod/"
echo 'obj-m += pgo_test_module.o' > "$work/mod/Makefile"
profdata merge -o "$work/module.profdata" "$out/modules/driven.profraw" ||
	{ fail "merge of the module's profile"; exit 1; }
kmake() {
	make -C "$src" O="$obj" ARCH=x86_64 LLVM=-"$llvm" \
		CC="ccache clang-$llvm" M="$work/mod" \
		CLANG_PGO_PROFILE="$work/module.profdata" "$@"
}
kmake modules > "$work/build.log" 2>&1 && pass "test module builds with CLANG_PGO_PROFILE=" ||
	{ fail "test module build with the profile"; tail -20 "$work/build.log"; }
kmake V=1 pgo_test_module.ll > "$work/ll.log" 2>&1 ||
	{ fail "pgo_test_module.ll"; tail -20 "$work/ll.log"; }
grep -q -- "-fprofile-use=$work/module.profdata" "$work/ll.log" &&
	! grep -q -- "-fprofile-generate" "$work/ll.log" &&
	pass "Kbuild passes -fprofile-use, not -fprofile-generate" ||
	fail "Kbuild flags: $(grep -o -- '-fprofile-[a-z]*[^ ]*' "$work/ll.log" | sort -u | tr '\n' ' ')"
summary=$("$(dirname "$0")/../run/pgo-warnings.sh" "$work/build.log" "$work/ll.log")
echo "$summary"
case "$summary" in
"profile warnings: 0 hash mismatch, 0 missing, 0 out of date"*)
	pass "no profile warnings ($summary)" ;;
*)	fail "$summary"; grep -h 'warning:.*profile' "$work/build.log" | head -5 ;;
esac

# The hot function's entry count and the driver loop's branch weights.
ll=$work/mod/pgo_test_module.ll
entry=$(grep -A0 -E '^define .*@pgo_test_hot\(' "$ll" | grep -o '!prof ![0-9]*' | awk '{ print $2 }')
if [ -n "$entry" ] &&
	grep -qE "^$entry = !\{!\"function_entry_count\", i64 3300\}" "$ll"; then
	pass "pgo_test_hot carries function_entry_count 3300"
else
	fail "pgo_test_hot entry count: $(grep -E '^define .*@pgo_test_hot\(' "$ll")"
fi
weights=$(grep -E '!\{!"branch_weights", i32 [0-9]+, i32 [0-9]+\}' "$ll" |
	grep -oE 'i32 [0-9]+, i32 [0-9]+' | head -3 | tr '\n' ';')
hot=$(grep -E '!\{!"branch_weights", i32 [0-9]+, i32 [0-9]+\}' "$ll" |
	grep -oE 'i32 [0-9]+' | awk '{ print $2 }' | sort -n | tail -1)
[ "${hot:-0}" -ge 3000 ] && pass "branch weights from the profile in the IR ($weights)" ||
	fail "no hot branch_weights in the IR ($weights)"
summary "PGO use (test module)"
