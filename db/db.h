/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_DB_H
#define BKL_DB_H

#include <sqlite3.h>

/*
 * The project's SQLite database, as semind keeps its own: the schema is
 * db/schema/NNNN-*.sql, applied in order and built into bkl; PRAGMA
 * user_version is the number of the last one applied, so an older DB is
 * migrated forward and a newer one refused.  WAL; prepared statements with
 * named binds only.  Functions here return -1 after error(); never exit.
 */

/* $BKL_DB, else $BKL_CACHE/bkl.db: what --db defaults to. */
const char *db_default_path(void);
/* A lock profile's DB: the default for bkl, else $BKL_CACHE/LOCK.db unless $BKL_DB. */
const char *db_lock_path(const char *lock);
/*
 * Open for what the command does: DB_CREATE (bkl audit, analyze, merge,
 * import: made when missing), DB_WRITE (an existing one, its schema
 * brought up to date), DB_READ (an existing one of this schema, read-only,
 * never created).  -1 after one error() line saying what failed: missing,
 * read-only, full, corrupt, not a bkl database, a newer schema.
 */
enum { DB_READ, DB_WRITE, DB_CREATE };
int db_open_mode(const char *path, int mode, sqlite3 **out);
/* db_open_mode(path, DB_CREATE, out) */
int db_open(const char *path, sqlite3 **out);
/* This user may write path and the files WAL keeps beside it. */
int db_writable(const char *path);
/* An existing DB: DB_WRITE when it is writable, else DB_READ. */
int db_open_existing(const char *path, sqlite3 **out);
/*
 * db_init() before any other use: SQLite's error log is watched for
 * corruption (SQLITE_CORRUPT, SQLITE_NOTADB), which db_damaged() then
 * returns (else NULL), so that a command whose loop stopped early on a
 * damaged page fails instead of printing a wrong count.
 */
void db_init(void);
const char *db_damaged(void);
/* What an SQLite result code means for the person running the command. */
const char *db_describe(sqlite3 *db, int rc);
void db_close(sqlite3 *db);
/* The schema version this bkl writes (number of migrations). */
int db_schema_version(void);

/* Constant SQL only: never build SQL with printf. */
int db_exec(sqlite3 *db, const char *sql);
int db_begin(sqlite3 *db);
int db_commit(sqlite3 *db);
void db_rollback(sqlite3 *db);

sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql);
/* Bind by name ("@file"); a missing name is a programming error, reported. */
int db_bind_text(sqlite3_stmt *st, const char *name, const char *val);
int db_bind_int(sqlite3_stmt *st, const char *name, sqlite3_int64 val);
int db_bind_double(sqlite3_stmt *st, const char *name, double val);
/* Step a statement that returns no rows, then reset it for reuse. */
int db_step_done(sqlite3_stmt *st);
/* The integer a constant query's one row gives (SELECT count(*) ...): -1 after error(). */
int db_count(sqlite3 *db, const char *sql, int *out);
/* meta key = value, replacing the old value: -1 after error(). */
int db_set_meta(sqlite3 *db, const char *key, const char *value);
/* 1 when the DB has a table or view of that name. */
int db_has_table(sqlite3 *db, const char *name);

#endif
