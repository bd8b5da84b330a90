// SPDX-License-Identifier: GPL-2.0
/*
 * The audit's progress, as bkl audit records it and as the readers of
 * the DB (pick, drivers, report, serve) tell it: a first audit takes
 * hours on a slow machine, and an empty answer from a half-analyzed
 * tree must not read as "the campaign is finished".
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db/db.h"
#include "audit/order.h"
#include "audit/progress.h"
#include "audit/jobs.h"
#include "lib/quote.h"
#include "lib/usage.h"

static int meta_int(sqlite3 *db, const char *key, int *out, char *text, size_t size)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT value FROM meta WHERE key = @key");

	if (!st)
		return -1;
	db_bind_text(st, "@key", key);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		if (out)
			*out = atoi((const char *)sqlite3_column_text(st, 0));
		if (text)
			snprintf(text, size, "%s", (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return 0;
}

static struct audit_area_count *area_of(struct audit_progress *p, const char *path)
{
	char area[256];
	int i;

	audit_area(path, area, sizeof(area));
	/* rows come sorted by path: an area's files are consecutive */
	for (i = p->nr_areas - 1; i >= 0 && i >= p->nr_areas - 4; i--)
		if (!strcmp(p->areas[i].area, area))
			return &p->areas[i];
	for (i = 0; i < p->nr_areas; i++)
		if (!strcmp(p->areas[i].area, area))
			return &p->areas[i];
	p->areas = realloc(p->areas, (p->nr_areas + 1) * sizeof(*p->areas));
	if (!p->areas || !(p->areas[p->nr_areas].area = strdup(area)))
		abort();
	p->areas[p->nr_areas].done = p->areas[p->nr_areas].left = 0;
	return &p->areas[p->nr_areas++];
}

static int count_areas(sqlite3 *db, struct audit_progress *p, const char *sql, int left)
{
	sqlite3_stmt *st = db_prepare(db, sql);

	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct audit_area_count *a = area_of(p, (const char *)sqlite3_column_text(st, 0));

		if (left)
			a->left++;
		else
			a->done++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("cannot read the audit's progress: %s", db_describe(db, rc));
}

static int cmp_area(const void *x, const void *y)
{
	const struct audit_area_count *a = x, *b = y;

	if (!a->left != !b->left)
		return a->left ? 1 : -1;
	return strcmp(a->area, b->area);
}

int audit_progress_load(sqlite3 *db, struct audit_progress *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	if (meta_int(db, "audit.state", NULL, p->state, sizeof(p->state)) ||
	    meta_int(db, "audit.pid", &p->pid, NULL, 0) ||
	    db_count(db, "SELECT count(*) FROM files", &p->analyzed_files))
		return -1;
	if (p->pid > 0 && p->pid != getpid() && kill(p->pid, 0))
		p->pid = 0;
	if (!strcmp(p->state, "running") && !p->pid)
		strcpy(p->state, "stopped");	/* killed: nobody is finishing it */
	if (!*p->state)
		return 0;
	if (count_areas(db, p, "SELECT path FROM audit_files WHERE path NOT IN "
			"(SELECT path FROM audit_pending) ORDER BY path", 0) ||
	    count_areas(db, p, "SELECT path FROM audit_pending ORDER BY path", 1))
		return -1;
	for (i = 0; i < p->nr_areas; i++) {
		p->left += p->areas[i].left;
		p->total += p->areas[i].left + p->areas[i].done;
		p->nr_complete += !p->areas[i].left;
	}
	qsort(p->areas, p->nr_areas, sizeof(*p->areas), cmp_area);
	return 0;
}

void audit_progress_release(struct audit_progress *p)
{
	int i;

	for (i = 0; i < p->nr_areas; i++)
		free(p->areas[i].area);
	free(p->areas);
	memset(p, 0, sizeof(*p));
}

int audit_progress_incomplete(const struct audit_progress *p)
{
	return !p->analyzed_files || (*p->state && (p->left || strcmp(p->state, "complete")));
}

