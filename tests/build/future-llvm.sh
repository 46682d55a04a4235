#!/bin/bash
# Kconfig decides whether the compiler can build PGO_CLANG: a clang whose
# raw profile version the kernel does not know, or one whose
# -fprofile-generate defines no version word, cannot select it (so `make`
# never fails half way), and the real clang still can.  Kconfig learns
# the version from the compiler's own output (scripts/pgo/raw-version.sh):
# each fake is a wrapper of the real clang that rewrites the assembly of
# __llvm_profile_raw_version, to version 12 or away.
# usage: future-llvm.sh SRC OBJ LLVM_VERSION
set -uo pipefail
src=$1 obj=$2 llvm=$3
. "$(dirname "$0")/../lib.sh"
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
# sed programs applied to the compiler's assembly on standard output.
v12='/^__llvm_profile_raw_version:/{n;s/[0-9][0-9]*/72057594037927948/;}'
none='s/__llvm_profile_raw_version/__llvm_profile_other/g'
for k in v12 none; do
	eval "prog=\$$k"
	cat > "$fake/clang-$k" <<-WRAP
	#!/bin/bash
	# Assembly to standard output (Kconfig's probe): rewritten.
	if [[ " \$* " = *" -S "* && " \$* " = *" -o - "* ]]; then
		clang-$llvm "\$@" | sed '$prog'
		exit "\${PIPESTATUS[0]}"
	fi
	exec clang-$llvm "\$@"
	WRAP
	chmod +x "$fake/clang-$k"
done

# The fakes fool the probe as meant, or the checks below prove nothing.
v=$("$src/scripts/pgo/raw-version.sh" "$fake/clang-v12")
[ "$v" = 12 ] || { fail "the fake clang's probe says '$v', not 12"; exit 1; }
v=$("$src/scripts/pgo/raw-version.sh" "$fake/clang-none")
[ "$v" = 0 ] || { fail "the fake clang without a version word probes as '$v'"; exit 1; }
real=$("$src/scripts/pgo/raw-version.sh" "clang-$llvm")

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
	pass "a clang whose -fprofile-generate defines no version word cannot select PGO_CLANG" ||
	fail "a clang without a version word kept PGO_CLANG"
# Control: the real clang keeps it, with the version it writes.
[ "$(pgo_config "clang-$llvm")" = y ] &&
	grep -qx "CONFIG_PGO_CLANG_RAW_VERSION=$real" "$fake/obj/.config" &&
	pass "clang-$llvm (raw version $real) keeps PGO_CLANG, CONFIG_PGO_CLANG_RAW_VERSION=$real" ||
	fail "clang-$llvm cannot select PGO_CLANG, or its raw version is not $real"
summary "future LLVM"
