// SPDX-License-Identifier: GPL-2.0
/*
 * bkl report --lock NAME: the analyzer's facts for one lock of the DB
 * (any lock profile: rtnl, console, tty...), without the campaign, which
 * is the BKL's.  Per area of the tree (lock_area()): its sites,
 * imbalances and chains; then each imbalance and each chain with the file:line of every
 * call along it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/analyzer.h"
#include "db/db.h"
#include "lib/quote.h"
#include "report/report.h"
#include "report/lock.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

struct lock_area {
	char name[64];
	int sites, imbalances, chains, precise, deadlocks;
};

struct lock_report {
	struct lock_area *areas;
	int nr_areas, files, failed, sites, imbalances, chains, precise;
	int deadlocks;			/* chains of class deadlock */
	int partial;			/* analyzed, but sparse dropped code */
};

/*
 * Where a big lock of today is taken, subsystems sit deeper than the
 * audit's areas: drivers/net/ethernet/intel, net/ipv4.  Three directories
 * under drivers/, sound/ and arch/, four under drivers/net/ethernet and
 * drivers/net/wireless (by vendor), two elsewhere (fewer for a file
 * higher up).
 */
static void lock_area(const char *path, char *buf, size_t size)
{
	int depth = !strncmp(path, "drivers/", 8) || !strncmp(path, "sound/", 6) ||
		    !strncmp(path, "arch/", 5) ? 3 : 2;
	const char *end = path, *slash;

	if (!strncmp(path, "drivers/net/ethernet/", 21) || !strncmp(path, "drivers/net/wireless/", 21))
		depth = 4;
	while (depth-- && (slash = strchr(end, '/')))
		end = slash + 1;
	if (end == path) {
		snprintf(buf, size, ".");
		return;
	}
	snprintf(buf, size, "%.*s", (int)(end - path - 1), path);
}

static struct lock_area *area_of(struct lock_report *r, const char *path)
{
	char name[64];
	int i;

	lock_area(path, name, sizeof(name));
	for (i = 0; i < r->nr_areas; i++)
		if (!strcmp(r->areas[i].name, name))
			return &r->areas[i];
	r->areas = realloc(r->areas, (r->nr_areas + 1) * sizeof(*r->areas));
	if (!r->areas)
		abort();
	memset(&r->areas[r->nr_areas], 0, sizeof(*r->areas));
	snprintf(r->areas[r->nr_areas].name, sizeof(r->areas->name), "%s", name);
	return &r->areas[r->nr_areas++];
}

static sqlite3_stmt *lock_query(sqlite3 *db, const char *sql, const char *lock)
{
	sqlite3_stmt *st = db_prepare(db, sql);

	if (st && db_bind_text(st, "@lock", lock)) {
		sqlite3_finalize(st);
		st = NULL;
	}
	return st;
}

static const char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

/*
 * Count each fact of the lock into its file's area; which: 0 sites,
 * 1 imbalances, 2 chains, 3 precise chains (no call resolved by type, no
 * file the configuration does not build), 4 deadlock chains
 */
static int count(sqlite3 *db, const char *sql, const char *lock, struct lock_report *r, int which)
{
	sqlite3_stmt *st = lock_query(db, sql, lock);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct lock_area *a = area_of(r, col(st, 0));
		int *n[] = { &a->sites, &a->imbalances, &a->chains, &a->precise, &a->deadlocks };
		int *total[] = { &r->sites, &r->imbalances, &r->chains, &r->precise,
				 &r->deadlocks };

		(*n[which])++;
		(*total[which])++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("cannot read the facts of lock '%s'", lock);
}

static int cmp_area(const void *x, const void *y)
{
	const struct lock_area *a = x, *b = y;
	int wa = a->chains + a->imbalances, wb = b->chains + b->imbalances;

	if (wa != wb)
		return wb - wa;
	if (a->sites != b->sites)
		return b->sites - a->sites;
	return strcmp(a->name, b->name);
}

