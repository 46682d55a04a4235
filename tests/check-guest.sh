#!/bin/bash
# Judge what the guest brought back, with the real LLVM tools.
# usage: check-guest.sh LLVM_VERSION KBUILD_DIR GUEST_OUT_DIR
# GUEST_ARCH=arm64 (environment): the guest had no udev and no retention
# script (tests/qemu/mkinitramfs.sh), so check-retain.sh is not run.
set -uo pipefail
llvm=$1 obj=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
rc=0
for s in "$here"/check-*.sh; do
	[ "$s" = "$here/check-guest.sh" ] && continue
	if [ "${GUEST_ARCH:-x86_64}" != x86_64 ] && [ "$s" = "$here/check-retain.sh" ]; then
		echo "== $(basename "$s"): not run for $GUEST_ARCH (no udev in its guest)"
		continue
	fi
	echo "== $(basename "$s")"
	"$s" "$llvm" "$obj" "$out" || rc=1
done
exit $rc
