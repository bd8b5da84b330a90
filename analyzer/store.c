// SPDX-License-Identifier: GPL-2.0
/*
 * One translation unit into the DB, in one transaction: the old row of
 * its path goes (and with it, by ON DELETE CASCADE, every fact and
 * derived row of that file), then the new facts.  A file sparse could not
 * parse gets a files row with status 'error' and no facts.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analyzer/internal.h"
#include "db/db.h"
#include "ktree/series.h"

int hash_file(const char *path, char hex[17])
{
	char buf[65536];
	uint64_t h = FNV1A_INIT;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		h = fnv1a(h, buf, n);
	close(fd);
	if (n < 0)
		return -1;
	snprintf(hex, 17, "%016llx", (unsigned long long)h);
	return 0;
}

static const char *held_str(int mask)
{
	return mask & HELD_YES ? "yes" : mask & HELD_CALLER ? "caller" : "no";
}

static const char *const kind_str[] = { "direct", "member", "pointer" };

static int bind_opt(sqlite3_stmt *st, const char *name, const char *v)
{
	if (v)
		return db_bind_text(st, name, v);
	return sqlite3_bind_null(st, sqlite3_bind_parameter_index(st, name)) == SQLITE_OK ? 0 : -1;
}

/* files row; its id in *id */
static int insert_file(sqlite3 *db, const struct file_info *fi, const char *status,
		       const char *err, const char *partial, int unresolved, sqlite3_int64 *id)
{
	sqlite3_stmt *del, *ins;
	int ret = -1;

	del = db_prepare(db, "DELETE FROM files WHERE path = @path AND lock = @lock");
	ins = db_prepare(db, "INSERT INTO files (path, lock, hash, flags, status, error, "
			 "partial, unresolved) VALUES (@path, @lock, @hash, @flags, @status, "
			 "@error, @partial, @unresolved)");
	if (!del || !ins)
		goto out;
	if (db_bind_text(del, "@path", fi->path) || db_bind_text(del, "@lock", fi->lock) ||
	    db_step_done(del))
		goto out;
	if (db_bind_text(ins, "@path", fi->path) || db_bind_text(ins, "@lock", fi->lock) ||
	    db_bind_text(ins, "@hash", fi->hash) ||
	    db_bind_text(ins, "@flags", fi->flags) || db_bind_text(ins, "@status", status) ||
	    bind_opt(ins, "@error", err) || bind_opt(ins, "@partial", partial) ||
	    db_bind_int(ins, "@unresolved", unresolved) ||
	    db_step_done(ins))
		goto out;
	*id = sqlite3_last_insert_rowid(db);
	ret = 0;
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return ret;
}

static int mark_unresolved(sqlite3 *db)
{
	return db_exec(db, "INSERT OR REPLACE INTO meta (key, value) VALUES ('analyzer.resolved', '0')");
}

int store_failed(sqlite3 *db, const struct file_info *fi, const char *err)
{
	sqlite3_int64 id;

	if (db_begin(db))
		return -1;
	if (insert_file(db, fi, "error", err, NULL, 0, &id) || mark_unresolved(db)) {
		db_rollback(db);
		return error("cannot record '%s' in the database", fi->path);
	}
	return db_commit(db);
}

struct stamp_stmts {
	sqlite3_stmt *find, *put, *id, *link;
};

/* The headers row of path as it is now: by its stamp, else hashed again. */
static sqlite3_int64 header_id(struct stamp_stmts *s, const char *path)
{
	struct stat st;
	sqlite3_int64 mtime, id = -1;
	char hex[17];

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;	/* sparse's built-in streams: not files */
	mtime = (sqlite3_int64)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	if (db_bind_text(s->find, "@path", path) || db_bind_int(s->find, "@mtime", mtime) ||
	    db_bind_int(s->find, "@size", st.st_size))
		return -1;
	if (sqlite3_step(s->find) == SQLITE_ROW)
		id = sqlite3_column_int64(s->find, 0);
	sqlite3_reset(s->find);
	if (id >= 0)
		return id;
	if (hash_file(path, hex))
		return 0;
	if (db_bind_text(s->put, "@path", path) || db_bind_text(s->put, "@hash", hex) ||
	    db_bind_int(s->put, "@mtime", mtime) || db_bind_int(s->put, "@size", st.st_size) ||
	    db_step_done(s->put))
		return -1;
	if (db_bind_text(s->id, "@path", path) || db_bind_text(s->id, "@hash", hex))
		return -1;
	if (sqlite3_step(s->id) == SQLITE_ROW)
		id = sqlite3_column_int64(s->id, 0);
	sqlite3_reset(s->id);
	return id;
}

