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

int graph_store_entry_imbalances(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *sel = db_prepare(db, "SELECT file_id, file, line, function, kind, entry "
				       "FROM entry_imbalances WHERE lock = @lock");
	sqlite3_stmt *ins = db_prepare(db, "INSERT INTO imbalances (file_id, file, line, "
				       "function, kind, lock, entry) VALUES (@id, @file, @line, "
				       "@function, @kind, @lock, @entry)");
	char *held = entered_held(g);
	char *pairs = graph_table_pairs(db, g);
	int rc = SQLITE_DONE, ret = -1;

	if (!sel || !ins || !pairs || db_bind_text(sel, "@lock", g->lock))
		goto out;
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		const char *fn = (const char *)sqlite3_column_text(sel, 3);
		const char *entry = (const char *)sqlite3_column_text(sel, 5);
		int id = sqlite3_column_int(sel, 0);
		int node = gmap_get(&g->fmap, intern(fn, strlen(fn)), id);

		if (!stands(g, held, pairs, node, entry))
			continue;
		if (db_bind_int(ins, "@id", id) ||
		    db_bind_text(ins, "@file", (const char *)sqlite3_column_text(sel, 1)) ||
		    db_bind_int(ins, "@line", sqlite3_column_int(sel, 2)) ||
		    db_bind_text(ins, "@function", fn) ||
		    db_bind_text(ins, "@kind", (const char *)sqlite3_column_text(sel, 4)) ||
		    db_bind_text(ins, "@lock", g->lock) || db_bind_text(ins, "@entry", entry) ||
		    db_step_done(ins))
			goto out;
	}
	ret = rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	free(held);
	free(pairs);
	return ret;
}
