#!/bin/sh
# The PGO torture run (issue 7), in the guest of `make torture` (debug
# kernel, tests/qemu/debug.config).  Judged on the host by
# tests/check-torture.sh; everything goes to /out/torture/.
#
# Kernel command line knobs (run-qemu.sh's EXTRA_APPEND):
#   torture_iters=N       iterations of each worker of the parallel phase
#   torture_keep=N        vmlinux reads kept for llvm-profdata, at most (all
#                         are checked in the guest, by pgotest rawcheck)
#   torture_mode=lockdown the short boot with lockdown=confidentiality
#
# 1. Parallel phase, ITERS iterations of: two readers of every module
#    profile (live and retained), load/unload loops of pgo_test_module and
#    pgo_hammer, a writer of every reset (and of pgo.retain_kb); for as long
#    as those run: a reader of vmlinux's profile and two writers driving
#    pgo_hammer on both vCPUs.  Each worker logs one line per operation.
# 2. The bad-input matrix: one "case<TAB>result" line each in badinput.txt.
# 3. kmemleak scan, with every module unloaded and nothing retained.
# 4. Lockdown raised to confidentiality at run time (last: it sticks).
set -u
D=/out/torture
K=/sys/kernel/pgo
P=/sys/module
L=/lib/modules
T=pgo_test_module
H=pgo_hammer
RK=/sys/module/pgo/parameters/retain_kb
mkdir -p $D/reads $D/cases
# busybox applets the initramfs does not link.
mkdir -p /tmp/bin
for a in usleep cut tr; do ln -sf /bin/busybox /tmp/bin/$a; done
PATH=/tmp/bin:$PATH
ITERS=200
KEEP=20
MODE=torture
for w in $(cat /proc/cmdline); do
	case $w in
	torture_iters=*) ITERS=${w#*=} ;;
	torture_keep=*) KEEP=${w#*=} ;;
	torture_mode=*) MODE=${w#*=} ;;
	esac
done
NCPU=$(grep -c ^processor /proc/cpuinfo)
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
echo "iters $ITERS keep $KEEP cpus $NCPU mode $MODE" > $D/params.txt

mark() { echo "torture: $*" > /dev/kmsg; }
# Kernel log lines since "torture: $1".
since() { dmesg | sed -n "/torture: $1\$/,\$p" | sed 1d; }
result() {
	printf '%s\t%s\n' "$1" "$2" >> $D/badinput.txt
	echo "$(up) $1" >> $D/badinput-times.txt
}
now() { date +%s; }
up() { cut -d' ' -f1 /proc/uptime; }

# ------------------------------------------------------------ lockdown boot
if [ "$MODE" = lockdown ]; then
	{
		echo "lockdown: $(cat /sys/kernel/security/lockdown 2>&1)"
		echo "vmlinux-read: $(pgotest read $K/profraw 4096 /tmp/l.profraw)"
		echo "vmlinux-pread: $(pgotest pread $K/profraw 0 64)"
		cat $K/profraw > /tmp/l.profraw 2>/dev/null
		echo "vmlinux-cat-bytes: $(wc -c < /tmp/l.profraw)"
		insmod $L/$T.ko 2>/dev/null
		echo "insmod-unsigned: $?"
		echo "reset: $(pgotest write $K/reset 1)"
	} > $D/lockdown-boot.txt 2>&1
	echo done
	exit 0
fi

# ------------------------------------------------------------ 1. parallel phase
# errno_of FILE NAME: the errno of the strerror() message in FILE; if it is
# none of those a profile read may meet, NAME:message (blanks as _).
errno_of() {
	m=$(cat "$1")
	case $m in
	*"Stale file handle"*) echo ESTALE ;;
	*"No such device or address"*) echo ENXIO ;;
	*"No such device"*) echo ENODEV ;;
	*"No such file or directory"*) echo ENOENT ;;
	*) echo "$2:$m" | tr ' \n' '__' ;;
	esac
}

