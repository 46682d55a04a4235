#!/bin/bash
# make run: the PGO cycle in stages (tests/stages.sh), its report, and a
# table of what each stage took.  Run by the root Makefile, whose
# command-line variables (ARCH, LLVM_VERSION, LTO, ...) reach the stages'
# makes through MAKEFLAGS.
#
#   deps     the packages and the patched tree (make deps tree)
#   kernel   the instrumented kernel and the modules
#   train    its boot with the training workload; the merged profiles
#   instr    with RUN_INSTR=1: the instrumented kernel booted under QEMU
#            -icount, measured as plain and PGO are
#   plain    the plain kernel, built and booted under QEMU -icount
#   pgo      the PGO kernel (CLANG_PGO_PROFILE=), built and booted
#   novp     with RUN_NOVP=1: the PGO kernel built from the profiles without
#            their value profiles (tests/run/strip-vp.sh), built and booted
#
# Environment: MAKE, RUN, RUN_NOVP, RUN_INSTR.  Exit status 0 iff every
# stage and the report passed.  The kernel recipe's line a minute comes
# from a background loop whose sleep must not hold the stage's pipe
# (STAGE_SHOW) once it is killed: its output goes to /dev/null.
set -uo pipefail
: "${MAKE:?}" "${RUN:?}"
LOGDIR=$RUN/log
STAGE_SHOW='^building Linux|^  [0-9]+ s: .* so far|^kernel built in|^profile:|^[a-z]+ boot:'
# shellcheck source=tests/stages.sh
. "$(dirname "$0")/../stages.sh"
m=("$MAKE" --no-print-directory)

rc=0
stages="deps:deps+tree kernel:ext-modules train:run-train"
[ -n "${RUN_INSTR:-}" ] && stages="$stages instr:run-instr"
stages="$stages plain:run-plain-kernel pgo:run-pgo-kernel"
[ -n "${RUN_NOVP:-}" ] && stages="$stages novp:run-pgonovp-kernel"
for s in $stages; do
	# shellcheck disable=SC2046 # the stage's targets, '+'-separated
	stage "${s%%:*}" "${m[@]}" $(echo "${s#*:}" | tr + ' ') || { rc=1; break; }
done
if [ "$rc" = 0 ]; then
	"${m[@]}" run-report || rc=1
fi
stages_table "make run" ""
if [ "$rc" = 0 ]; then
	echo "make run: done in $(el) s"
else
	echo "make run: FAILED after $(el) s (see the table and $LOGDIR/)"
fi
exit "$rc"
