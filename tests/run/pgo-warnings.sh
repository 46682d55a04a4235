#!/bin/bash
# One-line summary of clang's profile warnings in a -fprofile-use build log.
# usage: pgo-warnings.sh BUILD_LOG...
cat "$@" | awk '
	/hash mismatch/			{ mismatch++ }
	/no profile data available/	{ missing++ }
	/profile data may be out of date|out-of-date/ { outdated++ }
	/warning:.*profile/		{ all++ }
	END { printf "profile warnings: %d hash mismatch, %d missing, %d out of date, %d in all\n",
		mismatch, missing, outdated, all }'
