#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Remake tests/series/stage/*.diff from the final files in kernel/pgo/.

Each stage diff turns a final file into the smaller form that earlier
patches of the series need (tests/series/recipe says which patch uses
which).  The cuts are made here by exact text: if a final file changes
where a cut is anchored, this fails and shows the text; if it changes
elsewhere, running this again is all it takes.  Review the result with
git diff tests/series/stage.  Usage: tests/series/mkstage.py
"""
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STAGE = os.path.join(TOP, 'tests', 'series', 'stage')


def rd(name):
    with open(os.path.join(TOP, 'kernel', 'pgo', name)) as f:
        return f.read()


def sub(s, old, new):
    if s.count(old) != 1:
        sys.exit('mkstage: %d matches, want 1, for:\n%s' % (s.count(old), old))
    return s.replace(old, new)


def span(s, start, end):
    """The text of s from start up to, not including, the next end."""
    if s.count(start) != 1 or end not in s[s.find(start):]:
        sys.exit('mkstage: cannot find %r ... %r' % (start, end))
    a = s.index(start)
    return s[a:s.index(end, a)]


def stage(diff, name, final, smaller):
    """Write stage/<diff>: kernel/pgo/<name> from final to smaller."""
    path = 'kernel/pgo/' + name
    with tempfile.NamedTemporaryFile('w') as a, tempfile.NamedTemporaryFile('w') as b:
        a.write(final)
        b.write(smaller)
        a.flush()
        b.flush()
        out = subprocess.run(['diff', '-U2', '--label', 'a/' + path,
                              '--label', 'b/' + path, a.name, b.name],
                             capture_output=True, text=True)
    if out.returncode != 1:
        sys.exit('mkstage: %s: no difference' % diff)
    with open(os.path.join(STAGE, diff), 'w') as f:
        f.write(out.stdout)
    print('mkstage: stage/%s' % diff)


# objects.c: before sysfs (patch "runtime") no reset_all and no sysfs
# files; before retention, a reset_all that only resets.
o = rd('objects.c')
reset_all = span(o, '/**\n * pgo_object_reset_all()', 'static int __init pgo_vmlinux_init')
o3 = sub(o, reset_all, '''/**
 * pgo_object_reset_all() - reset vmlinux and every module
 * @obj: vmlinux's object, whose "reset" file is being written
 */
void pgo_object_reset_all(struct pgo_object *obj)
{
	pgo_objects_reset();
}

''')
retain_init = '''	ret = pgo_sysfs_add(obj, kobj, NULL);
	if (!ret)
		ret = pgo_retain_init(kobj);
	return ret;
'''
o3 = sub(o3, retain_init, '\treturn pgo_sysfs_add(obj, kobj, NULL);\n')
o3 = sub(o3, '\tstruct kobject *kobj;\n\tint ret;\n', '\tstruct kobject *kobj;\n')
stage('objects-no-retain.diff', 'objects.c', o, o3)
o2 = sub(o, reset_all, '')
o2 = sub(o2, '\tstruct kobject *kobj;\n\tint ret;\n', '')
o2 = sub(o2, '\tobj->reset = pgo_object_reset_all;\n', '')
o2 = sub(o2, '''
	kobj = kobject_create_and_add("pgo", kernel_kobj);
	if (!kobj)
		return -ENOMEM;
''' + retain_init, '\treturn 0;\n')
stage('objects-runtime.diff', 'objects.c', o, o2)

# pgo.h: no retain.c API before retention; before sysfs, none of the
# sysfs fields and API either.
h = rd('pgo.h')
h3 = sub(h, span(h, '/* retain.c */', '/**\n * pgo_object_contains'), '')
stage('pgo-h-no-retain.diff', 'pgo.h', h, h3)
h2 = sub(h3, span(h3, '/* sysfs.c */', '/**\n * pgo_object_contains'), '')
h2 = sub(h2, 'void pgo_object_reset_all(struct pgo_object *obj);\n', '')
h2 = sub(h2, ' * @dropped_reported: whether the log has said so already\n', '')
h2 = sub(h2, ' * @reset: what writing "1" to the object\'s "reset" file does\n', '')
h2 = sub(h2, span(h2, ' * @snap_lock:', ' *\n * The sections are fixed'), '')
h2 = sub(h2, '\tbool dropped_reported;\n', '')
h2 = sub(h2, '\tvoid (*reset)(struct pgo_object *obj);\n', '')
h2 = sub(h2, span(h2, '\n\tstruct mutex snap_lock;', '};\n'), '')
stage('pgo-h-runtime.diff', 'pgo.h', h, h2)

# module.c: no retention before its patch; before module sysfs, no group.
m = rd('module.c')
m5 = sub(m, ''' * is unregistered (waiting for the runtime), its final profile is copied
 * for retention (retain.c) and the object is freed, all before the loader
 * frees the module's memory.''', ''' * is unregistered (waiting for the runtime) and the object is freed, all
 * before the loader frees the module's memory.''')
m5 = sub(m5, '''	pgo_object_del(obj);
	/* The module's memory is still there: keep its final profile. */
	pgo_retain(obj);
''', '\tpgo_object_del(obj);\n')
stage('module-no-retain.diff', 'module.c', m, m5)
m4 = sub(m5, ''' * runtime takes value nodes from the module's own pool; when it goes live,
 * the object's "pgo" group appears in /sys/module/<name>/; when it goes
 * away, the group is removed (waiting for reads in progress), the object
 * is unregistered (waiting for the runtime) and the object is freed, all
 * before the loader frees the module's memory.''', ''' * runtime takes value nodes from the module's own pool; when it goes
 * away, the object is unregistered (waiting for the runtime) and freed,
 * before the loader frees the module's memory.''')
m4 = sub(m4, '\tpgo_sysfs_del(obj);\n\tpgo_object_del(obj);', '\tpgo_object_del(obj);')
m4 = sub(m4, '''	case MODULE_STATE_LIVE:
		if (mod->pgo.obj)
			pgo_sysfs_add(mod->pgo.obj, &mod->mkobj.kobj, "pgo");
		break;
''', '')
stage('module-no-sysfs.diff', 'module.c', m, m4)

# Makefile: the object list grows patch by patch.
k = rd('Makefile')
objs = '''obj-y += objects.o runtime.o format.o sysfs.o
obj-$(CONFIG_MODULES) += module.o retain.o
obj-$(CONFIG_PGO_CLANG_KUNIT_TEST) += pgo_test.o
'''
for diff, smaller in [
        ('makefile-runtime.diff', 'obj-y += objects.o runtime.o format.o\n'),
        ('makefile-sysfs.diff', 'obj-y += objects.o runtime.o format.o sysfs.o\n'),
        ('makefile-module.diff', 'obj-y += objects.o runtime.o format.o sysfs.o\n'
         'obj-$(CONFIG_MODULES) += module.o\n'),
        ('makefile-retain.diff', 'obj-y += objects.o runtime.o format.o sysfs.o\n'
         'obj-$(CONFIG_MODULES) += module.o retain.o\n')]:
    stage(diff, 'Makefile', k, sub(k, objs, smaller))

# Kconfig: the KUnit option comes with the tests.
c = rd('Kconfig')
stage('kconfig-no-kunit.diff', 'Kconfig', c,
      sub(c, span(c, 'config PGO_CLANG_KUNIT_TEST', 'endmenu'), ''))
