/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clang PGO: the profiled object, and the API of the layers that know
 * nothing of how it is served, each using only those before it: its
 * layout and record helpers (here), the raw-format writer and the check
 * of an object's sections (format.c), vmlinux's object (vmlinux.c), the
 * registry (objects.c) and the runtime (runtime.c).  The interfaces on
 * top are declared in files.h.
 *
 * vmlinux and every instrumented module are each one struct pgo_object.
 * Nothing but vmlinux.c, module.c and retain.c knows which kind it is.
 */
#ifndef _KERNEL_PGO_PGO_H
#define _KERNEL_PGO_PGO_H

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/buildid.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#include "instrprof.h"

/* A module has its core and its init text; vmlinux one range. */
#define PGO_MAX_TEXT	2

/*
 * What the first byte of an object's code is written as in its profile:
 * not 0, which LLVM's reader takes for "no address".
 */
#define PGO_TEXT_BASE	0x1000UL

/**
 * struct pgo_text - a range of an object's code and how it is written
 * @start: its first address in memory
 * @size: its size in bytes
 * @base: what @start is written as in the profile
 * @transient: freed while the object lives (a module's init text): its
 *	addresses name the object's functions in records, but a call target
 *	there may be another object's code that took the memory over
 */
struct pgo_text {
	unsigned long start;
	unsigned long size;
	unsigned long base;
	bool transient;
};

/**
 * struct pgo_object - the profile sections of vmlinux or of one module
 * @name: "vmlinux" or the module's name; used in file and log names
 * @data: first per-function record (__llvm_prf_data)
 * @data_end: end of the records
 * @cnts: first counter (__llvm_prf_cnts)
 * @cnts_end: end of the counters
 * @bits: MC/DC test vector bitmaps, bytes (__llvm_prf_bits, -fcoverage-mcdc)
 * @bits_end: end of the bitmaps
 * @names: function names, possibly compressed (__llvm_prf_names)
 * @names_end: end of the names
 * @vals: per-site value list heads of every record (__llvm_prf_vals)
 * @vals_end: end of the list heads
 * @vnds: this object's own value node pool (__llvm_prf_vnds)
 * @vnds_end: end of the pool
 * @vnds_used: nodes handed out so far; may run past the end once exhausted
 * @values_dropped: values not recorded because @vnds was exhausted
 * @resets: resets so far (pgo_object_reset(), pgo_object_generation())
 * @version: raw version word with the variant flags the compiler emitted
 * @correlated: records and names stay in the binary, not loaded
 *	(CONFIG_PGO_CLANG_CORRELATE): the object has counters and bitmaps
 *	only, and its profile is read with the binary (llvm-profdata
 *	--binary-file)
 * @build_id: GNU build id of the binary, written as the profile's binary id
 * @build_id_len: its length, 0 if unknown
 * @text: where the object's code is, to write addresses relative to it
 * @nr_text: entries used in @text; 0: addresses are written as they are
 * @list: entry in the RCU list of module objects (objects.c)
 *
 * The sections are fixed while the object exists.  Counters and value nodes
 * change under the reader's feet; the writer copes (see format.c).  The
 * object knows nothing of the files that serve it (struct pgo_files).
 */
struct pgo_object {
	const char *name;
	struct llvm_prf_data *data;
	struct llvm_prf_data *data_end;
	char *cnts;
	char *cnts_end;
	char *bits;
	char *bits_end;
	const char *names;
	const char *names_end;
	struct llvm_prf_value_node **vals;
	struct llvm_prf_value_node **vals_end;
	struct llvm_prf_value_node *vnds;
	struct llvm_prf_value_node *vnds_end;
	atomic_t vnds_used;
	atomic_long_t values_dropped;
	atomic_long_t resets;
	u64 version;
	bool correlated;
	u8 build_id[BUILD_ID_SIZE_MAX];
	unsigned int build_id_len;
	struct pgo_text text[PGO_MAX_TEXT];
	unsigned int nr_text;
	struct list_head list;
};

/* vmlinux's profile sections, bounded in vmlinux.lds.h. */
extern struct llvm_prf_data __start___llvm_prf_data[], __stop___llvm_prf_data[];
extern char __start___llvm_prf_cnts[], __stop___llvm_prf_cnts[];
extern char __start___llvm_prf_bits[], __stop___llvm_prf_bits[];
extern const char __start___llvm_prf_names[], __stop___llvm_prf_names[];
extern struct llvm_prf_value_node *__start___llvm_prf_vals[],
	*__stop___llvm_prf_vals[];
extern struct llvm_prf_value_node __start___llvm_prf_vnds[],
	__stop___llvm_prf_vnds[];

extern const char __start_notes[], __stop_notes[];
/* Defined by IR-instrumented objects; absent with -fprofile-instr-generate. */
extern const u64 __llvm_profile_raw_version __weak;

