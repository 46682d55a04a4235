#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the userspace tools of scripts/pgo/ (pgo-collect,
# pgo-save-retained, 90-pgo.rules) against fake sysfs trees made of real raw
# profiles:
#
#   tests/host/scripts.sh
#
# Profiles come from tiny programs built with clang-19 and clang-22 (raw
# version 10), clang-14 (8) and clang-13 (7) and -Wl,--build-id=sha1, so their
# binary-id sections hold the build ids `readelf -n` shows; programs linked
# with --build-id=none give profiles without one.  The fake trees are laid
# out as ROOT/kernel/pgo/profraw, ROOT/kernel/notes,
# ROOT/module/<name>/{pgo/profraw,notes/.note.gnu.build-id} and
# ROOT/kernel/pgo/retained/<name>/{profraw,id,saved,reset}; a fake `saved`
# is a plain file that keeps what was written (the id), and a `cat` wrapper
# plays the kernel's side where pgo-save-retained's protocol needs more
# (a new copy, a write of an old id that fails, a copy that goes away).
#
# pgo-collect and pgo-save-retained are run twice: by the host's /bin/sh with
# the host's tools, and by busybox sh with only busybox applets in $PATH
# (what a busybox initramfs has).  The udev rule is checked with the real
# udevadm (252 on bookworm, 257 on trixie; package udev, installed if
# missing): tests/qemu/udev.sh builds a busybox root with udevd in it,
# `udevadm test` runs our rule against a fake pgo device in that root, and
# the command it would RUN is run there the way udevd runs it (no PATH).
#
# Missing compilers and tools are installed with apt-get.  KEEP=1 keeps the
# work directory.  Prints PASS:/FAIL: lines; exit status 0 iff all passed.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
COLLECT=$TOP/scripts/pgo/pgo-collect
SAVE=$TOP/scripts/pgo/pgo-save-retained
RULES=$TOP/scripts/pgo/90-pgo.rules
W=$(mktemp -d "${TMPDIR:-/tmp}/pgo-scripts.XXXXXX")
cleanup() { [ "${KEEP:-0}" = 1 ] && echo "kept $W" || rm -rf "$W"; }
trap cleanup EXIT

PASS=0 FAIL=0
pass() { PASS=$((PASS + 1)); echo "PASS: $*"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
# expect WHAT COND...: pass if the command succeeds.
expect() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

# ------------------------------------------------------------- tools
# Raw versions 8 and 7 come from this suite's first clang that writes them
# (tests/llvm-versions): 14 and 13 on bookworm; 17 and none on trixie,
# where the raw version 7 cases are skipped.
suite=$("$TOP/tests/host-suite.sh")
clang_of_raw() {
	awk -v s="$suite" -v r="$1" '!/^#/ && $2 == r {
		for (i = 3; i <= NF; i++) if ($i == s) { print $1; exit } }' \
		"$TOP/tests/llvm-versions"
}
OLD=$(clang_of_raw 8)
V7=$(clang_of_raw 7)
[ -n "$OLD" ] || { echo "FAIL: $suite packages no clang of raw version 8"; exit 1; }
need_pkgs=
for v in $V7 $OLD 19 22; do
	command -v clang-$v >/dev/null || need_pkgs="$need_pkgs clang-$v"
	command -v llvm-profdata-$v >/dev/null || need_pkgs="$need_pkgs llvm-$v"
done
command -v readelf >/dev/null && command -v objcopy >/dev/null || need_pkgs="$need_pkgs binutils"
[ -x /bin/busybox ] || need_pkgs="$need_pkgs busybox-static"
command -v ld.lld >/dev/null || need_pkgs="$need_pkgs lld"
if [ -n "$need_pkgs" ]; then
	echo "installing:$need_pkgs"
	# shellcheck disable=SC2086 # a list of packages
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $need_pkgs >/dev/null
fi
BUSYBOX=/bin/busybox

build_id() { readelf -n "$1" | awk '/Build ID:/ { print $3; exit }'; }

# prog CLANG FUNC COUNT OUT [LDFLAGS]: a program whose FUNC runs COUNT times,
# and its raw profile OUT.profraw.
prog() {
	local cc=$1 fn=$2 n=$3 o=$4 ld=${5:--Wl,--build-id=sha1}
	cat > "$W/src/$fn.c" <<-EOF
	int __attribute__((noinline)) $fn(int x) { return x * 3 + 1; }
	int main(void) { int s = 0; for (int i = 0; i < $n; i++) s += $fn(i); return s == -1; }
	EOF
	# shellcheck disable=SC2086
	"$cc" -O1 -fprofile-generate $ld -o "$o" "$W/src/$fn.c" &&
		LLVM_PROFILE_FILE="$o.profraw" "$o" && [ -s "$o.profraw" ]
}

mkdir -p "$W/src" "$W/bin"
B=$W/bin
ok=1
prog clang-19 vm_func 10 "$B/vm" || ok=0
prog clang-19 foo_func 5 "$B/foo" || ok=0
prog clang-19 bar_func 7 "$B/bar" || ok=0
prog clang-22 baz_func 9 "$B/baz" || ok=0
prog clang-19 nob_func 3 "$B/nob" -Wl,--build-id=none || ok=0
prog clang-19 nor_func 4 "$B/nor" -Wl,--build-id=none || ok=0
prog clang-19 other_func 1 "$B/other" || ok=0
prog clang-19 kern_func 2 "$B/kern" || ok=0
prog clang-$OLD old_func 6 "$B/old" || ok=0
prog clang-$OLD old2_func 8 "$B/old2" || ok=0
# clang 13's runtime finds no build id past GNU ld's .note.gnu.property.
[ -z "$V7" ] ||
	prog clang-$V7 v7_func 11 "$B/v7" "-fuse-ld=lld -Wl,--build-id=sha1" || ok=0
[ -n "$V7" ] || echo "SKIP: raw version 7: $suite packages no clang 13 (bookworm does)"
[ $ok = 1 ] && pass "built test programs and raw profiles with clang ${V7:+$V7, }$OLD, 19, 22" ||
	{ fail "could not build the test programs"; exit 1; }

ID_vm=$(build_id "$B/vm") ID_foo=$(build_id "$B/foo") ID_bar=$(build_id "$B/bar")
ID_baz=$(build_id "$B/baz") ID_kern=$(build_id "$B/kern") ID_old=$(build_id "$B/old")
ID_old2=$(build_id "$B/old2") ID_v7=$([ -z "$V7" ] || build_id "$B/v7")
[ -z "$(build_id "$B/nob")" ] && [ -n "$ID_vm" ] && [ "$ID_vm" != "$ID_foo" ] &&
	pass "build ids differ, --build-id=none gives none" || fail "build ids of the test programs"
# The raw version of each toolchain, and binary ids where the toolchain writes them.
rawver() { od -A n -t u4 -j 8 -N 4 "$1" | tr -d ' '; }
[ "$(rawver "$B/vm.profraw")" = 10 ] && [ "$(rawver "$B/old.profraw")" = 8 ] &&
	{ [ -z "$V7" ] || [ "$(rawver "$B/v7.profraw")" = 7 ]; } &&
	pass "raw versions 10, 8${V7:+, 7}" ||
	fail "raw versions: $(rawver "$B/vm.profraw") $(rawver "$B/old.profraw") $([ -z "$V7" ] || rawver "$B/v7.profraw")"
llvm-profdata-19 show --binary-ids "$B/vm.profraw" | grep -qx "$ID_vm" &&
	pass "llvm-profdata-19 sees the binary id in the test profile" ||
	fail "test profile has no binary id"

# Notes files: a module's notes/.note.gnu.build-id is one ELF note; the
# kernel's /sys/kernel/notes several (a Xen-like note first).
note_of() { objcopy -O binary --only-section=.note.gnu.build-id "$1" "$2"; }
xen_note() { printf '\004\0\0\0\010\0\0\0\001\0\0\0Xen\0\001\002\003\004\005\006\007\010'; }

# Tools: busybox applets only, or the host's (dash, coreutils, the host's
# awk); nothing else in $PATH, so no llvm-profdata unless a test adds one.
BB=$W/bb HT=$W/hosttools
mkdir -p "$BB" "$HT"
for a in sh cat od awk sed mkdir mv ln rm wc cmp sync basename sleep find tr uname head; do
	ln -s "$BUSYBOX" "$BB/$a"
	ln -s "$(command -v $a)" "$HT/$a"
done
# Directories holding only one llvm-profdata each, for PATH.
for v in $V7 $OLD 19 22; do
	mkdir -p "$W/pd$v" && ln -s "$(command -v llvm-profdata-$v)" "$W/pd$v/llvm-profdata-$v"
	mkdir -p "$W/plain$v" && ln -s "$(command -v llvm-profdata-$v)" "$W/plain$v/llvm-profdata"
done

# A `cat` that makes module "vanish" go away mid-copy, like an rmmod during
# the read: it removes ROOT/module/vanish and fails.
WRAP=$W/wrap
mkdir -p "$WRAP"
cat > "$WRAP/cat" <<'EOF'
#!/bin/sh
for a; do
	case $a in
	*/module/vanish/pgo/profraw)
		rm -rf "${a%/pgo/profraw}"
		echo "cat: read error: No such device" >&2
		exit 1 ;;
	esac
