/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/string.h>: the C library's. */
#ifndef _SHIM_LINUX_STRING_H
#define _SHIM_LINUX_STRING_H

#include <string.h>

#endif
