#!/bin/bash
# make bench's initramfs: tests/qemu/mkinitramfs.sh with the bench guest
# scripts (tests/bench/guest/), then a second cpio archive appended (the
# kernel unpacks both) with what only the bench needs: benchread and the
# training/held-out workloads of tests/run/guest/10-cycle.sh.
#
# usage: mkinitramfs.sh OUT.cpio.gz KBUILD_DIR LLVM_VERSION MODULE_DIR...
set -euo pipefail
out=$1 obj=$2 llvm=$3
shift 3
top=$(cd "$(dirname "$0")/../.." && pwd)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

GUEST_DIR=tests/bench/guest "$top/tests/qemu/mkinitramfs.sh" "$out.base" \
	"$obj" "$llvm" "" "$@"

mkdir -p "$root/bin" "$root/bench"
gcc -static -O2 -Wall -o "$root/bin/benchread" "$top/tests/bench/benchread.c"
# The very functions make run measures, so the workloads cannot drift.
sed -n -e '/^train() {$/,/^}$/p' -e '/^heldout() {$/,/^}$/p' \
	-e '/^measure() {$/,/^}$/p' \
	"$top/tests/run/guest/10-cycle.sh" > "$root/bench/workloads.sh"
if ! grep -q '^train()' "$root/bench/workloads.sh" ||
   ! grep -q '^heldout()' "$root/bench/workloads.sh" ||
   ! grep -q '^measure()' "$root/bench/workloads.sh"; then
	echo "no train()/heldout()/measure() in tests/run/guest/10-cycle.sh" >&2
	exit 1
fi
(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0 | gzip -1) > "$out.extra"
cat "$out.base" "$out.extra" > "$out"
rm -f "$out.base" "$out.extra"
echo "bench initramfs: $out"