done
exec "$REALCAT" "$@"
EOF
chmod 755 "$WRAP/cat"

# --------------------------------------------------------- fake trees
# T1: raw version 10 (clang 19 and 22 mixed: same raw format).
T1=$W/t1
mkdir -p "$T1/kernel/pgo/retained/bar" "$T1/kernel/pgo/retained/nor" \
	"$T1/kernel/pgo/retained/foo" "$T1/module/foo/pgo" "$T1/module/foo/notes" \
	"$T1/module/nob/pgo" "$T1/module/nob/notes" "$T1/module/baz/pgo" \
	"$T1/module/builtin/parameters"
cp "$B/vm.profraw" "$T1/kernel/pgo/profraw"
note_of "$B/other" "$W/other.note"
note_of "$B/kern" "$W/kern.note"
note_of "$B/foo" "$W/foo.note"
{ xen_note; cat "$W/other.note"; } > "$T1/kernel/notes"
cp "$B/foo.profraw" "$T1/module/foo/pgo/profraw"
cp "$W/other.note" "$T1/module/foo/notes/.note.gnu.build-id"
cp "$B/nob.profraw" "$T1/module/nob/pgo/profraw"
cp "$W/kern.note" "$T1/module/nob/notes/.note.gnu.build-id"
cp "$B/baz.profraw" "$T1/module/baz/pgo/profraw"
cp "$B/bar.profraw" "$T1/kernel/pgo/retained/bar/profraw"
cp "$B/nor.profraw" "$T1/kernel/pgo/retained/nor/profraw"
cp "$B/foo.profraw" "$T1/kernel/pgo/retained/foo/profraw"
for r in bar nor foo; do
	: > "$T1/kernel/pgo/retained/$r/reset"
	: > "$T1/kernel/pgo/retained/$r/saved"
	echo 3 > "$T1/kernel/pgo/retained/$r/id"
done
# T2: vmlinux without binary ids: the id comes from kernel/notes.
T2=$W/t2
mkdir -p "$T2/kernel/pgo"
cp "$B/nob.profraw" "$T2/kernel/pgo/profraw"
{ xen_note; cat "$W/kern.note"; } > "$T2/kernel/notes"
# T3: raw version 8 (clang 14).  T4: version 7 (clang 13).  T5: mixed 8 and 10.
T3=$W/t3
mkdir -p "$T3/kernel/pgo/retained/old2" "$T3/module/old/pgo"
cp "$B/old.profraw" "$T3/module/old/pgo/profraw"
cp "$B/old2.profraw" "$T3/kernel/pgo/retained/old2/profraw"
T4=$W/t4
mkdir -p "$T4/kernel/pgo"
[ -z "$V7" ] || cp "$B/v7.profraw" "$T4/kernel/pgo/profraw"
T5=$W/t5
mkdir -p "$T5/kernel/pgo" "$T5/module/old/pgo"
cp "$B/vm.profraw" "$T5/kernel/pgo/profraw"
cp "$B/old.profraw" "$T5/module/old/pgo/profraw"

# Functions of a profile (raw or indexed), sorted.
funcs() { "llvm-profdata-$1" show --all-functions "$2" 2>/dev/null |
	awk '/^  [^ ]*:$/ { sub(/:$/, "", $1); print $1 }' | sort; }
count() { "llvm-profdata-$1" show --counts --function="$3" "$2" 2>/dev/null |
	awk '/Block counts:/ { gsub(/[^0-9]/, " "); print $1; exit }'; }

# ------------------------------------------------------- pgo-collect
# run_collect MODE PATHPREFIX ARGS...: MODE is host or busybox.
run_collect() {
	local mode=$1 pre=$2
	shift 2
	local tools=$HT
	[ "$mode" = busybox ] && tools=$BB
	env -i REALCAT="$tools/cat" PATH="$pre$tools" "$tools/sh" "$COLLECT" "$@"
}

