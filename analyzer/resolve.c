// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass, part one: load every function, call, store and
 * registration of the DB into memory (graph.h) and resolve calls to their
 * targets; coverage.c then computes implicit coverage in one forward pass:
 *  - a call through a struct member reaches every function stored in that
 *    member (initializers and assignments), except in the functions that
 *    restrict the struct (file_operations in chrdev_open): there only
 *    tables that reach a registration do (register_chrdev, cdev_init,
 *    cdev.ops = ..., misc_register through miscdevice.fops), and a kind
 *    of registration with a dispatcher (misc: misc_open) is reached from
 *    that dispatcher only;
 *  - a function reached that way from a call made with the BKL held is
 *    covered (an implicit site), and is itself a context where the BKL is
 *    held, for its own member calls (tty_open -> tty->ops->open).
 * Then chains.c, and everything is written in one transaction.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "analyzer/analyzer.h"
#include "analyzer/graph.h"
#include "db/db.h"
#include "lib/embed.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/trace.h"
#include "lib/usage.h"

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? intern((const char *)t, strlen((const char *)t)) : NULL;
}

static const char *member_key(const char *st, const char *member, const char *extra)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "%s.%s@%s", st, member, extra ? extra : "");

	return intern(buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
}

/* Stores by struct.member: the chains resolution walks. */
static void index_stores(struct graph *g)
{
	int i;

	g->store_next = xrealloc_arr(NULL, g->nr_stores + 1, sizeof(int));
	for (i = g->nr_stores - 1; i >= 0; i--) {
		const char *k = member_key(g->stores[i].st, g->stores[i].member, NULL);

		g->store_next[i] = gmap_get(&g->smap, k, 0);
		gmap_put(&g->smap, k, 0, i);
	}
}

static void add_table(struct graph *g, const char *name, int scope, const char *kind, int reg)
{
	struct g_table *t = ARR_PUSH(g->tables, g->nr_tables, g->alloc_tables);

	t->name = name;
	t->scope = scope;
	t->kind = kind;
	t->reg = reg;
	t->next = gmap_get(&g->tmap, name, scope);
	gmap_put(&g->tmap, name, scope, g->nr_tables - 1);
}

/* A registration's tables: the one passed, or those in its container's member. */
static void register_tables(struct graph *g, int r)
{
	struct g_reg *reg = &g->regs[r];
	int i;

	if (!reg->st) {
		if (reg->tbl)
			add_table(g, reg->tbl, reg->tbl_static ? reg->file_id : 0, reg->kind, r);
		return;
	}
	for (i = gmap_get(&g->smap, member_key(reg->st, reg->member, NULL), 0); i >= 0;
	     i = g->store_next[i]) {
		struct g_store *s = &g->stores[i];

		if (!s->is_table)
			continue;
		if (reg->tbl ? s->tbl != reg->tbl ||
			       (reg->tbl_static && s->file_id != reg->file_id) :
			       s->tbl || s->file_id != reg->file_id || s->function != reg->function)
			continue;
		add_table(g, s->value, s->value_static ? s->file_id : 0, reg->kind, r);
	}
}

/* The node of a function stored or called by name from file_id. */
static int function_node(struct graph *g, const char *name, int is_static, int file_id)
{
	int n = gmap_get(&g->fmap, name, file_id);

	if (n >= 0 && (is_static || !g->fns[n].is_static))
		return n;
	if (!is_static && (n = gmap_get(&g->fmap, name, SCOPE_GLOBAL)) >= 0)
		return n;
	n = gmap_get(&g->fmap, name, SCOPE_EXTERN);
	if (n < 0) {
		n = graph_add_fn(g, name, 0, 1);
		gmap_put(&g->fmap, name, SCOPE_EXTERN, n);
	}
	return n;
}

/* Which registration kinds a restricted call through st in caller may reach. */
static int kind_allowed(const struct primitives *p, const char *kind, const char *st,
			const char *caller)
{
	int i, caller_dispatches = 0, kind_dispatched = 0;

	for (i = 0; i < p->nr; i++) {
		const struct prim_rule *r = &p->rules[i];

		if (r->cls != PRIM_DISPATCH || r->st != st)
			continue;
		if (r->name == caller) {
			caller_dispatches = 1;
			if (r->kind == kind)
				return 1;
		}
		if (r->kind == kind)
			kind_dispatched = 1;
	}
	return !caller_dispatches && !kind_dispatched;
}

