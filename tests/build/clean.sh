#!/bin/bash
# make clean, mrproper and distclean of the patched tree must work for
# everyone who has it: gcc users (PGO_CLANG cannot even be set) and clang
# users with the option on and off.  Each case configures its own O=
# directory (tinyconfig, plus the given fragments for "on"; kernel/pgo/ built
# when it is on), then cleans: Makefile.clean reads every Makefile, built
# or not.  Also
# `make CC=gcc clean` in the source tree itself, as a distro would run it,
# and in the clang tree with the option on.
# usage: clean.sh SRC LLVM_VERSION FRAGMENT...
set -uo pipefail
src=$1 llvm=$2
shift 2
frags=("$@")
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

one() {
	local name=$1 o=$work/$1 pgo=$2 t
	shift 2
	local mk=(make -C "$src" O="$o" ARCH=x86_64 "$@")

	mkdir -p "$o"
	"${mk[@]}" tinyconfig > "$o.log" 2>&1 || { fail "$name: tinyconfig"; tail -5 "$o.log"; return; }
	if [ "$pgo" = on ]; then
		(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$o" "$o/.config" "${frags[@]}") >> "$o.log" 2>&1
		"${mk[@]}" olddefconfig >> "$o.log" 2>&1
		grep -q '^CONFIG_PGO_CLANG=y' "$o/.config" || { fail "$name: PGO_CLANG did not stick"; return; }
		"${mk[@]}" -j"$(nproc)" kernel/pgo/ kernel/sys.o >> "$o.log" 2>&1 ||
			{ fail "$name: build kernel/pgo/"; tail -5 "$o.log"; return; }
		# Kbuild itself (clang without ccache, O= elsewhere) names static
		# functions by their path in the tree.
		t=$("$(dirname "$0")/name-collisions.py" --names "$o/kernel/sys.o")
		[ "$(grep -cE '^kernel/sys\.c[;:]' <<<"$t")" -gt 0 ] &&
			pass "$name: static functions named kernel/sys.c;..." ||
			fail "$name: names of kernel/sys.o: $(grep -m2 '[;:]' <<<"$t" | tr '\n' ' ')"
	else
		! grep -q '^CONFIG_PGO_CLANG=y' "$o/.config" || { fail "$name: PGO_CLANG set"; return; }
	fi
	if [ "$pgo" = on ]; then
		if "${mk[@]}" CLANG_PGO_PROFILE="$work/x.profdata" kernel/pgo/ >> "$o.log" 2>&1; then
			fail "$name: CLANG_PGO_PROFILE= with CONFIG_PGO_CLANG built"
		else
			grep -q "builds a kernel without CONFIG_PGO_CLANG" "$o.log" &&
				pass "$name: CLANG_PGO_PROFILE= with CONFIG_PGO_CLANG refused" ||
				fail "$name: CLANG_PGO_PROFILE= with CONFIG_PGO_CLANG: $(tail -2 "$o.log")"
		fi
		# Distro packaging cleans with whatever compiler it has.
		if make -C "$src" O="$o" ARCH=x86_64 CC=gcc -j"$(nproc)" clean >> "$o.log" 2>&1; then
			pass "$name: make CC=gcc clean"
		else
			fail "$name: make CC=gcc clean"; tail -5 "$o.log"
		fi
	fi
	# distclean runs mrproper, which runs clean: one pass over the tree's
	# Makefiles tests all three (they were three passes, a minute each).
	if "${mk[@]}" -j"$(nproc)" distclean >> "$o.log" 2>&1; then
		pass "$name: make distclean (clean, mrproper)"
	else
		fail "$name: make distclean (clean, mrproper)"; tail -5 "$o.log"
	fi
	[ -z "$(find "$o" -name '*.o' -print -quit)" ] || fail "$name: objects left after distclean"
}

# CLANG_PGO_PROFILE= with another compiler or a missing file: a message.
refuse() {
	local name=$1-refuse want=$2 o=$work/$1-refuse
	shift 2
	mkdir -p "$o"
	make -C "$src" O="$o" ARCH=x86_64 "${@:1:$#-1}" tinyconfig > "$o.log" 2>&1 ||
		{ fail "$name: tinyconfig"; return; }
	if make -C "$src" O="$o" ARCH=x86_64 "$@" init/version.o > "$o.log" 2>&1; then
		fail "$name: built"
	elif grep -q "$want" "$o.log"; then
		pass "$name: $(grep -o "Makefile.pgo.*" "$o.log" | head -1)"
	else
		fail "$name: $(tail -2 "$o.log")"
	fi
}
touch "$work/x.profdata"

one gcc off CC=gcc
refuse gcc "is a clang profile" CC=gcc CLANG_PGO_PROFILE="$work/x.profdata"
one clang-on on LLVM=-"$llvm" CC="clang-$llvm"
one clang-off off LLVM=-"$llvm" CC="clang-$llvm"
refuse clang-off "no such file" LLVM=-"$llvm" CC="clang-$llvm" CLANG_PGO_PROFILE="$work/none.profdata"
refuse clang-rel "not an absolute path" LLVM=-"$llvm" CC="clang-$llvm" CLANG_PGO_PROFILE=x.profdata
make -C "$src" CC=gcc -j"$(nproc)" clean > "$work/src.log" 2>&1 && pass "make CC=gcc clean in the source tree" ||
	{ fail "make CC=gcc clean in the source tree"; tail -5 "$work/src.log"; }
summary "clean"
