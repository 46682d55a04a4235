#!/bin/sh
# make realconfig's guest script (busybox sh): load every module of the
# defconfig-based tree, drive each of ours with a real workload, then save
# every profile.  Judged on the host by tests/realconfig/check.sh.
#
#   /out/real/insmod.txt     "loaded NAME" or "insmod-failed NAME: why"
#   /out/real/steps.txt      "ok STEP" or "FAIL STEP: last output"
#   /out/real/no-pgo.txt     loaded modules without /sys/module/NAME/pgo
#   /out/real/profiles/      vmlinux.profraw, NAME.profraw per module
#   /out/real/collect/       the same, as pgo-collect copies them (named by
#                            build id; collect.txt, collect.rc its output)
#   /out/real/read-time.txt  busybox time of three reads of vmlinux's profile
#
# Applets that tests/qemu/mkinitramfs.sh does not link (ip, md5sum, ...)
# still run: Debian's busybox sh prefers its own applets.
set -u
D=/out/real
mkdir -p $D/profiles /mnt
: > $D/steps.txt

# step NAME FUNCTION: run a workload, record its outcome.
step() {
	if out=$("$2" 2>&1); then
		echo "ok $1" >> $D/steps.txt
	else
		echo "FAIL $1: $(echo "$out" | tail -n 3 | tr '\n' ' ')" >> $D/steps.txt
	fi
}

# rw_fs TYPE DEVICE [OPTIONS]: write the test data, unmount (all of it
# reaches the device), mount again, check it, delete part of it.
rw_fs() {
	m=/mnt/$1
	mkdir -p "$m" &&
	mount -t "$1" -o "${3:-rw}" "$2" "$m" &&
	cp -r /images/data/. "$m/" &&
	sync &&
	umount -d "$m" &&
	mount -t "$1" -o "${3:-rw}" "$2" "$m" &&
	(cd "$m" && md5sum -c -s /images/data.md5) &&
	rm -r "$m/sub" &&
	ls -l "$m" &&
	umount -d "$m"
}

# ro_fs TYPE IMAGE: mount a read-only image, check its files.
ro_fs() {
	mkdir -p "/mnt/$1" &&
	mount -t "$1" -o ro "$2" "/mnt/$1" &&
	(cd "/mnt/$1" && md5sum -c -s /images/data.md5)
}

# brd's RAM disk with a host-made minix filesystem.
wl_minix() {
	test -b /dev/ram0 &&
	dd if=/images/minix.img of=/dev/ram0 bs=1M 2>/dev/null &&
	rw_fs minix /dev/ram0
}

# zram, made here with busybox's mkdosfs: vfat (built in) with the
# codepage of the nls_cp850 module.
wl_zram_vfat() {
	echo 64M > /sys/block/zram0/disksize &&
	mkdosfs -n REAL /dev/zram0 &&
	rw_fs vfat /dev/zram0 codepage=850 &&
	cat /sys/block/zram0/mm_stat
}

wl_exfat() { rw_fs exfat /images/exfat.img; }
wl_udf() { rw_fs udf /images/udf.img; }

# squashfs, then an overlay with it as the lower layer (a live system's
# layout): read through, copy up, whiteout, new file; the lower stays intact.
wl_squashfs() { ro_fs squashfs /images/squashfs.img; }
wl_overlay() {
	o=/mnt/ovl
	mkdir -p $o && mount -t tmpfs tmpfs $o &&
	mkdir -p $o/upper $o/work $o/merged &&
	mount -t overlay overlay \
		-o lowerdir=/mnt/squashfs,upperdir=$o/upper,workdir=$o/work $o/merged &&
	(cd $o/merged && md5sum -c -s /images/data.md5) &&
	echo appended >> $o/merged/numbers.txt &&
	rm $o/merged/sub/f2 &&
	echo new > $o/merged/new.txt &&
	test -f $o/upper/numbers.txt && test -c $o/upper/sub/f2 &&
	umount $o/merged && umount $o &&
	(cd /mnt/squashfs && md5sum -c -s /images/data.md5) &&
	umount -d /mnt/squashfs
}

# isofs is built in: its counts are in vmlinux's profile.
wl_iso9660() { ro_fs iso9660 /images/iso.img && umount -d /mnt/iso9660; }

# Packets into dummy (no ARP on it: straight to its xmit).
wl_dummy() {
	ip link add dum0 type dummy &&
	ip addr add 10.9.0.1/24 dev dum0 &&
	ip link set dum0 up &&
	{ ping -c 3 -W 1 10.9.0.2 > /dev/null 2>&1 || true; } &&
	test "$(cat /sys/class/net/dum0/statistics/tx_packets)" -gt 0
}

wl_macvlan() {
	ip link add mv0 link dum0 type macvlan &&
	ip link set mv0 up
}

# A veth pair (busybox names the peer veth0), one end in a bridge: ARP
# requests from the bridge cross the pair (none is answered: an answer
# from an address of the same network namespace would be a martian).
wl_veth_bridge() {
	ip link add ve0 type veth &&
	ip link add br0 type bridge &&
	ip link set ve0 master br0 &&
	ip addr add 10.8.0.1/24 dev br0 &&
	ip link set br0 up && ip link set ve0 up && ip link set veth0 up &&
	{ arping -c 3 -w 3 -I br0 10.8.0.2 > /dev/null 2>&1 || true; } &&
	test "$(cat /sys/class/net/veth0/statistics/rx_packets)" -gt 0
}

wl_tun() {
	tunctl -t tap0 &&
	ip link set tap0 up &&
	tunctl -d tap0
}

# An out-of-tree module (M=) on this tree: 100 calls of pgo_test_hot().
wl_pgo_test_module() { echo 100 > /sys/module/pgo_test_module/parameters/run; }

# Every module of the tree, in dependency order.
while read -r ko; do
	if msg=$(insmod "/lib/modules/$ko.ko" 2>&1); then
		echo "loaded $ko"
	else
		echo "insmod-failed $ko: $msg"
	fi
done < /etc/real-modules > $D/insmod.txt

step minix wl_minix
step zram-vfat wl_zram_vfat
step exfat wl_exfat
step udf wl_udf
step squashfs wl_squashfs
step overlay wl_overlay
step iso9660 wl_iso9660
step dummy wl_dummy
step macvlan wl_macvlan
step veth-bridge wl_veth_bridge
step tun wl_tun
step pgo_test_module wl_pgo_test_module

# The profiles, while every module is loaded.
cat /sys/kernel/pgo/profraw > $D/profiles/vmlinux.profraw
for p in /sys/module/*/pgo/profraw; do
	[ -e "$p" ] || continue
	n=${p#/sys/module/}
	cat "$p" > "$D/profiles/${n%%/*}.profraw"
done
/usr/lib/pgo/pgo-collect -v -o $D/collect > $D/collect.txt 2>&1
echo "$?" > $D/collect.rc
: > $D/no-pgo.txt
cut -d' ' -f1 /proc/modules | while read -r n; do
	[ -e "/sys/module/$n/pgo/profraw" ] || echo "$n" >> $D/no-pgo.txt
done
for _ in 1 2 3; do
	time cat /sys/kernel/pgo/profraw > /dev/null
done 2> $D/read-time.txt

cat /proc/modules > $D/modules.txt
cat /proc/kallsyms > $D/kallsyms.txt
ls -l $D/profiles > $D/sizes.txt
dmesg > $D/dmesg.txt
grep -c '^ok' $D/steps.txt
! grep -q '^FAIL' $D/steps.txt
