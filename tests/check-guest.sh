#!/bin/bash
# Judge what the guest brought back, with the real LLVM tools.
# usage: check-guest.sh LLVM_VERSION KBUILD_DIR GUEST_OUT_DIR
# GUEST_ARCH=arm64 (environment): the guest had busybox's uevent listener
# instead of systemd-udevd (check-retain.sh knows).
set -uo pipefail
llvm=$1 obj=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
rc=0
for s in "$here"/check-*.sh; do
	[ "$s" = "$here/check-guest.sh" ] && continue
	echo "== $(basename "$s")"
	"$s" "$llvm" "$obj" "$out" || rc=1
done
exit $rc
