#!/bin/bash
# One-line summary of clang's profile warnings in a -fprofile-use build log.
# usage: pgo-warnings.sh BUILD_LOG...
cat "$@" | awk '
	# Warnings only: a V=1 log also holds -Wno-error=profile-instr-out-of-date.
	/warning:.*hash mismatch/			{ mismatch++; all++; next }
	/warning:.*no profile data available/	{ missing++; all++; next }
	/warning:.*(profile data may be out of date|out-of-date)/ { outdated++; all++; next }
	/warning:.*profile/		{ all++ }
	END { printf "profile warnings: %d hash mismatch, %d missing, %d out of date, %d in all\n",
		mismatch, missing, outdated, all }'
