// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "db/db.h"
#include "lib/embed.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "report/report.h"
#include "report/lock.h"
#include "lib/strbuf.h"
#include "lib/usage.h"
#include "web/web.h"

const char usage_report[] =
	"usage: bkl report [--subsystem S | --driver D] [--format text|md|html|json]\n"
	"                  [-o FILE] [--db DB] [--tree DIR]\n"
	"   or: bkl report --lock NAME [--format text|json] [-o FILE] [--db DB]\n"
	"\n"
	"Without --subsystem, the whole-tree summary: totals, the burn-down and\n"
	"the subsystems (from MAINTAINERS) ranked by the work left in them.\n"
	"With it, one subsystem: maintainers and list, its drivers and their\n"
	"status, explicit sites, implicitly covered entry points, imbalances,\n"
	"the chains that sleep with the BKL held (wait before sleep, shortest\n"
	"first, with the source of each step) and the QEMU results.  Every\n"
	"reference is file:line:.\n"
	"\n"
	"    --subsystem S    one subsystem, named as in MAINTAINERS\n"
	"    --driver D       one driver\n"
	"    --format F       text (default); md, to paste into a mail to the\n"
	"                     maintainers; html, a page whose links lead into\n"
	"                     the dashboard (bkl serve); json, a stable contract\n"
	"    -o FILE          write to FILE instead of stdout: replaced whole, or\n"
	"                     left as it was; only a regular file is replaced\n"
	"    --db DB          the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --tree DIR       the kernel tree for source lines (default: the\n"
	"                     one recorded by bkl audit)\n"
	"\n"
	"--lock NAME reports what 'bkl audit --lock NAME' found for another big\n"
	"lock (rtnl, console, tty...; bkl too), without the campaign: its sites,\n"
	"imbalances and chains per area of the tree (precise: chains without a\n"
	"call resolved by type, in files the audited configuration builds), then\n"
	"each imbalance, and each chain that sleeps or waits with the lock held\n"
	"with the file:line of every call along it.  JSON (format bkl-lock-report, version 2): totals, areas,\n"
	"imbalances, chains.  Files sparse dropped code of are counted partial, apart\n"
	"from the failed ones (totals.partial), and the imbalances of the functions\n"
	"that lost code are marked partial.  The database defaults to $BKL_CACHE/NAME.db\n"
	"($BKL_DB, or the default one for bkl).\n";

static void html_page(struct strbuf *sb, const struct report *r)
{
	const struct embedded_file *css = web_asset("style.css");
	const char *title = r->driver ? r->driver : r->subsystem ? r->subsystem : "BKL report";

	html_addf(sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		  "<title>%s \xe2\x80\x94 bkl-audit report</title><style>\n", title);
	if (css)
		strbuf_add(sb, css->data, css->len);	/* ours, built in */
	html_addf(sb, "</style></head>\n<body><header class=\"top\"><span class=\"brand\">bkl-audit</span>"
		  "<span class=\"tag\">report generated %s</span></header><main>\n", r->generated);
	if (r->driver)
		html_driver_body(sb, r, 1);
	else if (r->subsystem)
		html_subsystem_body(sb, r);
	else
		html_overview_body(sb, r);
	strbuf_addstr(sb, "</main></body></html>\n");
}

static int write_out(const char *path, const struct strbuf *sb)
{
	if (path)
		return replace_file(path, sb_str(sb), sb->len);
	fwrite(sb_str(sb), 1, sb->len, stdout);
	return 0;	/* bkl.c checks stdout as it closes it */
}

/* --lock NAME: the analyzer's facts for that lock, without the campaign */
static int lock_report(const char *lock, const char *db_path, const char *format,
		       const char *out, int scoped)
{
	struct strbuf sb = STRBUF_INIT;
	sqlite3 *db;
	int ret;

	if (scoped)
		return error("--lock reports the whole tree: no --subsystem or --driver");
	if (strcmp(format, "text") && strcmp(format, "json"))
		return error("--lock reports as text or json, not '%s'", format);
	if (!db_path)
		db_path = db_lock_path(lock);
	if (!path_exists(db_path))
		return error("no database at '%s' (run 'bkl audit --lock %s')", db_path, lock);
	if (db_open_existing(db_path, &db))
		return -1;
	ret = report_lock(db, lock, !strcmp(format, "json") ? LOCK_JSON : LOCK_TEXT, &sb);
	if (!ret)
		ret = write_out(out, &sb);
	strbuf_release(&sb);
	db_close(db);
	return ret;
}

int cmd_report(int argc, const char **argv)
{
	const char *subsystem = NULL, *driver = NULL, *format = "text", *out = NULL;
	const char *db_path = NULL, *tree = NULL, *lock = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct report r;
	sqlite3 *db;
	int ret;
	const struct option opts[] = {
		OPT_STRING(0, "subsystem", &subsystem),
		OPT_STRING(0, "driver", &driver),
		OPT_STRING(0, "format", &format),
		OPT_STRING('o', "output", &out),
		OPT_STRING(0, "db", &db_path),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "lock", &lock),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc)
		return show_usage(usage_report, 1);
	if (strcmp(format, "text") && strcmp(format, "md") && strcmp(format, "html") &&
	    strcmp(format, "json"))
		return error("unknown format '%s': text, md, html or json", format);
	if (subsystem && driver)
		return error("--subsystem and --driver do not go together");
	if (lock)
		return lock_report(lock, db_path, format, out, subsystem || driver);
	if (db_open_existing(db_path ? db_path : db_default_path(), &db))
		return -1;
	if (report_sync(db, db_path ? db_path : db_default_path(), tree))
		warning("the campaign could not be brought up to date: reporting the database as it is");
	ret = report_load(db, subsystem, driver, tree, &r);
	if (ret) {
		if (ret > 0)
			ret = subsystem ? error("no subsystem '%s' in the database", subsystem)
					: error("no driver '%s' in the database", driver);
		db_close(db);
		return -1;
	}
	if (!strcmp(format, "json"))
		report_json(&sb, &r);
	else if (!strcmp(format, "html"))
		html_page(&sb, &r);
	else
		report_text(&sb, &r, !strcmp(format, "md"));
	ret = write_out(out, &sb);
	report_release(&r);
	strbuf_release(&sb);
	db_close(db);
	return ret;
}