# Busybox sh runs its own applets whatever $PATH says, so the `cat` wrappers
# (vanishing module, changing profile) only work with the host's sh.
for mode in host busybox; do
	M="[$mode]"
	o=$W/c-$mode
	skipped=
	if [ $mode = host ]; then
		mkdir -p "$T1/module/vanish/pgo"
		cp "$B/vm.profraw" "$T1/module/vanish/pgo/profraw"
		skipped=", 1 skipped"
	fi
	run_collect $mode "$WRAP:$W/pd19:" -o "$o/out" --sysfs "$T1" \
		--merge "$o/all.profdata" > "$o.stdout" 2> "$o.stderr"
	rc=$?
	[ $rc = 0 ] && pass "$M pgo-collect${skipped:+ with a module vanishing mid-copy} exits 0" ||
		fail "$M pgo-collect exit $rc: $(cat "$o.stderr")"
	want="vmlinux-$ID_vm foo-$ID_foo nob-$ID_kern baz-$ID_baz bar-$ID_bar nor-unknown foo-$ID_foo.1"
	for n in $want; do
		[ -f "$o/out/$n.profraw" ] && pass "$M collected $n.profraw" ||
			fail "$M no $n.profraw in: $(ls "$o/out" | tr '\n' ' ')"
	done
	[ "$(ls -A "$o/out" | wc -l)" = 7 ] && pass "$M exactly 7 files, no temporary left" ||
		fail "$M files: $(ls -A "$o/out" | tr '\n' ' ')"
	cmp -s "$o/out/vmlinux-$ID_vm.profraw" "$B/vm.profraw" &&
		cmp -s "$o/out/bar-$ID_bar.profraw" "$B/bar.profraw" &&
		cmp -s "$o/out/nob-$ID_kern.profraw" "$B/nob.profraw" &&
		pass "$M copies are byte-identical" || fail "$M copies differ"
	[ "$(stat -c %a "$o/out/foo-$ID_foo.profraw")" = 600 ] &&
		pass "$M copies are 0600" || fail "$M copy mode $(stat -c %a "$o/out/foo-$ID_foo.profraw")"
	if [ $mode = host ]; then
		grep -q 'module/vanish/pgo/profraw went away' "$o.stderr" && [ ! -e "$T1/module/vanish" ] &&
			pass "$M warns about the vanished module, skips it" ||
			fail "$M no vanish warning: $(cat "$o.stderr")"
	fi
	bytes=$(cat "$B"/{vm,foo,nob,baz,bar,nor,foo}.profraw | wc -c)
	grep -qx "pgo-collect: 7 profiles, $bytes bytes in $o/out$skipped, merged by llvm-profdata-19 into $o/all.profdata" "$o.stdout" &&
		pass "$M one summary line with files and bytes" ||
		fail "$M summary: $(cat "$o.stdout") (expected $bytes bytes)"
	[ "$(wc -l < "$o.stdout")" = 1 ] || fail "$M more than one line on stdout"
	! grep -q 'disable-vp' "$o.stderr" &&
		pass "$M no note of correlated profiles where none is" ||
		fail "$M a note of correlated profiles: $(cat "$o.stderr")"
	expect "$M merged profile accepted by llvm-profdata-19 show" \
		llvm-profdata-19 show --all-functions "$o/all.profdata" > /dev/null 2>&1
	got=$(funcs 19 "$o/all.profdata" | grep _func | tr '\n' ' ')
	[ "$got" = "bar_func baz_func foo_func nob_func nor_func vm_func " ] &&
		pass "$M merged profile has the functions of all inputs" ||
		fail "$M merged functions: $got"
	[ "$(count 19 "$o/all.profdata" foo_func)" = 10 ] &&
		pass "$M live + retained foo add up in the merge (5 + 5)" ||
		fail "$M foo_func count $(count 19 "$o/all.profdata" foo_func), expected 10"

	# Per object (--merge-dir): the directory CLANG_PGO_PROFILE takes; a
	# profile an earlier run left there (a module not loaded now) goes.
	mkdir -p "$o/pd" && echo stale > "$o/pd/gone.profdata"
	run_collect $mode "$WRAP:$W/pd19:" -o "$o/d" --sysfs "$T1" --merge-dir "$o/pd" \
		> "$o.d.out" 2> "$o.d.err"
	[ "$(ls "$o/pd" 2>/dev/null | tr '\n' ' ')" = "bar.profdata baz.profdata foo.profdata nob.profdata nor.profdata vmlinux.profdata " ] &&
		grep -q "merged by llvm-profdata-19 per object into $o/pd (6 files)" "$o.d.out" &&
		pass "$M --merge-dir: one profile per object, vmlinux and 5 modules, no stale one" ||
		fail "$M --merge-dir: $(ls "$o/pd" 2>&1 | tr '\n' ' '); $(cat "$o.d.out" "$o.d.err")"
	[ "$(count 19 "$o/pd/foo.profdata" foo_func)" = 10 ] &&
		[ "$(funcs 19 "$o/pd/foo.profdata" | grep _func | tr '\n' ' ')" = "foo_func " ] &&
		[ "$(funcs 19 "$o/pd/vmlinux.profdata" | grep _func | tr '\n' ' ')" = "vm_func " ] &&
		pass "$M --merge-dir: foo.profdata has foo's live + retained counts (10), nothing else" ||
		fail "$M --merge-dir: foo_func $(count 19 "$o/pd/foo.profdata" foo_func), foo has $(funcs 19 "$o/pd/foo.profdata" | tr '\n' ' ')"

	# The udev helper's saved profiles (--saved): read first, merged per
	# object with the live and retained ones; pending files left alone.
	sd=$o/saved
	mkdir -p "$sd"
	cp "$B/bar.profraw" "$sd/bar-$ID_bar.profraw"
	cp "$B/foo.profraw" "$sd/foo-$ID_foo.profraw"
	cp "$B/foo.profraw" "$sd/foo-$ID_foo.1.profraw"
	cp "$B/foo.profraw" "$sd/.foo.4.0123abcd.pending"
	run_collect $mode "$WRAP:$W/pd19:" -o "$o/s" --sysfs "$T1" --saved "$sd" \
		--merge-dir "$o/spd" > "$o.s.out" 2> "$o.s.err"
	rc=$?
	bar=$(count 19 "$B/bar.profraw" bar_func)
	[ $rc = 0 ] && grep -q "^pgo-collect: 10 profiles, .* (3 saved in $sd), merged" "$o.s.out" &&
		[ "$(ls "$o/s" | wc -l)" = 10 ] && [ ! -s "$o.s.err" ] &&
		pass "$M --saved: 3 saved profiles read besides the 7 of sysfs, no warning" ||
		fail "$M --saved: rc $rc: $(cat "$o.s.out" "$o.s.err"); $(ls "$o/s" | tr '\n' ' ')"
	[ "$(count 19 "$o/spd/foo.profdata" foo_func)" = 20 ] &&
		[ "$(count 19 "$o/spd/bar.profdata" bar_func)" = $((2 * bar)) ] &&
		pass "$M --saved: foo = 2 saved + live + retained (4 x 5), bar = saved + retained" ||
		fail "$M --saved: foo_func $(count 19 "$o/spd/foo.profdata" foo_func) (want 20), bar_func $(count 19 "$o/spd/bar.profdata" bar_func) (want $((2 * bar)))"
	cp "$B/bar.profraw" "$sd/foo-0000.profraw"
	run_collect $mode "$WRAP:$W/pd19:" -o "$o/s2" --sysfs "$T1" --saved "$sd" \
		> "$o.s2.out" 2> "$o.s2.err"
	grep -q "warning: foo: profiles of several builds (build ids .*$ID_bar" "$o.s2.err" &&
		grep -q "$ID_foo" "$o.s2.err" && grep -q "empty $sd when you install another" "$o.s2.err" &&
		pass "$M --saved: an object with profiles of two builds is named, with both ids" ||
		fail "$M --saved, two builds: $(cat "$o.s2.err")"
	run_collect $mode "" -o "$o/s3" --sysfs "$T1" --saved "$W/nonexistent" \
		> /dev/null 2> "$o.s3.err"
	rc=$?
	[ $rc = 2 ] && grep -q "saved $W/nonexistent: no such directory" "$o.s3.err" &&
		pass "$M --saved of a missing directory: usage error (2)" ||
		fail "$M --saved missing: rc $rc: $(cat "$o.s3.err")"

	# Plain llvm-profdata of a matching version.
	run_collect $mode "$W/plain22:" -o "$o/p" --sysfs "$T2" --merge "$o/p.profdata" \
		> "$o.p.out" 2> "$o.p.err" && grep -q 'merged by llvm-profdata into' "$o.p.out" &&
		[ "$(funcs 22 "$o/p.profdata" | grep _func)" = nob_func ] &&
		pass "$M plain llvm-profdata of LLVM 22 merges raw version 10" ||
		fail "$M plain llvm-profdata 22: $(cat "$o.p.out" "$o.p.err")"
	# vmlinux id from ROOT/kernel/notes, past a Xen note.
	[ -f "$o/p/vmlinux-$ID_kern.profraw" ] && pass "$M vmlinux build id from kernel/notes" ||
		fail "$M vmlinux without binary id: $(ls "$o/p")"

	# No matching llvm-profdata: clear message, non-zero, copies kept.
	run_collect $mode "$W/plain$OLD:" -o "$o/n" --sysfs "$T1" --merge "$o/n.profdata" \
		> "$o.n.out" 2> "$o.n.err"
	rc=$?
	msg=$(cat "$o.n.err")
	[ $rc != 0 ] && [ ! -e "$o/n.profdata" ] &&
		grep -q 'raw format version 10, which only llvm-profdata of LLVM 19, 20, 21 or 22 reads' "$o.n.err" &&
		grep -q "found: llvm-profdata (LLVM $OLD)" "$o.n.err" &&
		[ -f "$o/n/vmlinux-$ID_vm.profraw" ] &&
		pass "$M no llvm-profdata for v10 (only LLVM $OLD): fails naming 19-22" ||
		fail "$M no-profdata case: rc $rc: $msg"
	run_collect $mode "" -o "$o/n2" --sysfs "$T3" --merge "$o/n2.profdata" \
		> /dev/null 2> "$o.n2.err"
	rc=$?
	[ $rc != 0 ] && grep -q 'LLVM 14, 15, 16 or 17 reads' "$o.n2.err" &&
		grep -q 'found: no llvm-profdata at all' "$o.n2.err" &&
		pass "$M no llvm-profdata at all for v8: fails naming 14-16" ||
		fail "$M no-profdata v8: rc $rc: $(cat "$o.n2.err")"
	echo "  message: $(head -1 "$o.n.err")"

	# Raw version 8 with llvm-profdata-14 (and a v8 id with padding).
	run_collect $mode "$W/pd$OLD:" -o "$o/v8" --sysfs "$T3" --merge "$o/v8.profdata" \
		> "$o.v8.out" 2> "$o.v8.err" &&
		[ -f "$o/v8/old-$ID_old.profraw" ] && [ -f "$o/v8/old2-$ID_old2.profraw" ] &&
		[ "$(funcs $OLD "$o/v8.profdata" | grep _func | tr '\n' ' ')" = "old2_func old_func " ] &&
		pass "$M raw version 8: build ids, merged by llvm-profdata-$OLD" ||
		fail "$M v8: $(cat "$o.v8.out" "$o.v8.err"; ls "$o/v8")"
	# Raw version 7: clang 13's binary ids have no padding.
	if [ -n "$V7" ]; then
		run_collect $mode "$W/pd$V7:" -o "$o/v7" --sysfs "$T4" --merge "$o/v7.profdata" \
			> "$o.v7.out" 2> "$o.v7.err" &&
			[ -f "$o/v7/vmlinux-$ID_v7.profraw" ] &&
			[ "$(funcs $V7 "$o/v7.profdata" | grep _func)" = v7_func ] &&
			pass "$M raw version 7: build id, merged by llvm-profdata-$V7" ||
			fail "$M v7: $(cat "$o.v7.out" "$o.v7.err"; ls "$o/v7")"
	fi
	# Mixed raw versions cannot be merged together.
	run_collect $mode "$W/pd19:$W/pd$OLD:" -o "$o/mix" --sysfs "$T5" --merge "$o/mix.profdata" \
		> /dev/null 2> "$o.mix.err"
	rc=$?
	[ $rc != 0 ] && grep -q 'different raw versions' "$o.mix.err" &&
		pass "$M mixed raw versions: refused" || fail "$M mixed: rc $rc $(cat "$o.mix.err")"
	# Nothing to collect.
	mkdir -p "$W/empty-$mode/module"
	run_collect $mode "" -o "$o/e" --sysfs "$W/empty-$mode" > /dev/null 2> "$o.e.err"
	rc=$?
	[ $rc != 0 ] && grep -q 'no profile copied' "$o.e.err" &&
		pass "$M no profiles: fails" || fail "$M empty tree: rc $rc $(cat "$o.e.err")"
	# A file that is not a raw profile (its source still there): error, the rest copied.
	G=$W/garbage-$mode
	mkdir -p "$G/module/bad/pgo" "$G/module/good/pgo"
	head -c 300 /dev/urandom > "$G/module/bad/pgo/profraw"
	cp "$B/foo.profraw" "$G/module/good/pgo/profraw"
	run_collect $mode "" -o "$o/g" --sysfs "$G" > "$o.g.out" 2> "$o.g.err"
	rc=$?
	[ $rc = 1 ] && grep -q 'module/bad/pgo/profraw is not an LLVM raw profile' "$o.g.err" &&
		[ -f "$o/g/good-$ID_foo.profraw" ] && [ "$(ls -A "$o/g" | wc -l)" = 1 ] &&
		pass "$M a bad profile fails the run but not the others" ||
		fail "$M bad profile: rc $rc $(cat "$o.g.out" "$o.g.err")"
	# Default output directory, and usage errors.
	(cd "$W" && mkdir -p "d-$mode" && cd "d-$mode" &&
		run_collect $mode "" --sysfs "$T2" > /dev/null 2>&1 &&
		[ -f "pgo-profiles/vmlinux-$ID_kern.profraw" ]) &&
		pass "$M default output ./pgo-profiles" || fail "$M default output dir"
	run_collect $mode "" --bogus > /dev/null 2>&1
	[ $? = 2 ] && pass "$M usage error exits 2" || fail "$M usage error"

	# Same files again in the same directory: overwritten, not duplicated.
	run_collect $mode "$W/pd19:" -o "$o/p" --sysfs "$T2" > /dev/null 2>&1 &&
		[ "$(ls -A "$o/p" | wc -l)" = 1 ] && pass "$M a second run overwrites" ||
		fail "$M second run: $(ls -A "$o/p")"