static int load(sqlite3 *db, const char *lock, struct lock_report *r)
{
	sqlite3_stmt *st = lock_query(db, "SELECT count(*), coalesce(sum(status = 'error'), 0), "
				      "coalesce(sum(partial IS NOT NULL), 0) "
				      "FROM files WHERE lock = @lock", lock);

	memset(r, 0, sizeof(*r));
	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		r->files = sqlite3_column_int(st, 0);
		r->failed = sqlite3_column_int(st, 1);
		r->partial = sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	if (count(db, "SELECT file FROM sites WHERE lock = @lock AND kind IN ('lock', 'unlock')",
		  lock, r, 0) ||
	    count(db, "SELECT file FROM imbalances WHERE lock = @lock", lock, r, 1) ||
	    count(db, "SELECT file FROM chains WHERE lock = @lock", lock, r, 2) ||
	    count(db, "SELECT file FROM chains WHERE lock = @lock AND " CHAIN_PRECISE_SQL, lock, r, 3) ||
	    count(db, "SELECT file FROM chains WHERE lock = @lock AND class = 'deadlock'", lock, r, 4))
		return -1;
	qsort(r->areas, r->nr_areas, sizeof(*r->areas), cmp_area);
	return 0;
}

static const char *const head[][3] = {	/* text, json, html */
	{ "\nimbalances:\n", ",\n\"imbalances\": [", "<h2>Imbalances</h2><ul class=\"lock-imb\">" },
	{ "\nchains (deadlocks, then waits, first, shortest first):\n", ",\n\"chains\": [",
	  "<h2>Chains that sleep or wait with it held</h2><p class=\"muted\">Deadlocks, then waits, first, "
	  "shortest first; a chain with a call resolved by the member's type alone is "
	  "marked <span class=\"kind by-type\">not precise</span>.</p>" },
};

static int imbalances(sqlite3 *db, const char *lock, struct strbuf *sb, int fmt)
{
	sqlite3_stmt *st = lock_query(db, "SELECT i.file, i.line, i.function, i.kind, "
				      "coalesce(f.partial, 0) FROM imbalances i LEFT JOIN functions f "
				      "ON f.file_id = i.file_id AND f.name = i.function "
				      "WHERE i.lock = @lock ORDER BY i.file, i.line", lock);
	int rc, n = 0, json = fmt == LOCK_JSON;

	if (!st)
		return -1;
	strbuf_addstr(sb, head[0][fmt]);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int partial = sqlite3_column_int(st, 4);

		if (fmt == LOCK_HTML) {
			html_addf(sb, "<li><code>%s:%d</code> <code>%s</code> <span class=\"kind\">%s</span>%s</li>",
				  col(st, 0), sqlite3_column_int(st, 1), col(st, 2), col(st, 3),
				  partial ? " <span class=\"muted\">(partial: sparse dropped some "
				  "of its code)</span>" : "");
		} else if (json) {
			strbuf_addstr(sb, n++ ? ",\n {\"file\": " : "\n {\"file\": ");
			json_str_or_null(sb, col(st, 0));
			strbuf_addf(sb, ", \"line\": %d, \"function\": ", sqlite3_column_int(st, 1));
			json_str_or_null(sb, col(st, 2));
			strbuf_addstr(sb, ", \"kind\": ");
			json_str_or_null(sb, col(st, 3));
			strbuf_addstr(sb, partial ? ", \"partial\": true}" : "}");
		} else {
			strbuf_addf(sb, "  %s:%d: %s: %s%s\n", col(st, 0), sqlite3_column_int(st, 1),
				    col(st, 2), col(st, 3), partial ? " (partial)" : "");
		}
	}
	strbuf_addstr(sb, json ? "]" : fmt == LOCK_HTML ? "</ul>" : "");
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * The analyzer's path, a JSON array of names, as "a -> b -> c"; in HTML
 * each name escaped in <code>, with an arrow between.
 */
static void arrows(struct strbuf *sb, const char *path, int html)
{
	struct strbuf name = STRBUF_INIT;
	int n = 0;

	for (;; path++) {
		if (*path && *path != ',' && *path != ']') {
			if (*path != '[' && *path != '"')
				strbuf_add(&name, path, 1);
			continue;
		}
		if (name.len && html)
			html_addf(sb, n++ ? " \xe2\x86\x92 <code>%s</code>" : "<code>%s</code>", name.buf);
		else if (name.len)
			strbuf_addf(sb, n++ ? " -> %s" : "%s", name.buf);
		strbuf_reset(&name);
		if (!*path || *path == ']')
			break;
	}
	strbuf_release(&name);
}

