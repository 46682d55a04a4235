#!/bin/bash
# Summarise a kernel build log's compiler warnings: how many, how many of
# them are clang's "unsupported MC/DC boolean expression" (a decision that
# MC/DC does not measure and covers by branches only: clang 19 reports each
# one whatever -Wno-pgo-coverage says; clang 22 takes the option), and the
# first real ones, so that they are not buried under those.
# usage: warnings.sh BUILD_LOG [MAX_SHOWN]
set -uo pipefail
log=$1 max=${2:-20}
all=$(grep -c 'warning:' "$log")
mcdc=$(grep -c 'warning: unsupported MC/DC boolean expression' "$log")
real=$((all - mcdc))
printf '%s compiler warnings' "$real"
[ "$mcdc" -gt 0 ] &&
	printf ", and %s of clang's 'unsupported MC/DC boolean expression' (covered by branches only)" "$mcdc"
printf ' (see %s)\n' "$log"
if [ "$real" -gt 0 ]; then
	grep 'warning:' "$log" | grep -v 'warning: unsupported MC/DC boolean expression' |
		head -n "$max" | sed 's/^/  /'
fi