/* The areas the campaign starts with, named whether done or not. */
static const char *const first_areas[] = { "drivers/char", "drivers/tty", "fs", NULL };

static const struct audit_area_count *find_area(const struct audit_progress *p, const char *a)
{
	int i;

	for (i = 0; i < p->nr_areas; i++)
		if (!strcmp(p->areas[i].area, a))
			return &p->areas[i];
	return NULL;
}

void audit_progress_line(const struct audit_progress *p, struct strbuf *out)
{
	int i, done = p->total - p->left;

	strbuf_reset(out);
	if (!audit_progress_incomplete(p))
		return;
	if (!p->analyzed_files && !*p->state) {
		strbuf_addstr(out, "nothing is analyzed in this database yet: run 'make audit' "
			      "(or 'bkl audit')");
		return;
	}
	if (done < 0)
		done = 0;
	strbuf_addf(out, "the audit is incomplete: %d of %d files analyzed (%.1f%%, %s",
		    done, p->total, p->total ? 100.0 * done / p->total : 0.0,
		    p->pid ? "running" : "stopped");
	if (p->pid)
		strbuf_addf(out, " as pid %d", p->pid);
	strbuf_addf(out, "); %d of %d areas complete", p->nr_complete, p->nr_areas);
	for (i = 0; first_areas[i]; i++) {
		const struct audit_area_count *a = find_area(p, first_areas[i]);

		if (!a)
			continue;
		if (a->left)
			strbuf_addf(out, ", %s %d files left", a->area, a->left);
		else
			strbuf_addf(out, ", %s complete", a->area);
	}
	strbuf_addstr(out, p->pid ? "; results grow as it goes"
			  : "; run 'make audit' (or 'bkl audit') to resume");
}

void audit_progress_json(const struct audit_progress *p, struct strbuf *out)
{
	int i, n = 0;

	strbuf_addstr(out, "{\"state\":");
	json_str(out, *p->state ? p->state : (p->analyzed_files ? "none" : "empty"));
	strbuf_addf(out, ",\"total\":%d,\"analyzed\":%d,\"running\":%s,\"complete_areas\":[",
		    p->total, p->total - p->left, p->pid ? "true" : "false");
	for (i = 0; i < p->nr_areas; i++) {
		if (p->areas[i].left)
			continue;
		strbuf_addstr(out, n++ ? "," : "");
		json_str(out, p->areas[i].area);
	}
	strbuf_addstr(out, "],\"pending_areas\":[");
	for (i = n = 0; i < p->nr_areas; i++) {
		if (!p->areas[i].left)
			continue;
		strbuf_addstr(out, n++ ? ",{\"area\":" : "{\"area\":");
		json_str(out, p->areas[i].area);
		strbuf_addf(out, ",\"left\":%d}", p->areas[i].left);
	}
	strbuf_addstr(out, "]}");
}

int audit_progress_warn(sqlite3 *db)
{
	struct audit_progress p;
	struct strbuf line = STRBUF_INIT;
	int incomplete;

	if (audit_progress_load(db, &p))
		return -1;
	incomplete = audit_progress_incomplete(&p);
	audit_progress_line(&p, &line);
	if (line.len)
		warning("%s", line.buf);
	strbuf_release(&line);
	audit_progress_release(&p);
	return incomplete;
}

static int pending_count(sqlite3 *db, int *n)
{
	return db_count(db, "SELECT count(*) FROM audit_pending", n);
}

