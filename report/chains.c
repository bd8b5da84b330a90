// SPDX-License-Identifier: GPL-2.0
/*
 * Chains that sleep with the BKL held, as the analyzer records them, and
 * the burn-down from the campaign's status history.
 */
#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "db/db.h"
#include "report/report.h"
#include "lib/usage.h"

#include "report/sql.h"

/*
 * One step of a path: "func", "func@file:line", "file:line:func" or
 * "func (file:line)".
 */
static void parse_step(char *tok, struct report_step *st)
{
	char *at, *colon, *paren;

	memset(st, 0, sizeof(*st));
	if ((at = strchr(tok, '@'))) {
		*at++ = '\0';
		colon = strrchr(at, ':');
		if (colon) {
			*colon++ = '\0';
			st->line = atoi(colon);
		}
		st->file = xstrdup_or_null(at);
	} else if ((paren = strchr(tok, '(')) && strchr(paren, ':')) {
		char *end = strchr(paren, ')');

		if (end)
			*end = '\0';
		while (paren > tok && isspace((unsigned char)paren[-1]))
			paren--;
		*paren++ = '\0';
		while (*paren == '(' || isspace((unsigned char)*paren))
			paren++;
		colon = strrchr(paren, ':');
		*colon++ = '\0';
		st->line = atoi(colon);
		st->file = xstrdup_or_null(paren);
	} else if ((colon = strchr(tok, ':')) && isdigit((unsigned char)colon[1])) {
		char *second = strchr(colon + 1, ':');

		if (second) {
			*colon = '\0';
			st->file = xstrdup_or_null(tok);
			st->line = atoi(colon + 1);
			tok = second + 1;
		}
	}
	st->function = xstrdup_or_null(tok);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* "a -> b -> c" (or "a > b", "a, b"): the steps of one chain. */
void report_parse_path(struct report_chain *c)
{
	char *copy, *p, *next;
	int alloc = 0;

	if (!c->path)
		return;
	copy = xstrdup_or_null(c->path);
	/* a JSON array of names: ["a","b"] */
	for (p = copy; *p; p++)
		if (*p == '[' || *p == ']' || *p == '"')
			*p = ' ';
	for (p = copy; p; p = next) {
		char *sep = strstr(p, "->"), *tok;
		size_t skip = 2;

		if (!sep) {
			sep = strchr(p, ',');
			skip = 1;
		}
		if (!sep) {
			sep = strchr(p, '>');
			skip = 1;
		}
		next = sep ? sep + skip : NULL;
		if (sep)
			*sep = '\0';
		tok = trim(p);
		if (!*tok)
			continue;
		ALLOC_GROW(c->steps, c->nr_steps, alloc);
		parse_step(tok, &c->steps[c->nr_steps++]);
	}
	free(copy);
}

/* deadlock, then wait, before sleep */
static int class_rank(const char *class)
{
	if (!class)
		return 0;
	return !strcmp(class, "deadlock") ? 2 : !strcmp(class, "wait");
}

static int cmp_chain(const void *a, const void *b)
{
	const struct report_chain *x = a, *y = b;
	int xw = class_rank(x->class), yw = class_rank(y->class);
	int c;

	if (xw != yw)
		return yw - xw;
	if (x->nr_steps != y->nr_steps)
		return x->nr_steps - y->nr_steps;
	c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
	return c ? c : x->line - y->line;
}

/* The analyzer's evidence: each step with where it calls the next. */
static int load_steps(struct report_chain *c, sqlite3_stmt *steps, sqlite3_int64 id)
{
	int alloc = 0, rc;

	if (db_bind_int(steps, "@id", id))
		return -1;
	while ((rc = sqlite3_step(steps)) == SQLITE_ROW) {
		struct report_step *s;

		ALLOC_GROW(c->steps, c->nr_steps, alloc);
		s = &c->steps[c->nr_steps++];
		s->function = xstrdup_or_null((const char *)sqlite3_column_text(steps, 0));
		s->file = xstrdup_or_null((const char *)sqlite3_column_text(steps, 1));
		s->line = sqlite3_column_int(steps, 2);
	}
	sqlite3_reset(steps);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Takes st (a scoped SQL_CHAINS) and steps (SQL_CHAIN_STEPS); finalizes both. */
int report_load_chains(sqlite3 *db, struct report *r, sqlite3_stmt *st, sqlite3_stmt *steps)
{
	int alloc = 0, rc = SQLITE_ERROR;

	if (!st || !steps)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_chain *c;

		ALLOC_GROW(r->chains, r->nr_chains, alloc);
		c = &r->chains[r->nr_chains++];
		memset(c, 0, sizeof(*c));
		c->file = xstrdup_or_null((const char *)sqlite3_column_text(st, 0));
		c->line = sqlite3_column_int(st, 1);
		c->function = xstrdup_or_null((const char *)sqlite3_column_text(st, 2));
		c->class = xstrdup_or_null((const char *)sqlite3_column_text(st, 3));
		c->driver = xstrdup_or_null((const char *)sqlite3_column_text(st, 4));
		c->path = xstrdup_or_null((const char *)sqlite3_column_text(st, 5));
		if (load_steps(c, steps, sqlite3_column_int64(st, 6))) {
			rc = SQLITE_ERROR;
			break;
		}
		if (!c->nr_steps)
			report_parse_path(c);
	}
out:
	sqlite3_finalize(st);
	sqlite3_finalize(steps);
	if (rc != SQLITE_DONE)
		return error("sqlite: %s", sqlite3_errmsg(db));
	qsort(r->chains, r->nr_chains, sizeof(*r->chains), cmp_chain);
	return 0;
}

/* Drivers per day over the whole history, and the day it reaches 0. */
static void project(struct burndown *bd)
{
	const struct report_point *first = &bd->pts[0], *last = &bd->pts[bd->nr - 1];
	double days = (double)(last->t - first->t) / 86400;
	long gone = first->drivers - last->drivers;

	if (days < 1)
		days = 1;	/* a first day's burst is not a pace */
	bd->pace = gone / days;
	bd->zero = 0;
	if (gone > 0 && last->drivers > 0)
		bd->zero = last->t + (time_t)(last->drivers / bd->pace * 86400);
}

static int driver_index(const struct report_driver *d, int nr, const char *name)
{
	int lo = 0, hi = nr - 1;

	while (name && lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(name, d[mid].name);

		if (!c)
			return mid;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

static void add_point(struct burndown *bd, int *alloc, time_t t, long drivers, long sites)
{
	if (!bd->nr || bd->pts[bd->nr - 1].t != t) {
		ALLOC_GROW(bd->pts, bd->nr, *alloc);
		bd->nr++;
	}
	bd->pts[bd->nr - 1].t = t;
	bd->pts[bd->nr - 1].drivers = drivers;
	bd->pts[bd->nr - 1].sites = sites;
}

/*
 * A driver's parent (the first of report_driver.follows in d), -1 when it
 * follows none; -2 when it is not counted at all (possibly covered).
 */
static int *burndown_parents(const struct report_driver *d, int nr)
{
	int *par = malloc((nr + 1) * sizeof(*par)), i;

	if (!par)
		abort();
	for (i = 0; i < nr; i++) {
		char name[256];

		par[i] = report_driver_counted(&d[i]) ? -1 : -2;
		if (par[i] == -1 && d[i].cover && !strcmp(d[i].cover, "follows") && d[i].follows) {
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(d[i].follows, ";"), d[i].follows);
			par[i] = driver_index(d, nr, name);
		}
	}
	return par;
}

/* Drivers and sites still under the BKL, each driver's status in cur. */
static void burndown_count(const struct report_driver *d, int nr, const int *cur, const int *par,
			   long *drivers, long *sites)
{
	int i;

	*drivers = *sites = 0;
	for (i = 0; i < nr; i++) {
		if (par[i] == -2 || !report_status_covered(cur[i]))
			continue;
		/* a follower leaves with its parent, once the parent has a push-down */
		if (par[i] >= 0 && !report_status_covered(cur[par[i]]))
			continue;
		(*drivers)++;
		*sites += d[i].sites + d[i].implicit;
	}
}

/*
 * The burn-down: drivers (and their sites, explicit and implicit) still
 * under the BKL after each change of status; possibly covered drivers are
 * not counted, a follower counts until its parent leaves.  Every driver
 * starts unclaimed at the first recorded change; the last point is now.
 * d is sorted by name.
 */
int report_burndown(sqlite3 *db, const struct report_driver *d, int nr, struct burndown *bd)
{
	sqlite3_stmt *st;
	int *cur, *par, alloc = 0, rc;
	long drivers, sites;
	time_t now = time(NULL);

	memset(bd, 0, sizeof(*bd));
	cur = calloc(nr + 1, sizeof(*cur));	/* ST_UNCLAIMED */
	if (!cur)
		abort();
	par = burndown_parents(d, nr);
	burndown_count(d, nr, cur, par, &drivers, &sites);
	bd->drivers_total = drivers;
	st = db_has_table(db, "campaign_log") ? db_prepare(db, SQL_HISTORY) : NULL;
	if (!db_has_table(db, "campaign_log")) {
		free(cur);
		free(par);
		return 0;
	}
	if (!st) {
		free(cur);
		free(par);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int to = report_status_parse((const char *)sqlite3_column_text(st, 1));
		time_t t = sqlite3_column_int64(st, 2);
		int k = driver_index(d, nr, (const char *)sqlite3_column_text(st, 0));

		if (k < 0 || to < 0 || t <= 0)
			continue;
		if (!bd->nr)
			add_point(bd, &alloc, t - 1, drivers, sites);
		cur[k] = to;
		burndown_count(d, nr, cur, par, &drivers, &sites);
		add_point(bd, &alloc, t, drivers, sites);
	}
	sqlite3_finalize(st);
	free(cur);
	free(par);
	if (rc != SQLITE_DONE)
		return error("cannot read the status history: %s", sqlite3_errmsg(db));
	if (bd->nr) {
		add_point(bd, &alloc, now > bd->pts[bd->nr - 1].t ? now : bd->pts[bd->nr - 1].t + 1,
			  drivers, sites);
		project(bd);
	}
	return 0;
}
