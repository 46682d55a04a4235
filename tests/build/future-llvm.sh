#!/bin/bash
# Kconfig decides whether the compiler can build PGO_CLANG: a clang whose
# raw profile version the kernel does not know, or one without
# profile/InstrProfData.inc, cannot select it (so `make` never fails half
# way), and the real clang still can.  Each fake is a wrapper of the real
# clang that answers -print-file-name=include with a directory of its own:
# one holding InstrProfData.inc with INSTR_PROF_RAW_VERSION 12, one empty.
# usage: future-llvm.sh SRC OBJ LLVM_VERSION
set -uo pipefail
src=$1 obj=$2 llvm=$3
. "$(dirname "$0")/../lib.sh"
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
inc=$(clang-"$llvm" -print-file-name=include)
mkdir -p "$fake/v12/profile" "$fake/none"
sed 's/^#define INSTR_PROF_RAW_VERSION [0-9]*/#define INSTR_PROF_RAW_VERSION 12/' \
	"$inc/profile/InstrProfData.inc" > "$fake/v12/profile/InstrProfData.inc"
grep -q '^#define INSTR_PROF_RAW_VERSION 12' "$fake/v12/profile/InstrProfData.inc" ||
	{ fail "could not fake raw version 12"; exit 1; }
for k in v12 none; do
	cat > "$fake/clang-$k" <<-WRAP
	#!/bin/sh
	for a; do [ "\$a" = -print-file-name=include ] && { echo "$fake/$k"; exit 0; }; done
	exec clang-$llvm "\$@"
	WRAP
	chmod +x "$fake/clang-$k"
done

# pgo_config CC: PGO_CLANG's value after olddefconfig of OBJ's .config.
pgo_config() {
	rm -rf "$fake/obj" && mkdir -p "$fake/obj" && cp "$obj/.config" "$fake/obj/.config"
	make -C "$src" O="$fake/obj" ARCH=x86_64 LLVM=-"$llvm" CC="$1" olddefconfig \
		> "$fake/log" 2>&1 || { tail -5 "$fake/log"; return 1; }
	grep -q '^CONFIG_PGO_CLANG=y' "$fake/obj/.config" && echo y || echo n
}

grep -q '^CONFIG_PGO_CLANG=y' "$obj/.config" || { fail "$obj/.config has no PGO_CLANG"; exit 1; }
[ "$(pgo_config "$fake/clang-v12")" = n ] &&
	pass "a clang writing raw version 12 cannot select PGO_CLANG" ||
	fail "a clang writing raw version 12 kept PGO_CLANG"
[ "$(pgo_config "$fake/clang-none")" = n ] &&
	pass "a clang without profile/InstrProfData.inc cannot select PGO_CLANG" ||
	fail "a clang without InstrProfData.inc kept PGO_CLANG"
# Control: the real clang keeps it.
[ "$(pgo_config "clang-$llvm")" = y ] &&
	pass "clang-$llvm (raw version $(echo INSTR_PROF_RAW_VERSION | clang-"$llvm" -E -P \
		-include "$inc/profile/InstrProfData.inc" -x c - | tail -n 1)) keeps PGO_CLANG" ||
	fail "clang-$llvm cannot select PGO_CLANG"
summary "future LLVM"
