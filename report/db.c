// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a report from the DB.  Every statement is a constant with named
 * binds; a scope (@sub, @drv) of NULL means "any".  The tables belong to
 * the analyzer (sites, imbalances, chains) and the campaign (drivers,
 * their files, subsystems, history); a table not there yet gives empty
 * lists and a note, never an error, so the dashboard works from day one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "db/db.h"
#include "audit/progress.h"
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "report/report.h"
#include "lib/usage.h"

#include "report/sql.h"

static char *col(sqlite3_stmt *st, int i)
{
	return xstrdup_or_null((const char *)sqlite3_column_text(st, i));
}

static int has_all(sqlite3 *db, const char *const *tables)
{
	for (; *tables; tables++)
		if (!db_has_table(db, *tables))
			return 0;
	return 1;
}

static void note_missing(struct report *r, const char *what)
{
	size_t len = r->missing ? strlen(r->missing) : 0;

	if (r->missing && strstr(r->missing, what))
		return;
	r->missing = realloc(r->missing, len + strlen(what) + 3);
	if (!r->missing)
		abort();
	sprintf(r->missing + len, "%s%s", len ? ", " : "", what);
}

/* Prepare a scoped statement: @sub, @drv and @tree bound when the SQL has them. */
sqlite3_stmt *report_scoped(sqlite3 *db, const char *sql, const struct report *r)
{
	sqlite3_stmt *st = db_prepare(db, sql);

	if (!st)
		return NULL;
	if (sqlite3_bind_parameter_index(st, "@sub") && r->subsystem)
		db_bind_text(st, "@sub", r->subsystem);
	if (sqlite3_bind_parameter_index(st, "@drv") && r->driver)
		db_bind_text(st, "@drv", r->driver);
	if (sqlite3_bind_parameter_index(st, "@tree") && r->db_tree)
		db_bind_text(st, "@tree", r->db_tree);
	return st;
}

char *report_tree(sqlite3 *db, const char *given)
{
	sqlite3_stmt *st;
	char *tree = NULL;

	const char *env = getenv("BKL_TREE");

	if (given)
		return xstrdup_or_null(given);
	st = db_prepare(db, SQL_META_TREE);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		tree = col(st, 0);
	sqlite3_finalize(st);
	if (!tree && env && *env)
		tree = xstrdup_or_null(env);
	if (!tree && path_exists(ktree_dir("work")))
		tree = xstrdup_or_null(ktree_dir("work"));
	return tree;
}

