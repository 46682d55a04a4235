// SPDX-License-Identifier: GPL-2.0
/*
 * pgotest: small static helper for the in-guest PGO tests.
 *
 *   pgotest getppid N             N getppid() system calls
 *   pgotest busy SECONDS          syscall/pipe/VFS-heavy loop for SECONDS
 *   pgotest read PATH BS OUT      read PATH in BS-byte read()s into OUT;
 *                                 prints "<bytes> <ns>"
 *   pgotest pread PATH OFF LEN    prints bytes returned or the errno name
 *   pgotest write PATH STRING     write STRING (no newline); prints ok/errno
 *   pgotest writefill PATH C N    write N bytes of character C
 *   pgotest writeempty PATH       write(fd, "", 0)
 *   pgotest runas UID CMD ARG...  run CMD as UID (and gid UID)
 *   pgotest slowread PATH BS OUT READY USEC
 *                                 read PATH into OUT in BS-byte reads,
 *                                 creating READY after the first one and
 *                                 sleeping USEC between reads; prints
 *                                 "complete <bytes>" or the errno name
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int report(ssize_t ret)
{
	if (ret < 0)
		printf("%s\n", strerrorname_np(errno));
	else
		printf("ok %zd\n", ret);
	return 0;
}

static int do_write(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return report(-1);
	report(write(fd, buf, len));
	close(fd);
	return 0;
}

static void busy(int seconds)
{
	long long end = now_ns() + seconds * 1000000000LL;
	char buf[256];
	int p[2];

	if (pipe(p))
		exit(1);
	while (now_ns() < end) {
		int fd = open("/proc/version", O_RDONLY);

		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf)) < 0)
				exit(1);
			close(fd);
		}
		if (write(p[1], buf, 64) != 64 || read(p[0], buf, 64) != 64)
			exit(1);
		syscall(SYS_getppid);
	}
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "getppid") && argc == 3) {
		long i, n = atol(argv[2]);

		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		return 0;
	}
	if (!strcmp(cmd, "busy") && argc == 3) {
		busy(atoi(argv[2]));
		return 0;
	}
	if (!strcmp(cmd, "read") && argc == 5) {
		size_t bs = atol(argv[3]), total = 0;
		char *buf = malloc(bs);
		int in = open(argv[2], O_RDONLY);
		int out = open(argv[4], O_WRONLY | O_CREAT | O_TRUNC, 0600);
		long long t0 = now_ns();
		ssize_t n;

		if (in < 0 || out < 0 || !buf)
			return report(-1);
		while ((n = read(in, buf, bs)) > 0) {
			if (write(out, buf, n) != n)
				return report(-1);
			total += n;
		}
		if (n < 0)
			return report(-1);
		printf("%zu %lld\n", total, now_ns() - t0);
		return 0;
	}
	if (!strcmp(cmd, "slowread") && argc == 7) {
		size_t bs = atol(argv[3]), total = 0;
		char *buf = malloc(bs);
		int in = open(argv[2], O_RDONLY);
		int out = open(argv[4], O_WRONLY | O_CREAT | O_TRUNC, 0600);
		ssize_t n;

		if (in < 0 || out < 0 || !buf)
			return report(-1);
		while ((n = read(in, buf, bs)) > 0) {
			if (write(out, buf, n) != n)
				return report(-1);
			if (!total)
				close(open(argv[5], O_WRONLY | O_CREAT, 0600));
			total += n;
			usleep(atoi(argv[6]));
		}
		if (n < 0)
			return report(-1);
		printf("complete %zu\n", total);
		return 0;
	}
	if (!strcmp(cmd, "pread") && argc == 5) {
		size_t len = atol(argv[4]);
		char *buf = malloc(len ? len : 1);
		int fd = open(argv[2], O_RDONLY);

		if (fd < 0)
			return report(-1);
		return report(pread(fd, buf, len, atoll(argv[3])));
	}
	if (!strcmp(cmd, "write") && argc == 4)
		return do_write(argv[2], argv[3], strlen(argv[3]));
	if (!strcmp(cmd, "writeempty") && argc == 3)
		return do_write(argv[2], "", 0);
	if (!strcmp(cmd, "writefill") && argc == 5) {
		size_t n = atol(argv[4]);
		char *buf = malloc(n);

		memset(buf, argv[3][0], n);
		return do_write(argv[2], buf, n);
	}
	if (!strcmp(cmd, "runas") && argc >= 4) {
		uid_t id = atoi(argv[2]);

		if (setgroups(0, NULL) || setgid(id) || setuid(id))
			return report(-1);
		execvp(argv[3], argv + 3);
		return report(-1);
	}
	fprintf(stderr, "usage: see the comment at the top of pgotest.c\n");
	return 2;
}
