// SPDX-License-Identifier: GPL-2.0
/*
 * The ranking of unclaimed drivers and the claim itself, for /pick,
 * /claim and /api/pick.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "campaign/campaign.h"
#include "lib/paths.h"
#include "report/report.h"
#include "lib/usage.h"
#include "web/pick.h"
#include "web/web.h"

/*
 * The ranking is `bkl pick --json -n 0` itself, run as a command (the
 * campaign reads each driver's source to rank it; a fault there cannot
 * take the server down), read back through SQLite's JSON functions.
 */
int pick_load(sqlite3 *db, struct web_server *srv, struct pick_list *pl)
{
	struct strbuf json = STRBUF_INIT;
	struct report r;
	sqlite3_stmt *st = NULL;
	int alloc = 0, rc, ret = -1;

	memset(pl, 0, sizeof(*pl));
	pl->order = "easiest first, as bkl pick ranks them";
	if (report_load(db, NULL, NULL, srv->tree, &r))
		return -1;
	if (web_pick_json(srv, &json))
		goto out;
	st = db_prepare(db, "SELECT json_extract(value, '$.driver'), json_extract(value, '$.subsystem'), "
			"json_extract(value, '$.status'), json_extract(value, '$.score'), "
			"json_extract(value, '$.reason') FROM json_each(@json) ORDER BY key");
	if (!st || db_bind_text(st, "@json", sb_str(&json)))
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct report_driver *d = report_find_driver(&r, (const char *)sqlite3_column_text(st, 0));
		struct pick *p;

		ALLOC_GROW(pl->p, pl->nr, alloc);
		p = &pl->p[pl->nr++];
		memset(p, 0, sizeof(*p));
		p->driver = xstrdup_or_null((const char *)sqlite3_column_text(st, 0));
		p->subsystem = xstrdup_or_null((const char *)sqlite3_column_text(st, 1));
		p->status = xstrdup_or_null((const char *)sqlite3_column_text(st, 2));
		p->score = sqlite3_column_int(st, 3);
		p->why = xstrdup_or_null((const char *)sqlite3_column_text(st, 4));
		if (d) {
			p->sites = d->sites;
			p->implicit = d->implicit;
			p->chains = d->chains;
			p->imbalances = d->imbalances;
		}
	}
	if (rc == SQLITE_DONE)
		ret = 0;
	pl->audit_note = r.audit_note;
	r.audit_note = NULL;
out:
	sqlite3_finalize(st);
	strbuf_release(&json);
	report_release(&r);
	if (ret)
		pick_release(pl);
	return ret;
}

void pick_release(struct pick_list *pl)
{
	int i;

	for (i = 0; i < pl->nr; i++) {
		free(pl->p[i].driver);
		free(pl->p[i].subsystem);
		free(pl->p[i].why);
		free(pl->p[i].status);
	}
	free(pl->p);
	free(pl->audit_note);
	memset(pl, 0, sizeof(*pl));
}

static int driver_exists(sqlite3 *db, const char *driver)
{
	sqlite3_stmt *q = db_prepare(db, "SELECT 1 FROM campaign_drivers WHERE driver = @drv");
	int found;

	if (!q || db_bind_text(q, "@drv", driver)) {
		sqlite3_finalize(q);
		return -1;
	}
	found = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return found;
}

/*
 * What `bkl claim DRIVER --by WHO` does (builtin/claim.c), through the
 * campaign's own functions: the step goes to the repository's log and
 * the DB.  In one write transaction, so two claims cannot both win.
 */
int pick_claim(sqlite3 *db, const char *driver, const char *by, char *msg, size_t n)
{
	struct strbuf log = STRBUF_INIT;
	struct campaign c = { 0 };
	struct cstate st = { 0 };
	int ret = 500, found, to;

	snprintf(msg, n, "cannot record the claim");
	found = driver_exists(db, driver);
	if (found <= 0) {
		if (!found)
			snprintf(msg, n, "no driver named '%s'", driver);
		return found ? 500 : 404;
	}
	strbuf_addf(&log, "%s/%s", bkl_repo_dir(), CAMPAIGN_LOG);
	c.db = db;
	c.db_path = (char *)"(dashboard)";
	c.repo = (char *)bkl_repo_dir();
	c.log_path = log.buf;
	if (db_begin(db))
		goto out;
	if (campaign_state(&c, driver, &st))
		goto out_rollback;
	if (!strcmp(st.holder, by)) {
		ret = 0;		/* already yours: nothing to record */
	} else if (*st.holder) {
		snprintf(msg, n, "'%s' is claimed by %s since %s", driver, st.holder, st.since);
		ret = 409;
	} else if (st.status == CS_DONE) {
		snprintf(msg, n, "'%s' is done: nothing left to claim", driver);
		ret = 409;
	} else {
		to = st.status == CS_UNCLAIMED ? CS_CLAIMED : st.status;
		if (!campaign_record(&c, driver, "claim", to, by, by, ""))
			ret = 0;
	}
out_rollback:
	if (ret || db_commit(db)) {
		db_rollback(db);
		ret = ret ? ret : 500;
	}
out:
	cstate_release(&st);
	strbuf_release(&log);
	return ret;
}