/* Entry points the compiler's instrumentation calls (runtime.c). */
void __llvm_profile_instrument_target(u64 target_value, void *data,
				      u32 counter_index);
void __llvm_profile_instrument_memop(u64 target_value, void *data,
				     u32 counter_index);

/* format.c */
size_t pgo_fixed_size(const struct pgo_object *obj);
void pgo_fixed_read(const struct pgo_object *obj, void *buf, size_t off,
		    size_t len);
size_t pgo_values_base(const struct pgo_object *obj);
size_t pgo_values_bound(const struct pgo_object *obj, size_t base,
			unsigned int *limit);
size_t pgo_values_write(const struct pgo_object *obj, void *buf, size_t size,
			unsigned int limit);
int pgo_object_check(const struct pgo_object *obj, bool unused);
void pgo_object_hide_code(struct pgo_object *obj);
unsigned int pgo_nr_sites(const struct llvm_prf_data *rec);
char *pgo_rec_counters(const struct llvm_prf_data *rec);
char *pgo_rec_bitmap(const struct llvm_prf_data *rec);
void pgo_rec_relocate(struct llvm_prf_data *rec, char *cnts, char *bits,
		      void *vals);
size_t pgo_counter_size(const struct pgo_object *obj);

/* vmlinux.c */
extern struct pgo_object pgo_vmlinux;
u64 pgo_raw_version(void);
int pgo_vmlinux_setup(void);

/* objects.c */
struct pgo_object *pgo_object_of(const struct llvm_prf_data *rec);
void pgo_object_reset(struct pgo_object *obj);
unsigned long pgo_object_generation(const struct pgo_object *obj);
void pgo_object_add(struct pgo_object *obj);
void pgo_object_del(struct pgo_object *obj);
void pgo_objects_reset(void);

/**
 * pgo_object_reset_since() - whether an object was reset since a generation
 * @obj: the object
 * @gen: what pgo_object_generation() returned before reading
 *
 * A reader that gets false after reading some of @obj's counters, bitmaps
 * or values read none of them from before a reset and another from after.
 *
 * Return: true if a reset of @obj began since @gen was taken.
 */
static inline bool pgo_object_reset_since(const struct pgo_object *obj,
					  unsigned long gen)
{
	/* Pairs with the barrier after the increment in pgo_object_reset(). */
	smp_rmb();
	return atomic_long_read(&obj->resets) != gen;
}

/**
 * pgo_rec_bitmap_bytes() - size of a record's MC/DC bitmap
 * @rec: the record
 *
 * Return: its num_bitmap_bytes; 0 before raw version 9, which has none.
 */
static inline u32 pgo_rec_bitmap_bytes(const struct llvm_prf_data *rec)
{
#if PGO_HAS_BITMAP
	return rec->num_bitmap_bytes;
#else
	return 0;
#endif
}

/**
 * pgo_object_contains() - whether a record belongs to an object
 * @obj: the object
 * @rec: a per-function record, as passed to the runtime by the compiler
 *
 * Return: true if @rec lies in @obj's __llvm_prf_data section.
 */
static __always_inline bool pgo_object_contains(const struct pgo_object *obj,
						const struct llvm_prf_data *rec)
{
	return rec >= obj->data && rec < obj->data_end;
}

static inline u64 __pgo_object_addr(const struct pgo_object *obj, u64 addr,
				    bool target)
{
	unsigned int i;

	if (!obj->nr_text)
		return addr;
	for (i = 0; i < obj->nr_text; i++)
		if (addr - obj->text[i].start < obj->text[i].size &&
		    !(target && obj->text[i].transient))
			return addr - obj->text[i].start + obj->text[i].base;
	return 0;
}

/**
 * pgo_object_addr() - a function's address as an object's profile writes it
 * @obj: the object
 * @addr: the address of one of @obj's functions, in memory
 *
 * Profiles must not reveal where the kernel or a module is loaded, and
 * llvm-profdata only needs the records' function addresses and the
 * indirect-call targets of one file to agree: write each relative to the
 * range of @obj's code it lies in.  An object without ranges (a retained
 * copy) holds its addresses written that way already.
 *
 * Return: the address to write, 0 for an address outside @obj's code.
 */
static inline u64 pgo_object_addr(const struct pgo_object *obj, u64 addr)
{
	return __pgo_object_addr(obj, addr, false);
}

/**
 * pgo_object_target() - an indirect-call target as an object's profile writes it
 * @obj: the object whose code made the call
 * @addr: the address called
 *
 * As pgo_object_addr(), but a target outside @obj's code, or in code of it
 * that is freed while it lives, can name no function of its file (LLVM
 * would drop it, or credit the wrong function): write 0.
 *
 * Return: the address to write.
 */
