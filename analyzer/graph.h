/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_ANALYZER_GRAPH_H
#define BKL_ANALYZER_GRAPH_H

/*
 * The whole call graph of a DB, in memory, for the global pass:
 * resolve.c loads it, coverage.c computes implicit coverage, chains.c the
 * chains.
 * Nodes are the analyzed functions, then one node per name called but
 * not analyzed (externals: primitives, mostly).
 */
#include <stdint.h>
#include "analyzer/internal.h"

struct g_fn {
	const char *name, *file, *path;	/* path: the files.path it came from */
	int line, file_id, is_static, ext;
	int first_edge, nr_edges;
	int covered;			/* implicit: index+1 in g->cover */
	int next_same_name;		/* chain of non-static functions by name */
	int unbuilt;			/* in a file the audited config does not build */
	int copy_of;			/* specialize.c's copies: the original + 1 */
	int ctx_in, ctx_out;		/* its context annotation; -1: none */
	/*
	 * The rules its name matches, asked once per node (chains, copies
	 * and deadlocks ask of every call): PRIM_BIT(class) for the lock,
	 * sleep, wait and atomic classes, and an allocation's gfp argument.
	 */
	unsigned short prims;
	signed char gfp_arg;
};

#define PRIM_BIT(cls)	(1u << (cls))
/* the lock itself: a chain does not go into its body */
#define PRIMS_LOCK	(PRIM_BIT(PRIM_LOCK) | PRIM_BIT(PRIM_UNLOCK) | PRIM_BIT(PRIM_LOCKED) | \
			 PRIM_BIT(PRIM_TRYLOCK))

struct g_target {
	int node;
	int store, reg;			/* evidence (fptr store, registration), -1 */
};

struct g_edge {
	int caller, line, held;		/* held: enum held mask */
	enum call_kind kind;
	const char *callee, *st, *member;
	const char *tbl;		/* member calls through a known table */
	const char *guard, *args;	/* constant arguments: see guards.c */
	const char *inline_path;	/* made in inlined bodies: see inlined.c */
	int inlined;			/* the call of an inline whose body is inlined */
	int tbl_static, by_table;	/* by_table: resolved to that table's functions */
	int callee_static, has_gfp;
	long long gfp;
	struct g_target *targets;	/* in g->tlists[tl], shared, or g->direct */
	int nr_targets, tl;
};

struct g_store {
	const char *st, *member, *value, *tbl, *function, *file;
	int is_table, value_static, tbl_static, file_id, line;
};

struct g_reg {
	const char *kind, *via, *st, *member, *tbl, *function, *file;
	int tbl_static, file_id, line;
};

struct g_cover {
	int node, edge;			/* the covered function, the call that covers it */
	int store, reg;
	int entry;			/* a registered char device's ->open/->fasync */
	int registered;			/* the call reached it through a registration */
	int by_table;			/* ... or through the one table it goes through */
};

/* Did this coverage come through a call resolved by type alone? */
static inline int cover_by_type(const struct g_cover *c)
{
	return !c->entry && !c->registered && !c->by_table;
}

/* (name, scope) -> value, open addressing over interned names */
struct g_slot {
	const char *name;
	int scope, value;
};
struct gmap {
	struct g_slot *slots;
	size_t nr, size;
};
#define SCOPE_GLOBAL	(-1)
#define SCOPE_EXTERN	(-2)

struct g_table {			/* a table registered as kind by reg */
	const char *name, *kind;
	int scope, reg, next;
};

struct g_tlist {
	struct g_target *t;
	int nr, alloc;
};

/* gcache.c: the rows of the last pass's snapshot (calls: as in SQL) */
struct gc_fn {
	const char *name, *file, *path;
	int file_id, line, is_static;
	int ctx_in, ctx_out;		/* -1: not annotated */
};

struct gc_call {
	const char *caller, *callee, *st, *member, *tbl, *guard, *args, *inline_path;
	int file_id, line, kind, callee_static, held, has_gfp, tbl_static, inlined;
	long long gfp;
};

struct gcache {
	const char **strs;
	int nr_strs;
	struct gc_fn *fns;
	struct gc_call *calls;
	struct g_store *stores;
	struct g_reg *regs;
	int nr_fns, nr_calls, nr_stores, nr_regs;
	int *dirty, nr_dirty;		/* file ids to read from the DB, sorted */
	int *unbuilt, nr_unbuilt;	/* file ids the config does not build, sorted */
};