static char *meta(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT value FROM meta WHERE key = @k");
	char *v = NULL;

	if (!st)
		return NULL;
	db_bind_text(st, "@k", key);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = col(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* "A <a@x>; B <b@y>" (one MAINTAINERS section's M: lines) into a list. */
static void split_people(struct report_subsys *s, const char *joined)
{
	const char *p = joined;
	int alloc = 0;

	while (p && *p) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p);

		ALLOC_GROW(s->maintainers, s->nr_maintainers, alloc);
		s->maintainers[s->nr_maintainers] = strndup(p, len);
		s->nr_maintainers++;
		p = end ? end + 2 : NULL;
	}
}

static int load_log(sqlite3 *db, struct report *r, int max)
{
	sqlite3_stmt *st = report_scoped(db, SQL_LOG, r);
	int alloc = 0, rc;

	if (!st || db_bind_int(st, "@max", max)) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_event *e;

		ALLOC_GROW(r->log, r->nr_log, alloc);
		e = &r->log[r->nr_log++];
		e->ts = col(st, 0);
		e->action = col(st, 1);
		e->status = col(st, 2);
		e->holder = col(st, 3);
		e->who = col(st, 4);
		e->note = col(st, 5);
		e->driver = col(st, 6);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int load_drivers(sqlite3 *db, struct report *r)
{
	sqlite3_stmt *st = report_scoped(db, SQL_DRIVERS, r);
	int alloc = 0, rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_driver *d;

		ALLOC_GROW(r->drivers, r->nr_drivers, alloc);
		d = &r->drivers[r->nr_drivers++];
		memset(d, 0, sizeof(*d));
		d->name = col(st, 0);
		d->subsystem = col(st, 1);
		d->status = col(st, 2);
		d->module = col(st, 3);
		d->config = col(st, 4);
		d->claimed_by = col(st, 5);
		d->since = col(st, 6);
		if (!d->subsystem)
			d->subsystem = xstrdup_or_null("(no subsystem)");
		/* a scope's MAINTAINERS section: the same on each of its drivers */
		if ((r->subsystem || r->driver) && r->nr_drivers == 1) {
			split_people(&r->total, (const char *)sqlite3_column_text(st, 7));
			r->total.list = col(st, 8);
		}
		if (!d->status)
			d->status = xstrdup_or_null("unclaimed");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int load_bugs(sqlite3 *db, struct report *r)
{
	sqlite3_stmt *st = report_scoped(db, SQL_BUGS, r);
	int alloc = 0, rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_bug *b;

		ALLOC_GROW(r->bugs, r->nr_bugs, alloc);
		b = &r->bugs[r->nr_bugs++];
		b->driver = col(st, 0);
		b->note = col(st, 1);
		b->ts = col(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int load_cover(sqlite3 *db, struct report *r)
{
	sqlite3_stmt *st = report_scoped(db, SQL_COVER, r);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_driver *d = report_find_driver(r, (const char *)sqlite3_column_text(st, 0));

		if (!d)
			continue;
		d->cover = col(st, 1);
		d->follows = col(st, 2);
		d->via = col(st, 3);
		if (sqlite3_column_text(st, 4)) {	/* a follower's, maybe its parent's */
			free(d->status);
			d->status = col(st, 4);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

struct report_driver *report_find_driver(const struct report *r, const char *name)
{
	int lo = 0, hi = r->nr_drivers - 1;

	/* SQL_DRIVERS orders by name, as strcmp does (BINARY collation) */
	while (name && lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(name, r->drivers[mid].name);

		if (!c)
			return &r->drivers[mid];
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* One "driver, count" query into the drivers' counters. */
static int load_counts(sqlite3 *db, struct report *r, const char *sql, size_t off)
{
	sqlite3_stmt *st = report_scoped(db, sql, r);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_driver *d = report_find_driver(r, (const char *)sqlite3_column_text(st, 0));

		if (d)
			*(int *)((char *)d + off) = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int load_files(sqlite3 *db, struct report *r)
{
	sqlite3_stmt *st = report_scoped(db, SQL_DRIVER_FILES, r);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_driver *d = report_find_driver(r, (const char *)sqlite3_column_text(st, 0));

		if (!d)
			continue;
		d->files = realloc(d->files, (d->nr_files + 1) * sizeof(*d->files));
		if (!d->files)
			abort();
		d->files[d->nr_files++] = col(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int load_sites(sqlite3 *db, struct report *r, const char *sql,
		      struct report_site **out, int *nr)
{
	sqlite3_stmt *st = report_scoped(db, sql, r);
	int alloc = 0, rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_site *s;

		ALLOC_GROW(*out, *nr, alloc);
		s = &(*out)[(*nr)++];
		s->file = col(st, 0);
		s->line = sqlite3_column_int(st, 1);
		s->function = col(st, 2);
		s->kind = col(st, 3);
		s->driver = col(st, 4);
		s->note = sqlite3_column_count(st) > 5 ? col(st, 5) : NULL;
		/* the callee of a lock site only when it is not the usual one */
		if (s->note && (!strcmp(s->note, "lock_kernel") || !strcmp(s->note, "unlock_kernel"))) {
			free(s->note);
			s->note = NULL;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int load_qemu(sqlite3 *db, struct report *r)
{
	sqlite3_stmt *st = report_scoped(db, SQL_QEMU, r);
	int alloc = 0, rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_qemu *q;

		ALLOC_GROW(r->qemu, r->nr_qemu, alloc);
		q = &r->qemu[r->nr_qemu++];
		q->driver = col(st, 0);
		q->result = col(st, 1);
		q->at = col(st, 2);
		q->log = col(st, 3);
		q->detail = col(st, 4);
		q->phase = col(st, 5);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int cmp_subsys(const void *a, const void *b)
{
	const struct report_subsys *x = a, *y = b;

	if (x->remaining != y->remaining)
		return y->remaining - x->remaining;
	if (x->sites_left != y->sites_left)
		return y->sites_left - x->sites_left;
	return strcmp(x->name, y->name);
}

static void add_driver(struct report_subsys *s, const struct report_driver *d)
{
	int st = report_status_parse(d->status);

	if (st < 0)
		st = ST_UNCLAIMED;
	if (!report_driver_counted(d)) {
		s->possibly++;
		return;
	}
	if (d->cover && !strcmp(d->cover, "follows"))
		s->followers++;
	else
		s->own++;
	s->status[st]++;
	s->drivers_nr++;
	s->sites += d->sites;
	s->implicit += d->implicit;
	s->chains += d->chains;
	s->deadlocks += d->deadlocks;
	s->imbalances += d->imbalances;
	if (report_status_covered(st)) {
		s->remaining++;
		s->sites_left += d->sites;
	}
}

/* Totals, and one row per subsystem ranked by the work left in it. */
static void aggregate(struct report *r)
{
	int i, j, alloc = 0;

	for (i = 0; i < r->nr_drivers; i++) {
		const struct report_driver *d = &r->drivers[i];

		add_driver(&r->total, d);
		for (j = 0; j < r->nr_subs; j++)
			if (!strcmp(r->subs[j].name, d->subsystem))
				break;
		if (j == r->nr_subs) {
			ALLOC_GROW(r->subs, r->nr_subs, alloc);
			memset(&r->subs[j], 0, sizeof(r->subs[j]));
			r->subs[j].name = xstrdup_or_null(d->subsystem);
			r->nr_subs++;
		}
		add_driver(&r->subs[j], d);
	}
	qsort(r->subs, r->nr_subs, sizeof(*r->subs), cmp_subsys);
}

static int load_core_sites(sqlite3 *db, struct report *r)
{
	sqlite3_stmt *st = report_scoped(db, SQL_CORE_SITES, r);

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		r->total.core_sites = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

/* 1 when the named scope does not exist. */
static int scope_exists(sqlite3 *db, const struct report *r)
{
	sqlite3_stmt *st;
	int found;

	if (!r->subsystem && !r->driver)
		return 1;
	st = report_scoped(db, r->driver ? SQL_DRIVER_EXISTS : SQL_SUBSYSTEM_EXISTS, r);
	if (!st)
		return -1;
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static int load_lists(sqlite3 *db, struct report *r)
{
	int ret = 0;

	if (has_all(db, sql_sites_tables)) {
		ret |= load_sites(db, r, SQL_SITES, &r->sites, &r->nr_sites);
		ret |= load_sites(db, r, SQL_IMPLICIT, &r->implicit, &r->nr_implicit);
	}
	if (has_all(db, sql_imbalances_tables))
		ret |= load_sites(db, r, SQL_IMBALANCES, &r->imbalances, &r->nr_imbalances);
	if (has_all(db, sql_chains_tables))
		ret |= report_load_chains(db, r, report_scoped(db, SQL_CHAINS, r),
					  report_scoped(db, SQL_CHAIN_STEPS, r));
	if (has_all(db, sql_qemu_tables))
		ret |= load_qemu(db, r);
	else
		note_missing(r, "QEMU results");
	return ret ? -1 : 0;
}

/* A report from a half-audited tree says so: its counts will grow. */
static int load_progress(sqlite3 *db, struct report *r)
{
	struct audit_progress p;
	struct strbuf sb = STRBUF_INIT;

	if (!db_has_table(db, "audit_pending") || !db_has_table(db, "audit_files"))
		return 0;
	if (audit_progress_load(db, &p))
		return -1;
	audit_progress_line(&p, &sb);
	if (sb.len)
		r->audit_note = xstrdup_or_null(sb.buf);
	strbuf_reset(&sb);
	audit_progress_json(&p, &sb);
	r->audit_json = xstrdup_or_null(sb.buf);
	strbuf_release(&sb);
	audit_progress_release(&p);
	return 0;
}

int report_load(sqlite3 *db, const char *subsystem, const char *driver,
		const char *tree, struct report *r)
{
	time_t now = time(NULL);
	char stamp[32];
	int found;

	memset(r, 0, sizeof(*r));
	r->subsystem = xstrdup_or_null(subsystem);
	r->driver = xstrdup_or_null(driver);
	r->tree = report_tree(db, tree);
	r->db_tree = report_tree(db, NULL);
	r->version = meta(db, "version");
	if (!r->version && r->tree) {
		struct strbuf v = STRBUF_INIT, mk = STRBUF_INIT;

		strbuf_addf(&mk, "%s/Makefile", r->tree);
		if (path_exists(mk.buf) && !ktree_version(r->tree, &v))
			r->version = xstrdup_or_null(v.buf);
		strbuf_release(&v);
		strbuf_release(&mk);
	}
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	r->generated = xstrdup_or_null(stamp);
	if (load_progress(db, r))
		goto out_err;
	if (!has_all(db, sql_campaign_tables)) {
		note_missing(r, "the campaign's drivers (bkl drivers)");
		found = !subsystem && !driver;
		if (!found)
			report_release(r);
		return found ? 0 : 1;
	}
	found = scope_exists(db, r);
	if (found <= 0) {
		report_release(r);
		return found < 0 ? -1 : 1;
	}
	if (load_drivers(db, r) || load_files(db, r))
		goto out_err;
	if (has_all(db, sql_cover_tables) && load_cover(db, r))
		goto out_err;
	if (has_all(db, sql_bugs_tables) && load_bugs(db, r))
		goto out_err;
	if (has_all(db, sql_sites_tables)) {
		if (load_counts(db, r, SQL_COUNT_SITES, offsetof(struct report_driver, sites)) ||
		    load_counts(db, r, SQL_COUNT_IMPLICIT, offsetof(struct report_driver, implicit)))
			goto out_err;
	} else {
		note_missing(r, "the analyzer's sites (bkl analyze)");
	}
	if (has_all(db, sql_chains_tables) &&
	    (load_counts(db, r, SQL_COUNT_CHAINS, offsetof(struct report_driver, chains)) ||
	     load_counts(db, r, SQL_COUNT_DEADLOCKS, offsetof(struct report_driver, deadlocks))))
		goto out_err;
	if (has_all(db, sql_imbalances_tables) &&
	    load_counts(db, r, SQL_COUNT_IMBALANCES, offsetof(struct report_driver, imbalances)))
		goto out_err;
	aggregate(r);
	if (!subsystem && !driver && has_all(db, sql_sites_tables) && load_core_sites(db, r))
		goto out_err;
	if (subsystem || driver) {
		r->total.name = xstrdup_or_null(subsystem ? subsystem : r->drivers[0].subsystem);
		if (load_lists(db, r) || (driver && load_log(db, r, -1)))
			goto out_err;
	} else if (report_burndown(db, r->drivers, r->nr_drivers, &r->bd) ||
		   (has_all(db, sql_history_tables) && load_log(db, r, REPORT_RECENT))) {
		goto out_err;
	}
	return 0;
out_err:
	report_release(r);
	return -1;
}
