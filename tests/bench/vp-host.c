// SPDX-License-Identifier: GPL-2.0
/*
 * vp-host: the value-profiling benchmark loop (modules/pgo_vp_loop.h) in
 * userspace, against compiler-rt's profile runtime.  make bench builds it
 * twice, with and without -mllvm -disable-vp=true, and counts the
 * instructions pgo_vp_loop() executes under callgrind.
 *
 *   vp-host N    make N indirect calls and print their sum
 */
#include <stdio.h>
#include <stdlib.h>

/* vp-host.sh defines noinline and READ_ONCE() as the kernel does. */
#include "modules/pgo_vp_loop.h"

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 0;

	printf("%lu\n", pgo_vp_loop(n));
	return 0;
}