int audit_progress_plan(sqlite3 *db, const char *const *walked, const char *kind, int nr_walked,
			const struct kjob *job, const unsigned char *tier, int nr)
{
	sqlite3_stmt *del = NULL, *ins = NULL, *kinds = NULL;
	char num[32], k[2] = "";
	int i;

	if (db_begin(db))
		return -1;
	/* files outside this run's scope stay pending from an earlier run */
	del = db_prepare(db, "DELETE FROM audit_pending WHERE path = @path");
	ins = db_prepare(db, "INSERT OR REPLACE INTO audit_pending (path, tier) VALUES (@path, @tier)");
	kinds = db_prepare(db, "INSERT OR REPLACE INTO audit_kinds (path, kind) VALUES (@path, @kind)");
	if (!del || !ins || !kinds)
		goto fail;
	for (i = 0; i < nr_walked; i++) {
		k[0] = kind[i];
		sqlite3_reset(del);
		sqlite3_reset(kinds);
		if (db_bind_text(del, "@path", walked[i]) || db_step_done(del) ||
		    db_bind_text(kinds, "@path", walked[i]) || db_bind_text(kinds, "@kind", k) ||
		    db_step_done(kinds))
			goto fail;
	}
	for (i = 0; i < nr; i++) {
		sqlite3_reset(ins);
		if (db_bind_text(ins, "@path", job[i].path) || db_bind_int(ins, "@tier", tier[i]) ||
		    db_step_done(ins))
			goto fail;
	}
	snprintf(num, sizeof(num), "%d", (int)getpid());
	if (db_set_meta(db, "audit.pid", num) || db_set_meta(db, "audit.state", "running"))
		goto fail;
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	sqlite3_finalize(kinds);
	return db_commit(db);
fail:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	sqlite3_finalize(kinds);
	db_rollback(db);
	return error("cannot record the audit's plan");
}

int audit_progress_done(sqlite3 *db, const struct kjob *job, int nr)
{
	sqlite3_stmt *st;
	int i;

	if (db_begin(db))
		return -1;
	st = db_prepare(db, "DELETE FROM audit_pending WHERE path = @path");
	if (!st)
		goto fail;
	for (i = 0; i < nr; i++) {
		if (job[i].rc < 0)
			continue;	/* not run: still pending */
		sqlite3_reset(st);
		if (db_bind_text(st, "@path", job[i].path) || db_step_done(st))
			goto fail;
	}
	sqlite3_finalize(st);
	return db_commit(db);
fail:
	sqlite3_finalize(st);
	db_rollback(db);
	return error("cannot record the audit's progress");
}

int audit_progress_finish(sqlite3 *db)
{
	int left = 0;

	if (pending_count(db, &left) ||
	    db_set_meta(db, "audit.state", left ? "stopped" : "complete") ||
	    db_set_meta(db, "audit.pid", "0"))
		return error("cannot record the audit's state");
	return left;
}

static const char *const merge_sql[] = {
	"INSERT OR REPLACE INTO main.audit_files SELECT * FROM st.audit_files",
	"INSERT OR REPLACE INTO main.audit_stamps SELECT * FROM st.audit_stamps",
	"INSERT OR REPLACE INTO main.audit_kinds SELECT * FROM st.audit_kinds",
	"DELETE FROM main.audit_pending WHERE path IN (SELECT path FROM st.audit_files "
	"WHERE path NOT IN (SELECT path FROM st.audit_pending))",
	"INSERT OR REPLACE INTO main.audit_pending SELECT * FROM st.audit_pending",
	"INSERT OR REPLACE INTO main.meta SELECT key, value FROM st.meta "
	"WHERE key LIKE 'audit.%' AND key NOT IN ('audit.state', 'audit.pid')",
	NULL
};

int audit_progress_merge(sqlite3 *db, const char *shard)
{
	sqlite3_stmt *st = db_prepare(db, "ATTACH DATABASE @path AS st");
	int i, n = 0, ret = -1;

	if (!st)
		return -1;
	if (db_bind_text(st, "@path", shard) || db_step_done(st)) {
		sqlite3_finalize(st);
		return error("cannot open the shard '%s'", shard);
	}
	sqlite3_finalize(st);
	if (db_count(db, "SELECT count(*) FROM st.audit_files", &n) || db_begin(db))
		goto out;
	for (i = 0; n && merge_sql[i]; i++)
		if (db_exec(db, merge_sql[i])) {
			db_rollback(db);
			goto out;
		}
	ret = db_commit(db) ? -1 : n > 0;
out:
	db_exec(db, "DETACH DATABASE st");
	if (ret < 0)
		error("cannot merge the audit's state from '%s'", shard);
	return ret;
}
