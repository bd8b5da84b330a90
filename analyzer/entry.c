// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass: how each function is entered, and the imbalances that
 * depend on it (check_imbalance.c wrote them to entry_imbalances).
 *
 * A static function is entered with the lock held when it has direct
 * callers, every one of them holds the lock at the call (calls.held
 * 'yes', or 'caller' in a function itself entered with it held or
 * covered), and no struct member holds it (it is not reached some other
 * way we could see).  Then its unlocks are not "unlock-unheld": the
 * `static void drop_lock(void) { unlock_kernel(); }` its callers call
 * under the lock.  A non-static function may have callers in files not
 * analyzed: it is never entered held this way.
 *
 * A function whose context annotation says its callers hold the lock
 * (__must_hold, __releases: sparse's in >= 1) is entered held, static or
 * not: the annotation is the evidence its callers elsewhere cannot give.
 *
 * "return-released" (a return with the lock released while other paths
 * balance) stands when the function is entered held, or covered
 * (coverage.c).  A covered function's own unlock-unheld rows stay: it
 * drops a lock taken by a dispatcher elsewhere (tty-ops.c).
 *
 * Tables (stored.c): a function that takes the lock on every path leaks
 * it ("return-held" at each return, entry "stored") when a table holds
 * it and none of that table's functions releases; an unlock-unheld in a
 * function called only through tables that pair it with such a taker
 * (seq_operations' ->stop) does not stand.
 */
#include <stdlib.h>
#include <string.h>
#include "analyzer/graph.h"
#include "db/db.h"
#include "lib/usage.h"

/* The function node a call target stands for (copies: their original). */
static int body_of(struct graph *g, int node)
{
	const struct g_fn *f = &g->fns[node];

	if (node < g->nr_bodies || f->ext)
		return node;
	return gmap_get(&g->fmap, f->name, f->file_id);
}

static int edge_holds(const struct graph *g, const struct g_edge *e, const char *held)
{
	if (e->held == HELD_YES)
		return 1;
	if (e->held & HELD_NO)
		return 0;
	return held[e->caller] || g->fns[e->caller].covered;
}

/* One sweep: 1 if some function became entered held. */
static int sweep(struct graph *g, char *held, const char *stored, int *in, int *ok)
{
	int i, changed = 0;

	memset(in, 0, g->nr_bodies * sizeof(*in));
	memset(ok, 0, g->nr_bodies * sizeof(*ok));
	for (i = 0; i < g->nr_edges; i++) {
		const struct g_edge *e = &g->edges[i];
		int t;

		if (e->kind != CALL_DIRECT || e->nr_targets != 1 || e->caller >= g->nr_bodies)
			continue;
		t = body_of(g, e->targets[0].node);
		if (t < 0 || t >= g->nr_bodies)
			continue;
		in[t]++;
		ok[t] += edge_holds(g, e, held);
	}
	for (i = 0; i < g->nr_bodies; i++)
		if (!held[i] && g->fns[i].is_static && !stored[i] && in[i] && in[i] == ok[i]) {
			held[i] = 1;
			changed = 1;
		}
	return changed;
}

/* Per function node: 1 if entered with the lock held by its callers. */
static char *entered_held(struct graph *g)
{
	char *held = xrealloc_arr(NULL, g->nr_bodies + 1, 1);
	char *stored = graph_stored_functions(g);
	int *in = xrealloc_arr(NULL, g->nr_bodies + 1, sizeof(int));
	int *ok = xrealloc_arr(NULL, g->nr_bodies + 1, sizeof(int));
	int n;

	memset(held, 0, g->nr_bodies + 1);
	for (n = 0; n < g->nr_bodies; n++)
		held[n] = g->fns[n].ctx_in >= 1;
	/* each sweep settles at least one more level of callers */
	for (n = 0; n < g->nr_bodies && sweep(g, held, stored, in, ok); n++)
		;
	free(stored);
	free(in);
	free(ok);
	return held;
}

static int stands(const struct graph *g, const char *held, const char *pairs, int node,
		  const char *entry)
{
	if (node < 0 || node >= g->nr_bodies)
		return !strcmp(entry, "unheld");
	if (!strcmp(entry, "stored"))
		return pairs[node] & TBL_LEAK;
	if (!strcmp(entry, "unheld"))
		return !held[node] && !(pairs[node] & TBL_PAIRED);
	return held[node] || g->fns[node].covered;
}

/* A row of entry_imbalances, its strings interned, and its function's node. */
struct ent_row {
	int id, line, node;
	const char *file, *function, *kind, *entry;
};

static const char *col_text(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);

	return intern(t, strlen(t));
}

/* This lock's candidate rows, read once: what tables pair and what stands. */
static int load_rows(sqlite3 *db, struct graph *g, struct ent_row **rows, int *nr)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT file_id, file, line, function, kind, entry "
				      "FROM entry_imbalances WHERE lock = @lock");
	int rc, alloc = 0;

	if (!st || db_bind_text(st, "@lock", g->lock)) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ent_row *r = ARR_PUSH(*rows, *nr, alloc);

		r->id = sqlite3_column_int(st, 0);
		r->file = col_text(st, 1);
		r->line = sqlite3_column_int(st, 2);
		r->function = col_text(st, 3);
		r->kind = col_text(st, 4);
		r->entry = col_text(st, 5);
		r->node = gmap_get(&g->fmap, r->function, r->id);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

/* Per node, what its rows say it does as a table's member (stored.c). */
static char *table_roles(const struct graph *g, const struct ent_row *rows, int nr)
{
	char *does = xrealloc_arr(NULL, g->nr_fns + 1, 1);
	int i;

	memset(does, 0, g->nr_fns + 1);
	for (i = 0; i < nr; i++) {
		if (rows[i].node < 0 || rows[i].node >= g->nr_bodies)
			continue;
		if (!strcmp(rows[i].entry, "stored"))
			does[rows[i].node] |= TBL_TAKES;
		else if (!strcmp(rows[i].kind, "unlock-unheld"))
			does[rows[i].node] |= TBL_RELEASES;
	}
	return does;
}

int graph_store_entry_imbalances(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *ins = db_prepare(db, "INSERT INTO imbalances (file_id, file, line, "
				       "function, kind, lock, entry) VALUES (@id, @file, @line, "
				       "@function, @kind, @lock, @entry)");
	struct ent_row *rows = NULL;
	char *held = NULL, *does = NULL, *pairs = NULL;
	int i, nr = 0, ret = -1;

	if (!ins || load_rows(db, g, &rows, &nr))
		goto out;
	held = entered_held(g);
	does = table_roles(g, rows, nr);
	pairs = graph_table_pairs(g, does);
	for (i = 0; i < nr; i++) {
		const struct ent_row *r = &rows[i];

		if (!stands(g, held, pairs, r->node, r->entry))
			continue;
		if (db_bind_int(ins, "@id", r->id) || db_bind_text(ins, "@file", r->file) ||
		    db_bind_int(ins, "@line", r->line) ||
		    db_bind_text(ins, "@function", r->function) ||
		    db_bind_text(ins, "@kind", r->kind) || db_bind_text(ins, "@lock", g->lock) ||
		    db_bind_text(ins, "@entry", r->entry) || db_step_done(ins))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(ins);
	free(rows);
	free(held);
	free(does);
	free(pairs);
	return ret;
}
