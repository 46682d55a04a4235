#!/bin/bash
# Build the guest's initramfs: static busybox, our /init, the guest test
# programs and scripts, the kernel's modules and any extra ones.
#
# usage: mkinitramfs.sh OUT.cpio.gz KBUILD_DIR LLVM_VERSION [GUEST_SCRIPT] [MODULE...]
#
# GUEST_DIR (environment, default tests/guest): the directory whose *.sh
# become the guest's /guest scripts.  GUEST_ARCH (environment, default
# x86_64): arm64 takes busybox from Debian's arm64 package (extracted under
# $PGO_BUILD/arm64 by the root Makefile's deps), builds the test programs with
# clang --target=aarch64-linux-gnu against libc6-dev-arm64-cross, and leaves
# out systemd-udevd (tests/qemu/udev.sh copies the host's binaries; the
# retention test uses busybox's uevent listener instead).  PGO_BUILD
# (environment, exported by the root Makefile; default build/): the build
# directory of the kernel version, which holds its base tree and that busybox.
set -euo pipefail
out=$1 obj=$2 llvm=$3 guest_script=${4:-}
shift 4 || shift $#
top=$(cd "$(dirname "$0")/../.." && pwd)
root=$(mktemp -d)
guest_dir=${GUEST_DIR:-tests/guest}
case $guest_dir in /*) ;; *) guest_dir=$top/$guest_dir ;; esac
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,out,guest,lib/modules,etc,root}
arch=${GUEST_ARCH:-x86_64}
case $arch in
x86_64)	cp /bin/busybox "$root/bin/busybox"
	cc=(gcc -static) ;;
arm64)	cp "${PGO_BUILD:-$top/build}/arm64/bin/busybox" "$root/bin/busybox"
	cc=("clang-$llvm" --target=aarch64-linux-gnu -fuse-ld=lld -static) ;;
*)	echo "mkinitramfs.sh: GUEST_ARCH=$arch: x86_64 or arm64" >&2; exit 2 ;;
esac
for t in sh mount umount mkdir cat dd ls stat grep sed awk sleep echo printf \
	 insmod rmmod lsmod dmesg tar sync poweroff reboot cp rm wc head tail od \
	 cmp date time env id chmod su true false seq mknod find basename \
	 readlink tee sort uniq expr test kill ps xargs; do
	ln -sf busybox "$root/bin/$t"
done
cp "$top/tests/qemu/init" "$root/init"
chmod 755 "$root/init"
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

# Static test programs, built with the host's C compiler.
for src in "$top"/tests/guest/*.c; do
	"${cc[@]}" -O2 -Wall -o "$root/bin/$(basename "$src" .c)" "$src"
done
cp "$guest_dir"/*.sh "$root/guest/"
if [ -n "$guest_script" ]; then
	cp "$guest_script" "$root/guest/zz-user.sh"
fi

# Modules: the tree's own, then extra ones (out-of-tree .ko files).
find "$obj" -name '*.ko' -exec cp {} "$root/lib/modules/" \; 2>/dev/null || true
for m in "$@"; do
	[ -n "$m" ] && find "$m" -name '*.ko' -exec cp {} "$root/lib/modules/" \;
done
echo "$llvm" > "$root/etc/llvm-version"

# Debian's real systemd-udevd with our rule and helpers (scripts/pgo/).
# arm64: the rule and helpers only (the guest uses busybox's uevent).
if [ "$arch" = x86_64 ]; then
	"$top/tests/qemu/udev.sh" "$root"
else
	"$top/tests/qemu/udev.sh" --tools-only "$root"
fi

# The kselftests, with the helpers they source.
mkdir -p "$root/kselftest/pgo" "$root/kselftest/kselftest"
cp "$top"/tools/testing/selftests/pgo/*.sh "$root/kselftest/pgo/"
cp "${PGO_BUILD:-$top/build}/base/tools/testing/selftests/kselftest/ktap_helpers.sh" \
	"$root/kselftest/kselftest/"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0 | gzip -1) > "$out"
echo "initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
