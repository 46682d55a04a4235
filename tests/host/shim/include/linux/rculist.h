/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/rculist.h>: one thread, plain list operations. */
#ifndef _SHIM_LINUX_RCULIST_H
#define _SHIM_LINUX_RCULIST_H

#include <stddef.h>
#include <linux/list.h>

#define container_of(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))
#define list_entry(ptr, type, member)	container_of(ptr, type, member)

static inline void list_add_tail_rcu(struct list_head *new,
				     struct list_head *head)
{
	new->next = head;
	new->prev = head->prev;
	head->prev->next = new;
	head->prev = new;
}

static inline void list_del_rcu(struct list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
}

#define list_for_each_entry(pos, head, member)				\
	for (pos = list_entry((head)->next, __typeof__(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_rcu(pos, head, member, cond)		\
	list_for_each_entry(pos, head, member)

#endif
