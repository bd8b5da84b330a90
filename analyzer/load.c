// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass, loading: every function, call, store and registration
 * of one lock's files into the graph (graph.h), by file id and, within a
 * file, in an order that is total (the graph's order is the pass's: ties
 * in coverage and chains go to the first).  With a snapshot (gcache.c),
 * the rows of the files in global_dirty come from the DB and the others
 * from the snapshot, merged by file id: the same rows in the same order.
 */
#include <stdio.h>
#include <string.h>
#include "analyzer/analyzer.h"
#include "analyzer/graph.h"
#include "db/db.h"
#include "lib/usage.h"

/* The files a load reads from the DB: all of them, or global_dirty's. */
#define LOCK_FILES	"WHERE file_id IN (SELECT id FROM files WHERE lock = @lock) " \
			"AND (@all OR file_id IN (SELECT file_id FROM global_dirty)) "

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? intern((const char *)t, strlen((const char *)t)) : NULL;
}

/* What the rules say of name, into f->prims and f->gfp_arg. */
static void match_rules(struct graph *g, struct g_fn *f)
{
	static const enum prim_class cls[] = {
		PRIM_LOCK, PRIM_UNLOCK, PRIM_LOCKED, PRIM_TRYLOCK, PRIM_SLEEP, PRIM_WAIT,
		PRIM_ATOMIC
	};
	const struct prim_rule *r;
	size_t i;

	for (i = 0; i < sizeof(cls) / sizeof(cls[0]); i++) {
		r = prim_match(g->prims, cls[i], f->name);
		if (!r)
			continue;
		f->prims |= PRIM_BIT(cls[i]);
		if (cls[i] == PRIM_SLEEP && r->arg > 0)
			f->gfp_arg = r->arg;
	}
}

int graph_add_fn(struct graph *g, const char *name, int file_id, int ext)
{
	struct g_fn *f = ARR_PUSH(g->fns, g->nr_fns, g->alloc_fns);

	memset(f, 0, sizeof(*f));
	f->name = name;
	f->file_id = file_id;
	f->ext = ext;
	f->next_same_name = -1;
	f->ctx_in = f->ctx_out = -1;
	match_rules(g, f);
	return g->nr_fns - 1;
}

/*
 * Chain a non-static function into its name's list.  The head is what
 * a call by name reaches: a definition the audited configuration builds
 * comes before one it does not (kfree() is in mm/slub.c, not in the
 * mm/slob.c that allmodconfig leaves out).
 */
static void add_global(struct graph *g, int n)
{
	struct g_fn *f = &g->fns[n];
	int head = gmap_get(&g->fmap, f->name, SCOPE_GLOBAL);

	if (head >= 0 && f->unbuilt && !g->fns[head].unbuilt) {
		f->next_same_name = g->fns[head].next_same_name;
		g->fns[head].next_same_name = n;
		return;
	}
	f->next_same_name = head;
	gmap_put(&g->fmap, f->name, SCOPE_GLOBAL, n);
}

