/* SPDX-License-Identifier: GPL-2.0 */
/* Shim: what kernel/pgo needs of <linux/buildid.h>. */
#ifndef _SHIM_LINUX_BUILDID_H
#define _SHIM_LINUX_BUILDID_H
#define BUILD_ID_SIZE_MAX 20
#endif
