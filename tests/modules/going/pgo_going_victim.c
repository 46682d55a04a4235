// SPDX-License-Identifier: GPL-2.0
/*
 * pgo_going_victim: arms pgo_going_probe, if it is loaded, to call
 * pgo_going_victim_fn() when this module goes away.
 */
#include <linux/compiler.h>
#include <linux/module.h>

#include "pgo_going_probe.h"

static unsigned long pgo_going_victim_sink;

static noinline void pgo_going_victim_fn(void)
{
	WRITE_ONCE(pgo_going_victim_sink, pgo_going_victim_sink + 1);
}

static void (*pgo_going_arm)(struct module *mod, void (*fn)(void));

static int __init pgo_going_victim_init(void)
{
	pgo_going_arm = symbol_get(pgo_going_probe_arm);
	if (pgo_going_arm)
		pgo_going_arm(THIS_MODULE, pgo_going_victim_fn);
	return 0;
}
module_init(pgo_going_victim_init);

static void __exit pgo_going_victim_exit(void)
{
	if (pgo_going_arm)
		symbol_put(pgo_going_probe_arm);
}
module_exit(pgo_going_victim_exit);

MODULE_DESCRIPTION("Module whose code a notifier runs as it goes away");
MODULE_LICENSE("GPL");
