// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass's snapshot: the facts it loaded last time (functions,
 * calls, stores, registrations: resolve.c's rows, in its order), in one
 * file beside the DB (DB.graph-LOCK), so that the next pass reads from
 * SQLite only the files analyzed or removed since (the global_dirty
 * table, 0020-global-dirty.sql) and splices their rows in by file id.
 * The graph it builds is then the one a full load builds, row for row,
 * and so are coverage, entries and chains: the rest of the pass runs
 * unchanged on it.
 *
 * A pass after a few files changed keeps the snapshot and leaves those
 * files in global_dirty (resolve.c's KEEP_DIRTY_RATIO): their rows
 * replace the snapshot's by file id each time, so the graph is the same,
 * and the pass does not write every file's facts again for one file.
 *
 * Trusted only when the file's token is the DB's (meta 'analyzer.graph',
 * written in the pass's transaction: a pass that failed, or a DB copied
 * back from before, leaves them different) and its key is this bkl's
 * (schema version, rules and facts keys, lock).  Anything else: a full
 * load, and a new snapshot.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analyzer/analyzer.h"
#include "analyzer/graph.h"
#include "db/db.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

#define GC_MAGIC	"BKLGRAPH3\n"

/* The snapshot's file for lock, from the DB's own name; -1: none (a temp DB). */
int gcache_path(sqlite3 *db, const char *lock, struct strbuf *out)
{
	const char *f = sqlite3_db_filename(db, "main");

	if (!f || !*f)
		return -1;
	strbuf_addf(out, "%s.graph-%s", f, lock);
	return 0;
}

/* ---- writing ---- */

struct gc_writer {
	FILE *f;
	struct gmap ids;		/* string -> id (0: NULL) */
	const char **strs;
	int nr_strs, alloc_strs;
};

static uint32_t sid(struct gc_writer *w, const char *s)
{
	int id;

	if (!s)
		return 0;
	id = gmap_get(&w->ids, s, 0);
	if (id < 0) {
		*ARR_PUSH(w->strs, w->nr_strs, w->alloc_strs) = s;
		id = w->nr_strs;
		gmap_put(&w->ids, s, 0, id);
	}
	return id;
}

static void put(struct gc_writer *w, const int32_t *v, int n)
{
	fwrite(v, sizeof(*v), n, w->f);
}

/* Records first (to a memory buffer of ints), then the strings they name. */
int gcache_write(struct graph *g, const char *path, uint64_t token, const char *key)
{
	struct gc_writer w = { 0 };
	int32_t *rec = NULL;
	size_t nr = 0, alloc = 0;
	uint32_t n;
	int i, ret = -1;
	struct strbuf tmp = STRBUF_INIT;

#define REC(...) do {							\
		int32_t v_[] = { __VA_ARGS__ };				\
		size_t k_;						\
		for (k_ = 0; k_ < sizeof(v_) / sizeof(v_[0]); k_++)	\
			*ARR_PUSH(rec, nr, alloc) = v_[k_];		\
	} while (0)
	REC(g->nr_bodies);
	for (i = 0; i < g->nr_bodies; i++) {
		const struct g_fn *f = &g->fns[i];

		REC(f->file_id, sid(&w, f->name), sid(&w, f->file), f->line, f->is_static,
		    sid(&w, f->path), f->ctx_in, f->ctx_out);
	}
	REC(g->nr_loaded_edges);
	for (i = 0; i < g->nr_loaded_edges; i++) {
		const struct g_edge *e = &g->edges[i];
		const struct g_fn *f = &g->fns[e->caller];

		REC(f->file_id, sid(&w, f->name), e->line, e->kind, sid(&w, e->callee),
		    e->callee_static, sid(&w, e->st), sid(&w, e->member), e->held, e->has_gfp,
		    (int32_t)(uint32_t)((uint64_t)e->gfp >> 32), (int32_t)(uint32_t)e->gfp,
		    sid(&w, e->tbl), e->tbl_static, sid(&w, e->guard), sid(&w, e->args),
		    e->inlined, sid(&w, e->inline_path));
	}
	REC(g->nr_stores);
	for (i = 0; i < g->nr_stores; i++) {
		const struct g_store *s = &g->stores[i];

		REC(s->file_id, sid(&w, s->st), sid(&w, s->member), sid(&w, s->value),
		    s->is_table, s->value_static, sid(&w, s->tbl), s->tbl_static,
		    sid(&w, s->function), sid(&w, s->file), s->line);
	}
	REC(g->nr_regs);
	for (i = 0; i < g->nr_regs; i++) {
		const struct g_reg *r = &g->regs[i];

		REC(r->file_id, sid(&w, r->kind), sid(&w, r->via), sid(&w, r->st),
		    sid(&w, r->member), sid(&w, r->tbl), r->tbl_static, sid(&w, r->function),
		    sid(&w, r->file), r->line);
	}
#undef REC
	strbuf_addf(&tmp, "%s.tmp", path);
	w.f = fopen(tmp.buf, "wb");
	if (!w.f) {
		error("cannot write '%s': %s", tmp.buf, strerror(errno));
		goto out;
	}
	fputs(GC_MAGIC, w.f);
	fwrite(&token, sizeof(token), 1, w.f);
	n = strlen(key);
	fwrite(&n, sizeof(n), 1, w.f);
	fwrite(key, 1, n, w.f);
	n = w.nr_strs;
	fwrite(&n, sizeof(n), 1, w.f);
	for (i = 0; i < w.nr_strs; i++) {
		n = strlen(w.strs[i]);
		fwrite(&n, sizeof(n), 1, w.f);
		fwrite(w.strs[i], 1, n, w.f);
	}
	n = nr;
	fwrite(&n, sizeof(n), 1, w.f);
	put(&w, rec, nr);
	if (ferror(w.f) | fclose(w.f) || rename(tmp.buf, path)) {
		error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&tmp);
	gmap_free(&w.ids);
	free(w.strs);
	free(rec);
	return ret;
}

