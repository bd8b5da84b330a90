/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_AUDIT_ORDER_H
#define BKL_AUDIT_ORDER_H

/*
 * The order bkl audit analyzes files in, so that a newcomer's first
 * whole-tree audit answers the campaign's first questions early:
 *   0  drivers/char, drivers/tty and fs: chrdev_open(), misc, the tty
 *      layer, fasync; the subsystems the 2008 campaign started with
 *   1  files that register a char device (the registrations of
 *      analyzer/primitives.txt), and the other files of their
 *      directories, where what their open()s call mostly lives
 *   2  the rest
 */
enum { AUDIT_TIERS = 3 };

struct audit_order;

/* paths: tree-relative, the current directory being the tree's top. */
struct audit_order *audit_order_new(const char *const *paths, int nr);
int audit_order_tier(const struct audit_order *o, int i);
void audit_order_free(struct audit_order *o);

/* "drivers/char", "fs", "arch/x86": the area a completeness report names. */
void audit_area(const char *path, char *buf, size_t size);

#endif
