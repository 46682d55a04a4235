// SPDX-License-Identifier: GPL-2.0
/*
 * prog_reset() for binary A of the reset test: compiler-rt's reset, which
 * the kernel's pgo_object_reset() (binary B, harness.c) must match.
 * Not instrumented.
 */
void __llvm_profile_reset_counters(void);

void prog_reset(void)
{
	__llvm_profile_reset_counters();
}
