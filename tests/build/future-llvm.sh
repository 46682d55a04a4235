#!/bin/bash
# A clang whose raw profile version the kernel does not know must stop the
# build with a message naming it.  Fake one: the real InstrProfData.inc with
# INSTR_PROF_RAW_VERSION 11, offered through kernel/pgo's PGO_CC_INCLUDE.
# usage: future-llvm.sh SRC OBJ LLVM_VERSION
set -uo pipefail
src=$1 obj=$2 llvm=$3
. "$(dirname "$0")/../lib.sh"
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
inc=$(clang-"$llvm" -print-file-name=include)
mkdir -p "$fake/profile"
sed 's/^#define INSTR_PROF_RAW_VERSION [0-9]*/#define INSTR_PROF_RAW_VERSION 11/' \
	"$inc/profile/InstrProfData.inc" > "$fake/profile/InstrProfData.inc"
grep -q '^#define INSTR_PROF_RAW_VERSION 11' "$fake/profile/InstrProfData.inc" ||
	{ fail "could not fake raw version 11"; exit 1; }

kmake() {
	make -C "$src" O="$obj" ARCH=x86_64 LLVM=-"$llvm" CC="ccache clang-$llvm" "$@"
}
if kmake PGO_CC_INCLUDE="$fake" kernel/pgo/ > "$fake/log" 2>&1; then
	fail "a clang writing raw version 11 built kernel/pgo"
else
	msg=$(grep -o "CONFIG_PGO_CLANG: clang .*raw profile version '11'.*" "$fake/log")
	[ -n "$msg" ] && pass "raw version 11 stops the build: $msg" ||
		{ fail "build failed without naming the version"; tail -5 "$fake/log"; }
fi
# Control: the real header still builds.
kmake kernel/pgo/ > "$fake/log" 2>&1 && pass "the real InstrProfData.inc builds kernel/pgo" ||
	{ fail "kernel/pgo does not build with clang-$llvm"; tail -5 "$fake/log"; }
summary "future LLVM"
