/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <asm/sections.h> for kernel/pgo/vmlinux.c.  The test
 * program plays vmlinux: tests/host/diff/prog.ld gives it _text, the linker
 * _end; it has no .notes (no build id).  Its value sections exist only when
 * it has value sites (never with -fprofile-instr-generate), its bitmap
 * section only with -fcoverage-mcdc, its records and names not with
 * -profile-correlate=binary (which leaves them in the binary, not loaded):
 * their bounds are weak, NULL then.
 */
#ifndef _SHIM_ASM_SECTIONS_H
#define _SHIM_ASM_SECTIONS_H

extern char _text[], _end[];

#pragma weak __start___llvm_prf_data
#pragma weak __stop___llvm_prf_data
#pragma weak __start___llvm_prf_names
#pragma weak __stop___llvm_prf_names
#pragma weak __start___llvm_prf_vals
#pragma weak __stop___llvm_prf_vals
#pragma weak __start___llvm_prf_vnds
#pragma weak __stop___llvm_prf_vnds
#pragma weak __start___llvm_prf_bits
#pragma weak __stop___llvm_prf_bits
#pragma weak __start_notes
#pragma weak __stop_notes

#endif
