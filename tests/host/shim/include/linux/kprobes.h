/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/kprobes.h>: no kprobes to refuse. */
#ifndef _SHIM_LINUX_KPROBES_H
#define _SHIM_LINUX_KPROBES_H

#define NOKPROBE_SYMBOL(fname)

#endif
