// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"
#include "db/db.h"
#include "audit/progress.h"
#include "lib/parse-options.h"
#include "lib/usage.h"

const char usage_merge[] =
	"usage: bkl merge [--db OUT] [--primitives FILE] [--no-resolve | --full] SHARD.db...\n"
	"\n"
	"Merge shard databases written by 'bkl analyze --no-resolve' into OUT:\n"
	"each shard's files replace the same paths in OUT, one transaction per\n"
	"shard; then run the global pass (implicit sites, chains) once over\n"
	"everything.  With no shard, only the global pass runs.  Shards written\n"
	"by 'bkl audit --shard' bring their audit state too (which files are\n"
	"analyzed, which are still pending), so the next audit skips them.\n"
	"\n"
	"    --db OUT           the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --primitives FILE  replace the built-in analyzer/primitives.txt\n"
	"    --no-resolve       merge only: another merge will run the global pass\n"
	"                       (bkl audit's batches between two resolves)\n"
	"    --full             the global pass reads every file's facts from the\n"
	"                       database (default: the files analyzed or removed\n"
	"                       since the last pass, the others from its snapshot,\n"
	"                       OUT.graph-LOCK, when that can be trusted)\n";

int cmd_merge(int argc, const char **argv)
{
	const char *db_path = NULL;
	struct analyzer_opts o = { 0 };
	int i, ret = 0, no_resolve = 0, rc, audited = 0;
	sqlite3 *db;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db_path),
		OPT_STRING(0, "primitives", &o.primitives),
		OPT_BOOL(0, "no-resolve", &no_resolve),
		OPT_BOOL(0, "full", &o.full_pass),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 0)
		return -1;
	if (!db_path)
		db_path = db_default_path();
	if (db_open(db_path, &db))
		return -1;
	for (i = 0; i < argc && !ret; i++) {
		ret = analyzer_merge(db, argv[i]);
		if (ret)
			break;
		rc = audit_progress_merge(db, argv[i]);
		if (rc < 0)
			ret = -1;
		audited |= rc > 0;
	}
	if (!ret && audited && audit_progress_finish(db) < 0)
		ret = -1;
	if (!ret && !no_resolve)
		ret = analyzer_resolve(db, &o);
	if (!ret)
		printf("merged %d shard%s into %s\n", argc, argc == 1 ? "" : "s", db_path);
	db_close(db);
	return ret;
}
