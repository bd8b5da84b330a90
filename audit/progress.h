/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_AUDIT_PROGRESS_H
#define BKL_AUDIT_PROGRESS_H

#include <sqlite3.h>
#include "lib/strbuf.h"

struct kjob;

/*
 * How complete the DB's analysis is (db/schema/0008-audit-progress.sql):
 * bkl audit writes it, every reader says it.
 */
struct audit_area_count {
	char *area;		/* "drivers/char": audit/order.h's audit_area() */
	int done, left;
};

struct audit_progress {
	int analyzed_files;	/* files table: anything analyzed at all */
	int total, left;	/* the audits' files (done or pending); of them pending */
	int pid;		/* the audit's process while it runs, else 0 */
	char state[16];		/* "" no audit; running, stopped, complete */
	struct audit_area_count *areas;	/* complete ones first, then by name */
	int nr_areas, nr_complete;
};

int audit_progress_load(sqlite3 *db, struct audit_progress *p);
void audit_progress_release(struct audit_progress *p);
/* Nothing analyzed, or an audit not finished: what the reader must say. */
int audit_progress_incomplete(const struct audit_progress *p);
/* One line: how far, which areas are complete, what to run; "" if complete. */
void audit_progress_line(const struct audit_progress *p, struct strbuf *out);
/* {"state","total","analyzed","running","complete_areas":[..],"pending_areas":[{"area","left"}]} */
void audit_progress_json(const struct audit_progress *p, struct strbuf *out);
/* The note a reader prints on stderr before its answer, if any. */
int audit_progress_warn(sqlite3 *db);

/*
 * bkl audit's side.  The plan: walked files leave the pending list (an
 * earlier run's files outside this scope stay), the jobs join it in
 * their order, and each walked file's kind (enum kflags_kind, or 'I':
 * included) goes to audit_kinds.  Each merged batch: the jobs that ran leave it.  The end:
 * complete when nothing is pending (returns how many are), else stopped.
 */
int audit_progress_plan(sqlite3 *db, const char *const *walked, const char *kind, int nr_walked,
			const struct kjob *job, const unsigned char *tier, int nr);
int audit_progress_done(sqlite3 *db, const struct kjob *job, int nr);
int audit_progress_finish(sqlite3 *db);
/*
 * bkl merge: a shard's audit state (bkl audit --shard) joins the DB's:
 * its files are analyzed here too.  1 when it had any, 0 not, -1 error.
 */
int audit_progress_merge(sqlite3 *db, const char *shard);

#endif
