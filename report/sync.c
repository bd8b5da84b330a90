// SPDX-License-Identifier: GPL-2.0
/*
 * Before a report (and now and then while the dashboard runs): bring the
 * campaign up to date as its own commands do on opening it: merge the
 * repository's log (drivers-audit/campaign.log: claims pulled from
 * others) and re-derive the drivers from the analyzer's facts when they
 * changed (campaign_refresh, a no-op otherwise).
 */
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "campaign/drivers.h"
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "report/report.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

#include "report/sql.h"

/* The analyzer has found something the BKL covers: drivers can be derived. */
static int have_facts(sqlite3 *db)
{
	sqlite3_stmt *st;
	int found;

	if (!db_has_table(db, "sites"))
		return 0;
	st = db_prepare(db, "SELECT 1 FROM sites WHERE kind = 'implicit' LIMIT 1");
	found = st && sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int report_sync(sqlite3 *db, const char *db_path, const char *tree)
{
	struct strbuf log = STRBUF_INIT, maint = STRBUF_INIT;
	struct campaign c = { 0 };
	char *t = report_tree(db, tree);
	int ret = 0;

	strbuf_addf(&log, "%s/%s", bkl_repo_dir(), CAMPAIGN_LOG);
	c.db = db;
	c.db_path = (char *)db_path;
	c.repo = (char *)bkl_repo_dir();
	c.log_path = log.buf;
	c.tree = t ? t : (char *)"";
	if (!db_writable(db_path)) {	/* read as it is */
		if (path_exists(log.buf))
			campaign_warn_behind(&c);
		goto out;
	}
	if (path_exists(log.buf) && campaign_import(&c, log.buf, 0) < 0)
		ret = -1;
	if (t)
		strbuf_addf(&maint, "%s/MAINTAINERS", t);
	if (!ret && t && path_exists(maint.buf) && have_facts(db) && campaign_refresh(&c))
		ret = -1;
out:
	free(t);
	strbuf_release(&log);
	strbuf_release(&maint);
	return ret;
}
