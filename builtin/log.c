// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
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
	"   or: bkl log --correct DRIVER --step TS[,TS...] --note WHY [--by WHO]\n"
	"\n"
	"The campaign's history, oldest first: every claim, release, status\n"
	"change, push-down and conversion, with its time (UTC) and who made it.\n"
	"The dashboard draws its burn-down from it.  --json: one array of\n"
	"{\"ts\",\"driver\",\"action\",\"status\",\"holder\",\"who\",\"note\"}.\n"
	"\n"
	"--check reads drivers-audit/campaign.log alone and names every line\n"
	"that is not a campaign step (a torn write, a field too long, a control\n"
	"character, a time in the future), one warning each; exits 1 if any.\n"
	"Every other command leaves such a line out with the same warning.\n"
	"\n"
	"--correct records a correction of DRIVER's steps at the times TS (as\n"
	"bkl log prints them): a new step, action \"correct\", signed by who runs\n"
	"it, whose note names each step it corrects (action, status, who signed\n"
	"it) and says WHY.  The steps themselves stay as they were: the history\n"
	"is never rewritten.  A correction moves the driver nowhere.\n";

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

/* "TS action status, signed WHO" for each of the driver's steps at ts */
static int describe_steps(struct campaign *c, const char *driver, const char *ts, struct strbuf *sb)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT action, status, who FROM campaign_log "
				     "WHERE driver = @d AND ts = @ts AND action <> 'correct' ORDER BY id");
	int n = 0;

	if (!q || db_bind_text(q, "@d", driver) || db_bind_text(q, "@ts", ts)) {
		sqlite3_finalize(q);
		return -1;
	}
	while (sqlite3_step(q) == SQLITE_ROW)
		strbuf_addf(sb, "%s%s %s %s, signed %s", sb->len ? "; " : "", ts,
			    (const char *)sqlite3_column_text(q, 0), (const char *)sqlite3_column_text(q, 1),
			    (const char *)sqlite3_column_text(q, 2)), n++;
	sqlite3_finalize(q);
	return n ? 0 : error("'%s' has no step at '%s' (see 'bkl log %s')", driver, ts, driver);
}

static int correct(struct campaign *c, const char *driver, const char *steps, const char *why,
		   const char *by)
{
	struct strbuf what = STRBUF_INIT, note = STRBUF_INIT;
	char *list = strdup(steps), *save = NULL, *ts;
	const char *who = campaign_who(by);
	struct cstate st = { 0 };
	int ret = who ? 0 : -1;

	for (ts = strtok_r(list, ",", &save); !ret && ts; ts = strtok_r(NULL, ",", &save))
		ret = describe_steps(c, driver, ts, &what);
	if (!ret && !(ret = campaign_state(c, driver, &st))) {
		strbuf_addf(&note, "corrects %s: %s", what.buf, why);
		ret = campaign_record(c, driver, "correct", st.status, st.holder, who, note.buf);
	}
	if (!ret)
		printf("'%s': corrected %s\n", driver, what.buf);
	cstate_release(&st);
	strbuf_release(&what);
	strbuf_release(&note);
	free(list);
	return ret;
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
	const char *db = NULL, *tree = NULL, *fix = NULL, *step = NULL, *why = NULL, *by = NULL;
	struct strbuf out = STRBUF_INIT;
	struct campaign c;
	sqlite3_stmt *q;
	int json = 0, check = 0, n = 0, i, ret = 0;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_BOOL(0, "json", &json),
		OPT_BOOL(0, "check", &check),
		OPT_STRING(0, "correct", &fix),
		OPT_STRING(0, "step", &step),
		OPT_STRING(0, "note", &why),
		OPT_STRING(0, "by", &by),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 0 || argc > 1 || (check && (argc || json || db || tree || fix)) ||
	    (fix && (argc || json)) || (!fix && (step || why || by)))
		return show_usage(usage_log, 1);
	if (check)
		return check_log();
	if (fix && (!step || !*step || !why || !*why))
		return error("a correction names the steps it corrects (--step) and why (--note)");
	if (campaign_open(&c, db, tree))
		return -1;
	if (fix) {
		ret = correct(&c, fix, step, why, by);
		campaign_close(&c);
		return ret;
	}
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
