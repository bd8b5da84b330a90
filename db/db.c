// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "lib/embed.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

/* db/schema/NNNN-*.sql, in order */
extern const struct embedded_file db_schema_files[];

const char *db_default_path(void)
{
	static struct strbuf sb = STRBUF_INIT;
	const char *env = getenv("BKL_DB");

	if (sb.len)
		return sb.buf;
	if (env && *env)
		strbuf_addstr(&sb, env);
	else
		strbuf_addf(&sb, "%s/bkl.db", bkl_cache_dir());
	return sb.buf;
}

const char *db_lock_path(const char *lock)
{
	static struct strbuf sb = STRBUF_INIT;

	if (!lock || !strcmp(lock, "bkl") || (getenv("BKL_DB") && *getenv("BKL_DB")))
		return db_default_path();
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/%s.db", bkl_cache_dir(), lock);
	return sb.buf;
}

int db_schema_version(void)
{
	int n = 0;

	while (db_schema_files[n].name)
		n++;
	return n;
}

int db_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("sqlite: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int db_begin(sqlite3 *db)
{
	return db_exec(db, "BEGIN IMMEDIATE");
}

int db_commit(sqlite3 *db)
{
	return db_exec(db, "COMMIT");
}

void db_rollback(sqlite3 *db)
{
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

static int user_version(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "PRAGMA user_version");
	int v = -1;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Apply migrations [from, latest) in one transaction each. */
static int migrate(sqlite3 *db, const char *path, int from)
{
	int v, latest = db_schema_version();
	char pragma[64];

	if (from > latest)
		return error("database '%s' has schema version %d, newer than this bkl's %d",
			     path, from, latest);
	for (v = from; v < latest; v++) {
		/* the version is a small integer we own: not user data */
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
		if (db_begin(db))
			return -1;
		if (db_exec(db, db_schema_files[v].data) || db_exec(db, pragma)) {
			db_rollback(db);
			return error("cannot apply '%s' to '%s'", db_schema_files[v].name, path);
		}
		if (db_commit(db))
			return -1;
	}
	return 0;
}

int db_open(const char *path, sqlite3 **out)
{
	sqlite3 *db = NULL;
	int v;

	*out = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		error("cannot open database '%s': %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		goto out_close;
	}
	sqlite3_busy_timeout(db, 30000);
	if (db_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL"))
		goto out_bad;
	/*
	 * Foreign keys on only after the migrations: a migration that
	 * rebuilds a table (0009: files) drops the old one, which must not
	 * cascade into the rows that refer to it.
	 */
	v = user_version(db);
	if (v < 0 || migrate(db, path, v))
		goto out_close;
	if (db_exec(db, "PRAGMA foreign_keys = ON"))
		goto out_bad;
	*out = db;
	return 0;
out_bad:
	error("'%s' is not a bkl database", path);
out_close:
	sqlite3_close(db);
	return -1;
}

void db_close(sqlite3 *db)
{
	sqlite3_close(db);
}

sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		error("sqlite: %s in \"%.60s\"", sqlite3_errmsg(db), sql);
		return NULL;
	}
	return st;
}

static int bind_index(sqlite3_stmt *st, const char *name)
{
	int i = sqlite3_bind_parameter_index(st, name);

	if (!i)
		error("sqlite: no parameter '%s' in \"%.60s\"", name, sqlite3_sql(st));
	return i;
}

int db_bind_text(sqlite3_stmt *st, const char *name, const char *val)
{
	int i = bind_index(st, name);

	if (!i)
		return -1;
	return sqlite3_bind_text(st, i, val, -1, SQLITE_TRANSIENT) == SQLITE_OK ? 0 : -1;
}

int db_bind_int(sqlite3_stmt *st, const char *name, sqlite3_int64 val)
{
	int i = bind_index(st, name);

	if (!i)
		return -1;
	return sqlite3_bind_int64(st, i, val) == SQLITE_OK ? 0 : -1;
}

int db_bind_double(sqlite3_stmt *st, const char *name, double val)
{
	int i = bind_index(st, name);

	if (!i)
		return -1;
	return sqlite3_bind_double(st, i, val) == SQLITE_OK ? 0 : -1;
}

int db_step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return error("sqlite: %s", sqlite3_errmsg(sqlite3_db_handle(st)));
	return 0;
}

/* A table or view of that name exists (0 also when the query fails). */
int db_has_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = @n");
	int ret;

	if (!st)
		return 0;
	db_bind_text(st, "@n", name);
	ret = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return ret;
}
