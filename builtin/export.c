// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "db/db.h"
#include "campaign/campaign.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/quote.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_export[] =
	"usage: bkl export [--db DB] [-o FILE] [--json] [DRIVER]\n"
	"\n"
	"Write the campaign's history (every claim, status change, push-down and\n"
	"conversion, with time and author) in the log format of\n"
	"drivers-audit/campaign.log, which 'bkl import' reads back: the state that\n"
	"must outlive a DB rebuilt from the tree.  --json writes instead\n"
	"{\"drivers\":[{\"driver\",\"status\",\"holder\",\"since\",\"who\",\"note\"}],\n"
	"\"log\":[{\"ts\",\"driver\",\"action\",\"status\",\"holder\",\"who\",\"note\"}]}.\n";

static const char *const cols[] = { "ts", "driver", "action", "status", "holder", "who", "note" };
static const char *const scols[] = { "driver", "status", "holder", "since", "who", "note" };

static int json_rows(sqlite3 *db, const char *sql, const char *const *names, int n,
		     const char *driver, struct strbuf *out)
{
	sqlite3_stmt *q = db_prepare(db, sql);
	int i, rows = 0;

	if (!q || (driver && db_bind_text(q, "@d", driver))) {
		sqlite3_finalize(q);
		return -1;
	}
	strbuf_addstr(out, "[");
	while (sqlite3_step(q) == SQLITE_ROW) {
		strbuf_addstr(out, rows++ ? ",\n{" : "\n{");
		for (i = 0; i < n; i++) {
			strbuf_addf(out, "%s\"%s\":", i ? "," : "", names[i]);
			json_str(out, (const char *)sqlite3_column_text(q, i));
		}
		strbuf_addstr(out, "}");
	}
	strbuf_addstr(out, "]");
	sqlite3_finalize(q);
	return 0;
}

int cmd_export(int argc, const char **argv)
{
	const char *db = NULL, *file = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct campaign c;
	int json = 0, ret = -1;
	FILE *out = stdout;
	char *mem = NULL;
	size_t mem_len = 0;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING('o', NULL, &file),
		OPT_BOOL(0, "json", &json),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 0 || argc > 1)
		return show_usage(usage_export, 1);
	if (campaign_open(&c, db, NULL))
		return -1;
	if (file && !(out = open_memstream(&mem, &mem_len))) {	/* then replaced whole */
		error("cannot write '%s': %s", file, strerror(errno));
		goto out;
	}
	if (!json) {
		ret = campaign_export(&c, argc ? argv[0] : NULL, out);
	} else {
		strbuf_addstr(&sb, "{\"drivers\":");
		ret = json_rows(c.db, "SELECT driver, status, holder, since, who, note FROM campaign_state "
				"WHERE @d IS NULL OR driver = @d ORDER BY driver", scols, 6,
				argc ? argv[0] : NULL, &sb);
		strbuf_addstr(&sb, ",\n\"log\":");
		if (!ret)
			ret = json_rows(c.db, "SELECT ts, driver, action, status, holder, who, note "
					"FROM campaign_log WHERE @d IS NULL OR driver = @d ORDER BY ts, id",
					cols, 7, argc ? argv[0] : NULL, &sb);
		if (!ret)
			fprintf(out, "%s}\n", sb.buf);
	}
	if (file && fclose(out))
		ret = error("cannot write '%s': %s", file, strerror(errno));
	else if (file && !ret)
		ret = replace_file(file, mem, mem_len);
out:
	free(mem);
	strbuf_release(&sb);
	campaign_close(&c);
	return ret;
}
