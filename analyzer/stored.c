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
 * (unlock-unheld rows, or __releases); entry.c reads the rows.  A table is a named one (its
 * variable, per file when static); stores into a member at run time are
 * grouped by struct type within their file.
 */
#include <stdlib.h>
#include <string.h>
#include "analyzer/graph.h"
#include "lib/strbuf.h"

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

/* What the annotations say a function does as a table's member. */
static void mark_annotated(struct graph *g, char *does)
{
	int n;

	for (n = 0; n < g->nr_bodies; n++) {
		if (g->fns[n].ctx_in < 0)
			continue;
		if (g->fns[n].ctx_out > g->fns[n].ctx_in)
			does[n] |= TBL_TAKES;
		else if (g->fns[n].ctx_out < g->fns[n].ctx_in)
			does[n] |= TBL_RELEASES;
	}
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

char *graph_table_pairs(struct graph *g, char *does)
{
	char *out = xrealloc_arr(NULL, g->nr_fns + 1, 1);
	int *tab = xrealloc_arr(NULL, g->nr_stores + 1, sizeof(int));
	int *node = xrealloc_arr(NULL, g->nr_stores + 1, sizeof(int));
	char *flags = NULL, *direct = NULL, *unpaired = NULL;
	struct gmap tables = { 0 };
	int i, nr = 0;

	memset(out, 0, g->nr_fns + 1);
	mark_annotated(g, does);
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
		if (!(flags[tab[i]] & TBL_RELEASES))
			out[node[i]] |= TBL_LEAK;
		if (!(flags[tab[i]] & TBL_TAKES))
			unpaired[node[i]] = 1;
		else
			out[node[i]] |= TBL_PAIRED;
	}
	direct = called_directly(g);
	for (i = 0; i < g->nr_fns; i++)
		if (unpaired[i] || direct[i])
			out[i] &= ~TBL_PAIRED;
	gmap_free(&tables);
	free(tab);
	free(node);
	free(flags);
	free(direct);
	free(unpaired);
	return out;
}