/* Do calls through st made in caller reach registered tables only? */
static int restricted(const struct primitives *p, const char *st, const char *caller)
{
	int i;

	for (i = 0; i < p->nr; i++) {
		const struct prim_rule *r = &p->rules[i];

		if ((r->cls == PRIM_RESTRICT || r->cls == PRIM_DISPATCH) &&
		    r->st == st && r->name == caller)
			return 1;
	}
	return 0;
}

static void add_target(struct g_tlist *l, int node, int store, int reg)
{
	struct g_target *t;
	int i;

	for (i = 0; i < l->nr; i++)
		if (l->t[i].node == node)
			return;
	t = ARR_PUSH(l->t, l->nr, l->alloc);
	t->node = node;
	t->store = store;
	t->reg = reg;
}

/*
 * What a call through st.member in caller reaches.  Lists are shared by
 * all unrestricted calls of st.member, and by those of one restricting
 * function.
 */
static struct g_tlist *member_targets(struct graph *g, struct g_edge *e)
{
	const char *caller = g->fns[e->caller].name;
	int restrict_ = restricted(g->prims, e->st, caller);
	const char *key = member_key(e->st, e->member, restrict_ ? caller : NULL);
	int li = gmap_get(&g->cache, key, 0), i, t;
	struct g_tlist *l;

	if (li >= 0)
		return &g->tlists[li];
	l = ARR_PUSH(g->tlists, g->nr_tlists, g->alloc_tlists);
	gmap_put(&g->cache, key, 0, g->nr_tlists - 1);
	for (i = gmap_get(&g->smap, member_key(e->st, e->member, NULL), 0); i >= 0;
	     i = g->store_next[i]) {
		struct g_store *s = &g->stores[i];
		int reg = -1;

		if (s->is_table)
			continue;
		if (restrict_) {
			if (!s->tbl)
				continue;
			for (t = gmap_get(&g->tmap, s->tbl, s->tbl_static ? s->file_id : 0); t >= 0;
			     t = g->tables[t].next)
				if (kind_allowed(g->prims, g->tables[t].kind, e->st, caller))
					break;
			if (t < 0)
				continue;
			reg = g->tables[t].reg;
		}
		add_target(l, function_node(g, s->value, s->value_static, s->file_id), i, reg);
	}
	return l;
}

/*
 * A member call through a table the caller's code names (calls.tbl):
 * the functions that table's member holds, in the caller's file for a
 * static table.  NULL when the DB holds none, and the call is resolved
 * as any other.  Lists are shared by the calls of one table's member.
 */
static struct g_tlist *table_targets(struct graph *g, struct g_edge *e)
{
	int file_id = g->fns[e->caller].file_id, li, i;
	char scope[32];
	struct g_tlist *l;
	const char *key;

	snprintf(scope, sizeof(scope), "%d", e->tbl_static ? file_id : 0);
	key = member_key(e->st, e->member, member_key(e->tbl, scope, "table"));
	li = gmap_get(&g->cache, key, 0);
	if (li >= 0)
		return g->tlists[li].nr ? &g->tlists[li] : NULL;
	l = ARR_PUSH(g->tlists, g->nr_tlists, g->alloc_tlists);
	li = g->nr_tlists - 1;
	gmap_put(&g->cache, key, 0, li);
	for (i = gmap_get(&g->smap, member_key(e->st, e->member, NULL), 0); i >= 0;
	     i = g->store_next[i]) {
		struct g_store *s = &g->stores[i];

		if (s->is_table || s->tbl != e->tbl || s->tbl_static != e->tbl_static ||
		    (e->tbl_static && s->file_id != file_id))
			continue;
		add_target(l, function_node(g, s->value, s->value_static, s->file_id), i, -1);
	}
	return l->nr ? l : NULL;
}

