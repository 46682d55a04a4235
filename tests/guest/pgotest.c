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
 *   rawcheck FILE...              check each file's LLVM raw profile layout
 *                                 (versions 7, 8, 10): prints "ok FILE
 *                                 <records> <bytes>" or "bad FILE <why>";
 *                                 exits 1 if any is bad
 *   seekops PATH OUT OP...        one open file, OPs in order: r:N (read N
 *                                 bytes), rall:BS (read to EOF), s:OFF:W
 *                                 (lseek, W one of SET CUR END DATA HOLE);
 *                                 data read at offset X is written at X in
 *                                 OUT; prints "OP=ok N" or "OP=ERRNO" each
 *   multiread PATH N BS PREFIX [USEC]
 *                                 open PATH N times, read all of them BS
 *                                 bytes at a time in turns, into PREFIX.<i>,
 *                                 sleeping USEC after each turn; prints
 *                                 "complete <i> <bytes>" or "<errno> <i>"
 *   evict PATH N                  one open file read to its last byte (a
 *                                 short read), then N other opens read to
 *                                 their end and closed, then the first one
 *                                 read on: prints "eof: ok 0" or the errno
 *   resetread PATH RESET          one open file: pread 4 KiB at 0, write "1"
 *                                 to RESET (unless it is "-"), pread 4 KiB
 *                                 at 4096 and at 8192, then at 0 again;
 *                                 prints "first: ", "second: ", "third: "
 *                                 and "again: " with ok N or the errno name
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <stdint.h>
#include <sys/stat.h>
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

/* ---- rawcheck: the checks LLVM's RawInstrProfReader makes, and a few more */

#define RAW_MAGIC	0xff6c70726f667281ULL
#define BYTE_COVERAGE	(1ULL << 60)

static const char *raw_why;

