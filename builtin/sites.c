// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"
#include "db/db.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/usage.h"

const char usage_sites[] =
	"usage: bkl sites [--db DB] [--json]\n"
	"\n"
	"Print the lock_kernel()/unlock_kernel() sites and the implicit ones\n"
	"(functions called through a pointer with the BKL held, with the evidence),\n"
	"as file:line: warnings, or with --json as a JSON array of\n"
	"{\"file\",\"line\",\"function\",\"kind\"}, kind: lock, unlock, implicit.\n"
	"\n"
	"    --db DB   the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --json    JSON output (a stable contract)\n";

int cmd_sites(int argc, const char **argv)
{
	const char *db_path = NULL;
	int json = 0, ret;
	sqlite3 *db;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db_path),
		OPT_BOOL(0, "json", &json),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 0)
		return -1;
	if (argc)
		return show_usage(find_command("sites"), 1);
	if (!db_path)
		db_path = db_default_path();
	if (!path_exists(db_path))
		return error("no database at '%s' (run bkl analyze first)", db_path);
	if (db_open(db_path, &db))
		return -1;
	ret = analyzer_print_sites(db, json);
	db_close(db);
	return ret;
}
