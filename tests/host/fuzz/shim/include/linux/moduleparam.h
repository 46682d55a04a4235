/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim of <linux/moduleparam.h>: a parameter is a struct the harness
 * can call the ops of (__param_<name>).
 */
#ifndef _FUZZ_SHIM_LINUX_MODULEPARAM_H
#define _FUZZ_SHIM_LINUX_MODULEPARAM_H

#define MODULE_PARAM_PREFIX ""

struct kernel_param;

struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
};

struct kernel_param {
	const struct kernel_param_ops *ops;
	void *arg;
};

int param_set_uint(const char *val, const struct kernel_param *kp);
int param_get_uint(char *buffer, const struct kernel_param *kp);

#define module_param_cb(name, _ops, _arg, perm)				\
	static const struct kernel_param __param_##name = {		\
		.ops = (_ops), .arg = (_arg) }
#define MODULE_PARM_DESC(name, desc)					\
	static const char __parm_desc_##name[] __attribute__((unused)) = desc

#endif
