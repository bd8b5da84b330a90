/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_ANALYZER_H
#define BKL_ANALYZER_H

/*
 * The BKL analyzer, as a library for bkl's commands (analyze, merge,
 * audit, check).  It reads C with libsparse, as a sparse tool does
 * (sparse_initialize(), then sparse() per file), and records into the
 * SQLite DB (db/schema/0002-analyzer.sql, db/README.md):
 *  - per file: lock/unlock sites, imbalances (return-held, unlock-unheld;
 *    those that depend on how a function is entered, and return-released,
 *    are settled by the global pass),
 *    functions, call edges with whether the BKL may be held at each,
 *    function-pointer stores and table registrations;
 *  - after the global pass: implicit sites (functions the BKL covers
 *    through a function pointer, with the evidence) and chains (calls made
 *    with the BKL held that reach a sleeping or waiting primitive).
 */
#include <stdint.h>
#include <sqlite3.h>

struct analyzer_opts {
	/*
	 * The profiles (analyzer/profiles/): NULL, the kernel profile of the
	 * tree's release and its default lock profile.  primitives: one file
	 * with every rule instead of both.
	 */
	const char *lock_profile, *kernel_profile, *primitives;
	/* neither the profile line nor its warnings (bkl audit's workers) */
	int quiet_profiles;
	/* pass sparse's own warnings through to stderr (default: dropped) */
	int sparse_warnings;
	/* no "not analyzed" warnings on stderr (the files table has them) */
	int quiet;
	/*
	 * Per file, in a child: seconds and MiB (0: none).  With neither, a
	 * single file is analyzed in this process (bkl audit's workers,
	 * which audit bounds itself).
	 */
	int timeout;
	long max_mem_mib;
	/*
	 * The global pass loads every file's facts from the DB (not the
	 * last pass's snapshot and the files analyzed since: gcache.c).
	 */
	int full_pass;
};

struct analyzer_stats {
	int files, ok, failed;		/* failed: missing, unreadable or sparse errors */
	int partial;			/* of ok: sparse dropped code (files.partial) */
	int sites, imbalances, unresolved;	/* in the DB, for the run's lock */
};

/*
 * Analyze C files into db.  argv is a sparse command line: argv[0] is
 * ignored, then sparse's flags (-I, -D, -U, -include, -isystem, -m64,
 * -W..., -f..., as for sparse itself) and the .c files, in any order.
 *
 * Each file is stored in one transaction that replaces the facts of that
 * path: the files row (path as given, content hash, the flags, status),
 * its headers (file_headers, stamped in headers), then the facts.  A file
 * sparse reports errors for is recorded with status 'error' and its first
 * error, without facts (errors about pointer address spaces alone do not
 * count; but sparse drops the expressions they are in: the file is then
 * partial, files.partial its first such message, and functions.partial
 * marks where; so do a few warnings that drop code, analyzer/diag.c);
 * a missing or unreadable file is reported and left alone in the
 * DB.  Unless o->quiet, each failed file gets one "warning:" line on
 * stderr.
 *
 * With several files, each is parsed in a child process: a file that
 * makes sparse exit or crash costs that file only.  With one file, it is
 * parsed in this process; if sparse exit()s on it (a missing header), an
 * atexit() hook records the error in db and the process then exits 1:
 * callers that must survive that should pass two files or fork.
 *
 * sparse keeps global state: call this once per process.  Does not run
 * the global pass (call analyzer_resolve()).  Returns the number of files
 * that could not be analyzed (0: all ok), or -1 after error() when the DB
 * or the profiles fail or sparse cannot be initialized again.
 * stats may be NULL.
 */
int analyzer_run(sqlite3 *db, int argc, char **argv, const struct analyzer_opts *o,
		 struct analyzer_stats *stats);

/*
 * The profile line of bkl analyze, and its warnings, for the kernel tree
 * at (or above) tree: for a command that runs the analyzer in workers
 * with --quiet-profiles (bkl audit) and says it once.  0, or -1 after
 * error() (an unknown profile).
 */
int analyzer_say_profiles(const char *tree, const struct analyzer_opts *o);

/* Are o's profile names built in?  0, or -1 after error() (before any DB is made). */
int analyzer_check_profiles(const struct analyzer_opts *o);

/*
 * The global pass over everything in db, in one transaction: implicit
 * coverage (through struct-member calls made with the BKL held, with the
 * registration rules of the profiles), then the chains, in one
 * pass over the whole call graph (no per-level rebuilds).  Replaces the
 * previous implicit sites, coverage and chains.  0, or -1 after error().
 */
int analyzer_resolve(sqlite3 *db, const struct analyzer_opts *o);

/*
 * Copy a shard DB's per-file facts into db, replacing those paths, in one
 * transaction (derived rows are not copied: run analyzer_resolve() after).
 */
int analyzer_merge(sqlite3 *db, const char *shard_path);

/*
 * Print the sites, imbalances or chains of one lock of db (lock NULL: bkl
 * if db has it, else its first; files.lock) to stdout: warnings
 * (file:line: warning: ...), or with json a JSON array of objects with the
 * keys {"file","line","function","kind"} (chains: "class" and "path"),
 * ordered by file, line, function, then kind (class, path).
 */
/*
 * flags: FACTS_JSON, the JSON contract; FACTS_PRECISE, the chains
 * without by-type calls, in files the audited configuration builds
 */
enum { FACTS_JSON = 1, FACTS_PRECISE = 2 };
/* SQL over chains: does it run through a file the configuration does not build? */
#define CHAIN_UNBUILT_SQL "(id IN (SELECT chain_id FROM chains_unbuilt))"
/* SQL over chains: a precise chain (bkl chains --precise) */
#define CHAIN_PRECISE_SQL "(by_type = 0 AND NOT " CHAIN_UNBUILT_SQL ")"
/* SQL over chains: 0 through an unbuilt file, 1 its file built, NULL no audit says */
#define CHAIN_BUILT_SQL "(CASE WHEN " CHAIN_UNBUILT_SQL " THEN 0 WHEN EXISTS (SELECT 1 " \
	"FROM audit_kinds WHERE path = chains.file) THEN 1 END)"
/* A CHAIN_BUILT_SQL column: is the chain through an unbuilt file?  As JSON: */
int chain_unbuilt(sqlite3_stmt *st, int col);
const char *chain_built_json(sqlite3_stmt *st, int col);
/* The rules the global pass runs with, as a key (meta analyzer.rules) */
const char *analyzer_rules_key(void);
/* What a file's facts depend on in bkl itself, as a key (bkl audit's plan) */
const char *analyzer_facts_key(void);
/* A hash of what, and revision rev, with every profile bkl has built in */
uint64_t profiles_hash(const char *what, int rev);
int analyzer_print_sites(sqlite3 *db, const char *lock, int json);
int analyzer_print_imbalances(sqlite3 *db, const char *lock, int json);
int analyzer_print_chains(sqlite3 *db, const char *lock, int flags);

#endif
