#!/bin/bash
# Boot a kernel under QEMU (TCG) with an initramfs; the guest writes its
# results as a tar stream to a raw virtio disk, which is unpacked here.
#
# usage: run-qemu.sh KERNEL_IMAGE INITRAMFS OUTDIR [SMP] [MEM] [EXTRA_APPEND]
#
# GUEST_ARCH (environment): x86_64 (default) or arm64, which boots the virt
# machine (GIC, PL011 console, virtio-mmio disk: tests/qemu/qemu-arm64.config).
# QEMU_TIMEOUT: seconds before the guest is killed (1800); QEMU_EXTRA: more
# QEMU options.
set -euo pipefail
kernel=$1 initrd=$2 out=$3 smp=${4:-2} mem=${5:-1G} append=${6:-}
rm -rf "$out" && mkdir -p "$out"
disk=$out/../$(basename "$out").img
rm -f "$disk" && truncate -s 512M "$disk"

# shellcheck disable=SC2054 # commas inside QEMU options
case ${GUEST_ARCH:-x86_64} in
x86_64)
	# A kernel without ACPI (tests/qemu/no-acpi.config) finds its CPUs in
	# the MP table, where SeaBIOS lists only the first CPU of each
	# package: give it one vCPU per socket.  Others keep QEMU's topology.
	qemu=(qemu-system-x86_64 -cpu max -drive file="$disk",if=virtio,format=raw)
	grep -qx 'CONFIG_ACPI=y' "${kernel%/arch/*}/.config" 2>/dev/null || topo=,sockets=$smp
	console=ttyS0 ;;
arm64)
	# pauth-impdef: QEMU's own pointer authentication hash, much cheaper
	# under TCG than the architected QARMA.
	qemu=(qemu-system-aarch64 -machine virt,gic-version=3 -cpu max,pauth-impdef=on
	      -drive file="$disk",if=none,format=raw,id=disk
	      -device virtio-blk-device,drive=disk)
	console=ttyAMA0 ;;
*)	echo "run-qemu.sh: GUEST_ARCH=$GUEST_ARCH: x86_64 or arm64" >&2; exit 2 ;;
esac

start=$(date +%s)
timeout --foreground "${QEMU_TIMEOUT:-1800}" "${qemu[@]}" ${QEMU_EXTRA:-} \
	-accel tcg -smp "$smp${topo:-}" -m "$mem" \
	-nographic -no-reboot -serial mon:stdio \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=$console panic=-1 oops=panic loglevel=6 $append" \
	< /dev/null > "$out/console.log" 2>&1 || {
		echo "qemu failed or timed out; console:" >&2
		tail -50 "$out/console.log" >&2; exit 1; }

tar -xf "$disk" -C "$out" 2>/dev/null || {
	echo "no results from the guest; console:" >&2
	tail -50 "$out/console.log" >&2; exit 1; }
rm -f "$disk"
grep '^guest:' "$out/console.log" || true
echo "qemu (${GUEST_ARCH:-x86_64}, $smp vCPUs): $(( $(date +%s) - start )) s wall"