done

# ------------------------------------------------- pgo-save-retained
# run_save MODE ARGS...
run_save() {
	local mode=$1
	shift
	local tools=$HT
	[ "$mode" = busybox ] && tools=$BB
	env -i REALCAT="$tools/cat" PATH="${PRE:-}$tools" EV="${EV:-}" \
		EV_AT="${EV_AT:-}" EV_DIR="${EV_DIR:-}" EV_TO="${EV_TO:-}" \
		EV_STATE="${EV_STATE:-}" EV_OUT="${EV_OUT:-}" "$tools/sh" "$SAVE" "$@"
}
# This boot, as pgo-save-retained names its pending files.
BOOT=$(sed 's/-//g' /proc/sys/kernel/random/boot_id)
# fresh_tree DIR: retained profiles bar (copy id 7), nor (8), bad (9, not
# a profile).
fresh_tree() {
	local r n=7
	rm -rf "$1"
	mkdir -p "$1/kernel/pgo/retained/bar" "$1/kernel/pgo/retained/nor" \
		"$1/kernel/pgo/retained/bad"
	cp "$B/bar.profraw" "$1/kernel/pgo/retained/bar/profraw"
	cp "$B/nor.profraw" "$1/kernel/pgo/retained/nor/profraw"
	head -c 200 /dev/zero > "$1/kernel/pgo/retained/bad/profraw"
	for r in bar nor bad; do
		: > "$1/kernel/pgo/retained/$r/reset"
		: > "$1/kernel/pgo/retained/$r/saved"
		echo $n > "$1/kernel/pgo/retained/$r/id"
		n=$((n + 1))
	done
}
# A `cat` and a `sync` that play the kernel's side of the protocol for one
# retained copy, EV_DIR, whose base (the id of the first copy of its line,
# which the kernel does not show) is kept in the file EV_STATE.base.  At
# the EV_AT-th read of EV_DIR/id ("all": at each one), event EV happens
# (the reads are counted in the file EV_STATE):
#   add           before the read, a load and unload adds counts: a new
#                 copy, EV_TO, with the next id, the same base
#   add-after     the same after the read
#   other-after   after the read, another binary's copy, EV_TO, replaces
#                 it: the next id, a line of its own (base: its id)
#   drop-after    after the read, the copy is dropped (pgo.retain_kb, a
#                 reset) and a new load and unload of the same binary makes
#                 a copy, EV_TO, of a line of its own
#   gap-after     after the read, the directory goes away (the kernel
#                 replaces the copy) and comes back at the second read of
#                 id that finds it gone, with a copy that adds counts (EV_TO)
#   vanish-after  after the read, the copy goes away for good
# The helper's write of id N to "saved" is a shell redirection: the fake
# decides its outcome beforehand, as the kernel would for N (the id in the
# name of the pending file in EV_OUT) when the helper syncs that file and
# at each read of id: N the copy's id, or not in its line (below its base
# or above its id): "saved" is a plain file, the write succeeds (nothing is
# removed); base <= N < id: "saved" is a directory, the write fails
# (ESTALE).  Each decision appends the listing of EV_OUT to EV_STATE.ls.
KWRAP=$W/kwrap
mkdir -p "$KWRAP"
cat > "$KWRAP/arm" <<'EOF'
#!/bin/sh
echo "-- arm" >> "$EV_STATE.ls"
ls -A "$EV_OUT" >> "$EV_STATE.ls" 2>/dev/null
[ -d "$EV_DIR" ] || exit 0
set -- "$EV_OUT"/.*.pending
[ -e "$1" ] || exit 0
n=${1##*/}
n=${n%.pending}
n=${n%.*}
n=${n##*.}
id=$("$REALCAT" "$EV_DIR/id")
base=$("$REALCAT" "$EV_STATE.base" 2>/dev/null || echo "$id")
if [ "$n" != "$id" ] && [ "$n" -ge "$base" ] && [ "$n" -lt "$id" ]; then
	[ -d "$EV_DIR/saved" ] || { rm -f "$EV_DIR/saved" && mkdir "$EV_DIR/saved"; }
elif [ -d "$EV_DIR/saved" ]; then
	rmdir "$EV_DIR/saved" && : > "$EV_DIR/saved"
fi
EOF
cat > "$KWRAP/sync" <<'EOF'
#!/bin/sh
"${0%/*}/arm"
exec "${REALCAT%/*}/sync" "$@"
EOF
cat > "$KWRAP/cat" <<'EOF'
#!/bin/sh
[ "$#" = 1 ] && [ "$1" = "$EV_DIR/id" ] || exec "$REALCAT" "$@"
n=$(($("$REALCAT" "$EV_STATE" 2>/dev/null || echo 0) + 1))
echo "$n" > "$EV_STATE"
if [ -d "$EV_DIR/saved" ]; then
	rmdir "$EV_DIR/saved" && : > "$EV_DIR/saved"
fi
# new_copy merge|fresh: a new copy, EV_TO, with the next id.
new_copy() {
	id=$("$REALCAT" "$EV_DIR/id")
	[ "$1" = fresh ] || [ -e "$EV_STATE.base" ] || echo "$id" > "$EV_STATE.base"
	"$REALCAT" "$EV_TO" > "$EV_DIR/profraw"
	echo $((id + 1)) > "$EV_DIR/id"
	[ "$1" = merge ] || echo $((id + 1)) > "$EV_STATE.base"
	: > "$EV_DIR/saved"
}
if [ -d "$EV_DIR.gone" ]; then
	g=$(($("$REALCAT" "$EV_STATE.gone" 2>/dev/null || echo 0) + 1))
	echo "$g" > "$EV_STATE.gone"
	if [ "$g" = 2 ]; then
		mv "$EV_DIR.gone" "$EV_DIR"
		new_copy merge
	fi
fi
if [ "$EV_AT" = all ] || [ "$n" = "$EV_AT" ]; then
	case $EV in
	add)
		new_copy merge
		"$REALCAT" "$1" ;;
	*)
		"$REALCAT" "$1" || exit
		case $EV in
		add-after) new_copy merge ;;
		other-after|drop-after) new_copy fresh ;;
		gap-after) mv "$EV_DIR" "$EV_DIR.gone" ;;
		vanish-after) rm -rf "$EV_DIR" ;;
		esac ;;
	esac
else
	"$REALCAT" "$1"
fi
rc=$?
"${0%/*}/arm"
exit $rc
EOF
chmod 755 "$KWRAP/cat" "$KWRAP/sync" "$KWRAP/arm"

