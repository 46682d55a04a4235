// SPDX-License-Identifier: GPL-2.0
/*
 * "Binary B" of the differential test: the instrumented program linked with
 * the kernel's own value-profiling runtime and raw-profile writer
 * (kernel/pgo/runtime.c and format.c, built unchanged through tests/host/shim)
 * instead of compiler-rt.
 *
 * The ELF executable plays vmlinux: its __llvm_prf_* sections become
 * pgo_vmlinux, defined and set up by kernel/pgo/vmlinux.c, registered in
 * kernel/pgo/objects.c (both linked in unchanged, through the shim).  At exit the profile is serialized as sysfs.c serves it: the fixed
 * part with pgo_fixed_read() (in one piece, and again in pieces of every
 * size from 1 to 97 bytes, which must agree), then the value blocks with
 * pgo_values_bound() and pgo_values_write(), into the file named by $PGO_OUT.
 *
 * Build without -fprofile-generate: the runtime must not profile itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgo.h"

/* WARN_ON*() in the shim counts here. */
int shim_warnings;

/* prog.c's reset hook (built with -DPROG_RESET): what writing "reset" does. */
void prog_reset(void);
void prog_reset(void)
{
	pgo_object_reset(&pgo_vmlinux);
}

static void __attribute__((noreturn)) harness_die(const char *why)
{
	fprintf(stderr, "harness: FATAL: %s\n", why);
	_exit(99);
}

/*
 * Undo pgo_object_hide_code(): the records' function addresses back to
 * where the code is, and no ranges, so that targets are written as they
 * are too.
 */
static void harness_unhide_code(struct pgo_object *obj)
{
	const struct pgo_text *t = &obj->text[0];
	struct llvm_prf_data *rec;

	for (rec = obj->data; rec < obj->data_end; rec++)
		if (rec->function_pointer)
			pgo_rec_set(rec, function_pointer,
				    rec->function_pointer - t->base + t->start);
	obj->nr_text = 0;
}

/*
 * Before main(): what the kernel does at boot (root.c's pgo_init()).
 * Counters are not touched before main() (no instrumented constructors),
 * so the value lists must still be empty, as a module's are when it comes.
 */
__attribute__((constructor)) static void harness_init(void)
{
	struct pgo_object *obj = &pgo_vmlinux;

	if (!getenv("PGO_OUT"))
		harness_die("PGO_OUT is not set");
	if (obj->data == obj->data_end &&
	    (!obj->correlated || obj->cnts == obj->cnts_end))
		harness_die("no __llvm_prf_data section: is the program instrumented?");
	if (pgo_vmlinux_setup() || pgo_object_check(obj, true))
		harness_die("pgo_object_check() rejected the executable's sections");
	/*
	 * vmlinux writes code addresses relative to _text (prog.ld puts it
	 * at the start of the program's code).  Unless PGO_TEXT=1, write
	 * them as they are, as compiler-rt does, for byte comparisons.
	 */
	if (!getenv("PGO_TEXT"))
		harness_unhide_code(obj);
}

/*
 * The fixed part read in pieces of @step bytes must be @whole: offsets
 * inside a header, record or counter are served as well as whole ones.
 */
static void harness_read_in_pieces(const struct pgo_object *obj,
				   const char *whole, size_t fixed, size_t step)
{
	char *piece = malloc(step);
	size_t off, n;

	if (!piece)
		harness_die("out of memory");
	for (off = 0; off < fixed; off += n) {
		n = fixed - off < step ? fixed - off : step;
		memset(piece, 0x5a, step);
		pgo_fixed_read(obj, piece, off, n);
		if (memcmp(piece, whole + off, n))
			harness_die("pgo_fixed_read() in pieces differs from one read");
	}
	free(piece);
}

/* After main() returned or exit() was called: serialize, as sysfs.c does. */
__attribute__((destructor)) static void harness_write(void)
{
	struct pgo_object *obj = &pgo_vmlinux;
	const char *path = getenv("PGO_OUT");
	size_t fixed, bound, len, step;
	unsigned int limit;
	long dropped;
	char *buf;
	FILE *f;

	fixed = pgo_fixed_size(obj);
	bound = pgo_values_bound(obj, pgo_values_base(obj), &limit);
	/* Poison, so that bytes the writer forgets to fill show up. */
	buf = malloc(fixed + bound + 64);
	if (!buf)
		harness_die("out of memory");
	memset(buf, 0xa5, fixed + bound + 64);
	pgo_fixed_read(obj, buf, 0, fixed);
	len = pgo_values_write(obj, buf + fixed, bound, limit);
	if (len > bound)
		harness_die("pgo_values_write() returned a bad length");
	len += fixed;
	if (len % 8)
		harness_die("profile length is not a multiple of 8");
	for (size_t i = fixed + bound; i < fixed + bound + 64; i++)
		if ((unsigned char)buf[i] != 0xa5)
			harness_die("pgo_values_write() wrote past its bound");
	for (step = 1; step < 98; step++)
		harness_read_in_pieces(obj, buf, fixed, step);
	if (shim_warnings)
		harness_die("a WARN_ON fired in kernel/pgo code");

	dropped = atomic_long_read(&obj->values_dropped);
	fprintf(stderr,
		"harness: raw version %llu, %zu records, %u/%u value nodes, %ld values dropped, %zu bytes (bound %zu)\n",
		(unsigned long long)(obj->version & 0xffffffffULL),
		(size_t)(obj->data_end - obj->data), pgo_nodes_in_use(obj),
		(unsigned int)(obj->vnds_end - obj->vnds), dropped, len,
		fixed + bound);

	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		harness_die("cannot write $PGO_OUT");
	free(buf);
}
