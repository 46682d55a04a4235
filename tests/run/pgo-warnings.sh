#!/bin/bash
# One-line summary of clang's profile warnings in a -fprofile-use build log,
# and of the other warnings of -Wbackend-plugin: Kbuild keeps that whole
# group from being an error in objects built with a profile (clang reports
# IR profile mismatches in it), so anything else in it is counted here.
# usage: pgo-warnings.sh BUILD_LOG...
[ $# -ge 1 ] || { echo "usage: pgo-warnings.sh BUILD_LOG..." >&2; exit 2; }
for f in "$@"; do
	[ -r "$f" ] || { echo "pgo-warnings: $f: no such log (rebuild that kernel or module)" >&2; exit 1; }
done
cat "$@" | awk '
	# Warnings only: a V=1 log also holds -Wno-error=profile-instr-out-of-date.
	/warning:.*hash mismatch/			{ mismatch++; all++; next }
	/warning:.*no profile data available/	{ missing++; all++; next }
	/warning:.*(profile data may be out of date|out-of-date)/ { outdated++; all++; next }
	/warning:.*profile/		{ all++; next }
	/warning:.*\[-Wbackend-plugin\]/	{ other++ }
	END { printf "profile warnings: %d hash mismatch, %d missing, %d out of date, %d in all; %d other -Wbackend-plugin\n",
		mismatch, missing, outdated, all, other }'
