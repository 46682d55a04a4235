/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PGO_GOING_PROBE_H
#define PGO_GOING_PROBE_H

struct module;

void pgo_going_probe_arm(struct module *mod, void (*fn)(void));

#endif