static int raw_bad(const char *why)
{
	raw_why = why;
	return -1;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t align8(uint64_t x)
{
	return (x + 7) & ~7ULL;
}

/* Returns the number of records, or -1 with raw_why set. */
static long rawcheck_buf(const unsigned char *b, size_t size)
{
	uint64_t ver, h[16], ids, ndata, padb, ncnt, pada, nbm = 0, padbm = 0;
	uint64_t names, cdelta, vkl, nvt = 0, vnames = 0, hdr, recsz, csize;
	uint64_t o_data, o_cnts, o_names, o_vals, i, pos;
	unsigned int nh, nkinds, k;

	if (size < 16 || get64(b) != RAW_MAGIC)
		return raw_bad("no raw profile magic");
	ver = get64(b + 8);
	switch (ver & 0xffffffffULL) {
	case 7:  nh = 10; recsz = 48; nkinds = 2; break;
	case 8:  nh = 11; recsz = 48; nkinds = 2; break;
	case 10: nh = 16; recsz = 64; nkinds = 3; break;
	default: return raw_bad("unknown raw version");
	}
	hdr = nh * 8;
	if (size < hdr)
		return raw_bad("truncated header");
	for (i = 0; i < nh; i++)
		h[i] = get64(b + 8 * i);
	if (nh == 10) {		/* v7: no binary ids */
		ids = 0; ndata = h[2]; padb = h[3]; ncnt = h[4]; pada = h[5];
		names = h[6]; cdelta = h[7]; vkl = h[9];
	} else if (nh == 11) {
		ids = h[2]; ndata = h[3]; padb = h[4]; ncnt = h[5]; pada = h[6];
		names = h[7]; cdelta = h[8]; vkl = h[10];
	} else {
		ids = h[2]; ndata = h[3]; padb = h[4]; ncnt = h[5]; pada = h[6];
		nbm = h[7]; padbm = h[8]; names = h[9]; cdelta = h[10];
		nvt = h[13]; vnames = h[14]; vkl = h[15];
	}
	csize = ver & BYTE_COVERAGE ? 1 : 8;
	if (vkl + 1 != nkinds)
		return raw_bad("unexpected ValueKindLast");
	if (nvt || vnames)
		return raw_bad("vtables present (not written by the kernel)");
	if (ids % 8 || ndata > size || ncnt > size || names > size || nbm > size ||
	    padb > 8 || pada > 8 || padbm > 8)
		return raw_bad("header sizes out of range");
	if (!ndata)
		return raw_bad("no records");
	o_data = hdr + ids;
	o_cnts = o_data + ndata * recsz + padb;
	o_names = o_cnts + ncnt * csize + pada + nbm + padbm;
	o_vals = align8(o_names + names);
	if (o_vals > size)
		return raw_bad("file shorter than its header says");
	/* Binary ids: {u64 length, id padded to 8} entries. */
	for (pos = hdr; pos < o_data; ) {
		uint64_t len;

		if (o_data - pos < 8)
			return raw_bad("truncated binary id");
		len = get64(b + pos);
		if (len > o_data - pos - 8)
			return raw_bad("binary id longer than its section");
		pos += 8 + align8(len);
	}
	if (pos != o_data)
		return raw_bad("binary id section misaligned");
	/* Records: counters inside the counters, as the reader checks. */
	pos = o_vals;
	for (i = 0; i < ndata; i++) {
		const unsigned char *r = b + o_data + i * recsz;
		uint64_t cptr = get64(r + 16), off, nc, sites[3] = { 0 };
		unsigned int nvk = 0;

		nc = get32(r + (recsz == 64 ? 48 : 40));
		for (k = 0; k < nkinds; k++) {
			sites[k] = r[(recsz == 64 ? 52 : 44) + 2 * k] |
				   r[(recsz == 64 ? 53 : 45) + 2 * k] << 8;
			nvk += !!sites[k];
		}
		if (!nc)
			return raw_bad("a record has no counters");
		/* v8+: relative to the record; CountersDelta moves with it. */
		off = nh == 10 ? cptr - cdelta : cptr - (cdelta - i * recsz);
		if (off % csize || off / csize >= ncnt || nc > ncnt - off / csize)
			return raw_bad("a record's counters are out of range");
		if (get64(r + (recsz == 64 ? 40 : 32)))
			return raw_bad("a record has a Values pointer");
		if (!nvk)
			continue;
		/* Its value block: TotalSize, NumValueKinds, then per kind. */
		{
			uint64_t start = pos, total;
			uint32_t kinds;

			if (size - pos < 8)
				return raw_bad("truncated value block");
			total = get32(b + pos);
			kinds = get32(b + pos + 4);
			if (total % 8 || total > size - pos || total < 8)
				return raw_bad("bad value block size");
			if (kinds != nvk)
				return raw_bad("value block kinds disagree with the record");
			pos += 8;
			for (k = 0; k < kinds; k++) {
				uint32_t kind, ns, s;
				uint64_t nvals = 0;

				if (start + total - pos < 8)
					return raw_bad("truncated value record");
				kind = get32(b + pos);
				ns = get32(b + pos + 4);
				if (kind >= nkinds || ns != sites[kind])
					return raw_bad("value record disagrees with the record");
				if (start + total - pos < align8(8 + ns))
					return raw_bad("truncated site counts");
				for (s = 0; s < ns; s++)
					nvals += b[pos + 8 + s];
				pos += align8(8 + ns);
				if (start + total - pos < nvals * 16)
					return raw_bad("truncated values");
				pos += nvals * 16;
			}
			if (pos != start + total)
				return raw_bad("value block size disagrees with its contents");
		}
	}
	if (pos != size)
		return raw_bad("bytes after the last value block");
	return ndata;
}

static int rawcheck(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 0; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		struct stat st;
		unsigned char *b;
		long n = -1;

		raw_why = "cannot read";
		if (fd >= 0 && !fstat(fd, &st) && (b = malloc(st.st_size + 1))) {
			if (read(fd, b, st.st_size) == st.st_size)
				n = rawcheck_buf(b, st.st_size);
			free(b);
		}
		if (fd >= 0)
			close(fd);
		if (n < 0) {
			printf("bad %s %s\n", argv[i], raw_why);
			rc = 1;
		} else {
			printf("ok %s %ld %lld\n", argv[i], n,
			       fd >= 0 ? (long long)st.st_size : 0LL);
		}
	}
	return rc;
}

/* ---- seekops */