static inline u64 pgo_object_target(const struct pgo_object *obj, u64 addr)
{
	return __pgo_object_addr(obj, addr, true);
}

/**
 * pgo_value_is_addr() - whether values of a kind are code addresses
 * @kind: an IPVK_* value kind
 *
 * Return: false for memory intrinsic sizes, true for the other kinds
 * (indirect-call and vtable targets).
 */
static inline bool pgo_value_is_addr(unsigned int kind)
{
	return kind != PGO_VK_MEMOP_SIZE;
}

/**
 * pgo_pool_size() - number of value nodes in an object's pool
 * @obj: the object
 *
 * A linked pool may hold padding between the node arrays of its object
 * files: count whole nodes of its bytes.
 *
 * Return: the number of nodes that fit in @obj's __llvm_prf_vnds.
 */
static __always_inline unsigned int pgo_pool_size(const struct pgo_object *obj)
{
	return ((const void *)obj->vnds_end - (const void *)obj->vnds) /
	       sizeof(*obj->vnds);
}

/**
 * pgo_nodes_in_use() - number of value nodes of an object's pool in use
 * @obj: the object
 *
 * Return: the nodes handed out so far, at most the pool size.
 */
static inline unsigned int pgo_nodes_in_use(const struct pgo_object *obj)
{
	unsigned int used = atomic_read(&obj->vnds_used);

	return min(used, pgo_pool_size(obj));
}

/*
 * The longest value list a site's walk follows: a site's values are
 * written with an 8-bit count.  The runtime keeps at most 24 per site.
 */
#define PGO_MAX_SITE_NODES	U8_MAX

/**
 * pgo_pool_node() - a value node pointer, if it is one of an object's pool
 * @obj: the object
 * @ptr: a list head or a node's next, as read from memory
 *
 * Lists are walked by the writer and by retention while other CPUs append
 * to them; a pointer that is not a node of @obj's pool is never followed.
 *
 * Return: @ptr, or NULL if it is not a whole node of @obj's pool.
 */
static __always_inline struct llvm_prf_value_node *
pgo_pool_node(const struct pgo_object *obj,
	      const struct llvm_prf_value_node *ptr)
{
	unsigned long off = (unsigned long)ptr - (unsigned long)obj->vnds;
	unsigned long end = (unsigned long)obj->vnds_end - (unsigned long)obj->vnds;

	/* A whole node inside the pool; NULL fails at the second test. */
	if (end < sizeof(*ptr) || off > end - sizeof(*ptr) ||
	    off % sizeof(*ptr))
		return NULL;
	return (struct llvm_prf_value_node *)ptr;
}

/**
 * pgo_for_each_node() - walk one value site's list
 * @obj: the object whose pool the nodes must be in
 * @node: the cursor, a struct llvm_prf_value_node *
 * @head: the site's list head
 * @steps: an unsigned int counting the nodes walked
 *
 * Follows only nodes of @obj's pool (pgo_pool_node()), at most
 * %PGO_MAX_SITE_NODES of them, so it ends whatever the lists hold.
 */
#define pgo_for_each_node(obj, node, head, steps)				\
	for ((steps) = 0, (node) = pgo_pool_node(obj, READ_ONCE(head));	\
	     (node) && (steps) < PGO_MAX_SITE_NODES;				\
	     (steps)++, (node) = pgo_pool_node(obj, READ_ONCE((node)->next)))

/**
 * pgo_rec_get() - a 64-bit field of a record
 * @rec: the record; any address, aligned or not (a file's bytes)
 * @field: counter_ptr, bitmap_ptr (version 9 on), uniform_counter_ptr (11 on),
 *	function_pointer or values
 *
 * Return: the field's value.
 */
#define pgo_rec_get(rec, field)							\
	({									\
		u64 __v;							\
										\
		BUILD_BUG_ON(sizeof(((struct llvm_prf_data *)0)->field) !=	\
			     sizeof(__v));					\
		memcpy(&__v, (const void *)(rec) +				\
		       offsetof(struct llvm_prf_data, field), sizeof(__v));	\
		__v;								\
	})

/**
 * pgo_rec_set() - set a 64-bit field of a record
 * @rec: the record; any address, aligned or not (a file's bytes)
 * @field: counter_ptr, bitmap_ptr (version 9 on), uniform_counter_ptr (11 on),
 *	function_pointer or values
 * @val: the value
 *
 * The record's fields are const: write through memcpy().
 */
#define pgo_rec_set(rec, field, val)						\
	do {									\
		u64 __v = (val);						\
										\
		BUILD_BUG_ON(sizeof(((struct llvm_prf_data *)0)->field) !=	\
			     sizeof(__v));					\
		memcpy((void *)(rec) + offsetof(struct llvm_prf_data, field),	\
		       &__v, sizeof(__v));					\
	} while (0)

#endif /* _KERNEL_PGO_PGO_H */
