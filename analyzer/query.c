// SPDX-License-Identifier: GPL-2.0
/*
 * What `bkl sites`, `bkl imbalance` and `bkl chains` print: warnings in
 * the form kernel developers read (file:line: warning: ...; chains
 * indented as lockdep prints them), or JSON arrays with exactly the keys
 * of the stable contract, in a stable order (file, line, function, ...).
 */
#include <stdio.h>
#include <string.h>
#include "analyzer/analyzer.h"
#include "analyzer/internal.h"
#include "db/db.h"
#include "lib/usage.h"

static const char *text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* {"file": ..., "line": ..., "function": ..., "<key>": ...  (no closing brace) */
static void json_head(sqlite3_stmt *st, int nr, const char *key)
{
	printf("%s\n  {\"file\": ", nr ? "," : "[");
	json_str(text(st, 0));
	printf(", \"line\": %d, \"function\": ", sqlite3_column_int(st, 1));
	json_str(text(st, 2));
	printf(", \"%s\": ", key);
	json_str(text(st, 3));
}

static void json_end(int nr)
{
	puts(nr ? "\n]" : "[]");
}

static int finish(sqlite3 *db, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("sqlite: %s", sqlite3_errmsg(db));
	return fflush(stdout) ? error("cannot write the output") : 0;
}

/*
 * The lock whose facts are printed: the one asked for, else bkl when the
 * DB has it, else its first.  *lock is set; the statement's @lock bound.
 */
static int bind_lock(sqlite3 *db, sqlite3_stmt *st, const char **lock)
{
	static char buf[256];
	sqlite3_stmt *q;

	if (!*lock) {
		q = db_prepare(db, "SELECT lock FROM files GROUP BY lock "
			       "ORDER BY lock = 'bkl' DESC, lock LIMIT 1");
		snprintf(buf, sizeof(buf), "bkl");
		if (q && sqlite3_step(q) == SQLITE_ROW)
			snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(q, 0));
		sqlite3_finalize(q);
		*lock = buf;
	}
	return db_bind_text(st, "@lock", *lock);
}

static void print_implicit(sqlite3_stmt *st, const char *lock)
{
	printf("%s:%d: warning: '%s' runs with %s held", text(st, 0),
	       sqlite3_column_int(st, 1), text(st, 2), lock);
	if (sqlite3_column_type(st, 5) == SQLITE_NULL) {
		putchar('\n');
		return;
	}
	printf(": %s.%s called from %s (%s:%d)", text(st, 5), text(st, 6), text(st, 7),
	       text(st, 8), sqlite3_column_int(st, 9));
	if (sqlite3_column_type(st, 11) != SQLITE_NULL)
		printf(", table %s registered by %s (%s:%d)", text(st, 10), text(st, 11),
		       text(st, 12), sqlite3_column_int(st, 13));
	if (sqlite3_column_int(st, 14))
		printf(": entry point");
	else if (!strcmp(text(st, 15), "table"))
		printf(": through table %s", text(st, 10));
	else if (!strcmp(text(st, 15), "by-type") && sqlite3_column_int(st, 16) > 1)
		printf(": by type, one of %d", sqlite3_column_int(st, 16));
	putchar('\n');
}

/* implicit sites: is it an entry point, how was it reached, among how many */
static void json_implicit(sqlite3_stmt *st)
{
	if (strcmp(text(st, 3), "implicit") || sqlite3_column_type(st, 5) == SQLITE_NULL)
		return;
	printf(", \"entry\": %s, \"edge\": ", sqlite3_column_int(st, 14) ? "true" : "false");
	json_str(text(st, 15));
	printf(", \"candidates\": %d", sqlite3_column_int(st, 16));
}

