/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/stddef.h>: offsetof() is the C library's. */
#ifndef _SHIM_LINUX_STDDEF_H
#define _SHIM_LINUX_STDDEF_H

#include <stddef.h>

#endif
