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
/* Open (creating it) and bring the schema up to date. */
int db_open(const char *path, sqlite3 **out);
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
/* 1 when the DB has a table or view of that name. */
int db_has_table(sqlite3 *db, const char *name);

#endif
