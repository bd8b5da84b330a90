// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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

static const char *damaged;	/* the first corruption SQLite reported, if any */

static void log_error(void *unused, int rc, const char *msg)
{
	static char first[256];

	if (!damaged && ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB)) {
		snprintf(first, sizeof(first), "%s", msg ? msg : "corrupt");
		damaged = first;
	}
}

void db_init(void)
{
	sqlite3_config(SQLITE_CONFIG_LOG, log_error, NULL);
}

const char *db_damaged(void)
{
	return damaged;
}

const char *db_describe(sqlite3 *db, int rc)
{
	switch (rc & 0xff) {
	case SQLITE_READONLY:
		return "it is read-only";
	case SQLITE_FULL:
		return "the disk is full";
	case SQLITE_CORRUPT:
		return "it is corrupt";
	case SQLITE_NOTADB:
		return "it is not a database";
	case SQLITE_IOERR:
		return "an I/O error";
	case SQLITE_CANTOPEN:
		return "cannot open it (or its -wal and -shm files, which WAL makes beside it)";
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return "permission denied";
	}
	return db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
}

/* Run sql; -1 after error() naming path and what went wrong. */
static int exec_on(sqlite3 *db, const char *path, const char *sql)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : error("cannot use database '%s': %s", path, db_describe(db, rc));
}

/* May this user make files in the directory path is in? */
static int dir_writable(const char *path)
{
	struct strbuf dir = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	int ok;

	strbuf_add(&dir, path, slash ? (size_t)(slash - path) : 0);
	ok = !access(dir.len ? dir.buf : ".", W_OK);
	strbuf_release(&dir);
	return ok;
}

/*
 * How to open path read-only.  SQLite reads a WAL database through its
 * -shm file, which it cannot make in a directory we may not write; with
 * no -wal file either, no one is writing it now, and it is opened as
 * immutable (a URI: % ? # escaped).
 */
static void read_only_name(const char *path, struct strbuf *name, int *flags)
{
	struct strbuf wal = STRBUF_INIT;
	struct stat st;
	int immutable;

	strbuf_addf(&wal, "%s-wal", path);
	immutable = !dir_writable(path) && (stat(wal.buf, &st) || !st.st_size);
	strbuf_release(&wal);
	if (!immutable) {
		strbuf_addstr(name, path);
		return;
	}
	strbuf_addstr(name, "file:");
	for (; *path; path++)
		if (strchr("%?#", *path))
			strbuf_addf(name, "%%%02X", (unsigned char)*path);
		else
			strbuf_addch(name, *path);
	strbuf_addstr(name, "?immutable=1");
	*flags |= SQLITE_OPEN_URI;
}

int db_open_mode(const char *path, int mode, sqlite3 **out)
{
	struct strbuf name = STRBUF_INIT;
	int flags = mode == DB_READ ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
	int v, rc, latest = db_schema_version();
	sqlite3 *db = NULL;

	*out = NULL;
	if (mode != DB_CREATE && !path_exists(path))
		return error("no database at '%s': 'bkl audit' makes it", path);
	if (mode == DB_CREATE)
		flags |= SQLITE_OPEN_CREATE;
	if (mode == DB_READ)
		read_only_name(path, &name, &flags);
	else
		strbuf_addstr(&name, path);
	rc = sqlite3_open_v2(name.buf, &db, flags, NULL);
	strbuf_release(&name);
	if (rc != SQLITE_OK) {
		error("cannot open database '%s': %s", path, db_describe(db, rc));
		goto out_close;
	}
	sqlite3_busy_timeout(db, 30000);
	if (mode != DB_READ && exec_on(db, path, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL"))
		goto out_close;
	/*
	 * Foreign keys on only after the migrations: a migration that
	 * rebuilds a table (0009: files) drops the old one, which must not
	 * cascade into the rows that refer to it.
	 */
	v = user_version(db);
	if (v == -1 && (rc = sqlite3_errcode(db)) != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) {
		error("cannot use database '%s': %s", path, db_describe(db, rc));
		goto out_close;
	}
	if (v < 0 || (mode != DB_CREATE && v == 0)) {
		error("'%s' is not a bkl database (schema version %d)", path, v);
		goto out_close;
	}
	if (mode == DB_READ && v != latest) {
		error(v > latest ? "database '%s' has schema version %d, newer than this bkl's %d" :
		      "database '%s' has schema version %d, older than this bkl's %d: "
		      "open it writable once (bkl audit) to upgrade it", path, v, latest);
		goto out_close;
	}
	if (mode != DB_READ && migrate(db, path, v))
		goto out_close;
	if (exec_on(db, path, "PRAGMA foreign_keys = ON"))
		goto out_close;
	*out = db;
	return 0;
out_close:
	sqlite3_close(db);
	return -1;
}

int db_open(const char *path, sqlite3 **out)
{
	return db_open_mode(path, DB_CREATE, out);
}

int db_writable(const char *path)
{
	/* WAL writes path-wal and path-shm beside it */
	return !access(path, W_OK) && dir_writable(path);
}

int db_open_existing(const char *path, sqlite3 **out)
{
	return db_open_mode(path, db_writable(path) ? DB_WRITE : DB_READ, out);
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

int db_count(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : error("cannot read the database: %s", db_describe(db, rc));
}

int db_set_meta(sqlite3 *db, const char *key, const char *value)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO meta (key, value) VALUES (@key, @value) "
				      "ON CONFLICT (key) DO UPDATE SET value = excluded.value");
	int ret;

	if (!st)
		return -1;
	ret = db_bind_text(st, "@key", key) || db_bind_text(st, "@value", value) ||
	      db_step_done(st) ? -1 : 0;
	sqlite3_finalize(st);
	return ret;
}
