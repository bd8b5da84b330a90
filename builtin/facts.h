/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_FACTS_CMD_H
#define BKL_FACTS_CMD_H

#include <sqlite3.h>

/*
 * Parse [--db DB] [--lock NAME] [--json] (and [--precise] if precise_ok),
 * open the DB, print(db, lock, flags): FACTS_JSON, FACTS_PRECISE.
 */
int facts_command(int argc, const char **argv, const char *name,
		  int (*print)(sqlite3 *db, const char *lock, int flags), int precise_ok);

#endif