# A profile read: $1 file, $2 method (0: 4 KiB reads, 1: 64 KiB, 2: 1 MiB,
# 3: dd bs=4k, 4: cat), $3 output.  Prints "ok RECORDS BYTES", "bad WHY" or
# "fail ERRNO".  dd and cat give no errno: it is told from their message
# (strerror's), EDD or ECAT if none of these.
read_profile() {
	case $2 in
	0) r=$(pgotest read "$1" 4096 "$3") ;;
	1) r=$(pgotest read "$1" 65536 "$3") ;;
	2) r=$(pgotest read "$1" 1048576 "$3") ;;
	3) dd if="$1" of="$3" bs=4k 2>"$3.err" && r=ok || r=$(errno_of "$3.err" EDD) ;;
	*) cat "$1" > "$3" 2>"$3.err" && r=ok || r=$(errno_of "$3.err" ECAT) ;;
	esac
	rm -f "$3.err"
	case $r in
	E*) echo "fail $r"; return 1 ;;
	esac
	set -- $(pgotest rawcheck "$3")
	if [ "$1" = ok ]; then echo "ok $3 $4"; else shift 2; echo "bad $*"; fi
}

# vmlinux's profile is the slow one to read (seconds under KASAN and TCG):
# read it for as long as the other workers run, at least twice; keep every
# third read, up to KEEP of them, for llvm-profdata.
reader_vmlinux() {
	i=0
	kept=0
	while [ ! -e /tmp/stop ] || [ $i -lt 2 ]; do
		i=$((i + 1))
		r=$(read_profile $K/profraw $((i % 5)) /tmp/rv.profraw)
		echo "read vmlinux $i $r"
		case $r in
		ok*) if [ $((i % 3)) = 1 ] && [ $kept -lt $KEEP ]; then
			cp /tmp/rv.profraw $D/reads/vmlinux-$i.profraw
			kept=$((kept + 1))
		     fi ;;
		bad*) cp /tmp/rv.profraw $D/reads/bad-vmlinux-$i.profraw ;;
		esac
	done
	rm -f /tmp/rv.profraw
}

