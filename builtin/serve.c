// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "builtin.h"
#include "audit/progress.h"
#include "db/db.h"
#include "lib/parse-options.h"
#include "lib/usage.h"
#include "web/web.h"

const char usage_serve[] =
	"usage: bkl serve [--port N] [--bind ADDR] [--db DB] [--tree DIR]\n"
	"\n"
	"Serve the campaign's dashboard, read live from the database: the\n"
	"overview with the burn-down, a page per subsystem and per driver, the\n"
	"pick-a-driver page with its claim form, and /api/... (JSON).  Runs until\n"
	"interrupted; prints the URL it listens on first.\n"
	"\n"
	"    --port N         TCP port (default 8080; 0 picks a free one)\n"
	"    --bind ADDR      address to listen on (default 127.0.0.1: this\n"
	"                     machine only); there is no authentication\n"
	"    --db DB          the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --tree DIR       the kernel tree for source lines (default: the\n"
	"                     one recorded by bkl audit)\n";

int cmd_serve(int argc, const char **argv)
{
	const char *db_path = NULL, *tree = NULL, *bind = "127.0.0.1";
	int port = 8080;
	sqlite3 *db;
	const struct option opts[] = {
		OPT_INT_RANGE(0, "port", &port, 0, 65535),
		OPT_STRING(0, "bind", &bind),
		OPT_STRING(0, "db", &db_path),
		OPT_STRING(0, "tree", &tree),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc)
		return show_usage(usage_serve, 1);
	if (!db_path)
		db_path = db_default_path();
	/* an existing one, migrated once here when writable, with a clear error */
	if (db_open_existing(db_path, &db))
		return -1;
	audit_progress_warn(db);
	db_close(db);
	return web_serve(db_path, tree, bind, port);
}