static void resolve_edges(struct graph *g)
{
	int i;

	/* a direct call's one target: one array, not a list per call */
	g->direct = xrealloc_arr(NULL, g->nr_edges + 1, sizeof(*g->direct));

	for (i = 0; i < g->nr_edges; i++) {
		struct g_edge *e = &g->edges[i];
		struct g_tlist *l;

		e->tl = -1;
		if (e->kind == CALL_DIRECT) {
			g->direct[i] = (struct g_target){
				.node = function_node(g, e->callee, e->callee_static,
						      g->fns[e->caller].file_id),
				.store = -1, .reg = -1 };
			continue;
		}
		if (e->kind == CALL_MEMBER && e->tbl && (l = table_targets(g, e))) {
			e->tl = l - g->tlists;
			e->by_table = 1;
			continue;
		}
		if (e->kind == CALL_MEMBER) {
			l = member_targets(g, e);
			e->tl = l - g->tlists;
			if (l->nr)
				continue;
		}
		g->unresolved++;
		if (e->held != HELD_NO)
			g->unresolved_held++;
	}
	/* tlists has stopped moving: point the edges at their targets */
	for (i = 0; i < g->nr_edges; i++) {
		struct g_edge *e = &g->edges[i];

		if (e->kind == CALL_DIRECT) {
			e->targets = &g->direct[i];
			e->nr_targets = 1;
		} else if (e->tl >= 0) {
			e->targets = g->tlists[e->tl].t;
			e->nr_targets = g->tlists[e->tl].nr;
		}
	}
}

int graph_load(sqlite3 *db, struct graph *g)
{
	uint64_t t = getnanotime();
	int i;

	if (graph_load_facts(db, g))
		return -1;
	trace_performance_since(t, "global pass %s: facts loaded", g->lock);
	t = getnanotime();
	g->nr_loaded_edges = g->nr_edges;
	index_stores(g);
	for (i = 0; i < g->nr_regs; i++)
		register_tables(g, i);
	resolve_edges(g);
	trace_performance_since(t, "global pass %s: calls resolved", g->lock);
	t = getnanotime();
	graph_coverage(g);
	trace_performance_since(t, "global pass %s: coverage", g->lock);
	t = getnanotime();
	graph_specialize(g);
	trace_performance_since(t, "global pass %s: callees specialized", g->lock);
	return 0;
}

void graph_free(struct graph *g)
{
	int i;

	for (i = 0; i < g->nr_tlists; i++)
		free(g->tlists[i].t);
	free(g->tlists);
	free(g->direct);
	free(g->fns);
	free(g->edges);
	free(g->stores);
	free(g->store_next);
	free(g->regs);
	free(g->tables);
	free(g->cover);
	gmap_free(&g->fmap);
	gmap_free(&g->smap);
	gmap_free(&g->tmap);
	gmap_free(&g->cache);
	memset(g, 0, sizeof(*g));
}

static int set_meta(sqlite3 *db, const char *key, long value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", value);
	return db_set_meta(db, key, buf);
}

/* One lock's pass over the rows of its files: coverage, then chains. */
static int resolve_lock(sqlite3 *db, const struct analyzer_opts *o, const char *lock,
			uint64_t token, int keep, int *incremental, long *unresolved,
			long *unresolved_held)
{
	struct primitives prims;
	struct graph g = { .lock = lock };
	struct gcache gc;
	struct strbuf path = STRBUF_INIT, key = STRBUF_INIT;
	int ret = -1, nr_chains = 0, rc = 1;
	uint64_t t = getnanotime();

	if (profiles_from_db(db, o, lock, &prims))
		return -1;
	g.prims = &prims;
	/* the last pass's snapshot, and the files analyzed since from the DB */
	/* what the snapshot's rows depend on besides the files: this bkl's */
	strbuf_addf(&key, "schema %d rules %s facts %s lock %s", db_schema_version(),
		    analyzer_rules_key(), analyzer_facts_key(), lock);
	if (!o->full_pass && (rc = gcache_load(db, lock, key.buf, &gc)) < 0)
		goto out;
	g.gc = rc ? NULL : &gc;
	*incremental += !rc;
	trace_performance_since(t, "global pass %s: snapshot %s", lock,
				rc ? "not used" : "loaded");
	ret = graph_load(db, &g);
	if (!rc)
		gcache_release(&gc);
	g.gc = NULL;
	if (ret)
		goto out;
	t = getnanotime();
	if (graph_store_coverage(db, &g) || graph_store_entry_imbalances(db, &g)) {
		ret = -1;
		goto out;
	}
	trace_performance_since(t, "global pass %s: coverage and entries stored", lock);
	t = getnanotime();
	if (chains_store(db, &g, &nr_chains)) {
		ret = -1;
		goto out;
	}
	trace_performance_since(t, "global pass %s: %d chains found and stored", lock, nr_chains);
	*unresolved += g.unresolved;
	*unresolved_held += g.unresolved_held;
	/*
	 * A snapshot not written is one the next pass does not trust: full.
	 * One kept is still good: the files dirty since stay dirty.
	 */
	if (keep && !rc)
		goto out;
	t = getnanotime();
	if (!gcache_path(db, lock, &path) && gcache_write(&g, path.buf, token, key.buf))
		warning("the next global pass will be a full one");
	trace_performance_since(t, "global pass %s: snapshot written", lock);
out:
	strbuf_release(&path);
	strbuf_release(&key);
	graph_free(&g);
	primitives_release(&prims);
	return ret;
}

