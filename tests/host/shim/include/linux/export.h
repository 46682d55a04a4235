/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/export.h>: exports are redeclarations. */
#ifndef _SHIM_LINUX_EXPORT_H
#define _SHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)	extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym)	extern __typeof__(sym) sym

#endif