static int store_deps(sqlite3 *db, sqlite3_int64 id, const struct file_info *fi)
{
	struct stamp_stmts s = {
		db_prepare(db, "SELECT id FROM headers WHERE path = @path AND mtime = @mtime "
			   "AND size = @size"),
		db_prepare(db, "INSERT INTO headers (path, hash, mtime, size) VALUES (@path, "
			   "@hash, @mtime, @size) ON CONFLICT (path, hash) DO UPDATE SET "
			   "mtime = excluded.mtime, size = excluded.size"),
		db_prepare(db, "SELECT id FROM headers WHERE path = @path AND hash = @hash"),
		db_prepare(db, "INSERT OR IGNORE INTO file_headers (file_id, header_id) "
			   "VALUES (@id, @header)"),
	};
	int i, ret = s.find && s.put && s.id && s.link ? 0 : -1;

	for (i = 0; i < fi->nr_deps && !ret; i++) {
		sqlite3_int64 h = header_id(&s, fi->deps[i]);

		if (h < 0)
			ret = -1;
		else if (h > 0)
			ret = db_bind_int(s.link, "@id", id) || db_bind_int(s.link, "@header", h) ||
			      db_step_done(s.link);
	}
	sqlite3_finalize(s.find);
	sqlite3_finalize(s.put);
	sqlite3_finalize(s.id);
	sqlite3_finalize(s.link);
	return ret;
}

/* An annotation's count, NULL when the function has none (-1). */
static int bind_ctx(sqlite3_stmt *st, const char *name, int v)
{
	return v < 0 ? bind_opt(st, name, NULL) : db_bind_int(st, name, v);
}

static int store_functions(sqlite3 *db, sqlite3_int64 id, const struct tu *tu)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT OR IGNORE INTO functions "
				      "(file_id, name, file, line, static, inline, coarse, partial, "
				      "context_in, context_out) VALUES (@id, @name, @file, @line, "
				      "@static, @inline, @coarse, @partial, @ctx_in, @ctx_out)");
	int i, ret = st ? 0 : -1;

	for (i = 0; i < tu->nr_fns && !ret; i++) {
		const struct fact_fn *f = &tu->fns[i];

		ret = db_bind_int(st, "@id", id) || db_bind_text(st, "@name", f->name) ||
		      db_bind_text(st, "@file", f->file) || db_bind_int(st, "@line", f->line) ||
		      db_bind_int(st, "@static", f->is_static) ||
		      db_bind_int(st, "@inline", f->is_inline) ||
		      db_bind_int(st, "@coarse", f->coarse) ||
		      db_bind_int(st, "@partial", f->partial) ||
		      bind_ctx(st, "@ctx_in", f->ctx_in) || bind_ctx(st, "@ctx_out", f->ctx_out) ||
		      db_step_done(st);
	}
	sqlite3_finalize(st);
	return ret;
}