#define MAX_LOCKS	32

/*
 * What the global pass's results depend on besides the facts: the rules
 * built into bkl (analyzer/profiles/) and this pass's own logic (bump
 * GLOBAL_PASS_REV when a change to it changes chains).  A DB whose pass
 * ran with another key gets it again from bkl audit.
 */
#define GLOBAL_PASS_REV	6

const char *analyzer_rules_key(void)
{
	static char key[17];
	uint64_t h;

	if (*key)
		return key;
	h = profiles_hash("rev", GLOBAL_PASS_REV);
	snprintf(key, sizeof(key), "%016llx", (unsigned long long)h);
	return key;
}

/*
 * Keep the last snapshots while the files analyzed since are at most one
 * in KEEP_DIRTY_RATIO of the DB's: the pass reads those from SQLite each
 * time, instead of writing every file's facts again (a quarter of a
 * one-file pass on the whole tree).  Their rows replace the snapshot's
 * by file id, so a kept snapshot gives the graph a new one would.
 */
#define KEEP_DIRTY_RATIO	16

int analyzer_resolve(sqlite3 *db, const struct analyzer_opts *o)
{
	const char *locks[MAX_LOCKS];
	long unresolved = 0, unresolved_held = 0;
	sqlite3_stmt *st;
	int i, nr = 0, rc, incremental = 0, dirty = 0, files = 0, keep;
	struct timespec ts;
	uint64_t token, old;
	char hex[17], buf[32];
	uint64_t t;

	/* this pass's snapshots and the DB say the same token, or neither is trusted */
	clock_gettime(CLOCK_REALTIME, &ts);
	token = fnv1a(fnv1a(FNV1A_INIT, &ts, sizeof(ts)), &(pid_t){ getpid() }, sizeof(pid_t));
	token |= 1;
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)token);

	/* read and write in one transaction: a consistent view, one commit */
	if (db_begin(db))
		return -1;
	st = db_prepare(db, "SELECT DISTINCT lock FROM files ORDER BY lock");
	if (!st)
		goto out_rollback;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && nr < MAX_LOCKS)
		locks[nr++] = col(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		goto out_rollback;
	t = getnanotime();
	if (db_exec(db, "DELETE FROM sites WHERE kind = 'implicit'; DELETE FROM coverage; "
		    "DELETE FROM imbalances WHERE entry IS NOT NULL; "
		    "DELETE FROM chains; DELETE FROM headers WHERE id NOT IN "
		    "(SELECT header_id FROM file_headers)"))
		goto out_rollback;
	if (db_count(db, "SELECT count(*) FROM global_dirty", &dirty) ||
	    db_count(db, "SELECT count(*) FROM files", &files))
		goto out_rollback;
	trace_performance_since(t, "global pass: last results deleted");
	/* the snapshots kept say the DB's token still; those written, too */
	keep = !o->full_pass && (uint64_t)dirty * KEEP_DIRTY_RATIO <= (uint64_t)files &&
	       (old = gcache_db_token(db));
	if (keep) {
		token = old;
		snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)token);
	}
	for (i = 0; i < nr; i++)
		if (resolve_lock(db, o, locks[i], token, keep, &incremental, &unresolved,
				 &unresolved_held))
			goto out_rollback;
	if (incremental == nr && nr)
		snprintf(buf, sizeof(buf), "incremental %d%s", dirty, keep ? ", snapshot kept" : "");
	else
		snprintf(buf, sizeof(buf), "full");
	if ((!keep && db_exec(db, "DELETE FROM global_dirty")) ||
	    db_set_meta(db, "analyzer.graph", hex) ||
	    db_set_meta(db, "analyzer.last_pass", buf) ||
	    set_meta(db, "analyzer.resolved", 1) ||
	    db_set_meta(db, "analyzer.rules", analyzer_rules_key()) ||
	    set_meta(db, "analyzer.unresolved", unresolved) ||
	    set_meta(db, "analyzer.unresolved_held", unresolved_held))
		goto out_rollback;
	t = getnanotime();
	rc = db_commit(db);
	trace_performance_since(t, "global pass: committed");
	return rc;
out_rollback:
	db_rollback(db);
	return error("the global pass failed; the database keeps its previous results");
}
