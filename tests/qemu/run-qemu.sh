#!/bin/bash
# Boot a kernel under QEMU (TCG) with an initramfs; the guest writes its
# results as a tar stream to a raw virtio disk, which is unpacked here.
#
# usage: run-qemu.sh BZIMAGE INITRAMFS OUTDIR [SMP] [MEM] [EXTRA_APPEND]
set -euo pipefail
kernel=$1 initrd=$2 out=$3 smp=${4:-2} mem=${5:-1G} append=${6:-}
rm -rf "$out" && mkdir -p "$out"
disk=$out/../$(basename "$out").img
rm -f "$disk" && truncate -s 512M "$disk"

timeout --foreground 1800 qemu-system-x86_64 ${QEMU_EXTRA:-} \
	-accel tcg -cpu max -smp "$smp" -m "$mem" \
	-nographic -no-reboot -serial mon:stdio \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=6 $append" \
	-drive file="$disk",if=virtio,format=raw \
	< /dev/null > "$out/console.log" 2>&1 || {
		echo "qemu failed or timed out; console:" >&2
		tail -50 "$out/console.log" >&2; exit 1; }

tar -xf "$disk" -C "$out" 2>/dev/null || {
	echo "no results from the guest; console:" >&2
	tail -50 "$out/console.log" >&2; exit 1; }
rm -f "$disk"
grep '^guest:' "$out/console.log" || true
