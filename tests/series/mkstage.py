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


# files.h and root.c: before retention, no retain.c API, and the reset of
# everything only resets (no retained files to remove).
f = rd('files.h')
f2 = sub(f, span(f, '/* retain.c */', '#endif /* _KERNEL_PGO_FILES_H */'), '')
f2 = sub(f2, ''' * Clang PGO: the interfaces on top of the objects: an object's sysfs files
 * (sysfs.c) and the retained profiles of unloaded modules (retain.c), used
 * by module.c and root.c.''', ''' * Clang PGO: the interfaces on top of the objects: an object's sysfs files
 * (sysfs.c), used by module.c and root.c.''')
stage('files-h-no-retain.diff', 'files.h', f, f2)

r = rd('root.c')
r2 = sub(r, span(r, '/*\n * Writing "1" to /sys/kernel/pgo/reset', 'static int __init pgo_init'),
         '''/* Writing "1" to /sys/kernel/pgo/reset: reset vmlinux and every module. */
static void pgo_reset_all(struct pgo_files *files)
{
	pgo_objects_reset();
}

''')
r2 = sub(r2, '''	ret = pgo_files_add(&pgo_vmlinux_files, &pgo_vmlinux, pgo_reset_all,
			    kobj, NULL);
	if (!ret)
		ret = pgo_retain_init(kobj);
	return ret;
''', '''	return pgo_files_add(&pgo_vmlinux_files, &pgo_vmlinux, pgo_reset_all,
			     kobj, NULL);
''')
r2 = sub(r2, ''' * Clang PGO: /sys/kernel/pgo, with vmlinux's "profraw" and the "reset" of
 * everything, and the "retained" directory of unloaded modules' profiles.''',
         ''' * Clang PGO: /sys/kernel/pgo, with vmlinux's "profraw" and the "reset" of
 * everything.''')
stage('root-no-retain.diff', 'root.c', r, r2)

# module.c: no retention before its patch; before module sysfs, no files.
m = rd('module.c')
going = '''	pgo_files_del(&pm->files);
	pgo_retain(&pm->obj);
'''
free_doc = ''' * pgo_module_free() - keep a module's final profile and free its object
 * @mod: the module, unloaded (after its exit, the GOING notifiers and the
 *	async work they left) or whose load failed after pgo_module_init();
 *	its memory still there
 *
 * Its files, if shown, are removed first.  A profile none of whose code
 * ran is not retained.
 */'''
top_free = ''' *  - pgo_module_free(), on every path that frees a module whose
 *    pgo_module_init() ran (on unload, after its exit, the GOING notifiers
 *    and the async work they left), while its memory is still there: the
 *    group is removed (waiting for reads in progress), the object
 *    unregistered (waiting for the runtime) and its final profile kept
 *    for retention in one step (retain.c), and the object freed.'''
m5 = sub(m, going, '''	pgo_files_del(&pm->files);
	pgo_object_del(&pm->obj);
''')
m5 = sub(m5, free_doc, ''' * pgo_module_free() - free a module's object
 * @mod: the module, unloaded (after its exit, the GOING notifiers and the
 *	async work they left) or whose load failed after pgo_module_init();
 *	its memory still there
 *
 * Its files, if shown, are removed first.
 */''')
m5 = sub(m5, top_free, ''' *  - pgo_module_free(), on every path that frees a module whose
 *    pgo_module_init() ran (on unload, after its exit, the GOING notifiers
 *    and the async work they left), while its memory is still there: the
 *    group is removed (waiting for reads in progress), the object
 *    unregistered (waiting for the runtime) and freed.''')
stage('module-no-retain.diff', 'module.c', m, m5)
m4 = sub(m, going, '\tpgo_object_del(&pm->obj);\n')
m4 = sub(m4, free_doc, ''' * pgo_module_free() - free a module's object
 * @mod: the module, unloaded (after its exit, the GOING notifiers and the
 *	async work they left) or whose load failed after pgo_module_init();
 *	its memory still there
 */''')
m4 = sub(m4, top_free, ''' *  - pgo_module_free(), on every path that frees a module whose
 *    pgo_module_init() ran (on unload, after its exit, the GOING notifiers
 *    and the async work they left), while its memory is still there: the
 *    object is unregistered (waiting for the runtime) and freed.''')
m4 = sub(m4, ''' *  - pgo_module_live(), when its init succeeded, before it is live (so
 *    before it can be unloaded) and before its add uevent: its "pgo" group
 *    appears in /sys/module/<name>/;
''', ''' *  - pgo_module_live(), when its init succeeded (nothing to do yet);
''')
m4 = sub(m4, span(m4, '/* Writing "1" to /sys/module/<name>/pgo/reset. */', '/*\n * Whether the module can be profiled'), '')
m4 = sub(m4, '''/**
 * pgo_module_live() - show a module's profile
 * @mod: the module, its init done, not live yet
 */
void pgo_module_live(struct module *mod)
{
	struct pgo_module *pm = mod->pgo;

	if (pm)
		pgo_files_add(&pm->files, &pm->obj, pgo_module_reset,
			      &mod->mkobj.kobj, "pgo");
}''', '''/**
 * pgo_module_live() - a module's init succeeded
 * @mod: the module, its init done, not live yet
 */
void pgo_module_live(struct module *mod)
{
}''')
m4 = sub(m4, ''' * struct pgo_module - a module's profiled object and its files
 * @obj: the object, over the module's own sections
 * @files: /sys/module/<name>/pgo/
 */
struct pgo_module {
	struct pgo_object obj;
	struct pgo_files files;
};''', ''' * struct pgo_module - a module's profiled object
 * @obj: the object, over the module's own sections
 */
struct pgo_module {
	struct pgo_object obj;
};''')
stage('module-no-sysfs.diff', 'module.c', m, m4)

# Makefile: the object list grows patch by patch.
k = rd('Makefile')
objs = '''obj-y += vmlinux.o objects.o runtime.o format.o sysfs.o root.o
obj-$(CONFIG_MODULES) += module.o retain.o
obj-$(CONFIG_PGO_CLANG_KUNIT_TEST) += pgo_test.o
'''
core = 'obj-y += vmlinux.o objects.o runtime.o format.o sysfs.o root.o\n'
for diff, smaller in [
        ('makefile-runtime.diff', 'obj-y += vmlinux.o objects.o runtime.o format.o\n'),
        ('makefile-sysfs.diff', core),
        ('makefile-module.diff', core + 'obj-$(CONFIG_MODULES) += module.o\n'),
        ('makefile-retain.diff', core + 'obj-$(CONFIG_MODULES) += module.o retain.o\n')]:
    stage(diff, 'Makefile', k, sub(k, objs, smaller))

# Kconfig: the KUnit option comes with the tests.
c = rd('Kconfig')
stage('kconfig-no-kunit.diff', 'Kconfig', c,
      sub(c, span(c, 'config PGO_CLANG_KUNIT_TEST', 'endmenu'), ''))
