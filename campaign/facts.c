// SPDX-License-Identifier: GPL-2.0
/*
 * The analyzer's facts, as the campaign reads them: the one file that
 * knows the analyzer's tables (db/schema/0002-analyzer.sql).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/drivers.h"
#include "db/db.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

int facts_check(struct campaign *c)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT count(*) FROM sqlite_master "
				     "WHERE type IN ('table', 'view') AND name IN ('sites', 'chains', 'imbalances')");
	int n = 0;

	if (q && sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	if (n != 3)
		return error("'%s' has no analyzer facts: run 'bkl audit' first", c->db_path);
	return 0;
}

char *facts_relpath(struct campaign *c, const char *path)
{
	size_t n = strlen(c->tree);

	if (!strncmp(path, c->tree, n) && path[n] == '/')
		path += n + 1;
	while (!strncmp(path, "./", 2))
		path += 2;
	return strdup(path);
}

static char *abspath(struct campaign *c, const char *rel)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", c->tree, rel);
	return sb.buf;
}

int facts_covered_files(struct campaign *c, char ***files, int *nr)
{
	/* a function defined in a header belongs to the .c file including it */
	sqlite3_stmt *q = db_prepare(c->db,
		"SELECT DISTINCT CASE WHEN s.file LIKE '%.c' THEN s.file ELSE f.path END "
		"FROM sites s JOIN files f ON f.id = s.file_id WHERE s.kind = 'implicit'");
	char **v = NULL;
	int n = 0;

	if (!q)
		return -1;
	while (sqlite3_step(q) == SQLITE_ROW) {
		v = realloc(v, (n + 1) * sizeof(*v));
		v[n++] = facts_relpath(c, (const char *)sqlite3_column_text(q, 0));
	}
	sqlite3_finalize(q);
	*files = v;
	*nr = n;
	return 0;
}

static struct centry *entry_for(struct cdriver *d, const char *function, const char *file)
{
	int i;

	for (i = 0; i < d->nr_e; i++)
		if (!strcmp(d->e[i].function, function) && !strcmp(d->e[i].file, file))
			return &d->e[i];
	d->e = realloc(d->e, (d->nr_e + 1) * sizeof(*d->e));
	memset(&d->e[d->nr_e], 0, sizeof(*d->e));
	d->e[d->nr_e].function = strdup(function);
	d->e[d->nr_e].file = strdup(file);
	return &d->e[d->nr_e++];
}

/* Run q once per driver file, bound as @rel and @abs. */
static int per_file(struct campaign *c, struct cdriver *d, sqlite3_stmt *q,
		    int (*row)(struct campaign *, struct cdriver *, sqlite3_stmt *, const char *))
{
	int i, ret = 0;

	for (i = 0; i < d->nr_files && !ret; i++) {
		char *abs = abspath(c, d->files[i]);

		if (db_bind_text(q, "@rel", d->files[i]) || db_bind_text(q, "@abs", abs))
			ret = -1;
		while (!ret && sqlite3_step(q) == SQLITE_ROW)
			ret = row(c, d, q, d->files[i]);
		sqlite3_reset(q);
		free(abs);
	}
	return ret;
}

static int site_row(struct campaign *c, struct cdriver *d, sqlite3_stmt *q, const char *file)
{
	const char *fn = (const char *)sqlite3_column_text(q, 0);
	const char *kind = (const char *)sqlite3_column_text(q, 2);
	int line = sqlite3_column_int(q, 1);
	struct centry *e;

	if (!fn || !kind)
		return 0;
	if (!strcmp(kind, "implicit")) {
		e = entry_for(d, fn, file);
		e->implicit = 1;
		e->line = line;
	} else if (!strcmp(kind, "lock")) {
		d->locks++;
		e = entry_for(d, fn, file);
		e->locks++;
		if (!e->line)
			e->line = line;
	} else if (!strcmp(kind, "unlock")) {
		d->unlocks++;
	}
	return 0;
}

static int chain_row(struct campaign *c, struct cdriver *d, sqlite3_stmt *q, const char *file)
{
	const char *cls = (const char *)sqlite3_column_text(q, 0);

	if (cls && (!strcmp(cls, "wait") || !strcmp(cls, "deadlock")))	/* a deadlock waits too */
		d->wait++;
	else
		d->sleep++;
	return 0;
}

