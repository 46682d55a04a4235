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
	make -C "$src" O="$obj" ARCH="${GUEST_ARCH:-x86_64}" LLVM=-"$llvm" \
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
"profile warnings: 0 hash mismatch, 0 missing, 0 out of date, 0 in all; 0 other -Wbackend-plugin")
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
# Under X86_KERNEL_IBT (defconfig's), objtool must not take the call graph
# profile that a build with a profile emits for address-taken functions
# (6.12: patch 0024; upstream since 6.13).  Run the tree's objtool as IBT
# kernels run it on modules, on a copy of the module; the control, the
# same section renamed, shows that objtool checks what such a section
# points to (with or without IBT in this kernel's config).
ot=$obj/tools/objtool/objtool mo=$work/mod/pgo_test_module.o
if [ "${GUEST_ARCH:-x86_64}" = x86_64 ]; then
	cp "$mo" "$work/ibt.o"
	"llvm-objcopy-$llvm" --rename-section .llvm.call-graph-profile=.cgp-control \
		"$mo" "$work/ibt-control.o"
	"$ot" --ibt --link --module "$work/ibt.o" > "$work/objtool.log" 2>&1
	"$ot" --ibt --link --module "$work/ibt-control.o" > "$work/objtool-control.log" 2>&1
	cg=$(grep -c 'call-graph-profile' "$work/objtool.log")
	if [ ! -x "$ot" ]; then
		fail "no objtool in $obj (x86_64 kernels build it)"
	elif ! grep -q ' \.llvm\.call-graph-profile ' <<< "$("llvm-readelf-$llvm" -S "$mo")"; then
		fail "no .llvm.call-graph-profile in the module built with its profile"
	elif ! grep -q '\.cgp-control+.*data relocation to !ENDBR' "$work/objtool-control.log"; then
		fail "objtool --ibt: no warning on the control section: $(head -n 2 "$work/objtool-control.log")"
	elif [ "$cg" != 0 ]; then
		fail "objtool --ibt: $cg warnings on the call graph profile: $(grep -m1 call-graph-profile "$work/objtool.log")"
	else
		pass "objtool --ibt takes no function of the call graph profile for a branch target ($(grep -c 'cgp-control' "$work/objtool-control.log") on the control)"
	fi
fi

# A directory of per-object profiles: the module's objects use
# <module>.profdata (vmlinux's objects would use vmlinux.profdata), and a
# second module of the same M= directory, which was never profiled, none:
# its init_module is not matched against the first module's.
mkdir -p "$work/dir"
cp "$work/module.profdata" "$work/dir/pgo_test_module.profdata"
cat > "$work/mod/pgo_other.c" <<'EOF2'
// SPDX-License-Identifier: GPL-2.0
#include <linux/init.h>
#include <linux/module.h>

static int __init pgo_other_init(void)
{
	return 0;
}

static void __exit pgo_other_exit(void)
{
}

module_init(pgo_other_init);
module_exit(pgo_other_exit);
MODULE_DESCRIPTION("A module without a profile");
MODULE_LICENSE("GPL");
EOF2
echo 'obj-m += pgo_test_module.o pgo_other.o' > "$work/mod/Makefile"
dir_ok=1
kmake V=1 CLANG_PGO_PROFILE="$work/dir" modules > "$work/dir.log" 2>&1 ||
	{ dir_ok=0; fail "test module build with a profile directory"; tail -20 "$work/dir.log"; }
grep -q -- "-fprofile-use=$work/dir/pgo_test_module.profdata " "$work/dir.log" &&
	pass "a profile directory: the module uses <module>.profdata" ||
	fail "a profile directory: $(grep -o -- '-fprofile-use=[^ ]*' "$work/dir.log" | sort -u)"
other=$(grep -- ' -c -o [^ ]*pgo_other\.o ' "$work/dir.log")
[ -n "$other" ] && ! grep -q -- '-fprofile-use' <<< "$other" &&
	pass "a profile directory: the module without a profile is built without one" ||
	fail "pgo_other.o: $(grep -o -- '-fprofile-use=[^ ]*' <<< "${other:-not built}")"
summary=$("$(dirname "$0")/../run/pgo-warnings.sh" "$work/dir.log")
[ $dir_ok = 1 ] &&
	[ "$summary" = "profile warnings: 0 hash mismatch, 0 missing, 0 out of date, 0 in all; 0 other -Wbackend-plugin" ] &&
	pass "a profile directory, two modules of one M= directory: $summary" ||
	{ fail "a profile directory: $summary"; grep -h 'warning:.*profile' "$work/dir.log" | head -5; }

# An object depends on its profile: rebuilt when it changes, only then.
built() { grep -c 'CC \[M\] .*pgo_test_module\.o' "$1"; }
kmake CLANG_PGO_PROFILE="$work/dir" modules > "$work/same.log" 2>&1
touch "$work/dir/pgo_test_module.profdata"
kmake CLANG_PGO_PROFILE="$work/dir" modules > "$work/new.log" 2>&1
[ "$(built "$work/same.log")" = 0 ] && [ "$(built "$work/new.log")" = 1 ] &&
	pass "same profile: nothing rebuilt; new profile: the module rebuilt" ||
	fail "rebuilds: $(built "$work/same.log") with the same profile, $(built "$work/new.log") with a new one"
# The target as Kbuild names it: from the kernel's output directory (6.12),
# or from the module's, where 7.3 builds external modules.
grep -qxF -e "$work/mod/pgo_test_module.o: \$(wildcard $work/dir/pgo_test_module.profdata)" \
	-e "pgo_test_module.o: \$(wildcard $work/dir/pgo_test_module.profdata)" \
	"$work/mod/.pgo_test_module.o.cmd" &&
	pass "the module's .cmd file makes its profile a prerequisite" ||
	fail ".cmd: $(grep -n 'profdata' "$work/mod/.pgo_test_module.o.cmd" | cut -c1-100)"

# A profile that no longer fits a function (another control-flow hash):
# a warning, not an error, even with -Werror.
profdata merge --text -o "$work/stale.proftext" "$work/module.profdata"
awk 'f && /^[0-9]+$/ { print 1; f = 0; next } /pgo_test_hot$/ { n = 1 }
	n && /^# Func Hash:/ { f = 1; n = 0 } { print }' \
	"$work/stale.proftext" > "$work/stale2.proftext"
profdata merge -o "$work/stale.profdata" "$work/stale2.proftext"
kmake CLANG_PGO_PROFILE="$work/stale.profdata" KCFLAGS=-Werror modules > "$work/stale.log" 2>&1 &&
	grep -q 'hash mismatch.*pgo_test_hot' "$work/stale.log" &&
	"$(dirname "$0")/../run/pgo-warnings.sh" "$work/stale.log" | grep -q '; 0 other' &&
	pass "a stale profile with -Werror: built, with a hash mismatch warning (and no other -Wbackend-plugin)" ||
	{ fail "a stale profile with -Werror"; grep -m3 'warning\|error' "$work/stale.log"; }

summary "PGO use (test module)"