int analyzer_print_sites(sqlite3 *db, const char *lock, int json)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT s.file, s.line, s.function, s.kind, s.callee, c.struct, c.member, "
		"c.via_function, c.via_file, c.via_line, c.tbl, c.reg_via, c.reg_file, c.reg_line, "
		"c.entry, c.edge, c.candidates "
		"FROM sites s LEFT JOIN coverage c ON s.kind = 'implicit' AND "
		"c.file_id = s.file_id AND c.function = s.function WHERE s.lock = @lock "
		"ORDER BY s.file, s.line, s.function, s.kind");
	char name[128], unlock[128];
	int rc, nr = 0;

	if (!st || bind_lock(db, st, &lock)) {
		sqlite3_finalize(st);
		return -1;
	}
	profiles_names(db, lock, name, sizeof(name), unlock, sizeof(unlock));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (json) {
			json_head(st, nr, "kind");
			json_implicit(st);
			putchar('}');
		} else if (!strcmp(text(st, 3), "implicit")) {
			print_implicit(st, name);
		} else {
			printf("%s:%d: warning: %s() in '%s'\n", text(st, 0),
			       sqlite3_column_int(st, 1), text(st, 4), text(st, 2));
		}
		nr++;
	}
	if (json)
		json_end(nr);
	return finish(db, st, rc);
}

int analyzer_print_imbalances(sqlite3 *db, const char *lock, int json)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT i.file, i.line, i.function, i.kind, "
				      "coalesce(f.partial, 0), i.entry = 'stored' "
				      "FROM imbalances i LEFT JOIN functions f "
				      "ON f.file_id = i.file_id AND f.name = i.function "
				      "WHERE i.lock = @lock ORDER BY i.file, i.line, i.function, i.kind");
	char name[128], unlock[128];
	int rc, nr = 0;

	if (!st || bind_lock(db, st, &lock)) {
		sqlite3_finalize(st);
		return -1;
	}
	profiles_names(db, lock, name, sizeof(name), unlock, sizeof(unlock));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *kind = text(st, 3);

		int partial = sqlite3_column_int(st, 4);

		if (json) {
			json_head(st, nr, "kind");
			/* only there: the rows before it keep their keys */
			printf("%s%s}", partial ? ", \"partial\": true" : "",
			       sqlite3_column_int(st, 5) ? ", \"stored\": true" : "");
		} else {
			printf("%s:%d: warning: ", text(st, 0), sqlite3_column_int(st, 1));
			if (!strcmp(kind, "return-held"))
				printf("return with %s held", name);
			else if (!strcmp(kind, "return-released"))
				printf("return with %s released", name);
			else
				printf("%s() without %s held", unlock, name);
			printf(" in '%s' (%s%s%s)\n", text(st, 2), kind,
			       sqlite3_column_int(st, 5) ?
			       "; taken on every path, and a table calls it" : "",
			       partial ? "; partial: sparse dropped some of its code" : "");
		}
		nr++;
	}
	if (json)
		json_end(nr);
	return finish(db, st, rc);
}

/* A deadlock's wait: whose handler it waits for, set up at the step's file:line. */
static void print_handler(const char *how, int nr)
{
	printf("  => %s here", !strcmp(how, "thread") ? "its thread, started" :
	       !strcmp(how, "queued") ? "work queued on it" : "its work, set up");
	if (nr > 1)
		printf(" (one of %d handlers that take it)", nr);
}

/*
 * function  file:line, one step a line, each deeper than the last; a
 * call resolved by the member's type alone says among how many.
 */
static int print_steps(sqlite3_stmt *steps, sqlite3_int64 id)
{
	int depth = 0, rc;

	if (db_bind_int(steps, "@id", id))
		return SQLITE_ERROR;
	while ((rc = sqlite3_step(steps)) == SQLITE_ROW) {
		printf("%*s%s", 2 * ++depth, "", text(steps, 0));
		if (sqlite3_column_type(steps, 2) != SQLITE_NULL)
			printf("  %s:%d", text(steps, 1), sqlite3_column_int(steps, 2));
		if (!strcmp(text(steps, 3), "by-type"))
			printf("  (by type, one of %d)", sqlite3_column_int(steps, 4));
		else if (!strcmp(text(steps, 3), "work") || !strcmp(text(steps, 3), "thread") ||
			 !strcmp(text(steps, 3), "queued"))
			print_handler(text(steps, 3), sqlite3_column_int(steps, 4));
		putchar('\n');
	}
	sqlite3_reset(steps);
	return rc;
}

