// SPDX-License-Identifier: GPL-2.0
/*
 * "Binary B" of the differential test: the instrumented program linked with
 * the kernel's own value-profiling runtime and raw-profile writer
 * (kernel/pgo/runtime.c and format.c, built unchanged through tests/host/shim)
 * instead of compiler-rt.
 *
 * The ELF executable plays vmlinux: its __llvm_prf_* sections become
 * pgo_vmlinux, exactly as objects.c builds it from the linker's section
 * bounds.  At exit the profile is serialized with pgo_profile_bound() and
 * pgo_profile_write() into the file named by $PGO_OUT.
 *
 * Build without -fprofile-generate: the runtime must not profile itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgo.h"

/*
 * Section bounds the linker defines, as in objects.c.  The value sections
 * exist only when the program has value sites (never with
 * -fprofile-instr-generate): weak, so that they are NULL then.
 */
extern struct llvm_prf_data __start___llvm_prf_data[], __stop___llvm_prf_data[];
extern char __start___llvm_prf_cnts[], __stop___llvm_prf_cnts[];
extern const char __start___llvm_prf_names[], __stop___llvm_prf_names[];
extern struct llvm_prf_value_node *__start___llvm_prf_vals[],
	*__stop___llvm_prf_vals[];
extern struct llvm_prf_value_node __start___llvm_prf_vnds[],
	__stop___llvm_prf_vnds[];
#pragma weak __start___llvm_prf_data
#pragma weak __stop___llvm_prf_data
#pragma weak __start___llvm_prf_cnts
#pragma weak __stop___llvm_prf_cnts
#pragma weak __start___llvm_prf_names
#pragma weak __stop___llvm_prf_names
#pragma weak __start___llvm_prf_vals
#pragma weak __stop___llvm_prf_vals
#pragma weak __start___llvm_prf_vnds
#pragma weak __stop___llvm_prf_vnds

/* Defined by IR-instrumented objects; absent with -fprofile-instr-generate. */
extern const u64 __llvm_profile_raw_version;
#pragma weak __llvm_profile_raw_version

/* WARN_ON*() in the shim counts here. */
int shim_warnings;

struct pgo_object pgo_vmlinux = {
	.name		= "vmlinux",
	.data		= __start___llvm_prf_data,
	.data_end	= __stop___llvm_prf_data,
	.cnts		= __start___llvm_prf_cnts,
	.cnts_end	= __stop___llvm_prf_cnts,
	.names		= __start___llvm_prf_names,
	.names_end	= __stop___llvm_prf_names,
	.vals		= __start___llvm_prf_vals,
	.vals_end	= __stop___llvm_prf_vals,
	.vnds		= __start___llvm_prf_vnds,
	.vnds_end	= __stop___llvm_prf_vnds,
	.list		= LIST_HEAD_INIT(pgo_vmlinux.list),
};

/* There are no modules here: vmlinux or nothing. */
struct pgo_object *pgo_object_of(const struct llvm_prf_data *rec)
{
	if (pgo_object_contains(&pgo_vmlinux, rec))
		return &pgo_vmlinux;
	return NULL;
}

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
 * Before main(): what pgo_vmlinux_init() does.  Counters are not touched
 * before main() (no instrumented constructors), so the check may run here.
 */
__attribute__((constructor)) static void harness_init(void)
{
	struct pgo_object *obj = &pgo_vmlinux;

	obj->version = &__llvm_profile_raw_version ?
		       __llvm_profile_raw_version : INSTR_PROF_RAW_VERSION;
	if (!getenv("PGO_OUT"))
		harness_die("PGO_OUT is not set");
	if (obj->data == obj->data_end)
		harness_die("no __llvm_prf_data section: is the program instrumented?");
	if (pgo_object_check(obj))
		harness_die("pgo_object_check() rejected the executable's sections");
	/*
	 * PGO_TEXT=1: write code addresses relative to the program's code,
	 * as the kernel does for vmlinux (from _text) and modules.
	 */
	if (getenv("PGO_TEXT")) {
		const struct llvm_prf_data *rec;
		u64 lo = U64_MAX, hi = 0;

		for (rec = obj->data; rec < obj->data_end; rec++) {
			if (!rec->FunctionPointer)
				continue;
			lo = rec->FunctionPointer < lo ? rec->FunctionPointer : lo;
			hi = rec->FunctionPointer > hi ? rec->FunctionPointer : hi;
		}
		if (lo > hi)
			harness_die("PGO_TEXT: no record has a function address");
		obj->text[0].start = lo;
		obj->text[0].size = hi - lo + 1;
		obj->text[0].base = PGO_TEXT_BASE;
		obj->nr_text = 1;
	}
}

/* After main() returned or exit() was called: serialize, as sysfs.c does. */
__attribute__((destructor)) static void harness_write(void)
{
	struct pgo_object *obj = &pgo_vmlinux;
	const char *path = getenv("PGO_OUT");
	unsigned int limit;
	size_t bound, len;
	long dropped;
	char *buf;
	FILE *f;

	bound = pgo_profile_bound(obj, &limit);
	/* Poison, so that bytes the writer forgets to fill show up. */
	buf = malloc(bound + 64);
	if (!buf)
		harness_die("out of memory");
	memset(buf, 0xa5, bound + 64);
	len = pgo_profile_write(obj, buf, bound, limit);
	if (!len || len > bound)
		harness_die("pgo_profile_write() returned a bad length");
	if (len % 8)
		harness_die("profile length is not a multiple of 8");
	for (size_t i = bound; i < bound + 64; i++)
		if ((unsigned char)buf[i] != 0xa5)
			harness_die("pgo_profile_write() wrote past its bound");
	if (shim_warnings)
		harness_die("a WARN_ON fired in kernel/pgo code");

	dropped = atomic_long_read(&obj->values_dropped);
	fprintf(stderr,
		"harness: raw version %llu, %zu records, %u/%u value nodes, %ld values dropped, %zu bytes (bound %zu)\n",
		(unsigned long long)(obj->version & 0xffffffffULL),
		(size_t)(obj->data_end - obj->data), pgo_nodes_in_use(obj),
		(unsigned int)(obj->vnds_end - obj->vnds), dropped, len, bound);

	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		harness_die("cannot write $PGO_OUT");
	free(buf);
}
