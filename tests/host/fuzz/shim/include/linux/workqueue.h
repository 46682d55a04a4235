/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim of <linux/workqueue.h>: the type struct pgo_files embeds. */
#ifndef _FUZZ_SHIM_LINUX_WORKQUEUE_H
#define _FUZZ_SHIM_LINUX_WORKQUEUE_H

struct delayed_work {
	int pending;
};

#endif