for mode in host busybox; do
	M="[$mode]"
	S=$W/s-$mode
	fresh_tree "$S/sys"
	R=$S/sys/kernel/pgo/retained
	run_save $mode --sysfs "$S/sys" -o "$S/var" bar > "$S/1.out" 2> "$S/1.err"
	rc=$?
	[ $rc = 0 ] && cmp -s "$S/var/bar-$ID_bar.profraw" "$B/bar.profraw" &&
		pass "$M saved bar as bar-<build id>.profraw" ||
		fail "$M save bar: rc $rc $(cat "$S/1.err"; ls "$S/var")"
	[ "$(cat "$R/bar/saved")" = 7 ] && [ ! -s "$R/bar/reset" ] &&
		pass "$M wrote the copy's id (7) to saved after saving, nothing to reset" ||
		fail "$M saved holds '$(cat "$R/bar/saved")', reset '$(cat "$R/bar/reset")'"
	[ "$(wc -l < "$S/1.err")" = 1 ] && grep -q "^pgo-save-retained: bar: saved $S/var/bar-$ID_bar.profraw ([0-9]* bytes); discarded the kernel copy$" "$S/1.err" &&
		[ ! -s "$S/1.out" ] && pass "$M one log line on stderr" ||
		fail "$M log: $(cat "$S/1.out" "$S/1.err")"
	[ "$(stat -c %a "$S/var")" = 700 ] && [ "$(stat -c %a "$S/var/bar-$ID_bar.profraw")" = 600 ] &&
		[ "$(ls -A "$S/var" | wc -l)" = 1 ] &&
		pass "$M directory 0700, file 0600, no temporary left" ||
		fail "$M modes/files: $(ls -lA "$S/var")"
	# Saved again (a later unload of the same binary): kept apart.
	: > "$R/bar/saved"
	echo 12 > "$R/bar/id"
	cp "$B/bar.profraw" "$S/bar2"; echo x >> "$S/bar2"
	cp "$S/bar2" "$R/bar/profraw"
	run_save $mode --sysfs "$S/sys" -o "$S/var" bar 2> "$S/2.err" &&
		cmp -s "$S/var/bar-$ID_bar.1.profraw" "$S/bar2" &&
		cmp -s "$S/var/bar-$ID_bar.profraw" "$B/bar.profraw" &&
		[ "$(cat "$R/bar/saved")" = 12 ] &&
		pass "$M a second save is bar-<id>.1.profraw, the first kept" ||
		fail "$M second save: $(cat "$S/2.err"; ls "$S/var")"
	# No binary id: "unknown".
	run_save $mode --sysfs "$S/sys" -o "$S/var" nor 2> /dev/null &&
		cmp -s "$S/var/nor-unknown.profraw" "$B/nor.profraw" &&
		pass "$M profile without binary id saved as nor-unknown.profraw" ||
		fail "$M nor: $(ls "$S/var")"
	# Failures keep the kernel copy: unwritable target (a file in the way),
	# not a raw profile, no such profile, bad name.
	fresh_tree "$S/sys"
	: > "$S/file"
	run_save $mode --sysfs "$S/sys" -o "$S/file/pgo" bar > /dev/null 2> "$S/3.err"
	rc=$?
	[ $rc = 1 ] && [ ! -s "$R/bar/saved" ] && grep -q 'stays in the kernel' "$S/3.err" &&
		pass "$M save failed (cannot create dir): saved not written" ||
		fail "$M failed save: rc $rc saved '$(cat "$R/bar/saved")' $(cat "$S/3.err")"
	run_save $mode --sysfs "$S/sys" -o "$S/var3" bad > /dev/null 2> "$S/4.err"
	rc=$?
	[ $rc = 1 ] && [ ! -s "$R/bad/saved" ] && [ -z "$(ls -A "$S/var3" 2>/dev/null)" ] &&
		grep -q 'is not an LLVM raw profile; the profile stays in the kernel' "$S/4.err" &&
		pass "$M not a raw profile: not saved, saved not written" ||
		fail "$M bad profile: rc $rc $(cat "$S/4.err"; ls -A "$S/var3")"
	run_save $mode --sysfs "$S/sys" -o "$S/var3" nosuch > /dev/null 2>&1
	[ $? = 1 ] && pass "$M no such retained profile: exit 1" || fail "$M no such profile"
	run_save $mode --sysfs "$S/sys" -o "$S/var3" ../kernel > /dev/null 2>&1
	[ $? = 1 ] && pass "$M a name with / is refused" || fail "$M bad name"
	# --all: every retained profile, failing ones stay.
	fresh_tree "$S/sys"
	run_save $mode --sysfs "$S/sys" -o "$S/var4" --all > /dev/null 2> "$S/5.err"
	rc=$?
	[ $rc = 1 ] && [ "$(cat "$R/bar/saved")" = 7 ] && [ "$(cat "$R/nor/saved")" = 8 ] &&
		[ ! -s "$R/bad/saved" ] && [ "$(ls "$S/var4" | tr '\n' ' ')" = "bar-$ID_bar.profraw nor-unknown.profraw " ] &&
		pass "$M --all saves and discards each good one, keeps the bad one, exits 1" ||
		fail "$M --all: rc $rc $(cat "$S/5.err"; ls "$S/var4")"
	# --all also puts in place a pending file of another boot (its
	# kernel copy died with that boot) and leaves one of this boot alone
	# (its save may be under way).
	rm -rf "$S/sys0" "$S/var12"
	mkdir -p "$S/sys0/kernel/pgo/retained" "$S/var12"
	cp "$S/bar2" "$S/var12/.bar.5.0123456789abcdef0123456789abcdef.pending"
	cp "$B/nor.profraw" "$S/var12/.nor.6.$BOOT.pending"
	run_save $mode --sysfs "$S/sys0" -o "$S/var12" --all > /dev/null 2> "$S/12.err"
	rc=$?
	[ $rc = 0 ] && [ "$(ls -A "$S/var12" | tr '\n' ' ')" = ".nor.6.$BOOT.pending bar-$ID_bar.profraw " ] &&
		cmp -s "$S/var12/bar-$ID_bar.profraw" "$S/bar2" &&
		grep -q "^pgo-save-retained: bar: saved $S/var12/bar-$ID_bar.profraw ([0-9]* bytes); put in place from $S/var12/.bar.5.0123456789abcdef0123456789abcdef.pending, left by a save of an earlier boot$" "$S/12.err" &&
		grep -q "^pgo-save-retained: $S/var12/.nor.6.$BOOT.pending: a save of this boot" "$S/12.err" &&
		pass "$M --all: a pending file of another boot put in place, one of this boot left alone" ||
		fail "$M --all pending: rc $rc: $(cat "$S/12.err"; ls -lA "$S/var12")"
	# A helper stopped between link(2) and unlink(2) left a pending file
	# that is its final file too: --all removes it, no second copy.
	rm -rf "$S/var13" && mkdir -p "$S/var13"
	cp "$B/bar.profraw" "$S/var13/bar-$ID_bar.profraw"
	ln "$S/var13/bar-$ID_bar.profraw" "$S/var13/.bar.5.0123456789abcdef0123456789abcdef.pending"
	run_save $mode --sysfs "$S/sys0" -o "$S/var13" --all > /dev/null 2> "$S/13.err"
	rc=$?
	[ $rc = 0 ] && [ "$(ls -A "$S/var13" | tr '\n' ' ')" = "bar-$ID_bar.profraw " ] &&
		grep -q "pending: removed, it is $S/var13/bar-$ID_bar.profraw already$" "$S/13.err" &&
		pass "$M --all: a pending file that has its final name already is removed, not put in place twice" ||
		fail "$M --all, pending with a final name: rc $rc: $(cat "$S/13.err"; ls -lA "$S/var13")"
	# One saver per name: a second one waits for the lock, and finds the
	# copy gone when the first is done: nothing to save, exit 0.
	fresh_tree "$S/sys14"
	rm -rf "$S/var14" && mkdir -p "$S/var14"
	sleep 30 & holder=$!
	echo "$BOOT $holder" > "$S/var14/.bar.lock"
	run_save $mode --sysfs "$S/sys14" -o "$S/var14" bar > /dev/null 2> "$S/14.err" &
	saver=$!
	sleep 1
	waited=0
	kill -0 $saver 2>/dev/null && waited=1
	rm -rf "$S/sys14/kernel/pgo/retained/bar" "$S/var14/.bar.lock"
	wait $saver
	rc=$?
	kill $holder 2>/dev/null
	[ $waited = 1 ] && [ $rc = 0 ] && [ -z "$(ls -A "$S/var14")" ] &&
		grep -q "^pgo-save-retained: bar: nothing retained any more (another saver had it)$" "$S/14.err" &&
		pass "$M a second saver of a name waits for the first, then saves nothing twice" ||
		fail "$M saver lock: waited $waited, rc $rc: $(cat "$S/14.err"; ls -lA "$S/var14")"
	# A lock left by a saver of another boot is broken.
	fresh_tree "$S/sys15"
	rm -rf "$S/var15" && mkdir -p "$S/var15"
	echo "0123456789abcdef0123456789abcdef 1" > "$S/var15/.bar.lock"
	run_save $mode --sysfs "$S/sys15" -o "$S/var15" bar > /dev/null 2> "$S/15.err"
	rc=$?
	[ $rc = 0 ] && [ "$(ls -A "$S/var15" | tr '\n' ' ')" = "bar-$ID_bar.profraw " ] &&
		grep -q "bar: broke the lock $S/var15/.bar.lock of a saver that is gone" "$S/15.err" &&
		pass "$M a lock of a saver of another boot is broken, the copy saved" ||
		fail "$M stale lock: rc $rc: $(cat "$S/15.err"; ls -lA "$S/var15")"
	# The kernel's side of the protocol (the `cat` and `sync` wrappers): host sh only.
	[ $mode = host ] || continue
	cp "$B/bar.profraw" "$S/bigger"; head -c 64 /dev/zero >> "$S/bigger"
	# kwrap N EV AT [TO]: run the helper on bar of a fresh tree into
	# $S/varN with event EV at the AT-th read of bar's id.
	kwrap() {
		fresh_tree "$S/sys"
		rm -rf "$S/reads" "$S/reads".* "$R/bar.gone"
		EV=$2 EV_AT=$3 EV_TO=${4:-$S/bigger} EV_DIR=$R/bar EV_STATE=$S/reads \
			EV_OUT=$S/var$1 PRE=$KWRAP: run_save $mode --sysfs "$S/sys" -o "$S/var$1" bar \
			> "$S/k$1.out" 2> "$S/k$1.err"
	}
	# nothing_final N: no file had a final name (bar-*) in $S/varN while
	# "saved" was not yet written, and the pending file was there.
	nothing_final() {
		! grep -q '^bar-' "$S/reads.ls" && grep -q "^\.bar\.[0-9]*\.$BOOT\.pending$" "$S/reads.ls"
	}
	# (a) A load and unload between the two reads of the id (the copy
	# read may be either): read again, the new copy saved once, its id.
	kwrap 5 add 2
	rc=$?
	[ $rc = 0 ] && [ "$(ls -A "$S/var5")" = "bar-$ID_bar.profraw" ] &&
		cmp -s "$S/var5/bar-$ID_bar.profraw" "$S/bigger" &&
		[ "$(cat "$R/bar/saved")" = 8 ] && [ "$(cat "$S/reads")" = 5 ] &&
		[ "$(wc -l < "$S/k5.err")" = 1 ] && grep -q 'discarded the kernel copy$' "$S/k5.err" &&
		pass "$M id changed between its two reads: copied again, the new copy (id 8) saved once and discarded" ||
		fail "$M id changed while copied: rc $rc, saved '$(cat "$R/bar/saved")', reads $(cat "$S/reads"): $(cat "$S/k5.err"; ls -l "$S/var5")"
	nothing_final && pass "$M (a) no final name before saved was written, a pending one" ||
		fail "$M (a) listings at the writes of saved: $(cat "$S/reads.ls")"
	# (b) ... after the second read: the write of id 7 to saved fails
	# (ESTALE: copy 8 holds its counts), the pending file goes, the new
	# copy is saved once.
	kwrap 6 add-after 2
	rc=$?
	[ $rc = 0 ] && [ "$(ls -A "$S/var6")" = "bar-$ID_bar.profraw" ] &&
		cmp -s "$S/var6/bar-$ID_bar.profraw" "$S/bigger" &&
		[ "$(cat "$R/bar/saved")" = 8 ] && [ "$(cat "$S/reads")" = 7 ] &&
		[ "$(wc -l < "$S/k6.err")" = 2 ] &&
		grep -q "^pgo-save-retained: bar: counts were added to the kernel copy while it was saved; removed $S/var6/.bar.7.$BOOT.pending to save the new copy$" "$S/k6.err" &&
		grep -q "^pgo-save-retained: bar: saved $S/var6/bar-$ID_bar.profraw ([0-9]* bytes); discarded the kernel copy$" "$S/k6.err" &&
		pass "$M copy replaced before saved was written: the pending file removed, the new copy (id 8) saved once and discarded" ||
		fail "$M saved refused: rc $rc, saved '$(cat "$R/bar/saved")', reads $(cat "$S/reads"): $(cat "$S/k6.err"; ls -lA "$S/var6")"
	nothing_final && pass "$M (b) no final name before saved was written (ESTALE), a pending one" ||
		fail "$M (b) listings at the writes of saved: $(cat "$S/reads.ls")"
	# (c) ... the copy goes away for good (dropped, or saved by another
	# helper): the helper waits for it, then keeps the file, exit 0.
	kwrap 7 vanish-after 2
	rc=$?
	[ $rc = 0 ] && [ "$(ls -A "$S/var7")" = "bar-$ID_bar.profraw" ] && [ ! -e "$R/bar" ] &&
		cmp -s "$S/var7/bar-$ID_bar.profraw" "$B/bar.profraw" &&
		[ "$(cat "$S/reads")" = 6 ] &&
		grep -q "^pgo-save-retained: bar: saved $S/var7/bar-$ID_bar.profraw ([0-9]* bytes); the kernel copy went away before it was discarded .* and none came back: kept$" "$S/k7.err" &&
		pass "$M copy gone for good before saved was written: waited 3 s, the file kept under its final name, exit 0" ||
		fail "$M copy vanished: rc $rc, reads $(cat "$S/reads"): $(cat "$S/k7.err"; ls -lA "$S/var7")"
	# (d) ... replaced by another binary's copy (a line of its own): the
	# kernel takes id 7 without discarding anything (it dropped copy 7),
	# the file stays; the new one is left for its own uevent.
	kwrap 8 other-after 2 "$B/foo.profraw"
	rc=$?
	[ $rc = 0 ] && [ "$(ls -A "$S/var8")" = "bar-$ID_bar.profraw" ] &&
		cmp -s "$S/var8/bar-$ID_bar.profraw" "$B/bar.profraw" &&
		[ "$(cat "$R/bar/saved")" = 7 ] && [ "$(cat "$R/bar/id")" = 8 ] &&
		cmp -s "$R/bar/profraw" "$B/foo.profraw" &&
		grep -q 'the kernel had dropped the copy saved before its id was written (its counts are in this file only); the copy there now is left for its own event$' "$S/k8.err" &&
		pass "$M replaced by another binary while saved: first saved, the new one kept" ||
		fail "$M other binary: rc $rc: $(cat "$S/k8.err"; ls -l "$S/var8")"
	# (e) A new copy at every read: given up after 5 tries, nothing saved.
	kwrap 9 add all
	rc=$?
	[ $rc = 1 ] && [ -z "$(ls -A "$S/var9")" ] && [ ! -s "$R/bar/saved" ] &&
		[ "$(cat "$S/reads")" = 10 ] && grep -q 'bar: the retained profile keeps changing' "$S/k9.err" &&
		pass "$M a copy that keeps changing: 5 tries, nothing saved, exit 1" ||
		fail "$M keeps changing: rc $rc, reads $(cat "$S/reads"): $(cat "$S/k9.err"; ls -lA "$S/var9")"
	# (f) Copy 7 dropped (pgo.retain_kb, a reset) after it was read, and a
	# fresh copy of the same binary, 8, a line of its own: the write of 7
	# succeeds without discarding 8, the file of 7 stays (its counts are
	# in no copy), 8 is left for its own uevent.
	kwrap 10 drop-after 2
	rc=$?
	[ $rc = 0 ] && [ "$(ls -A "$S/var10")" = "bar-$ID_bar.profraw" ] &&
		cmp -s "$S/var10/bar-$ID_bar.profraw" "$B/bar.profraw" &&
		[ "$(cat "$R/bar/saved")" = 7 ] && [ "$(cat "$R/bar/id")" = 8 ] &&
		cmp -s "$R/bar/profraw" "$S/bigger" && [ "$(wc -l < "$S/k10.err")" = 1 ] &&
		grep -q "^pgo-save-retained: bar: saved $S/var10/bar-$ID_bar.profraw ([0-9]* bytes); the kernel had dropped the copy saved" "$S/k10.err" &&
		pass "$M a dropped copy's id to a fresh copy's saved: taken, nothing discarded, the file kept" ||
		fail "$M dropped copy: rc $rc, saved '$(cat "$R/bar/saved")': $(cat "$S/k10.err"; ls -lA "$S/var10")"
	nothing_final && pass "$M (f) no final name before saved was written, a pending one" ||
		fail "$M (f) listings at the writes of saved: $(cat "$S/reads.ls")"
	# (g) The directory goes away after the second read (the kernel
	# replaces the copy) and comes back a second later with copy 8, which
	# adds to 7 (its base is 7): 7 is refused, the pending file goes, 8 is
	# saved once.
	kwrap 11 gap-after 2
	rc=$?
	[ $rc = 0 ] && [ "$(ls -A "$S/var11")" = "bar-$ID_bar.profraw" ] &&
		cmp -s "$S/var11/bar-$ID_bar.profraw" "$S/bigger" &&
		[ "$(cat "$R/bar/saved")" = 8 ] && [ "$(cat "$S/reads.gone")" = 2 ] &&
		[ "$(wc -l < "$S/k11.err")" = 2 ] &&
		grep -q "^pgo-save-retained: bar: counts were added to the kernel copy while it was saved; removed $S/var11/.bar.7.$BOOT.pending to save the new copy$" "$S/k11.err" &&
		grep -q "^pgo-save-retained: bar: saved $S/var11/bar-$ID_bar.profraw ([0-9]* bytes); discarded the kernel copy$" "$S/k11.err" &&
		pass "$M directory gone for a moment, back with a copy that adds to the one saved: file removed, the new copy saved once" ||
		fail "$M gap: rc $rc, saved '$(cat "$R/bar/saved")': $(cat "$S/k11.err"; ls -lA "$S/var11")"
	nothing_final && pass "$M (g) no final name before saved was written, a pending one" ||
		fail "$M (g) listings at the writes of saved: $(cat "$S/reads.ls")"
