/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/preempt.h>: no preemption to hold off. */
#ifndef _SHIM_LINUX_PREEMPT_H
#define _SHIM_LINUX_PREEMPT_H

#include <linux/compiler.h>

#define preempt_disable()		barrier()
#define preempt_enable()		barrier()
#define preempt_disable_notrace()	barrier()
#define preempt_enable_notrace()	barrier()

#endif
