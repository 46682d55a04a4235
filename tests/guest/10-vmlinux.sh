#!/bin/sh
# vmlinux profile checks, run in the guest.  Results go to /out/vmlinux/;
# tests/check-guest.sh judges them on the host with the real LLVM tools.
set -u
D=/out/vmlinux
P=/sys/kernel/pgo
mkdir -p $D

# Files and modes.
stat -c '%n %a %U %G' $P/profraw $P/reset > $D/modes.txt

# Copies by every reader the ABI names.
cat $P/profraw > $D/cat.profraw
cat $P/profraw > $D/cat2.profraw
cp $P/profraw $D/cp.profraw
dd if=$P/profraw of=$D/dd4k.profraw bs=4k 2>/dev/null
dd if=$P/profraw of=$D/dd1m.profraw bs=1M 2>/dev/null

# Read cost: one full read, 4 KiB and 1 MiB at a time (size and ns).
pgotest read $P/profraw 4096 /tmp/t.profraw > $D/read-4k.txt
pgotest read $P/profraw 1048576 /tmp/t.profraw > $D/read-1m.txt
rm -f /tmp/t.profraw

# Real counts: 10000 getppid() between two reads.
cat $P/profraw > $D/before.profraw
pgotest getppid 10000
cat $P/profraw > $D/after.profraw

# Bad writes to reset: each must fail and change nothing.
for v in 0 2 abc -1 1x 11 "1 " " 1"; do
	printf '%s: %s\n' "$v" "$(pgotest write $P/reset "$v")"
done > $D/badwrites.txt
printf 'newline-only: %s\n' "$(pgotest write $P/reset '
')" >> $D/badwrites.txt
printf 'empty-write: %s\n' "$(pgotest writeempty $P/reset)" >> $D/badwrites.txt
printf '1MiB: %s\n' "$(pgotest writefill $P/reset 1 1048576)" >> $D/badwrites.txt
printf 'garbage-page: %s\n' "$(pgotest writefill $P/reset x 4096)" >> $D/badwrites.txt
printf 'profraw-write: %s\n' "$(pgotest write $P/profraw 1)" >> $D/badwrites.txt
cat $P/profraw > $D/after-bad.profraw

# Reset: then nothing calls getppid until the next read.
printf 'reset: %s\n' "$(pgotest write $P/reset 1)" > $D/reset.txt
cat $P/profraw > $D/reset.profraw
printf 'reset-newline: %s\n' "$(pgotest write $P/reset '1
')" >> $D/reset.txt

# Partial and odd reads.
{
	echo "pread-past-end: $(pgotest pread $P/profraw 100000000 4096)"
	echo "pread-odd: $(pgotest pread $P/profraw 4097 333)"
	echo "pread-zero-len: $(pgotest pread $P/profraw 0 0)"
} > $D/pread.txt
# A reset between two reads of one open file: the rest of that read fails
# (-ESTALE), a new one from 0 works; the same without the reset reads on.
pgotest resetread $P/profraw $P/reset > $D/resetread.txt
pgotest resetread $P/profraw - > $D/resetread-control.txt

# A read while a busy workload runs on the other vCPU.
pgotest busy 20 &
busy=$!
sleep 5
cat $P/profraw > $D/busy.profraw
pgotest read $P/profraw 4096 $D/busy4k.profraw > /dev/null
# Concurrent readers of the same file.
cat $P/profraw > $D/conc1.profraw &
c1=$!
dd if=$P/profraw of=$D/conc2.profraw bs=4k 2>/dev/null &
c2=$!
cat $P/profraw > $D/conc3.profraw
wait $c1 $c2
kill $busy 2>/dev/null
wait $busy 2>/dev/null

# Non-root can neither read nor write.
{
	echo "nobody-read: $(pgotest runas 65534 pgotest pread $P/profraw 0 64)"
	echo "nobody-write: $(pgotest runas 65534 pgotest write $P/reset 1)"
} > $D/nobody.txt 2>&1
dmesg | grep -i pgo > $D/dmesg-pgo.txt
echo done
