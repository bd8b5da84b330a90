// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "campaign/campaign.h"
#include "db/db.h"
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char *campaign_now(void)
{
	static char buf[32];
	const char *env = getenv("BKL_DATE");
	time_t now = time(NULL);

	if (env && *env)
		return env;
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	return buf;
}

static void git_config(const char *key, struct strbuf *out)
{
	const char *argv[] = { "git", "-C", bkl_repo_dir(), "config", key, NULL };
	struct strbuf sb = STRBUF_INIT;

	if (!run_command(argv, NULL, &sb) && sb.len) {
		while (sb.len && (sb.buf[sb.len - 1] == '\n' || sb.buf[sb.len - 1] == '\r'))
			sb.buf[--sb.len] = '\0';
		strbuf_addstr(out, sb.buf);
	}
	strbuf_release(&sb);
}

int campaign_valid_who(const char *who)
{
	const char *lt = strchr(who, '<'), *gt = strrchr(who, '>');
	size_t n;

	if (!lt || !gt || lt == who || gt <= lt + 1 || !memchr(lt, '@', gt - lt) || gt[1])
		return 0;
	/* RFC 2606: nobody reads mail at .invalid, it only stands in for someone */
	n = gt - lt - 1;
	return !(n >= 8 && !strncasecmp(gt - 8, ".invalid", 8));
}

const char *campaign_who(const char *by)
{
	static struct strbuf who = STRBUF_INIT;
	const char *env = getenv("BKL_AUTHOR"), *from;
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;

	strbuf_reset(&who);
	if (by && *by) {
		strbuf_addstr(&who, by);
		from = "--by";
	} else if (env && *env) {
		strbuf_addstr(&who, env);
		from = "$BKL_AUTHOR";
	} else {
		git_config("user.name", &name);
		git_config("user.email", &email);
		if (name.len && email.len)
			strbuf_addf(&who, "%s <%s>", name.buf, email.buf);
		strbuf_release(&name);
		strbuf_release(&email);
		from = "git's user.name and user.email";
	}
	if (!who.len) {
		error("say who you are: --by \"Name <email>\", $BKL_AUTHOR, or git's user.name "
		      "and user.email");
		return NULL;
	}
	if (!campaign_valid_who(who.buf)) {
		error("'%s' (%s) is not \"Name <email>\" with an address someone reads", who.buf,
		      from);
		return NULL;
	}
	return who.buf;
}

static int insert_step(struct campaign *c, char *const *f)
{
	sqlite3_stmt *st = db_prepare(c->db,
		"INSERT OR IGNORE INTO campaign_log (ts, driver, action, status, holder, who, note) "
		"VALUES (@ts, @driver, @action, @status, @holder, @who, @note)");
	int ret;

	if (!st)
		return -1;
	ret = db_bind_text(st, "@ts", f[0]) | db_bind_text(st, "@driver", f[1]) |
	      db_bind_text(st, "@action", f[2]) | db_bind_text(st, "@status", f[3]) |
	      db_bind_text(st, "@holder", f[4]) | db_bind_text(st, "@who", f[5]) |
	      db_bind_text(st, "@note", f[6]);
	if (!ret)
		ret = db_step_done(st);
	if (!ret)
		ret = sqlite3_changes(c->db);
	sqlite3_finalize(st);
	return ret;
}

int campaign_record(struct campaign *c, const char *driver, const char *action, int status,
		    const char *holder, const char *who, const char *note)
{
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;
	char *f[CLOG_FIELDS] = {
		(char *)campaign_now(), (char *)driver, (char *)action,
		(char *)cstatus_names[status], (char *)(holder ? holder : ""),
		(char *)(who ? who : ""), (char *)(note ? note : "")
	};
	int ret = -1;

	if (clog_check_step(f, &why)) {
		error("step not recorded: %s", why.buf);
		goto out;
	}
	clog_format(&line, f);
	if (clog_append(c->log_path, line.buf))
		goto out;
	ret = 0;
	if (insert_step(c, f) < 0)
		warning("the step is recorded in '%s'; the database '%s' catches up from it "
			"when next opened", c->log_path, c->db_path);
out:
	strbuf_release(&line);
	strbuf_release(&why);
	return ret;
}

int campaign_state(struct campaign *c, const char *driver, struct cstate *st)
{
	sqlite3_stmt *q = db_prepare(c->db,
		"SELECT status, holder, since, who, note FROM campaign_state WHERE driver = @d");
	int rc;

	memset(st, 0, sizeof(*st));
	if (!q || db_bind_text(q, "@d", driver)) {
		sqlite3_finalize(q);
		return -1;
	}
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		st->status = cstatus_parse((const char *)sqlite3_column_text(q, 0));
		st->holder = strdup((const char *)sqlite3_column_text(q, 1));
		st->since = strdup((const char *)sqlite3_column_text(q, 2));
		st->who = strdup((const char *)sqlite3_column_text(q, 3));
		st->note = strdup((const char *)sqlite3_column_text(q, 4));
	} else {
		st->status = CS_UNCLAIMED;
		st->holder = strdup("");
		st->since = strdup("");
		st->who = strdup("");
		st->note = strdup("");
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(c->db));
}

void cstate_release(struct cstate *st)
{
	free(st->holder);
	free(st->since);
	free(st->who);
	free(st->note);
	memset(st, 0, sizeof(*st));
}

int campaign_advance(struct campaign *c, const char *driver, const char *action, int to,
		     const char *who, const char *note)
{
	struct cstate st;
	int ret;

	if (campaign_state(c, driver, &st))
		return -1;
	if (st.status != CS_BLOCKED && st.status > to)
		to = st.status;		/* already further along: just log the step */
	ret = campaign_record(c, driver, action, to, st.holder, who, note);
	cstate_release(&st);
	return ret;
}