/* ---- reading ---- */

static int rd(FILE *f, void *p, size_t size)
{
	return fread(p, 1, size, f) == size ? 0 : -1;
}

static int read_ids(sqlite3 *db, const char *sql, const char *lock, int **ids, int *nr)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int rc, alloc = 0;

	if (!st || (lock && db_bind_text(st, "@lock", lock))) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*ARR_PUSH(*ids, *nr, alloc) = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int has_id(const int *ids, int nr, int id)
{
	int lo = 0, hi = nr - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (ids[mid] == id)
			return 1;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

int gcache_dirty(const struct gcache *c, int file_id)
{
	return has_id(c->dirty, c->nr_dirty, file_id);
}

int gcache_unbuilt(const struct gcache *c, int file_id)
{
	return has_id(c->unbuilt, c->nr_unbuilt, file_id);
}

static const char *str_at(struct gcache *c, int32_t id)
{
	return id > 0 && id <= c->nr_strs ? c->strs[id - 1] : NULL;
}

/* The snapshot's records as resolve.c's rows; -1 on a short or odd file. */
static int unpack(struct gcache *c, const int32_t *r, size_t nr)
{
	size_t p = 0;
	int i;

#define NEED(n) do { if (p + (n) > nr) return -1; } while (0)
	NEED(1);
	c->nr_fns = r[p++];
	NEED((size_t)c->nr_fns * 8);
	c->fns = xrealloc_arr(NULL, c->nr_fns + 1, sizeof(*c->fns));
	for (i = 0; i < c->nr_fns; i++, p += 8)
		c->fns[i] = (struct gc_fn){ .file_id = r[p], .name = str_at(c, r[p + 1]),
			.file = str_at(c, r[p + 2]), .line = r[p + 3], .is_static = r[p + 4],
			.path = str_at(c, r[p + 5]), .ctx_in = r[p + 6], .ctx_out = r[p + 7] };
	NEED(1);
	c->nr_calls = r[p++];
	NEED((size_t)c->nr_calls * 18);
	c->calls = xrealloc_arr(NULL, c->nr_calls + 1, sizeof(*c->calls));
	for (i = 0; i < c->nr_calls; i++, p += 18)
		c->calls[i] = (struct gc_call){ .file_id = r[p], .caller = str_at(c, r[p + 1]),
			.line = r[p + 2], .kind = r[p + 3], .callee = str_at(c, r[p + 4]),
			.callee_static = r[p + 5], .st = str_at(c, r[p + 6]),
			.member = str_at(c, r[p + 7]), .held = r[p + 8], .has_gfp = r[p + 9],
			.gfp = (long long)(((uint64_t)(uint32_t)r[p + 10] << 32) |
					   (uint32_t)r[p + 11]),
			.tbl = str_at(c, r[p + 12]), .tbl_static = r[p + 13],
			.guard = str_at(c, r[p + 14]), .args = str_at(c, r[p + 15]),
			.inlined = r[p + 16], .inline_path = str_at(c, r[p + 17]) };
	NEED(1);
	c->nr_stores = r[p++];
	NEED((size_t)c->nr_stores * 11);
	c->stores = xrealloc_arr(NULL, c->nr_stores + 1, sizeof(*c->stores));
	for (i = 0; i < c->nr_stores; i++, p += 11)
		c->stores[i] = (struct g_store){ .file_id = r[p], .st = str_at(c, r[p + 1]),
			.member = str_at(c, r[p + 2]), .value = str_at(c, r[p + 3]),
			.is_table = r[p + 4], .value_static = r[p + 5], .tbl = str_at(c, r[p + 6]),
			.tbl_static = r[p + 7], .function = str_at(c, r[p + 8]),
			.file = str_at(c, r[p + 9]), .line = r[p + 10] };
	NEED(1);
	c->nr_regs = r[p++];
	NEED((size_t)c->nr_regs * 10);
	c->regs = xrealloc_arr(NULL, c->nr_regs + 1, sizeof(*c->regs));
	for (i = 0; i < c->nr_regs; i++, p += 10)
		c->regs[i] = (struct g_reg){ .file_id = r[p], .kind = str_at(c, r[p + 1]),
			.via = str_at(c, r[p + 2]), .st = str_at(c, r[p + 3]),
			.member = str_at(c, r[p + 4]), .tbl = str_at(c, r[p + 5]),
			.tbl_static = r[p + 6], .function = str_at(c, r[p + 7]),
			.file = str_at(c, r[p + 8]), .line = r[p + 9] };
#undef NEED
	return p == nr ? 0 : -1;
}

static int read_file(struct gcache *c, FILE *f, uint64_t token, const char *key)
{
	char magic[sizeof(GC_MAGIC) - 1];
	uint64_t t;
	uint32_t n, i;
	struct strbuf sb = STRBUF_INIT;
	int32_t *rec = NULL;
	int ret = -1;

	if (rd(f, magic, sizeof(magic)) || memcmp(magic, GC_MAGIC, sizeof(magic)) ||
	    rd(f, &t, sizeof(t)) || t != token || rd(f, &n, sizeof(n)) || n != strlen(key))
		return -1;
	strbuf_grow(&sb, n + 1);
	if (rd(f, sb.buf, n) || memcmp(sb.buf, key, n) || rd(f, &n, sizeof(n)))
		goto out;
	c->nr_strs = n;
	c->strs = xrealloc_arr(NULL, n + 1, sizeof(*c->strs));
	for (i = 0; i < c->nr_strs; i++) {
		if (rd(f, &n, sizeof(n)))
			goto out;
		strbuf_grow(&sb, n + 1);
		if (rd(f, sb.buf, n))
			goto out;
		c->strs[i] = intern(sb.buf, n);
	}
	if (rd(f, &n, sizeof(n)))
		goto out;
	rec = xrealloc_arr(NULL, (size_t)n + 1, sizeof(*rec));
	if (rd(f, rec, (size_t)n * sizeof(*rec)) || unpack(c, rec, n))
		goto out;
	ret = 0;
out:
	free(rec);
	strbuf_release(&sb);
	return ret;
}

/* The DB's token: meta 'analyzer.graph' as a number; 0 if none. */
uint64_t gcache_db_token(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT value FROM meta WHERE key = 'analyzer.graph'");
	uint64_t t = 0;

	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		t = strtoull((const char *)sqlite3_column_text(st, 0), NULL, 16);
	sqlite3_finalize(st);
	return t;
}

/*
 * The snapshot of lock's pass, if it can be trusted for this DB: 0 and
 * c filled (with the files to read from the DB and those not built),
 * else 1 (a full load), -1 on a DB error.
 */
int gcache_load(sqlite3 *db, const char *lock, const char *key, struct gcache *c)
{
	struct strbuf path = STRBUF_INIT;
	uint64_t token = gcache_db_token(db);
	FILE *f;
	int ret = 1;

	memset(c, 0, sizeof(*c));
	if (!token || gcache_path(db, lock, &path))
		goto out;
	f = fopen(path.buf, "rb");
	if (!f)
		goto out;
	if (!read_file(c, f, token, key))
		ret = 0;
	fclose(f);
	if (ret)
		goto out;
	if (read_ids(db, "SELECT file_id FROM global_dirty ORDER BY file_id", NULL,
		     &c->dirty, &c->nr_dirty) ||
	    read_ids(db, "SELECT id FROM files WHERE lock = @lock AND EXISTS (SELECT 1 FROM "
		     "audit_kinds k WHERE k.path = files.path AND k.kind IN ('O', 'D')) "
		     "ORDER BY id", lock, &c->unbuilt, &c->nr_unbuilt))
		ret = -1;
out:
	if (ret)
		gcache_release(c);
	strbuf_release(&path);
	return ret;
}

void gcache_release(struct gcache *c)
{
	free(c->strs);
	free(c->fns);
	free(c->calls);
	free(c->stores);
	free(c->regs);
	free(c->dirty);
	free(c->unbuilt);
	memset(c, 0, sizeof(*c));
}