struct graph {
	const struct primitives *prims;
	const struct gcache *gc;	/* NULL: every row from the DB */
	int nr_loaded_edges;		/* the calls' edges (copies come after) */
	const char *lock;		/* files.lock of the rows loaded */
	struct g_fn *fns;
	int nr_fns, alloc_fns, nr_bodies;
	struct g_edge *edges;
	int nr_edges, alloc_edges;
	struct g_store *stores;
	int nr_stores, alloc_stores;
	struct g_reg *regs;
	int nr_regs, alloc_regs;
	struct g_cover *cover;
	int nr_cover, alloc_cover;
	int unresolved, unresolved_held;
	struct gmap fmap;		/* (file_id | GLOBAL | EXTERN, name) -> node */
	struct gmap smap;		/* ("struct.member", 0) -> first store */
	int *store_next;
	struct g_table *tables;		/* registered tables */
	int nr_tables, alloc_tables;
	struct gmap tmap;		/* (scope, table name) -> first table */
	struct gmap cache;		/* ("struct.member@dispatcher") -> target list */
	struct g_tlist *tlists;
	int nr_tlists, alloc_tlists;
	struct g_target *direct;	/* by edge: a direct call's target */
};

/* gmap.c: value, or -1 */
void gmap_put(struct gmap *m, const char *name, int scope, int value);
int gmap_get(struct gmap *m, const char *name, int scope);
void gmap_free(struct gmap *m);

/* gcache.c */
struct strbuf;
int gcache_path(sqlite3 *db, const char *lock, struct strbuf *out);
uint64_t gcache_db_token(sqlite3 *db);
int gcache_load(sqlite3 *db, const char *lock, const char *key, struct gcache *c);
int gcache_write(struct graph *g, const char *path, uint64_t token, const char *key);
int gcache_dirty(const struct gcache *c, int file_id);
int gcache_unbuilt(const struct gcache *c, int file_id);
void gcache_release(struct gcache *c);

/* load.c: the facts' rows, from the DB and the snapshot g->gc */
int graph_add_fn(struct graph *g, const char *name, int file_id, int ext);
int graph_load_facts(sqlite3 *db, struct graph *g);

/* resolve.c */
int graph_load(sqlite3 *db, struct graph *g);
/* specialize.c: copies of callees for constant arguments */
void graph_specialize(struct graph *g);
/* What a call's args string says of parameter param: 1 and *v, 2: not 0, 0: unknown */
int graph_arg_value(const char *args, int param, long long *v);
void graph_free(struct graph *g);
int graph_held_context(const struct graph *g, int node);
/* coverage.c: implicit coverage, computed and written */
void graph_coverage(struct graph *g);
int graph_store_coverage(sqlite3 *db, struct graph *g);
/* 1 for each function some struct member holds (a table's, or assigned); free() it */
char *graph_stored_functions(struct graph *g);
int graph_store_node(struct graph *g, int store);
/* entry.c: the imbalances that depend on how functions are entered */
int graph_store_entry_imbalances(sqlite3 *db, struct graph *g);
/*
 * stored.c: functions reached through tables.  does[]: per function node,
 * what entry.c's rows say it does, TBL_TAKES (it takes the lock on every
 * path) and TBL_RELEASES (it drops it without taking it); the
 * annotations are added.  Returns per node: TBL_LEAK when a table holds
 * it and no function of that table releases the lock; TBL_PAIRED when it
 * is called through tables only, each of which holds a taker (->start and
 * ->stop).  free() it.
 */
#define TBL_TAKES	1
#define TBL_RELEASES	2
#define TBL_LEAK	1
#define TBL_PAIRED	2
char *graph_table_pairs(struct graph *g, char *does);
/* deadlock.c: the waits whose work takes the lock */
struct g_dead {
	int handler;			/* the handler that takes it (its shortest way) */
	int nr;				/* how many of the wait's handlers take it */
	const char *file;		/* where that work was set up, or queued */
	int line;
	const char *how;		/* "work", "thread", "queued" */
};
struct deadlocks {
	int *dead;			/* per edge: index + 1 in d[], 0: none */
	struct g_dead *d;
	int nr, alloc;
	int *dist, *next_edge, *next_node;	/* per node: its way to the lock */
};
int deadlocks_load(sqlite3 *db, struct graph *g, struct deadlocks *d);
void deadlocks_free(struct deadlocks *d);
/* chains.c: compute and insert the chains (inside resolve's transaction) */
int chains_store(sqlite3 *db, struct graph *g, int *nr_chains);

#endif