static void step_json(struct strbuf *sb, sqlite3_stmt *st, int n)
{
	strbuf_addstr(sb, n ? ", {\"function\": " : "{\"function\": ");
	json_str_or_null(sb, col(st, 0));
	strbuf_addstr(sb, ", \"file\": ");
	json_str_or_null(sb, sqlite3_column_type(st, 1) == SQLITE_NULL ? NULL : col(st, 1));
	strbuf_addf(sb, ", \"line\": %d, \"edge\": ", sqlite3_column_int(st, 2));
	json_str_or_null(sb, sqlite3_column_type(st, 3) == SQLITE_NULL ? NULL : col(st, 3));
	strbuf_addf(sb, ", \"candidates\": %d}", sqlite3_column_int(st, 4));
}

/*
 * A chain's calls, step by step: file:line where function N calls N+1,
 * and how that call was resolved (direct, registered, by-type of N).
 */
static int steps(sqlite3_stmt *st, sqlite3_int64 id, struct strbuf *sb, int fmt)
{
	int json = fmt == LOCK_JSON;
	struct strbuf prev = STRBUF_INIT, how = STRBUF_INIT;
	int rc, n = 0, waits = 0;

	sqlite3_reset(st);
	if (sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, "@id"), id) != SQLITE_OK)
		return -1;
	strbuf_addstr(sb, json ? ", \"steps\": [" : "");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (json)
			step_json(sb, st, n);
		else if (prev.len && fmt == LOCK_HTML)
			html_addf(sb, "<div class=\"step\"><code>%s</code> %s <code>%s</code> "
				  "(%s)</div>", prev.buf, waits ? "waits for" : "calls", col(st, 0),
				  how.buf);
		else if (prev.len)
			strbuf_addf(sb, "      %s %s %s (%s)\n", prev.buf,
				    waits ? "waits for" : "calls", col(st, 0), how.buf);
		strbuf_reset(&prev);
		strbuf_reset(&how);
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			strbuf_addf(&prev, "%s:%d: %s", col(st, 1), sqlite3_column_int(st, 2),
				    col(st, 0));
		strbuf_addstr(&how, *col(st, 3) ? col(st, 3) : "edge not recorded");
		if (!strcmp(col(st, 3), "by-type"))
			strbuf_addf(&how, ", one of %d", sqlite3_column_int(st, 4));
		/* a deadlock's wait: the handler's work set up (queued, started) there */
		waits = !strcmp(col(st, 3), "work") || !strcmp(col(st, 3), "thread") ||
			!strcmp(col(st, 3), "queued");
		if (waits && sqlite3_column_int(st, 4) > 1)
			strbuf_addf(&how, ", one of %d handlers that take it",
				    sqlite3_column_int(st, 4));
		n++;
	}
	strbuf_addstr(sb, json ? "]}" : fmt == LOCK_HTML ? "</details>" : "");
	strbuf_release(&prev);
	strbuf_release(&how);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * A chain's calls by type (in the chain and in the coverage that puts
 * its function under the lock) and why its first call holds the lock:
 * JSON fields, or a note in the text when the chain is not precise
 * (calls by type, or a file the configuration does not build).
 */
static void chain_origin(struct strbuf *sb, sqlite3_stmt *st, int fmt)
{
	int by_type = sqlite3_column_int(st, 6), unbuilt = chain_unbuilt(st, 8);

	if (fmt == LOCK_HTML) {
		if (by_type || unbuilt || !strcmp(col(st, 7), "by-type"))
			strbuf_addstr(sb, " <span class=\"kind by-type\">not precise</span>");
	} else if (fmt == LOCK_JSON) {
		if (sqlite3_column_type(st, 6) == SQLITE_NULL)
			strbuf_addstr(sb, ", \"by_type\": null");
		else
			strbuf_addf(sb, ", \"by_type\": %d", by_type);
		strbuf_addstr(sb, ", \"origin\": ");
		if (sqlite3_column_type(st, 7) == SQLITE_NULL)
			strbuf_addstr(sb, "null");
		else
			json_str_or_null(sb, col(st, 7));
		strbuf_addf(sb, ", \"built\": %s", chain_built_json(st, 8));
	} else if (unbuilt) {
		strbuf_addstr(sb, " (not precise: in a file the audited configuration does not build)");
	} else if (!strcmp(col(st, 7), "by-type")) {
		strbuf_addstr(sb, " (not precise: under the lock only through a call by type)");
	} else if (by_type) {
		strbuf_addf(sb, " (not precise: %d call%s by type)", by_type, by_type == 1 ? "" : "s");
	}
}

