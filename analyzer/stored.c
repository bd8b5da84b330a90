// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass: functions reached through tables, for entry.c.
 *
 * A function that takes the lock on every path is an acquire helper to
 * a caller that releases after the call, but nothing releases after a
 * table's call unless the table itself pairs it with a function that
 * releases: seq_operations' ->start takes what ->stop drops, and the
 * seq_file core calls both.  An ->unlocked_ioctl that takes the BKL and
 * returns with it leaks it on every call.  So a table is a unit: what its
 * functions take on every path (entry_imbalances' 'stored' return-held
 * rows, or __acquires) and what they release without taking
 * (unlock-unheld rows, or __releases).  A table is a named one (its
 * variable, per file when static); stores into a member at run time are
 * grouped by struct type within their file.
 */
#include <stdlib.h>
#include <string.h>
#include "analyzer/graph.h"
#include "db/db.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

#define TAKES		1	/* a function of the table takes it on every path */
#define RELEASES	2	/* ... drops it without taking it */

/* The table store i is part of, an index into *flags; made on first sight. */
static int table_of(struct graph *g, struct gmap *tables, int i, int *nr)
{
	const struct g_store *s = &g->stores[i];
	struct strbuf key = STRBUF_INIT;
	const char *name;
	int scope, t;

	if (s->tbl) {
		name = s->tbl;
		scope = s->tbl_static ? s->file_id : 0;
	} else {
		strbuf_addf(&key, "struct %s", s->st ? s->st : "?");
		name = intern(key.buf, key.len);
		scope = s->file_id;
	}
	strbuf_release(&key);
	t = gmap_get(tables, name, scope);
	if (t < 0) {
		t = (*nr)++;
		gmap_put(tables, name, scope, t);
	}
	return t;
}

/* What each function does to the lock as a table's member: TAKES, RELEASES. */
static int mark_functions(sqlite3 *db, struct graph *g, char *does)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT file_id, function, kind "
				      "FROM entry_imbalances WHERE lock = @lock AND "
				      "((kind = 'return-held' AND entry = 'stored') OR "
				      "kind = 'unlock-unheld')");
	int rc, n;

	if (!st || db_bind_text(st, "@lock", g->lock)) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *fn = (const char *)sqlite3_column_text(st, 1);
		const char *kind = (const char *)sqlite3_column_text(st, 2);

		n = gmap_get(&g->fmap, intern(fn, strlen(fn)), sqlite3_column_int(st, 0));
		if (n >= 0 && n < g->nr_bodies)
			does[n] |= !strcmp(kind, "return-held") ? TAKES : RELEASES;
	}
	sqlite3_finalize(st);
	for (n = 0; n < g->nr_bodies; n++) {
		if (g->fns[n].ctx_in < 0)
			continue;
		if (g->fns[n].ctx_out > g->fns[n].ctx_in)
			does[n] |= TAKES;
		else if (g->fns[n].ctx_out < g->fns[n].ctx_in)
			does[n] |= RELEASES;
	}
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

/* Is node n called directly somewhere (not only through tables)? */
static char *called_directly(struct graph *g)
{
	char *direct = xrealloc_arr(NULL, g->nr_fns + 1, 1);
	int i, k;

	memset(direct, 0, g->nr_fns + 1);
	for (i = 0; i < g->nr_edges; i++)
		if (g->edges[i].kind == CALL_DIRECT)
			for (k = 0; k < g->edges[i].nr_targets; k++)
				direct[g->edges[i].targets[k].node] = 1;
	return direct;
}

char *graph_table_pairs(sqlite3 *db, struct graph *g)
{
	char *does = xrealloc_arr(NULL, g->nr_fns + 1, 1);
	char *out = xrealloc_arr(NULL, g->nr_fns + 1, 1);
	int *tab = xrealloc_arr(NULL, g->nr_stores + 1, sizeof(int));
	int *node = xrealloc_arr(NULL, g->nr_stores + 1, sizeof(int));
	char *flags = NULL, *direct = NULL, *unpaired = NULL;
	struct gmap tables = { 0 };
	int i, nr = 0;

	memset(does, 0, g->nr_fns + 1);
	memset(out, 0, g->nr_fns + 1);
	if (mark_functions(db, g, does)) {
		free(out);
		out = NULL;
		goto out_free;
	}
	for (i = 0; i < g->nr_stores; i++) {
		node[i] = graph_store_node(g, i);
		tab[i] = node[i] >= 0 ? table_of(g, &tables, i, &nr) : -1;
	}
	flags = xrealloc_arr(NULL, nr + 1, 1);
	memset(flags, 0, nr + 1);
	for (i = 0; i < g->nr_stores; i++)
		if (tab[i] >= 0 && node[i] < g->nr_bodies)
			flags[tab[i]] |= does[node[i]];
	/* a leak: in a table that releases nothing; paired: in no table that takes nothing */
	unpaired = xrealloc_arr(NULL, g->nr_fns + 1, 1);
	memset(unpaired, 0, g->nr_fns + 1);
	for (i = 0; i < g->nr_stores; i++) {
		if (tab[i] < 0)
			continue;
		if (!(flags[tab[i]] & RELEASES))
			out[node[i]] |= TBL_LEAK;
		if (!(flags[tab[i]] & TAKES))
			unpaired[node[i]] = 1;
		else
			out[node[i]] |= TBL_PAIRED;
	}
	direct = called_directly(g);
	for (i = 0; i < g->nr_fns; i++)
		if (unpaired[i] || direct[i])
			out[i] &= ~TBL_PAIRED;
out_free:
	gmap_free(&tables);
	free(does);
	free(tab);
	free(node);
	free(flags);
	free(direct);
	free(unpaired);
	return out;
}
