#!/bin/bash
# Instructions per call of compiler-rt's value profiling: vp-host.c built
# with -fprofile-generate, once with and once without value profiling,
# each run under callgrind counting only what pgo_vp_loop() executes.
#
# usage: vp-host.sh OUT_FILE LLVM_VERSION CALLS
#
# Built with -Os like the kernel (CONFIG_CC_OPTIMIZE_FOR_SIZE).  OUT_FILE
# gets "on <calls> <Ir>" and "off <calls> <Ir>".
set -euo pipefail
out=$1 llvm=$2 calls=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

command -v valgrind > /dev/null || {
	echo "vp-host: valgrind is missing (make deps installs it)" >&2
	exit 1
}
for mode in on off; do
	flags=
	[ $mode = off ] && flags="-mllvm -disable-vp=true"
	# shellcheck disable=SC2086
	"clang-$llvm" -Os -fprofile-generate $flags \
		-D'noinline=__attribute__((__noinline__))' \
		-D'READ_ONCE(x)=(*(const volatile __typeof__(x) *)&(x))' \
		-o "$dir/vp-$mode" "$top/tests/bench/vp-host.c"
	LLVM_PROFILE_FILE=$dir/vp-$mode.profraw valgrind -q --tool=callgrind \
		--toggle-collect=pgo_vp_loop \
		--callgrind-out-file="$dir/cg-$mode.out" \
		"$dir/vp-$mode" "$calls" > /dev/null
	ir=$(awk '$1 == "summary:" || $1 == "totals:" { print $2; exit }' \
		"$dir/cg-$mode.out")
	echo "$mode $calls $ir"
done > "$out"
cat "$out"
