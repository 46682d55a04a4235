// SPDX-License-Identifier: GPL-2.0
/*
 * benchread: time whole sequential reads of files, alternating between
 * them, so that they are compared side by side in the same conditions.
 *
 *   benchread ROUNDS BS FILE...
 *
 * Each round reads every FILE once, from open to end of file, with
 * read()s of BS bytes; rounds alternate the order (forward, backward), so
 * no file always comes first.  Prints "<file> <round> <bytes> <ns>
 * <first_ns>" per read, with CLOCK_MONOTONIC, which under QEMU -icount
 * shift=0 counts executed instructions: the whole read from open() to
 * close(), and its first read() alone (where a profile is serialized).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int rounds = argc > 3 ? atoi(argv[1]) : 0;
	size_t bs = argc > 3 ? strtoul(argv[2], NULL, 0) : 0;
	int nr = argc - 3, r, k;
	char *buf;

	if (rounds <= 0 || !bs) {
		fprintf(stderr, "usage: benchread ROUNDS BS FILE...\n");
		return 2;
	}
	buf = malloc(bs);
	if (!buf)
		return 1;
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < nr; k++) {
			const char *name = argv[3 + (r & 1 ? nr - 1 - k : k)];
			long long t0 = now_ns(), t1, first = 0, bytes = 0;
			ssize_t got;
			int fd = open(name, O_RDONLY);

			if (fd < 0) {
				perror(name);
				return 1;
			}
			for (;;) {
				t1 = now_ns();
				got = read(fd, buf, bs);
				if (!bytes)
					first = now_ns() - t1;
				if (got <= 0)
					break;
				bytes += got;
			}
			close(fd);
			if (got < 0) {
				perror(name);
				return 1;
			}
			printf("%s %d %lld %lld %lld\n", name, r, bytes,
			       now_ns() - t0, first);
		}
	}
	return 0;
}
