// SPDX-License-Identifier: GPL-2.0
/*
 * The body of bkl sites, imbalance and chains: the same options (--db,
 * --lock, --json), the same refusals, one printer each.
 */
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"
#include "db/db.h"
#include "builtin/facts.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/usage.h"

int facts_command(int argc, const char **argv, const char *name,
		  int (*print)(sqlite3 *db, const char *lock, int flags), int precise_ok)
{
	const char *db_path = NULL, *lock = NULL;
	int json = 0, precise = 0, ret;
	sqlite3 *db;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db_path),
		OPT_STRING(0, "lock", &lock),
		OPT_BOOL(0, "json", &json),
		OPT_BOOL(0, "precise", &precise),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 0)
		return -1;
	if (argc || (precise && !precise_ok))
		return show_usage(find_command(name), 1);
	if (!db_path)
		db_path = db_default_path();
	if (!path_exists(db_path))
		return error("no database at '%s' (run bkl analyze first)", db_path);
	if (db_open(db_path, &db))
		return -1;
	ret = print(db, lock, (json ? FACTS_JSON : 0) | (precise ? FACTS_PRECISE : 0));
	db_close(db);
	return ret;
}