static int store_calls(sqlite3 *db, sqlite3_int64 id, const struct tu *tu)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO calls (file_id, caller, line, kind, callee, "
				      "callee_static, struct, member, held, gfp, tbl, tbl_static, "
				      "guard, args, inlined, inline_path) VALUES (@id, @caller, "
				      "@line, @kind, @callee, @cstatic, @struct, @member, @held, "
				      "@gfp, @tbl, @tstatic, @guard, @args, @inlined, @ipath)");
	int i, ret = st ? 0 : -1;

	for (i = 0; i < tu->nr_calls && !ret; i++) {
		const struct fact_call *c = &tu->calls[i];

		ret = db_bind_int(st, "@id", id) ||
		      db_bind_text(st, "@caller", tu->fns[c->fn].name) ||
		      db_bind_int(st, "@line", c->line) ||
		      db_bind_text(st, "@kind", kind_str[c->kind]) ||
		      bind_opt(st, "@callee", c->callee) ||
		      db_bind_int(st, "@cstatic", c->callee_static) ||
		      bind_opt(st, "@struct", c->st) || bind_opt(st, "@member", c->member) ||
		      db_bind_text(st, "@held", held_str(c->held)) ||
		      (c->has_gfp ? db_bind_int(st, "@gfp", c->gfp) : bind_opt(st, "@gfp", NULL)) ||
		      bind_opt(st, "@tbl", c->tbl) || db_bind_int(st, "@tstatic", c->tbl_static) ||
		      bind_opt(st, "@guard", c->guard) || bind_opt(st, "@args", c->args) ||
		      db_bind_int(st, "@inlined", c->inlined) ||
		      bind_opt(st, "@ipath", c->inline_path) || db_step_done(st);
	}
	sqlite3_finalize(st);
	return ret;
}

static int store_stores(sqlite3 *db, sqlite3_int64 id, const struct tu *tu)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO fptr_stores (file_id, struct, member, value, "
				      "kind, value_static, tbl, tbl_static, function, file, line) "
				      "VALUES (@id, @struct, @member, @value, @kind, @vstatic, "
				      "@tbl, @tstatic, @function, @file, @line)");
	int i, ret = st ? 0 : -1;

	for (i = 0; i < tu->nr_stores && !ret; i++) {
		const struct fact_store *s = &tu->stores[i];

		ret = db_bind_int(st, "@id", id) || db_bind_text(st, "@struct", s->st) ||
		      db_bind_text(st, "@member", s->member) || db_bind_text(st, "@value", s->value) ||
		      db_bind_text(st, "@kind", s->is_table ? "table" : "function") ||
		      db_bind_int(st, "@vstatic", s->value_static) || bind_opt(st, "@tbl", s->tbl) ||
		      db_bind_int(st, "@tstatic", s->tbl_static) ||
		      bind_opt(st, "@function", s->function) || db_bind_text(st, "@file", s->file) ||
		      db_bind_int(st, "@line", s->line) || db_step_done(st);
	}
	sqlite3_finalize(st);
	return ret;
}

static int store_regs(sqlite3 *db, sqlite3_int64 id, const struct tu *tu)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO registrations (file_id, kind, via, struct, "
				      "member, tbl, tbl_static, function, file, line) VALUES (@id, "
				      "@kind, @via, @struct, @member, @tbl, @tstatic, @function, "
				      "@file, @line)");
	int i, ret = st ? 0 : -1;

	for (i = 0; i < tu->nr_regs && !ret; i++) {
		const struct fact_reg *r = &tu->regs[i];

		ret = db_bind_int(st, "@id", id) || db_bind_text(st, "@kind", r->kind) ||
		      db_bind_text(st, "@via", r->via) || bind_opt(st, "@struct", r->st) ||
		      bind_opt(st, "@member", r->member) || bind_opt(st, "@tbl", r->tbl) ||
		      db_bind_int(st, "@tstatic", r->tbl_static) ||
		      bind_opt(st, "@function", r->function) || db_bind_text(st, "@file", r->file) ||
		      db_bind_int(st, "@line", r->line) || db_step_done(st);
	}
	sqlite3_finalize(st);
	return ret;
}

static int store_works(sqlite3 *db, sqlite3_int64 id, const struct tu *tu)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO work_facts (file_id, kind, object, "
				      "object_static, handler, handler_static, wq, wq_static, via, "
				      "function, file, line) VALUES (@id, @kind, @object, @ostatic, "
				      "@handler, @hstatic, @wq, @wstatic, @via, @function, @file, "
				      "@line)");
	int i, ret = st ? 0 : -1;

	for (i = 0; i < tu->nr_works && !ret; i++) {
		const struct fact_work *w = &tu->works[i];

		ret = db_bind_int(st, "@id", id) || db_bind_text(st, "@kind", w->kind) ||
		      db_bind_text(st, "@object", w->object) ||
		      db_bind_int(st, "@ostatic", w->object_static) ||
		      bind_opt(st, "@handler", w->handler) ||
		      db_bind_int(st, "@hstatic", w->handler_static) ||
		      bind_opt(st, "@wq", w->wq) || db_bind_int(st, "@wstatic", w->wq_static) ||
		      db_bind_text(st, "@via", w->via) || bind_opt(st, "@function", w->function) ||
		      db_bind_text(st, "@file", w->file) || db_bind_int(st, "@line", w->line) ||
		      db_step_done(st);
	}
	sqlite3_finalize(st);
	return ret;
}