static int chains(sqlite3 *db, const char *lock, struct strbuf *sb, int fmt)
{
	sqlite3_stmt *st = lock_query(db, "SELECT id, file, line, function, class, path, "
				      "by_type, origin, " CHAIN_BUILT_SQL " FROM chains "
				      "WHERE lock = @lock ORDER BY class = 'sleep', class = 'wait', "
				      "length(path) - length(replace(path, ',', '')), file, line", lock);
	sqlite3_stmt *sst = db_prepare(db, "SELECT function, file, line, edge, candidates "
				       "FROM chain_steps "
				       "WHERE chain_id = @id ORDER BY step");
	int rc = SQLITE_ERROR, n = 0, json = fmt == LOCK_JSON;

	if (!st || !sst)
		goto out;
	strbuf_addstr(sb, head[1][fmt]);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (fmt == LOCK_HTML) {
			html_addf(sb, "<details class=\"chain\"%s><summary><code>%s:%d</code> "
				  "<code>%s</code> <span class=\"kind %s\">%s</span> <span class=\"path\">",
				  n++ < 3 ? " open" : "", col(st, 1), sqlite3_column_int(st, 2),
				  col(st, 3), col(st, 4), col(st, 4));
			arrows(sb, col(st, 5), 1);
			strbuf_addstr(sb, "</span>");
			chain_origin(sb, st, fmt);
			strbuf_addstr(sb, "</summary>");
		} else if (json) {
			strbuf_addstr(sb, n++ ? ",\n {\"file\": " : "\n {\"file\": ");
			json_str_or_null(sb, col(st, 1));
			strbuf_addf(sb, ", \"line\": %d, \"function\": ", sqlite3_column_int(st, 2));
			json_str_or_null(sb, col(st, 3));
			strbuf_addstr(sb, ", \"class\": ");
			json_str_or_null(sb, col(st, 4));
			/* the analyzer's JSON array, as bkl chains --json has it */
			strbuf_addf(sb, ", \"path\": %s", *col(st, 5) == '[' ? col(st, 5) : "[]");
			chain_origin(sb, st, fmt);
		} else {
			strbuf_addf(sb, "  %s:%d: %s: %s with %s held: ", col(st, 1),
				    sqlite3_column_int(st, 2), col(st, 3), col(st, 4), lock);
			arrows(sb, col(st, 5), 0);
			chain_origin(sb, st, fmt);
			strbuf_addstr(sb, "\n");
		}
		if (steps(sst, sqlite3_column_int64(st, 0), sb, fmt)) {
			rc = SQLITE_ERROR;
			break;
		}
	}
	strbuf_addstr(sb, json ? "]" : "");
out:
	sqlite3_finalize(st);
	sqlite3_finalize(sst);
	return rc == SQLITE_DONE ? 0 : error("cannot read the chains of lock '%s'", lock);
}

