#!/bin/bash
# The second initramfs archive of make realconfig, appended to the one of
# tests/qemu/mkinitramfs.sh: what the guest script needs besides busybox.
#
#   /images/data/, data.md5    test files and their checksums, written to
#                              and read back from every filesystem
#   /images/*.img              filesystems busybox cannot make: squashfs,
#                              iso9660 (Rock Ridge + Joliet), udf, exfat, minix
#   /etc/real-modules          the tree's modules in dependency order (the
#                              initramfs has no modules.dep: insmod, not modprobe)
#
# usage: mkimages.sh OUT.cpio.gz KBUILD_DIR [EXT_DIR]
set -euo pipefail
out=$1 obj=$2 ext=${3:-}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
img=$root/images
mkdir -p "$img/data/sub" "$root/etc"

# Text, binary, a long mixed-case name (a VFAT/exFAT/UDF long name, within
# minix v3's 60 characters) and a directory of small files.
seq 1 30000 > "$img/data/numbers.txt"
head -c 262144 /dev/urandom > "$img/data/random.bin"
echo "long name" > "$img/data/Long-File-Name-0123.txt"
for i in $(seq 1 24); do echo "file $i" > "$img/data/sub/f$i"; done
(cd "$img/data" && find . -type f -exec md5sum {} + | sort -k2) > "$img/data.md5"

mksquashfs "$img/data" "$img/squashfs.img" -comp gzip -all-root -noappend -quiet >/dev/null
genisoimage -quiet -R -J -V REAL -o "$img/iso.img" "$img/data"
truncate -s 16M "$img/udf.img" "$img/exfat.img" "$img/minix.img"
mkudffs --media-type=hd --blocksize=512 --label=REAL "$img/udf.img" >/dev/null
mkfs.exfat -L REAL "$img/exfat.img" >/dev/null
# 16 MiB: the size of brd's RAM disks (CONFIG_BLK_DEV_RAM_SIZE).
mkfs.minix -3 "$img/minix.img" >/dev/null

# Load order: tsort of "dependency module" pairs from each module's
# modinfo (file names use '-' where module names have '_').
declare -A path_of
while IFS= read -r -d '' ko; do
	f=$(basename "$ko" .ko)
	path_of[${f//-/_}]=$ko
done < <(find "$obj" -name '*.ko' -print0)
for m in "${!path_of[@]}"; do
	echo "$m $m"
	for d in $(modinfo -F depends "${path_of[$m]}" | tr , ' '); do
		echo "${d//-/_} $m"
	done
done | tsort | while read -r m; do
	basename "${path_of[$m]:?"$m: a dependency not built in $obj"}" .ko
done > "$root/etc/real-modules"
# The test modules built with M= against the same tree: one out-of-tree
# module under ORC and defconfig (the others are make test's).
if [ -n "$ext" ] && [ -n "$(find "$ext" -name pgo_test_module.ko)" ]; then
	echo pgo_test_module >> "$root/etc/real-modules"
fi

mkdir -p "$(dirname "$out")"
(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0 | gzip -1) > "$out"
echo "images: $out ($(du -k "$out" | cut -f1) KiB), $(wc -l < "$root/etc/real-modules") modules to load"
