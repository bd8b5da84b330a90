// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "builtin.h"
#include "campaign/campaign.h"
#include "db/db.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/usage.h"

const char usage_import[] =
	"usage: bkl import [--db DB] FILE...\n"
	"\n"
	"Merge campaign histories written by 'bkl export' (or another checkout's\n"
	"drivers-audit/campaign.log) into the DB and into this repository's\n"
	"drivers-audit/campaign.log.  Steps already known are skipped, so\n"
	"importing twice changes nothing.  A file that is not a campaign log is\n"
	"refused whole, naming its first bad line.\n";

int cmd_import(int argc, const char **argv)
{
	const char *db = NULL;
	struct campaign c;
	int i, n, ret = 0;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 1)
		return show_usage(usage_import, 1);
	if (!path_exists(db ? db : db_default_path())) {	/* import may make the DB */
		sqlite3 *made;

		if (db_open(db ? db : db_default_path(), &made))
			return -1;
		db_close(made);
	}
	if (campaign_open(&c, db, NULL))
		return -1;
	for (i = 0; i < argc && !ret; i++) {
		n = campaign_import(&c, argv[i], 1);
		if (n < 0)
			ret = -1;
		else
			printf("%s: %d new step%s\n", argv[i], n, n == 1 ? "" : "s");
	}
	campaign_close(&c);
	return ret;
}
