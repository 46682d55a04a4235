#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the LLVM raw profile version that a clang's instrumentation
# emits: the version word __llvm_profile_raw_version of an object built
# with -fprofile-generate, without its variant flags (the upper 32 bits).
# Print 0 if the compiler emits none.  Arguments: the compiler and its
# flags, as kernel/pgo/Kconfig passes them.

v=$(echo 'void f(void) {}' |
	"$@" -fprofile-generate -S -o - -x c - 2>/dev/null |
	sed -n '/^__llvm_profile_raw_version:/ {
		n
		s/^[[:space:]]*\.[a-z0-9]*[[:space:]]*\([0-9][0-9]*\).*/\1/p
		q
	}')
echo $(( ${v:-0} & 0xffffffff ))