static int imbalance_row(struct campaign *c, struct cdriver *d, sqlite3_stmt *q, const char *file)
{
	d->imbalances++;
	return 0;
}

static char *col_rel(struct campaign *c, sqlite3_stmt *q, int i)
{
	const char *t = (const char *)sqlite3_column_text(q, i);

	return t ? facts_relpath(c, t) : NULL;
}

static char *col_dup(sqlite3_stmt *q, int i)
{
	const char *t = (const char *)sqlite3_column_text(q, i);

	return t ? strdup(t) : NULL;
}

/* The coverage row's evidence for e; an entry point's row first. */
static void coverage_row(struct campaign *c, struct centry *e, sqlite3_stmt *q)
{
	e->member = col_dup(q, 0);
	e->via = col_dup(q, 1);
	e->entry = sqlite3_column_int(q, 2);
	e->edge = col_dup(q, 3);
	e->candidates = sqlite3_column_int(q, 4);
	e->st = col_dup(q, 5);
	e->tbl = col_dup(q, 6);
	e->via_file = col_rel(c, q, 7);
	e->via_line = sqlite3_column_int(q, 8);
	e->reg_via = col_dup(q, 9);
	e->reg_file = col_rel(c, q, 10);
	e->reg_line = sqlite3_column_int(q, 11);
}

/* Through which member, called from where: the coverage table's evidence. */
static int coverage(struct campaign *c, struct cdriver *d)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT c.member, c.via_function, c.entry, c.edge, "
				     "c.candidates, c.struct, c.tbl, c.via_file, c.via_line, "
				     "c.reg_via, c.reg_file, c.reg_line FROM coverage c "
				     "JOIN files f ON f.id = c.file_id WHERE c.function = @fn "
				     "AND (f.path = @rel OR f.path = @abs) "
				     "ORDER BY c.entry DESC, c.member = 'open' DESC");
	int i, ret = 0;

	if (!q)
		return -1;
	for (i = 0; i < d->nr_e && !ret; i++) {
		struct centry *e = &d->e[i];
		char *abs = abspath(c, e->file);

		if (db_bind_text(q, "@fn", e->function) || db_bind_text(q, "@rel", e->file) ||
		    db_bind_text(q, "@abs", abs))
			ret = -1;
		if (!ret && sqlite3_step(q) == SQLITE_ROW)
			coverage_row(c, e, q);
		sqlite3_reset(q);
		free(abs);
		if (!e->member)
			e->member = strdup("");
		if (!e->via)
			e->via = strdup("");
	}
	sqlite3_finalize(q);
	return ret;
}

int facts_fill(struct campaign *c, struct cdriver *d)
{
	sqlite3_stmt *q[3] = {
		db_prepare(c->db, "SELECT function, line, kind FROM sites "
			   "WHERE file = @rel OR file = @abs ORDER BY line"),
		db_prepare(c->db, "SELECT class FROM chains WHERE file = @rel OR file = @abs"),
		db_prepare(c->db, "SELECT line FROM imbalances WHERE file = @rel OR file = @abs"),
	};
	int ret = -1, i;

	if (q[0] && q[1] && q[2] && !per_file(c, d, q[0], site_row) &&
	    !per_file(c, d, q[1], chain_row) && !per_file(c, d, q[2], imbalance_row) &&
	    !coverage(c, d))
		ret = 0;
	for (i = 0; i < 3; i++)
		sqlite3_finalize(q[i]);
	return ret;
}

static int chains_of(struct campaign *c, const struct cdriver *d, struct cchain **out, int *nr)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT function, line, class, path FROM chains "
				     "WHERE file = @rel OR file = @abs ORDER BY line, class");
	int i, ret = 0;

	if (!q)
		return -1;
	for (i = 0; i < d->nr_files && !ret; i++) {
		char *abs = abspath(c, d->files[i]);

		if (db_bind_text(q, "@rel", d->files[i]) || db_bind_text(q, "@abs", abs))
			ret = -1;
		while (!ret && sqlite3_step(q) == SQLITE_ROW) {
			struct cchain *ch;
			const char *path = (const char *)sqlite3_column_text(q, 3);

			*out = realloc(*out, (*nr + 1) * sizeof(**out));
			ch = &(*out)[(*nr)++];
			ch->file = strdup(d->files[i]);
			ch->function = strdup((const char *)sqlite3_column_text(q, 0));
			ch->line = sqlite3_column_int(q, 1);
			ch->class = strdup((const char *)sqlite3_column_text(q, 2));
			ch->path = strdup(path ? path : "");
		}
		sqlite3_reset(q);
		free(abs);
	}
	sqlite3_finalize(q);
	return ret;
}

