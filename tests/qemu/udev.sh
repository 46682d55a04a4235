#!/bin/bash
# Add Debian's real udev to an initramfs staging directory, as the udev hook
# of initramfs-tools does: systemd-udevd and udevadm with every shared library
# they need (as ldd lists them, at the same paths) and the dynamic loader;
# plus our udev rule, the tools of scripts/pgo and the busybox applets they
# use.  Installs the `udev` package with apt-get if it is missing.
#
# usage: tests/qemu/udev.sh ROOTDIR
#
# ROOTDIR then has:
#   /bin/udevadm, /lib/systemd/systemd-udevd (-> /bin/udevadm, as in Debian:
#   udevadm runs as the daemon when called by that name), /sbin/udevadm and
#   /sbin/systemd-udevd (links, for PATH=/bin:/sbin), the libraries, the
#   loader, /etc/udev/rules.d/90-pgo.rules (the udevd of bookworm does not
#   read /lib/udev/rules.d), /usr/lib/pgo/pgo-save-retained and
#   /usr/lib/pgo/pgo-collect, /run/udev and /var/lib.
# Guest kernel needs: see tests/qemu/udev.config.
set -euo pipefail
tools_only=0
if [ "${1:-}" = --tools-only ]; then tools_only=1; shift; fi
root=${1:?usage: udev.sh [--tools-only] ROOTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -d "$root" ] || { echo "udev.sh: $root is not a directory" >&2; exit 1; }

# --tools-only (an arm64 guest: these are the host's binaries): the rule,
# the helpers and the applets, no udevd.
if [ $tools_only = 0 ]; then
udevadm=
for p in /bin/udevadm /usr/bin/udevadm; do
	[ -x "$p" ] && { udevadm=$p; break; }
done
if [ -z "$udevadm" ]; then
	echo "udev.sh: installing the udev package"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq udev >/dev/null ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq udev >/dev/null; }
	for p in /bin/udevadm /usr/bin/udevadm; do
		[ -x "$p" ] && { udevadm=$p; break; }
	done
fi
udevd=
for p in /lib/systemd/systemd-udevd /usr/lib/systemd/systemd-udevd; do
	[ -e "$p" ] && { udevd=$p; break; }
done
if [ -z "$udevadm" ] || [ -z "$udevd" ]; then
	echo "udev.sh: no systemd-udevd/udevadm even after installing udev" >&2
	exit 1
fi

# copy_exec FILE DEST: FILE (dereferenced) to ROOTDIR/DEST, and every shared
# library ldd lists for it to the same path under ROOTDIR.
nlibs=0
copy_exec() {
	local file=$1 dest=$2 lib
	mkdir -p "$root$(dirname "$dest")"
	cp -L "$file" "$root$dest"
	chmod 755 "$root$dest"
	if ldd "$file" 2>&1 | grep -q 'not found'; then
		echo "udev.sh: $file: missing libraries:" >&2
		ldd "$file" | grep 'not found' >&2
		exit 1
	fi
	for lib in $(ldd "$file" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
					$1 ~ /^\// { print $1 }'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
		nlibs=$((nlibs + 1))
	done
}

copy_exec "$udevadm" /bin/udevadm
if [ "$(readlink -f "$udevd")" = "$(readlink -f "$udevadm")" ]; then
	mkdir -p "$root/lib/systemd"
	ln -sfn /bin/udevadm "$root/lib/systemd/systemd-udevd"
else
	copy_exec "$udevd" /lib/systemd/systemd-udevd
fi
mkdir -p "$root/sbin"
ln -sfn /lib/systemd/systemd-udevd "$root/sbin/systemd-udevd"
ln -sfn /bin/udevadm "$root/sbin/udevadm"
fi

# Our rule and tools.
install -D -m 644 "$top/scripts/pgo/90-pgo.rules" "$root/etc/udev/rules.d/90-pgo.rules"
install -D -m 755 "$top/scripts/pgo/pgo-save-retained" "$root/usr/lib/pgo/pgo-save-retained"
install -D -m 755 "$top/scripts/pgo/pgo-collect" "$root/usr/lib/pgo/pgo-collect"
mkdir -p "$root/run/udev" "$root/var/lib" "$root/etc/udev"

# Busybox applets the tools and tests/guest/30-retain.sh use.
if [ -e "$root/bin/busybox" ]; then
	for a in sh cat od awk sed mkdir mv ln rm wc cmp sync basename sleep ps \
		 grep ls stat cp date head; do
		[ -e "$root/bin/$a" ] || [ -L "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
	done
fi

if [ $tools_only = 0 ]; then
	echo "udev: systemd-udevd $("$udevadm" --version) with $nlibs libraries in $root"
else
	echo "udev: 90-pgo.rules and the helpers, no systemd-udevd, in $root"
fi
