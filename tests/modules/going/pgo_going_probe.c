// SPDX-License-Identifier: GPL-2.0
/*
 * pgo_going_probe: a module notifier of the default priority that, when the
 * module that armed it goes away, calls a function of that module
 * PGO_GOING_CALLS times, as other GOING notifiers may run a going module's
 * code.  kernel/pgo keeps a module's final profile after every other
 * notifier: the retained profile of pgo_going_victim must count those calls
 * (tests/check-modules.sh).
 */
#include <linux/module.h>
#include <linux/notifier.h>

#include "pgo_going_probe.h"

#define PGO_GOING_CALLS	1000

static struct module *pgo_going_mod;
static void (*pgo_going_fn)(void);

/**
 * pgo_going_probe_arm() - call @fn when @mod goes away
 * @mod: the module
 * @fn: a function of @mod
 */
void pgo_going_probe_arm(struct module *mod, void (*fn)(void))
{
	pgo_going_fn = fn;
	pgo_going_mod = mod;
}
EXPORT_SYMBOL_GPL(pgo_going_probe_arm);

static int pgo_going_notify(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	int i;

	if (state != MODULE_STATE_GOING || data != pgo_going_mod)
		return NOTIFY_OK;
	for (i = 0; i < PGO_GOING_CALLS; i++)
		pgo_going_fn();
	pgo_going_mod = NULL;
	return NOTIFY_OK;
}

static struct notifier_block pgo_going_nb = {
	.notifier_call = pgo_going_notify,
};

static int __init pgo_going_init(void)
{
	return register_module_notifier(&pgo_going_nb);
}
module_init(pgo_going_init);

static void __exit pgo_going_exit(void)
{
	unregister_module_notifier(&pgo_going_nb);
}
module_exit(pgo_going_exit);

MODULE_DESCRIPTION("Runs a going module's code from a module notifier");
MODULE_LICENSE("GPL");
