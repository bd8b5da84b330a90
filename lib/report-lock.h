/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_REPORT_LOCK_H
#define BKL_REPORT_LOCK_H

#include <sqlite3.h>

struct strbuf;

/*
 * bkl report --lock NAME: the facts of one lock profile's audit, per
 * area, then its imbalances and chains with their calls' file:line; text,
 * or JSON (format "bkl-lock-report", version 1).  -1 after error().
 */
int report_lock(sqlite3 *db, const char *lock, int json, struct strbuf *sb);

#endif