static int store_rows(sqlite3 *db, sqlite3_int64 id, const struct fact_row *rows, int nr,
		      const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int i, ret = st ? 0 : -1;

	for (i = 0; i < nr && !ret; i++)
		ret = db_bind_int(st, "@id", id) || db_bind_text(st, "@file", rows[i].file) ||
		      db_bind_int(st, "@line", rows[i].line) ||
		      db_bind_text(st, "@function", rows[i].function) ||
		      db_bind_text(st, "@kind", rows[i].kind) ||
		      (strstr(sql, "@callee") && bind_opt(st, "@callee", rows[i].callee)) ||
		      db_step_done(st);
	sqlite3_finalize(st);
	return ret;
}

static int insert_imbalance(sqlite3_stmt *st, sqlite3_int64 id, const struct fact_row *r)
{
	return db_bind_int(st, "@id", id) || db_bind_text(st, "@file", r->file) ||
	       db_bind_int(st, "@line", r->line) || db_bind_text(st, "@function", r->function) ||
	       db_bind_text(st, "@kind", r->kind) || bind_opt(st, "@entry", r->entry) ||
	       db_step_done(st);
}

/*
 * Imbalances that depend on the function's entry go to entry_imbalances,
 * for the global pass; until it runs, the 'unheld' ones stand in
 * imbalances too (entry set: the global pass replaces them).
 */
static int store_imbalances(sqlite3 *db, sqlite3_int64 id, const struct tu *tu)
{
	sqlite3_stmt *imb = db_prepare(db, "INSERT INTO imbalances (file_id, file, line, "
				       "function, kind, lock, entry) VALUES (@id, @file, @line, "
				       "@function, @kind, (SELECT lock FROM files WHERE id = @id), "
				       "@entry)");
	sqlite3_stmt *ent = db_prepare(db, "INSERT INTO entry_imbalances (file_id, file, line, "
				       "function, kind, entry, lock) VALUES (@id, @file, @line, "
				       "@function, @kind, @entry, "
				       "(SELECT lock FROM files WHERE id = @id))");
	int i, ret = imb && ent ? 0 : -1;

	for (i = 0; i < tu->nr_imbs && !ret; i++) {
		const struct fact_row *r = &tu->imbs[i];

		if (!r->entry || !strcmp(r->entry, "unheld"))
			ret = insert_imbalance(imb, id, r);
		if (!ret && r->entry)
			ret = insert_imbalance(ent, id, r);
	}
	sqlite3_finalize(imb);
	sqlite3_finalize(ent);
	return ret;
}

int store_tu(sqlite3 *db, const struct file_info *fi, const struct tu *tu)
{
	sqlite3_int64 id;

	if (db_begin(db))
		return -1;
	if (insert_file(db, fi, "ok", NULL, tu->partial, tu->unresolved, &id) ||
	    store_deps(db, id, fi) ||
	    store_functions(db, id, tu) || store_calls(db, id, tu) ||
	    store_stores(db, id, tu) || store_regs(db, id, tu) || store_works(db, id, tu) ||
	    store_rows(db, id, tu->sites, tu->nr_sites,
		       "INSERT INTO sites (file_id, file, line, function, kind, callee, lock) "
		       "VALUES (@id, @file, @line, @function, @kind, @callee, "
		       "(SELECT lock FROM files WHERE id = @id))") ||
	    store_imbalances(db, id, tu) ||
	    mark_unresolved(db)) {
		db_rollback(db);
		return error("cannot store the facts of '%s'", fi->path);
	}
	return db_commit(db);
}