struct import {
	struct campaign *c;
	struct strbuf *fresh;		/* the new steps, for the repository's log */
	int added;
};

static int import_step(char **f, int nr, void *data)
{
	struct import *im = data;
	int n = insert_step(im->c, f);

	if (n < 0)
		return -1;
	if (n && im->fresh)
		clog_format(im->fresh, f);
	im->added += n;
	return 0;
}

/*
 * The repository's log (to_repo 0) is read whole, its bad lines named
 * and left out; another file (to_repo) is refused whole when a line is
 * not a step, before anything changes, and its new steps reach the
 * repository's log in one append before the DB commits.
 */
int campaign_import(struct campaign *c, const char *path, int to_repo)
{
	struct strbuf fresh = STRBUF_INIT;
	struct import im = { c, to_repo ? &fresh : NULL, 0 };
	int ret;

	if (to_repo && clog_read(path, 1, NULL, NULL))
		return -1;
	if (db_begin(c->db))
		return -1;
	ret = clog_read(path, to_repo, import_step, &im);
	if (ret >= 0 && fresh.len && clog_append(c->log_path, fresh.buf))
		ret = -1;
	strbuf_release(&fresh);
	if (ret < 0) {
		db_rollback(c->db);
		return -1;
	}
	return db_commit(c->db) ? -1 : im.added;
}

int campaign_export(struct campaign *c, const char *driver, FILE *out)
{
	sqlite3_stmt *q = db_prepare(c->db,
		"SELECT ts, driver, action, status, holder, who, note FROM campaign_log "
		"WHERE @d IS NULL OR driver = @d ORDER BY ts, id");
	int i, rc;

	if (!q)
		return -1;
	if (driver && db_bind_text(q, "@d", driver)) {
		sqlite3_finalize(q);
		return -1;
	}
	fputs(CLOG_HEADER, out);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		for (i = 0; i < 7; i++)
			fprintf(out, "%s%c", sqlite3_column_text(q, i), i == 6 ? '\n' : '\t');
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(c->db));
}

/* meta 'audit.tree', when that tree is still there. */
static int audited_tree(sqlite3 *db, struct strbuf *out)
{
	sqlite3_stmt *q = db_prepare(db, "SELECT value FROM meta WHERE key = 'audit.tree'");
	int ret = -1;

	strbuf_reset(out);
	if (q && sqlite3_step(q) == SQLITE_ROW) {
		strbuf_addstr(out, (const char *)sqlite3_column_text(q, 0));
		ret = path_exists(out->buf) ? 0 : -1;
	}
	sqlite3_finalize(q);
	return ret;
}

struct behind {
	sqlite3_stmt *known;
	int missing;
};

static int missing_step(char **f, int nr, void *data)
{
	static const char *const names[CLOG_FIELDS] = {
		"@ts", "@driver", "@action", "@status", "@holder", "@who", "@note"
	};
	struct behind *b = data;
	int i, rc;

	sqlite3_reset(b->known);
	for (i = 0; i < CLOG_FIELDS; i++)
		if (db_bind_text(b->known, names[i], f[i]))
			return -1;
	rc = sqlite3_step(b->known);
	if (rc == SQLITE_DONE)
		b->missing++;
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

void campaign_warn_behind(struct campaign *c)
{
	struct behind b = { db_prepare(c->db,
		"SELECT 1 FROM campaign_log WHERE ts = @ts AND driver = @driver AND action = @action "
		"AND status = @status AND holder = @holder AND who = @who AND note = @note"), 0 };

	if (b.known && clog_read(c->log_path, 0, missing_step, &b) >= 0 && b.missing)
		warning("database '%s' is read-only: %d step%s of '%s' %s not in it", c->db_path,
			b.missing, b.missing == 1 ? "" : "s", c->log_path, b.missing == 1 ? "is" : "are");
	sqlite3_finalize(b.known);
}

int campaign_open(struct campaign *c, const char *db_path, const char *tree)
{
	struct strbuf sb = STRBUF_INIT;
	const char *env = getenv("BKL_TREE");
	int tree_given = tree || (env && *env);

	memset(c, 0, sizeof(*c));
	if (!tree)
		tree = env && *env ? env : ktree_dir("work");
	c->tree = strdup(tree);
	c->repo = strdup(bkl_repo_dir());
	c->db_path = strdup(db_path ? db_path : db_default_path());
	strbuf_addf(&sb, "%s/%s", c->repo, CAMPAIGN_LOG);
	c->log_path = strdup(sb.buf);
	strbuf_release(&sb);
	c->read_only = !db_writable(c->db_path);
	if (db_open_mode(c->db_path, c->read_only ? DB_READ : DB_WRITE, &c->db))
		goto fail;
	if (!tree_given && audited_tree(c->db, &sb) == 0) {	/* the tree bkl audit read */
		free(c->tree);
		c->tree = strdup(sb.buf);
	}
	strbuf_release(&sb);
	if (!path_exists(c->log_path))
		return 0;
	if (c->read_only)
		campaign_warn_behind(c);
	else if (campaign_import(c, c->log_path, 0) < 0)
		goto fail;
	return 0;
fail:
	campaign_close(c);
	return -1;
}

void campaign_close(struct campaign *c)
{
	if (c->db)
		db_close(c->db);
	free(c->tree);
	free(c->repo);
	free(c->db_path);
	free(c->log_path);
	free(c->kconfig);
	memset(c, 0, sizeof(*c));
}
