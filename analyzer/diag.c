// SPDX-License-Identifier: GPL-2.0
/*
 * What sparse said about a file it parsed, read back from its captured
 * stderr: did it drop code?  sparse keeps going after an error, and the
 * analyzer lives with some errors (analyzer.c, errors_tolerable()), but
 * an expression sparse could not type is linearized as nothing: an if
 * whose condition compares pointers of different address spaces loses
 * its condition and both branches.  The file is analyzed, in part.
 *
 * Dropping code: every error but a failed static assertion (a
 * declaration: nothing else goes), and the warnings of linearize.c and
 * inline.c that give up on what they name.  sparse prints no warning
 * after its first error: a file whose first error is a static assertion
 * may hide such a warning.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "analyzer/internal.h"
#include "db/db.h"
#include "lib/usage.h"

static const char *const drop_warnings[] = {
	"unknown expression",
	"unexpected initializer expression",
	"expected string in inline asm",
	"generating address of non-lvalue",
	"unreplaced symbol",
	NULL
};

static int drops_code(const char *line, size_t len)
{
	const char *w = memmem(line, len, ": warning: ", 11);
	int i;

	if (memmem(line, len, ": error: ", 9))
		return !memmem(line, len, ": error: static assertion failed: ", 34);
	if (!w)
		return 0;
	for (i = 0; drop_warnings[i]; i++)
		if (memmem(w, line + len - w, drop_warnings[i], strlen(drop_warnings[i])))
			return 1;
	return 0;
}

/* "file:line:col: ..." -> the file (interned) and line; 0 if not that. */
static int where(const char *line, size_t len, const char **file, int *nr)
{
	const char *c = memchr(line, ':', len);
	char *end;

	if (!c || c == line)
		return 0;
	*nr = strtol(c + 1, &end, 10);
	if (end == c + 1 || *end != ':')
		return 0;
	*file = intern(line, c - line);
	return 1;
}

/* The function defined at the last symbol of file at or before line. */
static struct symbol *enclosing(struct symbol_list *list, const char *file, int line)
{
	struct symbol *sym, *best = NULL;

	FOR_EACH_PTR(list, sym) {
		if (!sym->ident || pos_file(sym->pos) != file || (int)sym->pos.line > line)
			continue;
		if (!best || sym->pos.line >= best->pos.line)
			best = sym;
	} END_FOR_EACH_PTR(sym);
	if (!best || !best->ctype.base_type || best->ctype.base_type->type != SYM_FN ||
	    !best->ctype.base_type->stmt)
		return NULL;
	return best;
}

static void mark(struct tu *tu, struct symbol *fn)
{
	const char *name = ident_str(fn->ident), *file = pos_file(fn->pos);
	int i;

	for (i = 0; i < tu->nr_fns; i++)
		if (tu->fns[i].name == name && tu->fns[i].file == file &&
		    tu->fns[i].line == (int)fn->pos.line)
			tu->fns[i].partial = 1;
}

void diag_partial(struct tu *tu, struct symbol_list *list, const char *out)
{
	const char *line, *nl, *file;
	int nr;

	for (line = out; *line; line = nl + 1) {
		struct symbol *fn;

		nl = strchrnul(line, '\n');
		if (drops_code(line, nl - line)) {
			if (!tu->partial)
				tu->partial = intern(line, nl - line);
			if (where(line, nl - line, &file, &nr) && (fn = enclosing(list, file, nr)))
				mark(tu, fn);
		}
		if (!*nl)
			break;
	}
}

/*
 * Was the file just stored analyzed in part?  Said as a warning (unless
 * quiet), as a file not analyzed is.  1 if so, 0 if not (or unknown).
 */
int diag_said(sqlite3 *db, const char *path, const char *lock, int quiet)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT partial FROM files WHERE path = @path AND "
				      "lock = @lock AND partial IS NOT NULL");
	int ret = 0;

	if (st && !db_bind_text(st, "@path", path) && !db_bind_text(st, "@lock", lock) &&
	    sqlite3_step(st) == SQLITE_ROW) {
		if (!quiet)
			warning("'%s' analyzed in part (sparse dropped code): %s", path,
				(const char *)sqlite3_column_text(st, 0));
		ret = 1;
	}
	sqlite3_finalize(st);
	return ret;
}