static void areas(const struct lock_report *r, struct strbuf *sb, int fmt)
{
	static const char *const top[] = {
		"\nsites  imbalances  chains  precise  area\n", ",\n\"areas\": [",
		"<h2>Areas</h2><table class=\"lock-areas\"><tr><th>area</th><th>sites</th>"
		"<th>imbalances</th><th>chains</th><th>precise</th></tr>",
	};
	int i;

	strbuf_addstr(sb, top[fmt]);
	for (i = 0; i < r->nr_areas; i++) {
		const struct lock_area *a = &r->areas[i];

		if (fmt == LOCK_HTML) {
			html_addf(sb, "<tr><td><code>%s</code></td><td>%d</td><td>%d</td><td>%d</td>"
				  "<td>%d</td></tr>", a->name, a->sites, a->imbalances, a->chains,
				  a->precise);
		} else if (fmt == LOCK_JSON) {
			strbuf_addstr(sb, i ? ",\n {\"area\": " : "\n {\"area\": ");
			json_str_or_null(sb, a->name);
			strbuf_addf(sb, ", \"sites\": %d, \"imbalances\": %d, \"chains\": %d, "
				    "\"precise\": %d, \"deadlocks\": %d}", a->sites, a->imbalances,
				    a->chains, a->precise, a->deadlocks);
		} else {
			strbuf_addf(sb, "%5d  %10d  %6d  %7d  %s\n", a->sites, a->imbalances,
				    a->chains, a->precise, a->name);
		}
	}
	strbuf_addstr(sb, fmt == LOCK_JSON ? "]" : fmt == LOCK_HTML ? "</table>" : "");
}

/* ", N partial" (sparse dropped code of N analyzed files), said when there are some */
static const char *partial_note(const struct lock_report *r)
{
	static char buf[48];

	if (!r->partial)
		return "";
	snprintf(buf, sizeof(buf), ", %d partial", r->partial);
	return buf;
}

/* "; N deadlocks: ..." (chains of class deadlock), said when there are some */
static const char *deadlock_note(const struct lock_report *r)
{
	static char buf[96];

	if (!r->deadlocks)
		return "";
	snprintf(buf, sizeof(buf), "; %d deadlock%s: a wait, with it held, for work that takes it",
		 r->deadlocks, r->deadlocks == 1 ? "" : "s");
	return buf;
}

int report_lock(sqlite3 *db, const char *lock, int fmt, struct strbuf *sb)
{
	struct lock_report r;
	int ret = -1;

	if (load(db, lock, &r))
		goto out;
	if (!r.files) {
		ret = error("no file analyzed for lock '%s' in this database (run 'bkl audit --lock %s')",
			    lock, lock);
		goto out;
	}
	if (fmt == LOCK_HTML) {
		html_addf(sb, "<p class=\"muted\"><a href=\"/\">overview</a> / lock</p><h1>%s</h1>"
			  "<p>%d files analyzed (%d failed%s): %d sites, %d imbalances, %d chains that "
			  "sleep or wait with it held (%d precise: no call by type, every file built)%s.</p>"
			  "<p class=\"muted\">The same as JSON: <code>bkl report --lock %s "
			  "--format json</code></p>", lock, r.files, r.failed, partial_note(&r),
			  r.sites, r.imbalances, r.chains, r.precise, deadlock_note(&r), lock);
	} else if (fmt == LOCK_JSON) {
		/*
		 * Version 2: the counts under "totals"; version 1 had them
		 * at the top, where "imbalances" and "chains" were also the
		 * lists' keys (a duplicate key that parsers read differently).
		 */
		strbuf_addstr(sb, "{\"format\": \"bkl-lock-report\", \"version\": 2, \"lock\": ");
		json_str_or_null(sb, lock);
		strbuf_addf(sb, ", \"totals\": {\"files\": %d, \"failed\": %d, \"sites\": %d, "
			    "\"imbalances\": %d, \"chains\": %d, \"precise\": %d, \"deadlocks\": %d, "
			    "\"partial\": %d}", r.files, r.failed, r.sites, r.imbalances, r.chains,
			    r.precise, r.deadlocks, r.partial);
	} else {
		strbuf_addf(sb, "lock %s: %d files analyzed (%d failed%s): %d sites, %d imbalances, "
			    "%d chains that sleep or wait with it held (%d precise: no call by "
			    "type, every file built)%s\n", lock, r.files, r.failed, partial_note(&r),
			    r.sites, r.imbalances, r.chains, r.precise, deadlock_note(&r));
	}
	areas(&r, sb, fmt);
	if (imbalances(db, lock, sb, fmt) || chains(db, lock, sb, fmt))
		goto out;
	strbuf_addstr(sb, fmt == LOCK_JSON ? "}\n" : "");
	ret = 0;
out:
	free(r.areas);
	return ret;
}
