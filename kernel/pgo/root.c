// SPDX-License-Identifier: GPL-2.0
/*
 * Clang PGO: /sys/kernel/pgo, with vmlinux's "profraw" and the "reset" of
 * everything, and the "retained" directory of unloaded modules' profiles.
 */

#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "files.h"

static struct pgo_files pgo_vmlinux_files;

/*
 * Writing "1" to /sys/kernel/pgo/reset: reset vmlinux and every module,
 * drop every retained profile.  Dropping them removes their files and
 * waits for writers of their "reset", which share the lock class of this
 * "reset": give up the writer's active reference first, as retained
 * resets do, so that lockdep sees no cycle.  These files are never removed.
 */
static void pgo_reset_all(struct pgo_files *files)
{
	struct kernfs_node *kn;

	kn = sysfs_break_active_protection(files->kobj, &files->reset_attr.attr);
	pgo_reset_everything();
	if (kn)
		sysfs_unbreak_active_protection(kn);
}

static int __init pgo_init(void)
{
	struct kobject *kobj;
	int ret;

	ret = pgo_vmlinux_setup();
	if (ret)
		return ret;
	kobj = kobject_create_and_add("pgo", kernel_kobj);
	if (!kobj)
		return -ENOMEM;
	ret = pgo_files_add(&pgo_vmlinux_files, &pgo_vmlinux, pgo_reset_all,
			    kobj, NULL);
	if (!ret)
		ret = pgo_retain_init(kobj);
	return ret;
}
late_initcall(pgo_init);
