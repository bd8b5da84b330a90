/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_REPORT_H
#define BKL_REPORT_H

/*
 * The campaign as `bkl report` and the dashboard show it: loaded from the
 * DB (report/db.c, every statement constant with named binds) into
 * plain structs, then rendered as text, Markdown, JSON (the other files of report/)
 * or HTML (web/).  A scope is the whole tree, a subsystem or a driver.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <time.h>
#include "lib/alloc.h"
#include "lib/quote.h"
#include "lib/strbuf.h"

enum report_status {
	ST_UNCLAIMED, ST_CLAIMED, ST_PUSHED_DOWN, ST_AUDITED, ST_CONVERTED,
	ST_TESTED, ST_DONE, ST_BLOCKED, NR_STATUS
};
extern const char *const report_status_name[NR_STATUS];
int report_status_parse(const char *s);	/* -1 if unknown */
/* Still holds the BKL (sites count as remaining). */
int report_status_covered(int st);

struct report_site {
	char *file, *function, *kind, *driver, *note;
	int line;
};

struct report_step {
	char *function, *file;
	int line;
};

struct report_chain {
	char *file, *function, *class, *driver, *path;
	int line;
	struct report_step *steps;
	int nr_steps;
};

struct report_event {		/* one step of the campaign's log */
	char *ts, *action, *status, *holder, *who, *note, *driver;
};

struct report_bug {		/* a bug the audit found in the tree's own code */
	char *driver, *note, *ts;
};

struct report_qemu {
	char *driver, *phase, *result, *at, *log, *detail;
};

struct report_driver {
	char *name, *subsystem, *status, *module, *config, *claimed_by, *since;
	char **files;
	int nr_files;
	int sites, implicit, chains, imbalances;
	int deadlocks;		/* of its chains, those of class deadlock */
	double score;		/* bkl pick's rank, when known */
	/*
	 * How the BKL reaches it (db/schema/0015-campaign-cover.sql): "own"
	 * (an entry point of its own: a campaign item), "follows" (only from
	 * the parents' entry points; its status is theirs until it has one
	 * of its own) or "possibly" (only through a by-type edge: listed,
	 * not counted).  follows: the parents, joined by "; "; via: the
	 * covering calls, for the drivers that are not own.
	 */
	char *cover, *follows, *via;
};
/* Counted as one of the campaign's drivers (not only possibly covered). */
int report_driver_counted(const struct report_driver *d);

struct report_subsys {
	char *name, *list;
	char **maintainers;
	int nr_maintainers;
	long status[NR_STATUS];
	int drivers_nr, remaining;	/* drivers not done (own and followers) */
	int own, followers, possibly;	/* by report_driver.cover */
	int sites, sites_left, implicit, chains, imbalances;
	int deadlocks;		/* chains of class deadlock */
	int core_sites;		/* whole tree: explicit sites outside the drivers */
};

struct report_point {
	time_t t;
	long drivers, sites;	/* still covered at t */
};

struct burndown {
	struct report_point *pts;
	int nr;
	double pace;		/* drivers per day, over the history */
	time_t zero;		/* projected 0 drivers; 0 if no progress */
	long drivers_total;
};

#define REPORT_RECENT 6		/* the whole tree's last steps */

/* The whole tree, or one subsystem or driver (then the lists are filled). */
struct report {
	char *tree, *version, *generated;
	char *db_tree;			/* the tree the analyzer ran on (meta) */
	char *subsystem;		/* scope, or NULL */
	char *driver;			/* scope, or NULL */
	struct report_subsys total;
	struct report_subsys *subs;	/* ranked by remaining work */
	int nr_subs;
	struct report_driver *drivers;
	int nr_drivers;
	struct report_site *sites, *implicit, *imbalances;
	int nr_sites, nr_implicit, nr_imbalances;
	struct report_chain *chains;	/* wait before sleep, shortest first */
	int nr_chains;
	struct report_qemu *qemu;
	int nr_qemu;
	struct report_bug *bugs;	/* bkl audit-record --bug, in scope */
	int nr_bugs;
	struct report_event *log;	/* a driver's history, or the last steps, newest first */
	int nr_log;
	struct burndown bd;
	char *missing;			/* tables not there yet, for a note */
	char *audit_note;		/* the audit is not finished: how far (NULL if it is) */
	char *audit_json;		/* audit/progress.h's object */
};

/*
 * Load a scope: subsystem and driver NULL for the whole tree.  Returns 0,
 * 1 when the named subsystem or driver does not exist, -1 after error().
 */
int report_load(sqlite3 *db, const char *subsystem, const char *driver,
		const char *tree, struct report *r);
void report_release(struct report *r);
/* The driver of that name in r->drivers (sorted by name, as strcmp), or NULL. */
struct report_driver *report_find_driver(const struct report *r, const char *name);
/* The burn-down from the status history; d sorted by name. */
int report_burndown(sqlite3 *db, const struct report_driver *d, int nr, struct burndown *bd);
int report_load_chains(sqlite3 *db, struct report *r, sqlite3_stmt *st, sqlite3_stmt *steps);
sqlite3_stmt *report_scoped(sqlite3 *db, const char *sql, const struct report *r);
void report_parse_path(struct report_chain *c);
void report_subsys_release(struct report_subsys *s);
/*
 * The kernel tree: given, else the one bkl audit recorded (meta), else
 * $BKL_TREE, else the work tree when there is one (as the campaign's
 * commands default).  NULL when none is known.
 */
char *report_tree(sqlite3 *db, const char *given);
/* Merge the repository's campaign log, re-derive the drivers if needed. */
int report_sync(sqlite3 *db, const char *db_path, const char *tree);

/* Source lines [line-ctx, line+ctx] of tree/file; -1 if unreadable. */
int report_source(const char *tree, const char *file, int line, int ctx,
		  int (*fn)(int no, const char *text, int hit, void *data), void *data);

/* Renderers (report/text.c, report/json.c). */
void report_text(struct strbuf *sb, const struct report *r, int markdown);
void report_json(struct strbuf *sb, const struct report *r);

void report_json_driver(struct strbuf *sb, const struct report_driver *d);
void report_json_burndown(struct strbuf *sb, const struct burndown *bd);

/* "2.5 drivers a week" */
void report_pace(double per_day, char *buf, size_t n);

#endif
