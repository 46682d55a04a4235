/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim of <linux/list.h>: the host shim's, container_of() and
 * list_for_each_entry() of its rculist.h, and the list operations
 * retain.c uses.
 */
#ifndef _FUZZ_SHIM_LINUX_LIST_H
#define _FUZZ_SHIM_LINUX_LIST_H

#include_next <linux/list.h>
#include <linux/rculist.h>

static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	new->next = head;
	new->prev = head->prev;
	head->prev->next = new;
	head->prev = new;
}

static inline void list_del(struct list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
	entry->next = entry->prev = NULL;
}

static inline void list_del_init(struct list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
	INIT_LIST_HEAD(entry);
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_entry((head)->next, __typeof__(*pos), member),	\
	     n = list_entry(pos->member.next, __typeof__(*pos), member);	\
	     &pos->member != (head);					\
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif
