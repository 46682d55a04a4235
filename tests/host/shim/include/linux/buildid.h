/* SPDX-License-Identifier: GPL-2.0 */
/* Shim: what kernel/pgo needs of <linux/buildid.h>; no notes to parse. */
#ifndef _SHIM_LINUX_BUILDID_H
#define _SHIM_LINUX_BUILDID_H

#include <errno.h>

#define BUILD_ID_SIZE_MAX 20

static inline int build_id_parse_buf(const void *buf, unsigned char *build_id,
				     unsigned int buf_size)
{
	(void)buf;
	(void)build_id;
	(void)buf_size;
	return -EINVAL;
}

#endif