# $1: reader id.  Every live and retained module profile, each iteration.
reader_modules() {
	i=0
	while [ $i -lt $ITERS ]; do
		i=$((i + 1))
		for f in $P/*/pgo/profraw $K/retained/*/profraw; do
			case $f in
			*'*'*) continue ;;
			$P/*) n=${f#$P/}; n=live-${n%%/*} ;;
			*) n=${f#$K/retained/}; n=retained-${n%%/*} ;;
			esac
			t=/tmp/rm$1.profraw
			r=$(read_profile "$f" $(((i + $1) % 5)) $t)
			echo "read $n $i $r"
			case $r in
			ok*) cp $t $D/reads/$n-r$1-$i.profraw ;;
			bad*) cp $t $D/reads/bad-$n-r$1-$i.profraw ;;
			esac
		done
	done
	rm -f /tmp/rm$1.profraw
}

# $1: module.  Load, drive it a little, read it once in a while, unload.
loader() {
	i=0
	while [ $i -lt $ITERS ]; do
		i=$((i + 1))
		if insmod $L/$1.ko 2>/dev/null; then r=ok; else r=fail; fi
		echo "load $1 $i $r"
		case $1 in
		$T) echo "drive $1 $i run $((i % 64 + 1)) $(pgotest write $P/$1/parameters/run $((i % 64 + 1)))" ;;
		$H) echo "hammer loader $i run 100 $(pgotest write $P/$1/parameters/run 100)" ;;
		esac
		if rmmod $1 2>/dev/null; then r=ok; else r=fail; fi
		echo "unload $1 $i $r"
	done
}

resetter() {
	i=0
	while [ $i -lt $ITERS ]; do
		i=$((i + 1))
		for f in $P/*/pgo/reset; do
			case $f in *'*'*) continue ;; esac
			n=${f#$P/}
			echo "reset live-${n%%/*} $i $(pgotest write $f 1)"
		done
		if [ $((i % 3)) = 0 ]; then
			for f in $K/retained/*/reset; do
				case $f in *'*'*) continue ;; esac
				n=${f#$K/retained/}
				echo "reset retained-${n%%/*} $i $(pgotest write $f 1)"
			done
		fi
		[ $((i % 5)) = 0 ] && echo "reset vmlinux $i $(pgotest write $K/reset 1)"
		if [ $((i % 10)) = 7 ]; then
			echo "retain_kb $i 1 $(pgotest write $RK 1)"
			echo "retain_kb $i 16384 $(pgotest write $RK 16384)"
		fi
	done
}

# $1: writer id.  Until /tmp/stop: run (every CPU, work items), irq_run
# (every CPU, IPI), local_run (this CPU).
hammer() {
	i=0
	while [ ! -e /tmp/stop ]; do
		i=$((i + 1))
		case $(((i + $1) % 4)) in
		0|1) k=run n=300 ;;
		2) k=irq_run n=64 ;;
		*) k=local_run n=500 ;;
		esac
		r=$(pgotest write $P/$H/parameters/$k $n)
		echo "hammer writer$1 $i $k $n $r"
		# Leave the vCPUs to the other workers now and then.
		usleep 50000
	done
}

mark "parallel phase"
start=$(now)
rm -f /tmp/stop
# Each worker's log starts with "start <uptime>" and ends with "end <uptime>".
timed() { echo "start $(up)"; "$@"; echo "end $(up)"; }
timed hammer 1 > $D/hammer1.log 2>&1 & h1=$!
timed hammer 2 > $D/hammer2.log 2>&1 & h2=$!
timed reader_vmlinux > $D/reader-vmlinux.log 2>&1 & h3=$!
timed reader_modules 1 > $D/reader-modules1.log 2>&1 & w2=$!
timed reader_modules 2 > $D/reader-modules2.log 2>&1 & w3=$!
timed loader $T > $D/loader-test.log 2>&1 & w4=$!
timed loader $H > $D/loader-hammer.log 2>&1 & w5=$!
timed resetter > $D/resetter.log 2>&1 & w6=$!
for w in $w2 $w3 $w4 $w5 $w6; do
	wait $w
done
touch /tmp/stop
wait $h1 $h2 $h3
echo "parallel-seconds $(($(now) - start))" > $D/times.txt
lsmod > $D/lsmod-after-parallel.txt
mark "parallel phase done"

# Clean slate: nothing loaded, nothing retained.
rmmod $T 2>/dev/null
rmmod $H 2>/dev/null
pgotest write $RK 16384 > /dev/null
pgotest write $K/reset 1 > /dev/null

# ------------------------------------------------------------ 2. bad input
start=$(now)
: > $D/badinput.txt
nl='
'
V=$K/reset
for v in 0 2 -1 1x 11 " 1" one; do
	result "reset '$v'" "$(pgotest write $V "$v")"
done
result "reset '1\\n\\n'" "$(pgotest write $V "1$nl$nl")"
result "reset '\\n'" "$(pgotest write $V "$nl")"
result "reset empty write" "$(pgotest writeempty $V)"
result "reset page of garbage" "$(pgotest writefill $V x 4096)"
result "reset 1 MiB of 1s" "$(pgotest writefill $V 1 1048576)"
result "reset 1 as uid 65534" "$(pgotest runas 65534 pgotest write $V 1 2>&1)"
result "reset read" "$(pgotest pread $V 0 16)"
result "profraw write" "$(pgotest write $K/profraw 1)"
result "profraw read as uid 65534" "$(pgotest runas 65534 pgotest pread $K/profraw 0 64 2>&1)"
result "pread past the end" "$(pgotest pread $K/profraw 100000000 4096)"
result "pread at 2^62" "$(pgotest pread $K/profraw 4611686018427387904 4096)"
result "pread at -1" "$(pgotest pread $K/profraw -1 4096)"
result "pread at an odd offset" "$(pgotest pread $K/profraw 4097 333)"
result "pread of 0 bytes" "$(pgotest pread $K/profraw 0 0)"
# seekops on vmlinux's profraw into /tmp/s, its report on one line.
seek() { pgotest seekops $K/profraw /tmp/s "$@" 2>&1 | tr '\n' ' ' | sed 's/ $//'; }
result "lseek to -1" "$(seek s:-1:SET)"
result "lseek to the end" "$(seek s:0:END)"
result "lseek SEEK_DATA" "$(seek s:0:DATA)"
result "lseek SEEK_HOLE" "$(seek s:0:HOLE)"
result "lseek past the end, read" "$(seek s:1000000000:SET r:4096)"
pgotest seekops $K/profraw $D/cases/seek-back.profraw r:4096 s:0:SET rall:65536 > /tmp/s.txt
result "read 4 KiB, lseek 0, read all" "$(pgotest rawcheck $D/cases/seek-back.profraw | cut -d' ' -f1,3-)"
pgotest seekops $K/profraw $D/cases/reread.profraw rall:4096 r:4096 s:0:SET rall:4096 > /tmp/s.txt
result "read to EOF, read, lseek 0, read all" "$(grep -c '=ok' /tmp/s.txt) ops ok, $(pgotest rawcheck $D/cases/reread.profraw | cut -d' ' -f1,3-)"
pgotest seekops $K/profraw $D/cases/seek-mid.profraw r:4096 s:100:SET r:1000 s:0:CUR > /tmp/s.txt
result "read 4 KiB, lseek 100, read 1000" "$(tr '\n' ' ' < /tmp/s.txt | sed 's/ $//')"
rm -f /tmp/s /tmp/s.txt

# Module files.
insmod $L/$T.ko
echo 7 > $P/$T/parameters/run
M=$P/$T/pgo
result "module reset 0" "$(pgotest write $M/reset 0)"
result "module reset 1 and a newline" "$(pgotest write $M/reset "1$nl")"
result "module profraw write" "$(pgotest write $M/profraw 1)"
# More readers than kernel/pgo keeps state for (16 per file): each new one
# takes the state of the least recently used, which then fails with ESTALE
# in the value blocks; the others complete.
# multiread_ok OUT PREFIX N: how many of multiread's N reads completed
# with a file rawcheck accepts; the output of those that failed is removed
# (the host validates every file left).
multiread_ok() {
	m_ok=0
	for i in $(seq 0 $(($3 - 1))); do
		if grep -qx "complete $i [0-9]*" "$1"; then
			pgotest rawcheck "$2.$i" > /dev/null && m_ok=$((m_ok + 1))
		else
			rm -f "$2.$i"
		fi
	done
	echo $m_ok
}
pgotest multiread $M/profraw 17 256 $D/cases/multi > /tmp/m.txt
ok=$(multiread_ok /tmp/m.txt $D/cases/multi 17)
result "17 readers in turns, 256 bytes a read" "$ok complete and valid, $(grep -c '^ESTALE ' /tmp/m.txt) ESTALE"
rm -f /tmp/m.txt
# 24 readers of the hammer's profile, 512 bytes a read, 20 ms between
# turns, while the hammer records values on both vCPUs.
insmod $L/$H.ko
( for i in $(seq 20); do echo 20000 > $P/$H/parameters/run; done ) &
hp=$!
pgotest multiread $P/$H/pgo/profraw 24 512 $D/cases/multihammer 20000 > /tmp/m.txt
wait $hp
rmmod $H
pgotest write $K/retained/$H/reset 1 > /dev/null
ok=$(multiread_ok /tmp/m.txt $D/cases/multihammer 24)
result "24 readers with pauses during the hammer" "$ok complete and valid, $(grep -c '^ESTALE ' /tmp/m.txt) ESTALE, $(grep -vc '^complete \|^ESTALE ' /tmp/m.txt) other"
rm -f /tmp/m.txt
# Unload while a slow reader is in the middle of the file.
echo 50 > $P/$T/parameters/run
rm -f /tmp/ready
pgotest slowread $M/profraw 64 $D/cases/unload-read.profraw /tmp/ready 20000 \
	> /tmp/u.txt 2>&1 &
rd=$!
while [ ! -e /tmp/ready ]; do usleep 10000; done
rmmod $T
rc=$?
wait $rd
r=$(cat /tmp/u.txt)
case $r in
complete*) r="$r, $(pgotest rawcheck $D/cases/unload-read.profraw | cut -d' ' -f1)" ;;
esac
[ -e $P/$T ] && r="$r, still loaded"
result "read across unload" "rmmod $rc, reader $r"
rm -f /tmp/u.txt /tmp/ready

# Retained files.
R=$K/retained/$T
result "retained reset 2" "$(pgotest write $R/reset 2)"
result "retained reset 1" "$(pgotest write $R/reset 1)"
result "retained reset 1 again" "$(pgotest write $R/reset 1)"
result "retain_kb abc" "$(pgotest write $RK abc)"
result "retain_kb -1" "$(pgotest write $RK -1)"
mark "retain_kb 1"
pgotest write $RK 1 > /dev/null
insmod $L/$T.ko && echo 3 > $P/$T/parameters/run && rmmod $T
l=$(since "retain_kb 1" | grep -c "$T: profile not retained: its .* exceed pgo.retain_kb=1$")
[ -e $R ] && r=present || r=absent
result "retain_kb 1, unload" "retained $r, $l not-retained line(s)"
pgotest write $RK 0 > /dev/null
insmod $L/$T.ko && echo 3 > $P/$T/parameters/run && rmmod $T
[ -e $R ] && r=present || r=absent
result "retain_kb 0, unload" "retained $r"
pgotest write $RK 16384 > /dev/null

# Crafted modules (tests/guest-torture/craft-modules.py): each must load,
# stay unprofiled and say why.
discard=
for ko in $L/bad_*.ko; do
	c=${ko#$L/bad_}
	c=${c%.ko}
	mark "crafted $c"
	if insmod $ko 2>/dev/null; then r="insmod ok"; else r="insmod failed"; fi
	if [ -e $P/$T/pgo ]; then
		r="$r, pgo present"
		pgotest read $P/$T/pgo/profraw 4096 $D/cases/crafted-$c.profraw > /dev/null &&
			r="$r, read $(pgotest rawcheck $D/cases/crafted-$c.profraw | cut -d' ' -f1,3-)"
		# Its retained profile must not be added to by the next one.
		discard=1
	else
		r="$r, pgo absent"
	fi
	rmmod $T 2>/dev/null
	why=$(since "crafted $c" | sed -n "s/.*$T: not profiled: //p" | head -1)
	if [ -n "$why" ]; then r="$r, log: $why"; else r="$r, no log line"; fi
	result "crafted $c" "$r"
	[ -n "${discard:-}" ] && pgotest write $K/reset 1 > /dev/null
	discard=
done
pgotest write $K/reset 1 > /dev/null

# Value node pool exhaustion: a fresh pgo_hammer, calls on one CPU only,
# read three times: the drop is logged exactly once, with its count.
mark "pool exhaustion"
insmod $L/$H.ko
pgotest write $P/$H/parameters/local_run 6400 > /dev/null
for i in 1 2 3; do
	cat $P/$H/pgo/profraw > $D/cases/hammer-$i.profraw
	[ $i = 2 ] && pgotest write $P/$H/parameters/run 640 > /dev/null
done
since "pool exhaustion" | grep "$H: value node pool exhausted" > /tmp/p.txt
r="$(wc -l < /tmp/p.txt) line(s): $(sed -n "s/.*$H: value node pool exhausted, //p" /tmp/p.txt | head -1)"
result "value node pool exhausted" "$r"
rm -f /tmp/p.txt
rmmod $H
pgotest write $K/reset 1 > /dev/null

# ftrace and kprobes: the runtime and its object lookup refuse kprobes;
# with the function tracer on everything and a kprobe on the hammer's hot
# function, the hammer (on both CPUs) and profile reads still work.
TR=/sys/kernel/tracing
mount -t tracefs tracefs $TR 2>/dev/null
BL=/sys/kernel/debug/kprobes/blacklist
for f in __llvm_profile_instrument_target __llvm_profile_instrument_memop pgo_object_of; do
	if grep -qw "$f" $BL 2>/dev/null; then r="blacklisted"; else r="not blacklisted"; fi
	result "kprobe on $f" "$r, $(pgotest write $TR/kprobe_events "p:pgo_no $f")"
done
insmod $L/$H.ko
mark "tracing"
r=$(pgotest write $TR/kprobe_events "p:pgoh $H:pgo_hammer_call")
echo 1 > $TR/events/kprobes/pgoh/enable
echo function > $TR/current_tracer
r="$r, tracer $(cat $TR/current_tracer)"
# Under the tracer every function call is traced: 5 hammer rounds per
# iteration of the parallel phase, at most 200 (40 in torture-ci: the
# 200 took 230 s of its 700 under TCG).
n=$((ITERS * 5))
[ $n -le 200 ] || n=200
pgotest write $P/$H/parameters/run $n > /dev/null &
pgotest write $P/$H/parameters/irq_run 20 > /dev/null
wait
r="$r, vmlinux $(read_profile $K/profraw 2 $D/cases/traced-vmlinux.profraw | cut -d' ' -f1)"
r="$r, module $(read_profile $P/$H/pgo/profraw 0 $D/cases/traced-hammer.profraw | cut -d' ' -f1)"
echo nop > $TR/current_tracer
echo 0 > $TR/events/kprobes/pgoh/enable
r="$r, kprobe hits $(awk '$1 == "pgoh" { print $2 }' $TR/kprobe_profile)"
echo "-:pgoh" >> $TR/kprobe_events
result "function tracer and kprobe during the hammer" "$r"
rmmod $H
pgotest write $K/reset 1 > /dev/null
echo "badinput-seconds $(($(now) - start))" >> $D/times.txt

# ------------------------------------------------------------ 3. kmemleak
start=$(now)
KL=/sys/kernel/debug/kmemleak
if [ -e $KL ]; then
	# Objects younger than 5 s are not reported; one scan is enough then.
	sleep 6
	echo scan > $KL
	cat $KL > $D/kmemleak.txt 2>&1
	echo "kmemleak: on" > $D/kmemleak-state.txt
else
	echo "kmemleak: $KL missing" > $D/kmemleak-state.txt
fi
echo "kmemleak-seconds $(($(now) - start))" >> $D/times.txt

# ------------------------------------------------------------ 4. lockdown
insmod $L/$T.ko && echo 5 > $P/$T/parameters/run && rmmod $T
insmod $L/$T.ko && echo 5 > $P/$T/parameters/run
lk=$(pgotest write /sys/kernel/security/lockdown confidentiality)
result "lockdown raised to confidentiality" "$lk, $(cat /sys/kernel/security/lockdown 2>&1)"
result "lockdown: vmlinux profraw read" "$(pgotest pread $K/profraw 0 4096)"
result "lockdown: module profraw read" "$(pgotest pread $M/profraw 0 4096)"
result "lockdown: retained profraw read" "$(pgotest pread $R/profraw 0 4096)"
cat $K/profraw > /tmp/l 2>/dev/null
result "lockdown: cat vmlinux profraw" "exit $?, $(wc -c < /tmp/l) bytes"
rm -f /tmp/l
rmmod $T
dmesg | grep -E 'pgo|torture' > $D/dmesg-pgo.txt
echo done