/* A statement over one lock's files: all of them, or the dirty ones. */
static sqlite3_stmt *prepare(sqlite3 *db, struct graph *g, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, sql);

	if (!st || db_bind_text(st, "@lock", g->lock) || db_bind_int(st, "@all", !g->gc)) {
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/*
 * Which source has the next row: the snapshot's row k of n (file ids
 * at stride through ids), skipping dirty files, or the statement's
 * current row (rc).  1: the snapshot's, 0: the DB's, -1: neither.
 */
static int next_src(struct graph *g, const int *file_id, size_t stride, int n, int *k,
		    sqlite3_stmt *st, int rc)
{
	const struct gcache *c = g->gc;

	while (c && *k < n && gcache_dirty(c, *(const int *)((const char *)file_id +
							   stride * *k)))
		(*k)++;
	if (c && *k < n)
		return rc != SQLITE_ROW || *(const int *)((const char *)file_id + stride * *k) <
					   sqlite3_column_int(st, 0);
	return rc == SQLITE_ROW ? 0 : -1;
}

static void add_function(struct graph *g, const struct gc_fn *r, int unbuilt)
{
	int n = graph_add_fn(g, r->name, r->file_id, 0);
	struct g_fn *f = &g->fns[n];

	f->file = r->file;
	f->line = r->line;
	f->is_static = r->is_static;
	f->path = r->path;
	f->ctx_in = r->ctx_in;
	f->ctx_out = r->ctx_out;
	f->unbuilt = unbuilt;
	gmap_put(&g->fmap, f->name, f->file_id, n);
	if (!f->is_static)
		add_global(g, n);
}

static int load_functions(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *st = prepare(db, g, "SELECT f.file_id, f.name, f.file, f.line, f.static, "
				   "files.path, EXISTS (SELECT 1 FROM audit_kinds k WHERE "
				   "k.path = files.path AND k.kind IN ('O', 'D')), "
				   "ifnull(f.context_in, -1), ifnull(f.context_out, -1) "
				   "FROM functions f JOIN files ON files.id = "
				   "f.file_id WHERE files.lock = @lock AND (@all OR "
				   "f.file_id IN (SELECT file_id FROM global_dirty)) "
				   "ORDER BY f.file_id, f.name, f.rowid");
	const struct gcache *c = g->gc;
	int rc, k = 0, src;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	while ((src = next_src(g, c ? &c->fns[0].file_id : NULL, sizeof(*c->fns),
			       c ? c->nr_fns : 0, &k, st, rc)) >= 0) {
		struct gc_fn r;

		if (src) {
			add_function(g, &c->fns[k], gcache_unbuilt(c, c->fns[k].file_id));
			k++;
			continue;
		}
		r = (struct gc_fn){ .file_id = sqlite3_column_int(st, 0), .name = col(st, 1),
			.file = col(st, 2), .line = sqlite3_column_int(st, 3),
			.is_static = sqlite3_column_int(st, 4), .path = col(st, 5),
			.ctx_in = sqlite3_column_int(st, 7), .ctx_out = sqlite3_column_int(st, 8) };
		add_function(g, &r, sqlite3_column_int(st, 6));
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	g->nr_bodies = g->nr_fns;
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int held_mask(const char *s)
{
	return !strcmp(s, "yes") ? HELD_YES : !strcmp(s, "caller") ? HELD_CALLER : HELD_NO;
}

static void add_call(struct graph *g, const struct gc_call *r, int *last)
{
	int caller = gmap_get(&g->fmap, r->caller, r->file_id);
	struct g_edge *e;

	if (caller < 0)
		return;
	e = ARR_PUSH(g->edges, g->nr_edges, g->alloc_edges);
	memset(e, 0, sizeof(*e));
	e->caller = caller;
	e->line = r->line;
	e->kind = r->kind;
	e->callee = r->callee;
	e->callee_static = r->callee_static;
	e->st = r->st;
	e->member = r->member;
	e->held = r->held;
	e->has_gfp = r->has_gfp;
	e->gfp = r->gfp;
	e->tbl = r->tbl;
	e->tbl_static = r->tbl_static;
	e->guard = r->guard;
	e->args = r->args;
	e->inlined = r->inlined;
	e->inline_path = r->inline_path;
	if (caller != *last)
		g->fns[caller].first_edge = g->nr_edges - 1;
	g->fns[caller].nr_edges++;
	*last = caller;
}

static int load_calls(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *st = prepare(db, g, "SELECT file_id, caller, line, kind, callee, "
				   "callee_static, struct, member, held, gfp, tbl, tbl_static, "
				   "guard, args, inlined, inline_path FROM calls " LOCK_FILES
				   "ORDER BY file_id, caller, line, rowid");
	const struct gcache *c = g->gc;
	int rc, last = -1, k = 0, src;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	while ((src = next_src(g, c ? &c->calls[0].file_id : NULL, sizeof(*c->calls),
			       c ? c->nr_calls : 0, &k, st, rc)) >= 0) {
		const char *kind;
		struct gc_call r;

		if (src) {
			add_call(g, &c->calls[k++], &last);
			continue;
		}
		kind = (const char *)sqlite3_column_text(st, 3);
		r = (struct gc_call){ .file_id = sqlite3_column_int(st, 0), .caller = col(st, 1),
			.line = sqlite3_column_int(st, 2),
			.kind = kind[0] == 'd' ? CALL_DIRECT : kind[0] == 'm' ? CALL_MEMBER :
				CALL_POINTER,
			.callee = col(st, 4), .callee_static = sqlite3_column_int(st, 5),
			.st = col(st, 6), .member = col(st, 7),
			.held = held_mask((const char *)sqlite3_column_text(st, 8)),
			.tbl = col(st, 10), .tbl_static = sqlite3_column_int(st, 11),
			.guard = col(st, 12), .args = col(st, 13),
			.inlined = sqlite3_column_int(st, 14), .inline_path = col(st, 15) };
		if (sqlite3_column_type(st, 9) != SQLITE_NULL) {
			r.has_gfp = 1;
			r.gfp = sqlite3_column_int64(st, 9);
		}
		add_call(g, &r, &last);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int load_stores(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *st = prepare(db, g, "SELECT file_id, struct, member, value, kind, "
				   "value_static, tbl, tbl_static, function, file, line "
				   "FROM fptr_stores " LOCK_FILES "ORDER BY file_id, line, rowid");
	const struct gcache *c = g->gc;
	int rc, k = 0, src;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	while ((src = next_src(g, c ? &c->stores[0].file_id : NULL, sizeof(*c->stores),
			       c ? c->nr_stores : 0, &k, st, rc)) >= 0) {
		struct g_store *s = ARR_PUSH(g->stores, g->nr_stores, g->alloc_stores);

		if (src) {
			*s = c->stores[k++];
			continue;
		}
		s->file_id = sqlite3_column_int(st, 0);
		s->st = col(st, 1);
		s->member = col(st, 2);
		s->value = col(st, 3);
		s->is_table = !strcmp((const char *)sqlite3_column_text(st, 4), "table");
		s->value_static = sqlite3_column_int(st, 5);
		s->tbl = col(st, 6);
		s->tbl_static = sqlite3_column_int(st, 7);
		s->function = col(st, 8);
		s->file = col(st, 9);
		s->line = sqlite3_column_int(st, 10);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

static int load_regs(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *st = prepare(db, g, "SELECT file_id, kind, via, struct, member, tbl, "
				   "tbl_static, function, file, line FROM registrations "
				   LOCK_FILES "ORDER BY file_id, line, rowid");
	const struct gcache *c = g->gc;
	int rc, k = 0, src;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	while ((src = next_src(g, c ? &c->regs[0].file_id : NULL, sizeof(*c->regs),
			       c ? c->nr_regs : 0, &k, st, rc)) >= 0) {
		struct g_reg *r = ARR_PUSH(g->regs, g->nr_regs, g->alloc_regs);

		if (src) {
			*r = c->regs[k++];
			continue;
		}
		r->file_id = sqlite3_column_int(st, 0);
		r->kind = col(st, 1);
		r->via = col(st, 2);
		r->st = col(st, 3);
		r->member = col(st, 4);
		r->tbl = col(st, 5);
		r->tbl_static = sqlite3_column_int(st, 6);
		r->function = col(st, 7);
		r->file = col(st, 8);
		r->line = sqlite3_column_int(st, 9);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

int graph_load_facts(sqlite3 *db, struct graph *g)
{
	return load_functions(db, g) || load_calls(db, g) || load_stores(db, g) ||
	       load_regs(db, g) ? -1 : 0;
}