static int seekops(const char *path, const char *outp, int nops, char **ops)
{
	int in = open(path, O_RDONLY);
	int out = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	static char buf[1 << 20];
	int i;

	if (in < 0 || out < 0)
		return report(-1);
	for (i = 0; i < nops; i++) {
		const char *op = ops[i];
		long long total = 0;
		ssize_t n;
		off_t pos;

		printf("%s=", op);
		if (!strncmp(op, "r:", 2) || !strncmp(op, "rall:", 5)) {
			int all = op[1] == 'a';
			size_t want = atol(strchr(op, ':') + 1);

			if (want > sizeof(buf))
				want = sizeof(buf);
			do {
				pos = lseek(in, 0, SEEK_CUR);
				n = read(in, buf, want);
				if (n > 0 && pwrite(out, buf, n, pos) != n)
					return report(-1);
				if (n > 0)
					total += n;
			} while (all && n > 0);
			if (n < 0)
				printf("%s\n", strerrorname_np(errno));
			else
				printf("ok %lld\n", total);
		} else if (!strncmp(op, "s:", 2)) {
			long long off = atoll(op + 2);
			const char *w = strchr(op + 2, ':');
			int whence = SEEK_SET;

			w = w ? w + 1 : "SET";
			if (!strcmp(w, "CUR"))
				whence = SEEK_CUR;
			else if (!strcmp(w, "END"))
				whence = SEEK_END;
			else if (!strcmp(w, "DATA"))
				whence = SEEK_DATA;
			else if (!strcmp(w, "HOLE"))
				whence = SEEK_HOLE;
			pos = lseek(in, off, whence);
			if (pos < 0)
				printf("%s\n", strerrorname_np(errno));
			else
				printf("ok %lld\n", (long long)pos);
		} else {
			printf("EBADOP\n");
		}
	}
	close(in);
	close(out);
	return 0;
}

/* ---- multiread: N open files of one path, read in turns */

static int multiread(const char *path, int n, size_t bs, const char *prefix,
		     long usec)
{
	int *in = calloc(n, sizeof(int)), *out = calloc(n, sizeof(int));
	long long *total = calloc(n, sizeof(long long));
	int *done = calloc(n, sizeof(int));
	char *buf = malloc(bs), name[4096];
	int i, left = n;

	if (!in || !out || !total || !done || !buf)
		return report(-1);
	for (i = 0; i < n; i++) {
		in[i] = open(path, O_RDONLY);
		snprintf(name, sizeof(name), "%s.%d", prefix, i);
		out[i] = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (in[i] < 0 || out[i] < 0)
			return report(-1);
	}
	while (left) {
		for (i = 0; i < n; i++) {
			ssize_t r;

			if (done[i])
				continue;
			r = read(in[i], buf, bs);
			if (r > 0) {
				if (write(out[i], buf, r) != r)
					return report(-1);
				total[i] += r;
				continue;
			}
			if (r < 0)
				printf("%s %d\n", strerrorname_np(errno), i);
			else
				printf("complete %d %lld\n", i, total[i]);
			done[i] = 1;
			left--;
		}
		if (usec)
			usleep(usec);
	}
	return 0;
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
	if (!strcmp(cmd, "evict") && argc == 4) {
		static char buf[65536];
		int fd = open(argv[2], O_RDONLY), i, n = atoi(argv[3]);
		ssize_t got;

		if (fd < 0)
			return report(-1);
		do
			got = read(fd, buf, 4096);
		while (got == 4096);
		if (got <= 0) {
			printf("first: ");
			return report(got);
		}
		for (i = 0; i < n; i++) {
			int other = open(argv[2], O_RDONLY);

			while (other >= 0 && read(other, buf, sizeof(buf)) > 0)
				;
			close(other);
		}
		printf("eof: ");
		return report(read(fd, buf, 4096));
	}
	if (!strcmp(cmd, "resetread") && argc == 4) {
		static char buf[4096];
		int fd = open(argv[2], O_RDONLY);
		static const char * const what[] = { "second", "third" };
		int i;

		if (fd < 0)
			return report(-1);
		printf("first: ");
		report(pread(fd, buf, sizeof(buf), 0));
		if (strcmp(argv[3], "-"))
			do_write(argv[3], "1", 1);
		for (i = 0; i < 2; i++) {
			printf("%s: ", what[i]);
			report(pread(fd, buf, sizeof(buf), 4096 * (i + 1)));
		}
		printf("again: ");
		return report(pread(fd, buf, sizeof(buf), 0));
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
	if (!strcmp(cmd, "rawcheck") && argc >= 3)
		return rawcheck(argc - 2, argv + 2);
	if (!strcmp(cmd, "seekops") && argc >= 5)
		return seekops(argv[2], argv[3], argc - 4, argv + 4);
	if (!strcmp(cmd, "multiread") && (argc == 6 || argc == 7))
		return multiread(argv[2], atoi(argv[3]), atol(argv[4]), argv[5],
				 argc == 7 ? atol(argv[6]) : 0);
	fprintf(stderr, "usage: see the comment at the top of pgotest.c\n");
	return 2;
}
