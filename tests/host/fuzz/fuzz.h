/* SPDX-License-Identifier: GPL-2.0 */
/* The fuzz harness's own declarations (fuzz.c, retain-host.c). */
#ifndef _FUZZ_H
#define _FUZZ_H

#include <stdbool.h>

struct pgo_object;

/* A broken invariant: say which, and abort (libFuzzer keeps the input). */
void fz_fail(const char *file, int line, const char *cond, const char *fmt,
	     ...) __attribute__((noreturn, format(printf, 4, 5)));
#define FZ_ASSERT(cond, ...)						\
	do {								\
		if (!(cond))						\
			fz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
	} while (0)

/* retain-host.c: kernel/pgo/retain.c's logic. */
void fz_retain_init(void);
void fz_retain_setup(unsigned int kb, int add_fails);
struct pgo_object *fz_retained_sum(const struct pgo_object *a,
				   const struct pgo_object *b, void **handle);
void fz_retained_put(void *handle);
bool fz_same_binary(const struct pgo_object *a, const struct pgo_object *b);
void fz_retain(struct pgo_object *obj);
struct pgo_object *fz_retained_find(const char *name);
void fz_retained_discard(const char *name);
unsigned long long fz_retained_id(const char *name);
unsigned long long fz_retained_base(const char *name);
long fz_retained_saved(const char *name, const char *buf);
void fz_reset_everything(void);

#endif