/* "edges": how each call of the chain was resolved (JSON) */
static int print_edges(sqlite3_stmt *steps, sqlite3_int64 id)
{
	int n = 0, rc;

	if (db_bind_int(steps, "@id", id))
		return SQLITE_ERROR;
	printf(", \"edges\": [");
	while ((rc = sqlite3_step(steps)) == SQLITE_ROW) {
		if (sqlite3_column_type(steps, 3) == SQLITE_NULL)
			continue;
		printf("%s{\"edge\": \"%s\", \"candidates\": %d}", n++ ? ", " : "",
		       text(steps, 3), sqlite3_column_int(steps, 4));
	}
	printf("]");
	sqlite3_reset(steps);
	return rc;
}

int chain_unbuilt(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) != SQLITE_NULL && !sqlite3_column_int(st, col);
}

/*
 * "built": false when the chain runs through a file the audited
 * configuration does not build, true when bkl audit saw its file built
 * or included, null when no audit says (a DB of bkl analyze alone)
 */
const char *chain_built_json(sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return "null";
	return sqlite3_column_int(st, col) ? "true" : "false";
}

int analyzer_print_chains(sqlite3 *db, const char *lock, int flags)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT file, line, function, class, path, id, by_type, origin, "
				      CHAIN_BUILT_SQL " FROM chains WHERE lock = @lock AND "
				      "(NOT @precise OR " CHAIN_PRECISE_SQL ") "
				      "ORDER BY file, line, function, class, path");
	sqlite3_stmt *steps = db_prepare(db, "SELECT function, file, line, edge, candidates "
					 "FROM chain_steps WHERE chain_id = @id ORDER BY step");
	int json = flags & FACTS_JSON;
	char name[128], unlock[128];
	int rc, nr = 0;

	if (!st || !steps || bind_lock(db, st, &lock) ||
	    db_bind_int(st, "@precise", !!(flags & FACTS_PRECISE))) {
		sqlite3_finalize(st);
		sqlite3_finalize(steps);
		return -1;
	}
	profiles_names(db, lock, name, sizeof(name), unlock, sizeof(unlock));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (json) {
			json_head(st, nr, "class");
			printf(", \"path\": %s", text(st, 4));
			if (sqlite3_column_type(st, 6) == SQLITE_NULL)
				printf(", \"by_type\": null");
			else
				printf(", \"by_type\": %d", sqlite3_column_int(st, 6));
			printf(", \"origin\": ");
			if (sqlite3_column_type(st, 7) == SQLITE_NULL)
				printf("null");
			else
				json_str(text(st, 7));
			printf(", \"built\": %s", chain_built_json(st, 8));
			if (print_edges(steps, sqlite3_column_int64(st, 5)) != SQLITE_DONE)
				break;
			putchar('}');
		} else {
			const char *cls = text(st, 3);

			printf("%s:%d: warning: '%s' may %s%s held%s (%s%s%s):\n", text(st, 0),
			       sqlite3_column_int(st, 1), text(st, 2),
			       !strcmp(cls, "wait") ? "wait for another task with " :
			       !strcmp(cls, "deadlock") ? "wait, with " : "sleep with ", name,
			       !strcmp(cls, "deadlock") ? ", for work that takes it" : "", cls,
			       !strcmp(text(st, 7), "by-type") ? "; held only through a call by type" : "",
			       chain_unbuilt(st, 8) ? "; in a file the audited configuration does "
			       "not build" : "");
			if (print_steps(steps, sqlite3_column_int64(st, 5)) != SQLITE_DONE)
				break;
		}
		nr++;
	}
	if (json)
		json_end(nr);
	sqlite3_finalize(steps);
	return finish(db, st, rc);
}
