#!/bin/bash
# make test: every suite, in three lanes that keep both cores busy, and a
# table of what each stage took.  Run by the root Makefile (x86_64).
#
#   lane host:  the series (first: make check's htmldocs writes into 6.12's
#               tree, which the series compares), host tests (writer vs
#               compiler-rt, crafted, scripts), then, once lane x86 has its
#               kernel, the build checks (which do not run kbuild in that
#               kernel's directory)
#   lane x86:   the x86_64 test kernel (instrumented + tests/qemu/debug.config)
#               and its modules, static checks, the guest suites, the PGO-use
#               cycle, the bounded torture and lockdown
#   lane cov:   the coverage kernel (which covers only what its checks read)
#               and its suite, then the arm64 kernel and its suites
#
# One x86_64 kernel serves the guest suites and the torture: the debug
# options (KASAN, lockdep, UBSAN, kmemleak) check every suite, not only the
# torture, and a kernel is not built twice.  The packages and the tree come
# first, so that no two lanes install or stage at once.
#
# Each stage writes its log to $TEST_LOG/<stage>.log; while kernels build,
# a line a minute says how far each has got.  The table at the end (also
# in $TEST_LOG/times.txt) gives each stage's wall time and, for kernel
# builds, how many compilations ccache answered.  Exit status 0 iff every
# stage passed.
#
# Each stage is a target of the root Makefile (test-<stage>, see there).
# Environment: MAKE, BUILD, LLVM_VERSION.
set -uo pipefail
: "${MAKE:?}" "${BUILD:?}" "${LLVM_VERSION:?}"
LOGDIR=$BUILD/test
# shellcheck source=tests/stages.sh
. "$(dirname "$0")/stages.sh"
m=("$MAKE" --no-print-directory)

# A line a minute while anything builds: objects so far in each kernel.
progress() {
	local d line n running

	while sleep 60; do
		line=
		for d in "$BUILD"/obj-debug-"$LLVM_VERSION" "$BUILD"/obj-cov-"$LLVM_VERSION" \
			 "$BUILD"/obj-arm64-"$LLVM_VERSION"; do
			[ -d "$d" ] || continue
			n=$(find "$d" -name '*.o' -newer "$LOGDIR/.start" 2>/dev/null | wc -l)
			[ "$n" -gt 0 ] && line="$line $(basename "$d"): $n objects;"
		done
		running=
		for d in "$LOGDIR"/*.running; do
			[ -e "$d" ] && running="$running $(basename "$d" .running)"
		done
		say "running:${running:- nothing}${line:+ |}$line"
	done
}

# A lane runs its stages in order.  A failed stage does not stop the lane,
# but the stages after a kernel that failed to build (*kernel) are skipped
# up to the lane's next kernel: they would test nothing.  A stage written
# DEP:STAGE waits until stage DEP (of another lane) has ended; it is
# skipped if DEP is a kernel that failed.  Every stage leaves its status
# in $LOGDIR/<stage>.rc, also when skipped or when its lane dies.
# Whether a stage builds a kernel.
is_kernel() { [ "$1" != "${1%kernel}" ]; }

lane() {
	local name=$1 rc=0 s dep nokernel='' src
	shift
	# shellcheck disable=SC2064 # the stage list, as it is now
	trap "for s in ${*//[a-z0-9-]*:/}; do [ -e \"\$LOGDIR/\$s.rc\" ] || echo 1 > \"\$LOGDIR/\$s.rc\"; done" EXIT
	for s in "$@"; do
		dep=
		if [ "$s" != "${s#*:}" ]; then
			dep=${s%%:*} s=${s#*:}
			while [ ! -e "$LOGDIR/$dep.rc" ]; do sleep 5; done
		fi
		! is_kernel "$s" || nokernel=
		if [ -n "$dep" ] && is_kernel "$dep" &&
		   [ "$(cat "$LOGDIR/$dep.rc")" != 0 ]; then
			nokernel=$dep
		fi
		if [ -n "$nokernel" ]; then
			say "$s: SKIPPED: $nokernel failed"
			printf '%s\tskipped\t0\t%s\t0\t\n' "$s" "$(el)" >> "$TIMES"
			echo 1 > "$LOGDIR/$s.rc"
			continue
		fi
		touch "$LOGDIR/$s.running"
		src=0
		stage "$s" "${m[@]}" "test-$s" || src=1
		echo "$src" > "$LOGDIR/$s.rc"
		if [ "$src" != 0 ]; then
			rc=1
			! is_kernel "$s" || nokernel=$s
		fi
		rm -f "$LOGDIR/$s.running"
	done
	echo "$rc" > "$LOGDIR/lane-$name.rc"
}

# Packages (x86_64 and arm64) and the patched tree, once, before the lanes.
stage deps "${m[@]}" test-deps || exit 1

progress &
progress_pid=$!
trap 'kill $progress_pid 2>/dev/null' EXIT
# Background jobs of a script ignore SIGINT: take the lanes down with it.
trap 'trap - INT TERM; kill -TERM 0' INT TERM

# The build checks run beside the guest suites, niced: they must not starve
# the guest's vCPUs into RCU stall warnings.  check runs make htmldocs,
# which writes into 6.12's tree: after the series, which compares it.
lane host series host kernel:build &
p1=$!
lane x86 kernel series:check guest torture &
p2=$!
lane cov coverage-kernel coverage arm64-kernel arm64 &
p3=$!
wait "$p1" "$p2" "$p3"

rc=0
for l in host x86 cov; do
	[ "$(cat "$LOGDIR/lane-$l.rc" 2>/dev/null)" = 0 ] || rc=1
done
total=$(el)
stages_table "make test" "; lanes run side by side, so they add up to more than the total"
if [ "$rc" = 0 ]; then
	echo "make test: all passed in $total s"
else
	echo "make test: FAILED after $total s (see the table and $LOGDIR/)"
fi
exit "$rc"
