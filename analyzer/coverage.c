// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass, coverage: which functions a member call made with the
 * BKL held reaches (implicit sites), computed forward once over the graph
 * resolve.c loaded, and written to the coverage and implicit tables with
 * the call that puts each one under the lock and how it was resolved.
 */
#include <stdio.h>
#include <string.h>
#include "analyzer/analyzer.h"
#include "analyzer/graph.h"
#include "db/db.h"

int graph_held_context(const struct graph *g, int node)
{
	return g->fns[node].covered != 0;
}

/* The registration of the table a store was made in, of any kind; -1 if none. */
static int store_reg(struct graph *g, int store)
{
	const struct g_store *s;
	int t;

	if (store < 0 || !(s = &g->stores[store])->tbl)
		return -1;
	t = gmap_get(&g->tmap, s->tbl, s->tbl_static ? s->file_id : 0);
	return t >= 0 ? g->tables[t].reg : -1;
}

/*
 * Is target t of call e what chrdev_open(), misc_open() or fasync called
 * with the BKL held in 2.6.26: the ->open of a table reached through its
 * registration (restricted and dispatching calls), or the ->fasync of a
 * table registered as a char device (fcntl calls every file's ->fasync)?
 * Only there does a push-down go.  Returns the registration, or -1.
 */
static int entry_reg(struct graph *g, const struct g_edge *e, const struct g_target *t)
{
	if (strcmp(e->st, "file_operations"))
		return -1;
	if (!strcmp(e->member, "open"))
		return t->reg;
	if (!strcmp(e->member, "fasync"))
		return t->reg >= 0 ? t->reg : store_reg(g, t->store);
	return -1;
}

/* What puts a function under the lock: call j (e) to target t, entry reg. */
static void set_cover(struct g_cover *c, const struct g_edge *e, int j,
		      const struct g_target *t, int reg)
{
	c->edge = j;
	c->store = t->store;
	c->reg = reg >= 0 ? reg : t->reg;
	c->entry = reg >= 0;
	c->registered = t->reg >= 0;
	c->by_table = e->by_table;
}

static void cover_from(struct graph *g, int j, int *queue, int *tail)
{
	struct g_edge *e = &g->edges[j];
	int k;

	for (k = 0; k < e->nr_targets; k++) {
		struct g_target *t = &e->targets[k];
		struct g_fn *f = &g->fns[t->node];
		int reg = entry_reg(g, e, t);
		struct g_cover *c;

		if (f->ext)
			continue;
		if (f->covered) {
			/*
			 * The entry's evidence wins over a call that only
			 * reaches it, and a precise call over one by type.
			 */
			c = &g->cover[f->covered - 1];
			if ((!c->entry && reg >= 0) ||
			    (cover_by_type(c) &&
			     (t->reg >= 0 || e->by_table)))
				set_cover(c, e, j, t, reg);
			continue;
		}
		c = ARR_PUSH(g->cover, g->nr_cover, g->alloc_cover);
		c->node = t->node;
		set_cover(c, e, j, t, reg);
		f->covered = g->nr_cover;
		queue[(*tail)++] = t->node;
	}
}

/* The function store i puts in a member; -1: a table, or none we have. */
int graph_store_node(struct graph *g, int i)
{
	const struct g_store *st = &g->stores[i];
	int n;

	if (st->is_table)
		return -1;
	n = gmap_get(&g->fmap, st->value, st->file_id);
	if (n < 0 || (!st->value_static && g->fns[n].is_static))
		n = gmap_get(&g->fmap, st->value, SCOPE_GLOBAL);
	return n >= 0 && n < g->nr_fns ? n : -1;
}

char *graph_stored_functions(struct graph *g)
{
	char *stored = xrealloc_arr(NULL, g->nr_fns + 1, 1);
	int i, n;

	memset(stored, 0, g->nr_fns + 1);
	for (i = 0; i < g->nr_stores; i++)
		if ((n = graph_store_node(g, i)) >= 0)
			stored[n] = 1;
	return stored;
}

/*
 * Forward, once: member calls made with the BKL held cover what they
 * reach; in a covered function, calls that inherit the caller's BKL do too.
 */
