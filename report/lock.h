/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_REPORT_LOCK_H
#define BKL_REPORT_LOCK_H

#include <sqlite3.h>

struct strbuf;

enum { LOCK_TEXT, LOCK_JSON, LOCK_HTML };

/*
 * bkl report --lock NAME: the facts of one lock profile's audit, per
 * area, then its imbalances and chains with their calls' file:line; text,
 * JSON (format "bkl-lock-report", version 2) or the body of an HTML page
 * (the dashboard's /lock/NAME).  -1 after error().
 */
int report_lock(sqlite3 *db, const char *lock, int fmt, struct strbuf *sb);

#endif