int facts_chains(struct campaign *c, const struct cdriver *d, struct cchain **out, int *nr)
{
	*out = NULL;
	*nr = 0;
	return chains_of(c, d, out, nr);
}

void cchains_release(struct cchain *ch, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		free(ch[i].file);
		free(ch[i].function);
		free(ch[i].class);
		free(ch[i].path);
	}
	free(ch);
}

/*
 * Drivers whose entry points d's entry points call with the BKL held
 * (misc_open() calls every misc driver's open()): "driver\tfunction" in
 * *out, each once.  A file no campaign driver owns gives "?\tfunction".
 */
int facts_dependents(struct campaign *c, const struct cdriver *d, char ***out, int *nr)
{
	sqlite3_stmt *q = db_prepare(c->db,
		"SELECT DISTINCT coalesce(df.driver, '?'), cv.function FROM coverage cv "
		"JOIN files f ON f.id = cv.file_id "
		"LEFT JOIN campaign_driver_files df ON df.file = f.path "
		"WHERE cv.via_function = @fn AND coalesce(df.driver, '') <> @d ORDER BY 1, 2");
	int i, ret = 0;

	*out = NULL;
	*nr = 0;
	if (!q)
		return -1;
	for (i = 0; i < d->nr_e && !ret; i++) {
		if (db_bind_text(q, "@fn", d->e[i].function) || db_bind_text(q, "@d", d->id))
			ret = -1;
		while (!ret && sqlite3_step(q) == SQLITE_ROW) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s\t%s", sqlite3_column_text(q, 0), sqlite3_column_text(q, 1));
			*out = realloc(*out, (*nr + 1) * sizeof(**out));
			(*out)[(*nr)++] = sb.buf;
		}
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	return ret;
}

int facts_analyzed_files(struct campaign *c)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT count(*) FROM files WHERE status = 'ok'");
	int n = 0;

	if (q && sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return n;
}

/* Calls through pointers (members or not) in d's entry points: where unseen code runs. */
int facts_indirect_calls(struct campaign *c, const struct cdriver *d)
{
	sqlite3_stmt *q = db_prepare(c->db, "SELECT count(*) FROM calls cl JOIN files f ON "
				     "f.id = cl.file_id WHERE cl.caller = @fn AND f.path = @file "
				     "AND cl.kind IN ('member', 'pointer')");
	int i, n = 0;

	if (!q)
		return 0;
	for (i = 0; i < d->nr_e; i++) {
		if (!db_bind_text(q, "@fn", d->e[i].function) && !db_bind_text(q, "@file", d->e[i].file) &&
		    sqlite3_step(q) == SQLITE_ROW)
			n += sqlite3_column_int(q, 0);
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	return n;
}

int facts_table_files(struct campaign *c, const char *fn, const char *fn_file, const char *member,
		      char ***files)
{
	sqlite3_stmt *q = db_prepare(c->db,
		"SELECT DISTINCT file, value_static FROM fptr_stores WHERE struct = 'file_operations' "
		"AND member = @member AND value = @fn AND kind = 'function' ORDER BY file");
	int nr = 0, rc;

	*files = NULL;
	if (!q || db_bind_text(q, "@member", member) || db_bind_text(q, "@fn", fn)) {
		sqlite3_finalize(q);
		return -1;
	}
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char *file = facts_relpath(c, (const char *)sqlite3_column_text(q, 0));

		/* a static function of that name elsewhere is another function */
		if (sqlite3_column_int(q, 1) && strcmp(file, fn_file)) {
			free(file);
			continue;
		}
		*files = realloc(*files, (nr + 1) * sizeof(**files));
		if (!*files)
			abort();
		(*files)[nr++] = file;
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		while (nr)
			free((*files)[--nr]);
		free(*files);
		*files = NULL;
		return error("cannot read the function-pointer stores: %s", db_describe(c->db, rc));
	}
	return nr;
}