void graph_coverage(struct graph *g)
{
	int *queue = xrealloc_arr(NULL, g->nr_fns + 1, sizeof(int));
	int head = 0, tail = 0, j;

	char *stored = graph_stored_functions(g);
	int pass;

	/*
	 * The lock sites no table points to first (chrdev_call_open(),
	 * vfs_fasync()): an entry point's evidence is then the 2.6.26 site,
	 * not a pushed-down open that happens to make the same call.
	 */
	for (pass = 0; pass < 2; pass++)
		for (j = 0; j < g->nr_edges; j++)
			if (g->edges[j].kind == CALL_MEMBER && (g->edges[j].held & HELD_YES) &&
			    stored[g->edges[j].caller] == pass)
				cover_from(g, j, queue, &tail);
	free(stored);
	while (head < tail) {
		struct g_fn *f = &g->fns[queue[head++]];

		for (j = f->first_edge; j < f->first_edge + f->nr_edges; j++)
			if (g->edges[j].kind == CALL_MEMBER &&
			    (g->edges[j].held & (HELD_YES | HELD_CALLER)))
				cover_from(g, j, queue, &tail);
	}
	free(queue);
}

static int bind_null(sqlite3_stmt *st, const char *name)
{
	return sqlite3_bind_null(st, sqlite3_bind_parameter_index(st, name)) == SQLITE_OK ? 0 : -1;
}

static int bind_text_or_null(sqlite3_stmt *st, const char *name, const char *v)
{
	return v ? db_bind_text(st, name, v) : bind_null(st, name);
}

static int store_cover(sqlite3 *db, struct graph *g, const struct g_cover *c,
		       sqlite3_stmt *site, sqlite3_stmt *cov)
{
	const struct g_fn *f = &g->fns[c->node];
	const struct g_edge *e = &g->edges[c->edge];
	const struct g_fn *via = &g->fns[e->caller];
	const struct g_store *s = &g->stores[c->store];
	const struct g_reg *r = c->reg >= 0 ? &g->regs[c->reg] : NULL;

	if (db_bind_int(site, "@id", f->file_id) || db_bind_text(site, "@file", f->file) ||
	    db_bind_int(site, "@line", f->line) || db_bind_text(site, "@function", f->name) ||
	    db_step_done(site))
		return -1;
	if (db_bind_int(cov, "@id", f->file_id) || db_bind_text(cov, "@function", f->name) ||
	    db_bind_text(cov, "@struct", e->st) || db_bind_text(cov, "@member", e->member) ||
	    bind_text_or_null(cov, "@tbl", s->tbl) || db_bind_text(cov, "@sfile", s->file) ||
	    db_bind_int(cov, "@sline", s->line) || db_bind_text(cov, "@vfile", via->file) ||
	    db_bind_int(cov, "@vline", e->line) || db_bind_text(cov, "@vfunction", via->name) ||
	    bind_text_or_null(cov, "@rkind", r ? r->kind : NULL) ||
	    bind_text_or_null(cov, "@rvia", r ? r->via : NULL) ||
	    bind_text_or_null(cov, "@rfile", r ? r->file : NULL) ||
	    (r ? db_bind_int(cov, "@rline", r->line) : bind_null(cov, "@rline")) ||
	    db_bind_int(cov, "@entry", c->entry) ||
	    db_bind_text(cov, "@edge", c->registered ? "registered" :
				       c->by_table ? "table" : "by-type") ||
	    db_bind_int(cov, "@candidates", e->nr_targets))
		return -1;
	return db_step_done(cov);
}

int graph_store_coverage(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *site = db_prepare(db, "INSERT INTO sites (file_id, file, line, function, "
					"kind, lock) VALUES (@id, @file, @line, @function, "
					"'implicit', (SELECT lock FROM files WHERE id = @id))");
	sqlite3_stmt *cov = db_prepare(db, "INSERT INTO coverage (file_id, function, struct, member, "
				       "tbl, store_file, store_line, via_file, via_line, "
				       "via_function, reg_kind, reg_via, reg_file, reg_line, entry, edge, "
				       "candidates, lock) VALUES (@id, @function, @struct, @member, "
				       "@tbl, @sfile, @sline, @vfile, @vline, @vfunction, @rkind, "
				       "@rvia, @rfile, @rline, @entry, @edge, @candidates, "
				       "(SELECT lock FROM files WHERE id = @id))");
	int i, ret = site && cov ? 0 : -1;

	for (i = 0; i < g->nr_cover && !ret; i++)
		ret = store_cover(db, g, &g->cover[i], site, cov);
	sqlite3_finalize(site);
	sqlite3_finalize(cov);
	return ret;
}
