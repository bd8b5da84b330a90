// SPDX-License-Identifier: GPL-2.0
/*
 * /locks: the lock profiles and which of them has an audit; /lock/NAME:
 * what `bkl report --lock NAME` says, as a page (sites, imbalances and
 * chains per area, then each with its calls' file:line).  The BKL's
 * facts are in the campaign's database; another lock's in
 * $BKL_CACHE/NAME.db, where `bkl audit --lock NAME` puts them.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "db/db.h"
#include "lib/embed.h"
#include "lib/paths.h"
#include "report/lock.h"
#include "web/web.h"

extern const struct embedded_file analyzer_profiles_files[];

static int lock_name_ok(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789.-_");

	return *s && *s != '.' && !s[n] && n <= 32;
}

/* How many files of the lock a database holds; -1 if it cannot say. */
static int lock_files(sqlite3 *db, const char *lock)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(*) FROM files WHERE lock = @lock");
	int n = -1;

	if (st && !db_bind_text(st, "@lock", lock) && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/*
 * The database with the lock's facts: ours, else $BKL_CACHE/NAME.db;
 * NULL: none.  *files: how many files of the lock it holds.
 */
static sqlite3 *lock_db(struct web_req *req, const char *lock, int *own, int *files)
{
	struct strbuf path = STRBUF_INIT;
	sqlite3 *db = NULL;

	*own = 0;
	if ((*files = lock_files(req->db, lock)) > 0)
		return req->db;
	strbuf_addf(&path, "%s/%s.db", bkl_cache_dir(), lock);
	if (access(path.buf, R_OK) || db_open_existing(path.buf, &db) ||
	    (*files = lock_files(db, lock)) <= 0) {
		if (db)
			db_close(db);
		db = NULL;
	}
	strbuf_release(&path);
	*own = db != NULL;
	return db;
}

void page_locks(struct web_req *req)
{
	const struct embedded_file *f;

	page_begin(req, "Big locks", "other locks");
	strbuf_addstr(&req->out, "<h1>Big locks</h1><p class=\"lead\">The analyzer's lock profiles. "
		      "Any of them can be audited on any tree with <code>bkl audit --lock NAME</code>; "
		      "its sites, imbalances and the chains that sleep or wait with it held are then "
		      "here.</p><table class=\"lock-areas\"><tr><th>lock</th><th>files analyzed</th></tr>");
	for (f = analyzer_profiles_files; f->name; f++) {
		char name[64];
		size_t n = strlen(f->name);
		sqlite3 *db;
		int own, files;

		if (n < 6 || strcmp(f->name + n - 5, ".lock") || n - 5 >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(n - 5), f->name);
		db = lock_db(req, name, &own, &files);
		if (db)
			html_addf(&req->out, "<tr><td><a href=\"/lock/%u\">%s</a></td><td>%d</td></tr>",
				  name, name, files);
		else
			html_addf(&req->out, "<tr><td>%s</td><td class=\"muted\">not audited: "
				  "<code>bkl audit --lock %s</code></td></tr>", name, name);
		if (own)
			db_close(db);
	}
	strbuf_addstr(&req->out, "</table>");
	page_end(req);
}

void page_lock(struct web_req *req)
{
	struct strbuf body = STRBUF_INIT;
	sqlite3 *db;
	int own, files;

	if (!lock_name_ok(req->arg)) {
		web_error(req, 404, "no such lock");
		return;
	}
	db = lock_db(req, req->arg, &own, &files);
	if (!db) {
		web_error(req, 404, "this lock has not been audited (bkl audit --lock NAME)");
		return;
	}
	if (report_lock(db, req->arg, LOCK_HTML, &body)) {
		web_error(req, 500, "cannot read the lock's facts from the database");
	} else {
		page_begin(req, req->arg, "other locks");
		strbuf_add(&req->out, body.buf, body.len);
		page_end(req);
	}
	strbuf_release(&body);
	if (own)
		db_close(db);
}
