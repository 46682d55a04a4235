// SPDX-License-Identifier: GPL-2.0
/*
 * pgobench: kernel-heavy workloads for the PGO cycle; each prints
 * "<name> <ns>" with CLOCK_MONOTONIC, which under QEMU -icount shift=0
 * counts executed instructions.  With -r R the workload runs R times and
 * the median is printed (every sample goes to stderr as "# <name> <ns>..."):
 * a single run of a few milliseconds can catch deferred work of an earlier
 * workload (RCU callbacks, freeing the exited processes of hackbench),
 * which once made getppid 11% dearer on one kernel and not on another.
 *
 *   pgobench [-r R] WORKLOAD ARGS
 *   pgobench getppid N       N getppid() system calls
 *   pgobench pipe N          N one-byte round trips between two processes
 *   pgobench files N         N create/fstat/stat/unlink of a file in /tmp
 *   pgobench hackbench G L   G groups of 4 senders x 4 receivers, L
 *                            100-byte messages from each sender to each
 *                            receiver over pipes (hackbench -p style)
 *   pgobench procread N      N open/read/close of /proc/self/stat
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void do_pipe(long n)
{
	int a[2], b[2];
	char c = 'x';
	long i;

	if (pipe(a) || pipe(b))
		die("pipe");
	if (!fork()) {
		for (i = 0; i < n; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				die("child");
		exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			die("parent");
	wait(NULL);
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
}

static void do_files(long n)
{
	struct stat st;
	long i;

	for (i = 0; i < n; i++) {
		int fd = open("/tmp/pgobench.file", O_CREAT | O_RDWR | O_TRUNC, 0600);

		if (fd < 0 || fstat(fd, &st) || write(fd, "x", 1) != 1)
			die("create");
		close(fd);
		if (stat("/tmp/pgobench.file", &st) || unlink("/tmp/pgobench.file"))
			die("stat/unlink");
	}
}

#define NR_PEERS 4

static void do_hackbench(int groups, int loops)
{
	int g, s, r, l, nproc = 0;
	char msg[100];

	memset(msg, 'm', sizeof(msg));
	for (g = 0; g < groups; g++) {
		int fds[NR_PEERS][2];

		for (r = 0; r < NR_PEERS; r++) {
			if (pipe(fds[r]))
				die("pipe");
			if (!fork()) {
				char buf[100];
				long want = (long)NR_PEERS * loops * sizeof(buf);

				for (s = 0; s < NR_PEERS; s++)
					close(fds[r][1]);
				while (want > 0) {
					ssize_t got = read(fds[r][0], buf, sizeof(buf));

					if (got <= 0)
						die("receiver");
					want -= got;
				}
				exit(0);
			}
			nproc++;
		}
		for (s = 0; s < NR_PEERS; s++) {
			if (!fork()) {
				for (l = 0; l < loops; l++)
					for (r = 0; r < NR_PEERS; r++)
						if (write(fds[r][1], msg, sizeof(msg)) !=
						    sizeof(msg))
							die("sender");
				exit(0);
			}
			nproc++;
		}
		for (r = 0; r < NR_PEERS; r++) {
			close(fds[r][0]);
			close(fds[r][1]);
		}
	}
	while (nproc--)
		wait(NULL);
}

static void do_procread(long n)
{
	char buf[512];
	long i;

	for (i = 0; i < n; i++) {
		int fd = open("/proc/self/stat", O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0)
			die("procread");
		close(fd);
	}
}

/* One run of the workload argv[0] (with its arguments); ns, or -1 on usage. */
static long long run_once(int argc, char **argv)
{
	const char *cmd = argv[0];
	long n = argc > 1 ? atol(argv[1]) : 0, i;
	long long t0 = now_ns();

	if (!strcmp(cmd, "getppid") && argc == 2) {
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (!strcmp(cmd, "pipe") && argc == 2) {
		do_pipe(n);
	} else if (!strcmp(cmd, "files") && argc == 2) {
		do_files(n);
	} else if (!strcmp(cmd, "hackbench") && argc == 3) {
		do_hackbench(n, atoi(argv[2]));
	} else if (!strcmp(cmd, "procread") && argc == 2) {
		do_procread(n);
	} else {
		return -1;
	}
	return now_ns() - t0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

#define MAX_REPEAT 99

int main(int argc, char **argv)
{
	long long ns[MAX_REPEAT];
	int r, reps = 1;

	if (argc > 2 && !strcmp(argv[1], "-r")) {
		reps = atoi(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc < 2 || reps < 1 || reps > MAX_REPEAT)
		goto usage;
	for (r = 0; r < reps; r++) {
		ns[r] = run_once(argc - 1, argv + 1);
		if (ns[r] < 0)
			goto usage;
	}
	if (reps > 1) {
		fprintf(stderr, "# %s", argv[1]);
		for (r = 0; r < reps; r++)
			fprintf(stderr, " %lld", ns[r]);
		fprintf(stderr, "\n");
	}
	qsort(ns, reps, sizeof(ns[0]), cmp_ll);
	printf("%s %lld\n", argv[1], ns[(reps - 1) / 2]);
	return 0;
usage:
	fprintf(stderr, "usage: see the comment at the top of pgobench.c\n");
	return 2;
}
