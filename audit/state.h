/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_KBUILD_STATE_H
#define BKL_KBUILD_STATE_H

#include <sqlite3.h>

struct kjob;

/*
 * What bkl audit knows from its last runs (db/schema/0003-audit.sql and
 * the analyzer's file_deps): which files are up to date.  Paths are
 * relative to the current directory (the tree's top) or absolute.
 */
struct kstate;

int kstate_load(sqlite3 *db, struct kstate **out);
void kstate_free(struct kstate *ks);

/*
 * The content hash of path now (16 hex digits): the recorded one while
 * its size and mtime are unchanged, else read and hashed.  NULL when it
 * cannot be read.
 */
const char *kstate_hash(struct kstate *ks, const char *path);

/*
 * Find the files one of whose headers changed since the analyzer read it:
 * every header recorded in file_deps is stat()ed once.  Returns the
 * number of changed headers, -1 after error().
 */
int kstate_scan_deps(struct kstate *ks, sqlite3 *db);

/*
 * .c files that other files #include (kernel/sched/build_policy.c
 * includes fair.c...): known from file_deps after kstate_scan_deps() or
 * kstate_scan_included().
 */
int kstate_scan_included(struct kstate *ks, sqlite3 *db);
int kstate_included(struct kstate *ks, const char *path);

/* Why path must be analyzed again, or NULL when it is up to date. */
const char *kstate_stale(struct kstate *ks, const char *path, const char *flags_hash);

/* Headers found changed by kstate_scan_deps() (for the summary). */
int kstate_changed_headers(struct kstate *ks);

/*
 * After the merge, in one transaction: the outcome of each job that ran
 * (ok, error, crash; the analyzer's status wins when it recorded one) and
 * the stamps of every file hashed.  flags_hash[i] is job i's.
 */
int kstate_record(struct kstate *ks, sqlite3 *db, const struct kjob *job,
		  char (*flags_hash)[17], const char (*src_hash)[17], int nr);

/* The last outcome for path: 'o'k, 'e'rror, 'c'rash; 0 if never analyzed. */
char kstate_status(struct kstate *ks, const char *path);

/*
 * Forget the files in scope (tree-relative dirs or files, "." for all)
 * that no longer exist: their audit_files rows and the analyzer's facts.
 * Returns how many.
 */
int kstate_forget_missing(struct kstate *ks, sqlite3 *db, const char *const *scope, int nr);

#endif
