// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "db/db.h"
#include "campaign/drivers.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/quote.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_log[] =
	"usage: bkl log [--db DB] [--tree DIR] [--json] [DRIVER]\n"
	"   or: bkl log --check\n"
	"\n"
	"The campaign's history, oldest first: every claim, release, status\n"
	"change, push-down and conversion, with its time (UTC) and who made it.\n"
	"The dashboard draws its burn-down from it.  --json: one array of\n"
	"{\"ts\",\"driver\",\"action\",\"status\",\"holder\",\"who\",\"note\"}.\n"
	"\n"
	"--check reads drivers-audit/campaign.log alone and names every line\n"
	"that is not a campaign step (a torn write, a field too long, a control\n"
	"character, a time in the future), one warning each; exits 1 if any.\n"
	"Every other command leaves such a line out with the same warning.\n";

/* bkl log --check: every line of the repository's log a step? */
static int check_log(void)
{
	struct strbuf path = STRBUF_INIT;
	int bad;

	strbuf_addf(&path, "%s/%s", bkl_repo_dir(), CAMPAIGN_LOG);
	bad = clog_read(path.buf, 0, NULL, NULL);
	if (bad == 0)
		printf("%s: every line is a campaign step\n", path.buf);
	else if (bad > 0)
		printf("%s: %d line%s not a campaign step\n", path.buf, bad, bad == 1 ? " is" : "s are");
	strbuf_release(&path);
	return bad ? 1 : 0;
}

static const char *const fields[] = { "ts", "driver", "action", "status", "holder", "who", "note" };

static int has_history(struct campaign *c, const char *driver)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT 1 FROM campaign_log WHERE driver = @d LIMIT 1");
	int yes = 0;

	if (q && !db_bind_text(q, "@d", driver))
		yes = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return yes;
}

int cmd_log(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL;
	struct strbuf out = STRBUF_INIT;
	struct campaign c;
	sqlite3_stmt *q;
	int json = 0, check = 0, n = 0, i, ret = 0;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_BOOL(0, "json", &json),
		OPT_BOOL(0, "check", &check),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 0 || argc > 1 || (check && (argc || json || db || tree)))
		return show_usage(usage_log, 1);
	if (check)
		return check_log();
	if (campaign_open(&c, db, tree))
		return -1;
	if (argc && !has_history(&c, argv[0])) {
		struct cdriver d;

		ret = campaign_driver(&c, argv[0], &d);	/* a known driver: no history yet */
		if (!ret)
			cdriver_release(&d);
	}
	q = ret ? NULL : db_prepare(c.db, "SELECT ts, driver, action, status, holder, who, note "
				    "FROM campaign_log WHERE @d IS NULL OR driver = @d ORDER BY ts, id");
	if (!ret && (!q || (argc && db_bind_text(q, "@d", argv[0]))))
		ret = -1;
	while (!ret && sqlite3_step(q) == SQLITE_ROW) {
		if (!json) {
			const char *note = (const char *)sqlite3_column_text(q, 6);

			printf("%s  %-16s %-8s %-12s %s%s%s\n", tq((const char *)sqlite3_column_text(q, 0)),
			       tq((const char *)sqlite3_column_text(q, 1)),
			       tq((const char *)sqlite3_column_text(q, 2)),
			       tq((const char *)sqlite3_column_text(q, 3)),
			       tq((const char *)sqlite3_column_text(q, 5)), *note ? ": " : "", tq(note));
			continue;
		}
		strbuf_addstr(&out, n++ ? ",\n{" : "[\n{");
		for (i = 0; i < 7; i++) {
			strbuf_addf(&out, "%s\"%s\":", i ? "," : "", fields[i]);
			json_str(&out, (const char *)sqlite3_column_text(q, i));
		}
		strbuf_addstr(&out, "}");
	}
	if (json && !ret)
		printf("%s\n]\n", n ? out.buf : "[");
	sqlite3_finalize(q);
	strbuf_release(&out);
	campaign_close(&c);
	return ret;
}
