/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/processor.h>: nothing kernel/pgo uses. */
#ifndef _SHIM_LINUX_PROCESSOR_H
#define _SHIM_LINUX_PROCESSOR_H
#endif
