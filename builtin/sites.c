// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"
#include "db/db.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/usage.h"

const char usage_sites[] =
	"usage: bkl sites [--db DB] [--lock NAME] [--json]\n"
	"\n"
	"Print the lock_kernel()/unlock_kernel() sites and the implicit ones\n"
	"(functions called through a pointer with the BKL held, with the evidence),\n"
	"as file:line: warnings, or with --json as a JSON array of\n"
	"{\"file\",\"line\",\"function\",\"kind\"}, kind: lock, unlock, implicit.\n"
	"\n"
	"    --db DB   the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --lock NAME  the facts of that lock profile's analysis (bkl analyze\n"
	"              --lock-profile); default: bkl if the DB has it, else its first\n"
	"    --json    JSON output (a stable contract)\n";

/*
 * The body of bkl sites, imbalance and chains: the same options (--db,
 * --lock, --json), the same refusals, one printer each.
 */
int facts_command(int argc, const char **argv, const char *usage,
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
		return show_usage(usage, 1);
	if (!db_path)
		db_path = db_default_path();
	if (db_open_existing(db_path, &db))
		return -1;
	ret = print(db, lock, (json ? FACTS_JSON : 0) | (precise ? FACTS_PRECISE : 0));
	db_close(db);
	return ret;
}

int cmd_sites(int argc, const char **argv)
{
	return facts_command(argc, argv, usage_sites, analyzer_print_sites, 0);
}
