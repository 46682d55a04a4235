/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim of <linux/module.h>: what retain.c uses of it. */
#ifndef _FUZZ_SHIM_LINUX_MODULE_H
#define _FUZZ_SHIM_LINUX_MODULE_H

#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/moduleparam.h>

#define MODULE_NAME_LEN	(64 - sizeof(unsigned long))

#endif