done

# ------------------------------------------------------- udev rule
# The rule's syntax and match with the host's real udev (252 on bookworm,
# 257 on trixie), inside a busybox root made like the guest's initramfs plus
# tests/qemu/udev.sh.
U=$W/uroot
mkdir -p "$U"/{bin,sbin,dev,proc,sys,tmp,lib/modules,etc,root}
cp "$BUSYBOX" "$U/bin/busybox"
for t in sh mount mkdir cat ls grep sed awk echo od env; do ln -sf busybox "$U/bin/$t"; done
if bash "$TOP/tests/qemu/udev.sh" "$U" > "$W/udev.sh.log" 2>&1; then
	pass "tests/qemu/udev.sh built a root: $(tail -1 "$W/udev.sh.log")"
	v=$(chroot "$U" /sbin/systemd-udevd --version 2>&1)
	[ "$v" = "$(/lib/systemd/systemd-udevd --version)" ] && pass "systemd-udevd $v runs in the busybox root (libraries complete)" ||
		fail "systemd-udevd in the root: $v"
	v=$(chroot "$U" /bin/udevadm --version 2>&1)
	[ "$v" = "$(udevadm --version)" ] && pass "udevadm runs in the busybox root" ||
		fail "udevadm in the root: $v"
	[ -x "$U/usr/lib/pgo/pgo-save-retained" ] && [ -x "$U/usr/lib/pgo/pgo-collect" ] &&
		cmp -s "$U/etc/udev/rules.d/90-pgo.rules" "$RULES" &&
		pass "rule and tools installed in the root" || fail "rule/tools not installed"

	# A fake pgo device: what udevd builds from the kernel's uevent.
	F=$W/fsys
	mkdir -p "$F/kernel/pgo/retained/bar" "$F/kernel/pgo/retained/nomod" "$F/class/pgo"
	cp "$B/bar.profraw" "$F/kernel/pgo/retained/bar/profraw"
	: > "$F/kernel/pgo/retained/bar/reset"
	: > "$F/kernel/pgo/retained/bar/saved"
	echo 5 > "$F/kernel/pgo/retained/bar/id"
	for d in bar nomod; do ln -s ../../../../class/pgo "$F/kernel/pgo/retained/$d/subsystem"; done
	printf 'PGO_MODULE=bar\n' > "$F/kernel/pgo/retained/bar/uevent"
	: > "$F/kernel/pgo/retained/nomod/uevent"
	# in_ns SCRIPT: run SCRIPT in a mount namespace of its own.  Where /
	# is not a mount point (a chroot, as in a fresh CI root), unshare
	# cannot make it private: keep the propagation as it is, and undo
	# every mount the script made before leaving.
	ns_flags=
	unshare -m true 2>/dev/null || ns_flags="--propagation unchanged"
	in_ns() {
		# shellcheck disable=SC2086 # empty or two words
		unshare -m $ns_flags sh -c "$1; rc=\$?
			for m in dev proc sys; do
				mountpoint -q '$U/'\$m && umount '$U/'\$m
			done; exit \$rc"
	}
	utest() {
		in_ns "mount --bind '$F' '$U/sys' && mount -t proc proc '$U/proc' &&
			SYSTEMD_DEVICE_VERIFY_SYSFS=0 SYSTEMD_LOG_LEVEL=debug chroot '$U' /bin/udevadm test --action=$1 $2" 2>&1
	}
	# The programs udevadm test would run: "run: 'CMD'" (udev 252),
	# "  RUN{program} : CMD" (257).
	runs() { sed -n "s/^run: '\(.*\)'$/\1/p; s/^  RUN{program} : \(.*\)$/\1/p" "$@"; }
	utest add /sys/kernel/pgo/retained/bar > "$W/utest-add.txt"
	[ "$(runs "$W/utest-add.txt")" = "/usr/lib/pgo/pgo-save-retained bar" ] &&
		pass "udevadm test: add of pgo device bar runs '/usr/lib/pgo/pgo-save-retained bar'" ||
		fail "udevadm test add: $(grep -E 'run:|RUN|90-pgo|rror' "$W/utest-add.txt" | head)"
	grep -q 'Reading rules file: /etc/udev/rules.d/90-pgo.rules' "$W/utest-add.txt" &&
		! grep '90-pgo.rules:' "$W/utest-add.txt" | grep -qviE ' (RUN|ACTION|SUBSYSTEM|ENV)\{?' &&
		! grep -qiE '90-pgo.rules.*(invalid|error|unknown|ignor|warn)' "$W/utest-add.txt" &&
		pass "udevd $(udevadm --version) parses 90-pgo.rules without complaint" ||
		fail "rule parse: $(grep -i '90-pgo' "$W/utest-add.txt" | head)"
	utest remove /sys/kernel/pgo/retained/bar > "$W/utest-rm.txt"
	utest add /sys/kernel/pgo/retained/nomod > "$W/utest-nomod.txt"
	! runs "$W/utest-rm.txt" "$W/utest-nomod.txt" | grep -q pgo-save-retained &&
		grep -q 'Reading rules file: /etc/udev/rules.d/90-pgo.rules' "$W/utest-rm.txt" &&
		pass "no RUN on remove, nor without PGO_MODULE" ||
		fail "rule matched remove or no PGO_MODULE: $(runs "$W/utest-rm.txt" "$W/utest-nomod.txt")"

	# Run the RUN command as udevd does: device properties as the
	# environment, no PATH, busybox only, in the root.
	cmd=$(runs "$W/utest-add.txt" | grep pgo-save-retained)
	in_ns "mount --bind '$F' '$U/sys' &&
		chroot '$U' /bin/env -i ACTION=add DEVPATH=/kernel/pgo/retained/bar SUBSYSTEM=pgo \
			PGO_MODULE=bar SEQNUM=1 $cmd" > "$W/urun.out" 2> "$W/urun.err"
	rc=$?
	[ $rc = 0 ] && cmp -s "$U/var/lib/pgo/bar-$ID_bar.profraw" "$B/bar.profraw" &&
		[ "$(cat "$F/kernel/pgo/retained/bar/saved")" = 5 ] &&
		pass "the RUN command, run like udevd in the busybox root, saved /var/lib/pgo/bar-<id>.profraw and wrote its id to saved" ||
		fail "RUN command '$cmd': rc $rc $(cat "$W/urun.out" "$W/urun.err"; ls -la "$U/var/lib/pgo" 2>&1)"

	# udevd itself starts with our rule, answers a ping and exits.  It
	# sees the fake sysfs and a /dev of its own: should a real uevent of
	# this machine come by meanwhile, it touches nothing outside the root.
	in_ns "mount --bind '$F' '$U/sys' && mount -t proc proc '$U/proc' &&
		mount -t tmpfs tmpfs '$U/dev' && mknod -m 666 '$U/dev/null' c 1 3 &&
		chroot '$U' /bin/sh -c 'SYSTEMD_LOG_TARGET=console SYSTEMD_LOG_LEVEL=debug \
			systemd-udevd --daemon > /tmp/udevd.log 2>&1 &&
			udevadm control --ping --timeout=10 && udevadm settle --timeout=10 &&
			udevadm control --exit --timeout=10'" > "$W/udevd.out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		pass "systemd-udevd --daemon starts in the root, ping/settle/exit work"
	else
		echo "  note: udevd did not run in this container (rc $rc): $(tail -3 "$W/udevd.out" "$U/tmp/udevd.log" 2>/dev/null | tr '\n' ' ')"
	fi
	grep -iE '90-pgo.*(invalid|error|unknown|ignor)' "$U/tmp/udevd.log" 2>/dev/null &&
		fail "udevd complains about 90-pgo.rules"
	# Anything of ours still running in the root (an udevd that did not exit).
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$U" ] && kill "${p#/proc/}" 2>/dev/null
	done
else
	fail "tests/qemu/udev.sh failed: $(tail -5 "$W/udev.sh.log")"
fi

# ------------------------------------------- pgo-save-retained.service
# The boot-time unit runs the helper the udev rule installs, with --all
# (whose work is tested above), and systemd accepts the unit.
UNIT=$TOP/scripts/pgo/pgo-save-retained.service
rule_prog=$(sed -n 's/.*RUN+="\([^ "]*\) .*/\1/p' "$RULES")
unit_cmd=$(sed -n 's/^ExecStart=//p' "$UNIT")
[ -n "$rule_prog" ] && [ "$unit_cmd" = "$rule_prog --all" ] &&
	pass "pgo-save-retained.service runs $unit_cmd (the rule's helper)" ||
	fail "pgo-save-retained.service runs '$unit_cmd', the rule runs '$rule_prog'"
if command -v systemd-analyze > /dev/null; then
	# verify wants the unit's program to exist: the copy runs ours.
	mkdir -p "$W/unit"
	sed "s|^ExecStart=[^ ]*|ExecStart=$SAVE|" "$UNIT" > "$W/unit/pgo-save-retained.service"
	systemd-analyze verify --man=no "$W/unit/pgo-save-retained.service" > "$W/verify.txt" 2>&1 &&
		! grep -q pgo-save-retained "$W/verify.txt" &&
		pass "systemd-analyze $(systemd-analyze --version | awk 'NR == 1 { print $2 }') verify: pgo-save-retained.service" ||
		fail "systemd-analyze verify: $(cat "$W/verify.txt")"
else
	echo "SKIP: systemd-analyze verify of pgo-save-retained.service (no systemd)"
fi

# ------------------------------------- pgo-collect: correlated profiles
# CONFIG_PGO_CLANG_CORRELATE: counters only; pgo-collect merges each with
# the binary of its build id, a module's after linking the relocatable
# .ko into a copy.  A program plays vmlinux; "cmod" is a relocatable
# object (ld.lld -r, as a .ko) given the build id of a program whose
# profile it plays.
C=$W/corr
mkdir -p "$C/src" "$C/bin/kernel" "$C/other" "$C/tools"
CF="-O1 -fprofile-instr-generate -fcoverage-mapping -mllvm -profile-correlate=binary"
cat > "$C/src/vm.c" <<'EOF'
int __attribute__((noinline)) cvm_func(int x) { return x * 3; }
int main(void) { int s = 0; for (int i = 0; i < 10; i++) s += cvm_func(i); return s != 135; }
EOF
cat > "$C/src/cmod.c" <<'EOF'
int __attribute__((noinline)) cmod_func(int x) { return x + 1; }
int cmod_run(int n) { int s = 0; for (int i = 0; i < n; i++) s += cmod_func(i); return s; }
EOF
echo 'int cmod_run(int); int main(void) { return cmod_run(5) != 15; }' > "$C/src/main.c"
# shellcheck disable=SC2086
if clang-19 $CF -Wl,--build-id=sha1 "$C/src/vm.c" -o "$C/bin/vmlinux" &&
	LLVM_PROFILE_FILE=$C/vm.profraw "$C/bin/vmlinux" &&
	clang-19 $CF -c "$C/src/cmod.c" -o "$C/cmod.o" &&
	clang-19 -O1 -c "$C/src/main.c" -o "$C/main.o" &&
	clang-19 -fprofile-instr-generate -Wl,--build-id=sha1 "$C/cmod.o" "$C/main.o" -o "$C/cmodexe" &&
	LLVM_PROFILE_FILE=$C/cmod.profraw "$C/cmodexe" &&
	ld.lld -r --build-id=0x"$(build_id "$C/cmodexe")" "$C/cmod.o" -o "$C/bin/kernel/cmod.ko" &&
	ld.lld -r --build-id=0x1234 "$C/cmod.o" -o "$C/other/cmod.ko" &&
	[ "$(build_id "$C/bin/kernel/cmod.ko")" = "$(build_id "$C/cmodexe")" ]; then
	pass "correlated test profiles (clang-19 -profile-correlate=binary) and binaries"
	# An IR (PGO) one of vmlinux, as CONFIG_PGO_CLANG_IR correlates it.
	mkdir -p "$C/ir/bin" "$C/ti/kernel/pgo" "$C/empty"
	clang-19 -O1 -fprofile-generate -mllvm -profile-correlate=binary -mllvm -disable-vp \
		-Wl,--build-id=sha1 "$C/src/vm.c" -o "$C/ir/bin/vmlinux" &&
		LLVM_PROFILE_FILE=$C/ti/kernel/pgo/profraw "$C/ir/bin/vmlinux" ||
		fail "correlated IR test profile"
	TC=$C/t
	mkdir -p "$TC/kernel/pgo" "$TC/module/cmod/pgo"
	cp "$C/vm.profraw" "$TC/kernel/pgo/profraw"
	cp "$C/cmod.profraw" "$TC/module/cmod/pgo/profraw"
	for t in llvm-profdata llvm-readelf ld.lld; do
		ln -s "$(command -v $t-19)" "$C/tools/$t-19"
	done
	# An LLVM without llvm-readelf: GNU readelf reads the build ids.
	mkdir -p "$C/tools-gnu"
	for t in llvm-profdata ld.lld; do
		ln -s "$(command -v $t-19)" "$C/tools-gnu/$t-19"
	done
	ln -s "$(command -v readelf)" "$C/tools-gnu/readelf"
	mkdir -p "$C/vmonly"
	ln -s ../bin/vmlinux "$C/vmonly/vmlinux"
	cid=$(build_id "$C/cmodexe")
	# /lib/modules/<release>/build is a symbolic link.
	ln -sfn bin "$C/binlink"
	# The function count (these functions have one counter: no block count).
	fcount() { "llvm-profdata-$1" show --counts --function="$3" "$2" 2>/dev/null |
		awk '/Function count:/ { print $3; exit }'; }
	for mode in host busybox; do
		M="[$mode]"
		o=$C/c-$mode
		run_collect $mode "$C/tools:" -v -o "$o/out" --sysfs "$TC" --saved '' \
			--binaries "$C/other" --binaries "$C/binlink" --merge-dir "$o/pd" \
			> "$o.out" 2> "$o.err"
		rc=$?
		[ $rc = 0 ] && [ "$(fcount 19 "$o/pd/vmlinux.profdata" cvm_func)" = 10 ] &&
			[ "$(fcount 19 "$o/pd/cmod.profdata" cmod_func)" = 5 ] &&
			grep -q "cmod-$cid.profraw: correlated with $C/binlink/kernel/cmod.ko$" "$o.out" &&
			pass "$M --merge-dir of correlated profiles: vmlinux and the module merged with their binaries (cvm_func 10, cmod_func 5), found through a symbolic link, the .ko of another build id passed over" ||
			fail "$M correlated --merge-dir: rc $rc, $(cat "$o.out" "$o.err")"
		run_collect $mode "$C/tools:" -o "$o/out2" --sysfs "$TC" --saved '' \
			--binaries "$C/bin" --merge "$o/all.profdata" > "$o.out2" 2> "$o.err2"
		rc=$?
		[ $rc = 0 ] && [ "$(fcount 19 "$o/all.profdata" cmod_func)" = 5 ] &&
			[ "$(fcount 19 "$o/all.profdata" cvm_func)" = 10 ] &&
			! grep -q 'disable-vp' "$o.err2" &&
			pass "$M --merge of correlated profiles: both objects in one file (coverage: no note of -disable-vp)" ||
			fail "$M correlated --merge: rc $rc, $(cat "$o.out2" "$o.err2")"
		# A correlated IR profile: merged, one note of -disable-vp;
		# not merged (no binary): no note.
		run_collect $mode "$C/tools:" -o "$o/out6" --sysfs "$C/ti" --saved '' \
			--binaries "$C/ir/bin" --merge "$o/ir.profdata" > "$o.out6" 2> "$o.err6"
		rc=$?
		[ $rc = 0 ] && llvm-profdata-19 show --counts --function=cvm_func "$o/ir.profdata" |
			grep -q 'Block counts: \[10\]' &&
			[ "$(grep -c "note: correlated IR profiles hold no value profiles: to silence clang's \"Inconsistent number of value sites\" warnings, build with KCFLAGS+='-mllvm -disable-vp'" "$o.err6")" = 1 ] &&
			pass "$M --merge of a correlated IR profile: merged (cvm_func 10), one note of KCFLAGS+='-mllvm -disable-vp'" ||
			fail "$M correlated IR --merge: rc $rc, $(cat "$o.out6" "$o.err6")"
		run_collect $mode "$C/tools:" -o "$o/out7" --sysfs "$C/ti" --saved '' \
			--binaries "$C/empty" --merge-dir "$o/pd7" > "$o.out7" 2> "$o.err7"
		rc=$?
		[ $rc = 1 ] && ! grep -q 'disable-vp' "$o.err7" &&
			grep -q 'is correlated, and no binary' "$o.err7" &&
			pass "$M a correlated IR profile without its binary: not merged, no note of -disable-vp" ||
			fail "$M correlated IR without binary: rc $rc, $(cat "$o.out7" "$o.err7")"
		# --merge and --merge-dir at once: each profile is linked and
		# merged with its binary once, for both.
		run_collect $mode "$C/tools-gnu:" -v -o "$o/out4" --sysfs "$TC" --saved '' \
			--binaries "$C/binlink" --merge "$o/all4.profdata" --merge-dir "$o/pd4" \
			> "$o.out4" 2> "$o.err4"
		rc=$?
		[ $rc = 0 ] && [ "$(grep -c ': correlated with ' "$o.out4")" = 2 ] &&
			[ "$(fcount 19 "$o/all4.profdata" cmod_func)" = 5 ] &&
			[ "$(fcount 19 "$o/all4.profdata" cvm_func)" = 10 ] &&
			[ "$(fcount 19 "$o/pd4/cmod.profdata" cmod_func)" = 5 ] &&
			[ "$(fcount 19 "$o/pd4/vmlinux.profdata" cvm_func)" = 10 ] &&
			pass "$M --merge and --merge-dir of correlated profiles: each correlated once (2 "correlated with" lines for 2 profiles), the build ids read by GNU readelf" ||
			fail "$M correlated --merge and --merge-dir: rc $rc, $(cat "$o.out4" "$o.err4")"
		run_collect $mode "$C/tools:" -o "$o/out3" --sysfs "$TC" --saved '' \
			--binaries "$C/other" --merge-dir "$o/pd3" > "$o.out3" 2> "$o.err3"
		rc=$?
		[ $rc = 1 ] && [ ! -e "$o/pd3/cmod.profdata" ] && [ ! -e "$o/pd3/vmlinux.profdata" ] &&
			grep -q "cmod-$cid.profraw is correlated, and no binary" "$o.err3" &&
			[ -s "$o/out3/cmod-$cid.profraw" ] &&
			grep -q '2 correlated not merged' "$o.out3" &&
			pass "$M correlated profiles without their binaries: not merged, named, kept, exit 1" ||
			fail "$M correlated without binaries: rc $rc, $(cat "$o.out3" "$o.err3")"
		# The module's binary missing, vmlinux's there, both merges.
		run_collect $mode "$C/tools:" -o "$o/out5" --sysfs "$TC" --saved '' \
			--binaries "$C/vmonly" --merge "$o/all5.profdata" --merge-dir "$o/pd5" \
			> "$o.out5" 2> "$o.err5"
		rc=$?
		[ $rc = 1 ] && [ ! -e "$o/pd5/cmod.profdata" ] &&
			[ "$(fcount 19 "$o/pd5/vmlinux.profdata" cvm_func)" = 10 ] &&
			[ "$(fcount 19 "$o/all5.profdata" cvm_func)" = 10 ] &&
			[ "$(grep -c "cmod-$cid.profraw is correlated, and no binary" "$o.err5")" = 1 ] &&
			grep -q ', 1 correlated not merged' "$o.out5" &&
			pass "$M a module's binary missing with --merge and --merge-dir: vmlinux merged into both, the module named once, counted once, exit 1" ||
			fail "$M correlated, module's binary missing: rc $rc, $(cat "$o.out5" "$o.err5")"
	done
else
	fail "could not build the correlated test profiles"
fi

# ------------------------------------------------------- shellcheck
if command -v shellcheck > /dev/null; then
	shellcheck -s sh "$COLLECT" "$SAVE" > "$W/sc.txt" 2>&1 &&
		pass "shellcheck -s sh: pgo-collect, pgo-save-retained" ||
		fail "shellcheck: $(cat "$W/sc.txt")"
fi

echo "scripts: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
