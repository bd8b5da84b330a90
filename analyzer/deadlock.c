// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass, part three: waits resolved to their work.  A call
 * that waits for a work item (flush_work, cancel_work_sync, ...), a
 * thread (kthread_stop) or a workqueue (flush_workqueue,
 * destroy_workqueue, flush_scheduled_work) names an object (work.c);
 * work_facts say which handlers that object runs: the functions
 * INIT_WORK and its kind, DECLARE_WORK or kthread_run set up for it,
 * and for a workqueue those of every work queued on it.  An object
 * named by a struct member ("struct foo+48") is any struct foo's: the
 * set-ups in the waiting function's file are taken if there are any,
 * else all the DB's.
 *
 * A handler that reaches the lock (a call to a lock rule of the profile,
 * directly or through calls into analyzed bodies, held or not, by name
 * or through tables the DB knows are reached, never by type) makes the
 * wait a deadlock when it is made with the lock held: chains.c then ends
 * the chain there in class deadlock and goes on into the handler.
 */
#include <stdio.h>
#include <string.h>
#include "analyzer/graph.h"
#include "db/db.h"

#define INF 0x3fffffff

struct wfact {
	const char *kind, *object, *handler, *wq, *via, *function, *file;
	int file_id, object_static, handler_static, wq_static, line;
	int next;		/* the next fact of the same key, -1 */
};

struct wload {
	struct wfact *f;
	int nr, alloc;
	struct gmap by_key;	/* ("kind object", scope) -> first fact */
	struct gmap by_call;	/* ("function:line:via", file_id) -> first wait fact */
};

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? intern((const char *)t, strlen((const char *)t)) : NULL;
}

static const char *key2(const char *a, const char *b)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "%s %s", a, b);

	return intern(buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
}

static const char *call_key(const char *function, int line, const char *via)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "%s:%d:%s", function, line, via);

	return intern(buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
}

static void link_fact(struct gmap *m, struct wload *w, const char *key, int scope)
{
	w->f[w->nr - 1].next = gmap_get(m, key, scope);
	gmap_put(m, key, scope, w->nr - 1);
}

static int load_facts(sqlite3 *db, struct graph *g, struct wload *w)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT file_id, kind, object, object_static, handler, "
				      "handler_static, wq, wq_static, via, function, file, line "
				      "FROM work_facts WHERE file_id IN (SELECT id FROM files "
				      "WHERE lock = @lock) ORDER BY file_id, line, rowid");
	int rc;

	if (!st || db_bind_text(st, "@lock", g->lock)) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct wfact *f = ARR_PUSH(w->f, w->nr, w->alloc);

		f->file_id = sqlite3_column_int(st, 0);
		f->kind = col(st, 1);
		f->object = col(st, 2);
		f->object_static = sqlite3_column_int(st, 3);
		f->handler = col(st, 4);
		f->handler_static = sqlite3_column_int(st, 5);
		f->wq = col(st, 6);
		f->wq_static = sqlite3_column_int(st, 7);
		f->via = col(st, 8);
		f->function = col(st, 9);
		f->file = col(st, 10);
		f->line = sqlite3_column_int(st, 11);
		if (!strncmp(f->kind, "wait-", 5)) {
			if (f->function)
				link_fact(&w->by_call, w, call_key(f->function, f->line, f->via),
					  f->file_id);
		} else if (!strcmp(f->kind, "queue") && f->wq) {
			link_fact(&w->by_key, w, key2("queue", f->wq),
				  f->wq_static ? f->file_id : 0);
		} else {
			link_fact(&w->by_key, w, key2(f->kind, f->object),
				  f->object_static ? f->file_id : 0);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("sqlite: %s", sqlite3_errmsg(db));
}

/*
 * May the handler's way to the lock go through target k of e?  A call by
 * name, through a registered table or the one table the code names; not
 * a call resolved by the member's type alone (any function stored in
 * that member anywhere would make almost every handler reach the lock).
 */
static int precise_target(const struct g_edge *e, int k)
{
	return e->kind == CALL_DIRECT || e->by_table || e->targets[k].reg >= 0;
}

/* Backwards from every call to the lock: each function's distance to it. */
static void lock_distances(struct graph *g, struct deadlocks *d)
{
	int *start = calloc(g->nr_fns + 2, sizeof(int)), *rev, *queue, *fill;
	unsigned char *enter = calloc(g->nr_fns + 1, 1), *lock = calloc(g->nr_fns + 1, 1);
	int i, k, n, head = 0, tail = 0;

	for (n = 0; n < g->nr_fns; n++) {
		lock[n] = !!(g->fns[n].prims & PRIM_BIT(PRIM_LOCK));
		enter[n] = !g->fns[n].ext && !g->fns[n].prims;
		d->dist[n] = INF;
	}
	for (i = 0; i < g->nr_edges; i++)
		for (k = 0; k < g->edges[i].nr_targets; k++)
			if (enter[g->edges[i].targets[k].node] && precise_target(&g->edges[i], k))
				start[g->edges[i].targets[k].node + 1]++;
	for (n = 0; n < g->nr_fns; n++)
		start[n + 1] += start[n];
	rev = xrealloc_arr(NULL, start[g->nr_fns] + 1, sizeof(int));
	fill = xrealloc_arr(NULL, g->nr_fns + 1, sizeof(int));
	queue = xrealloc_arr(NULL, g->nr_fns + 1, sizeof(int));
	memcpy(fill, start, (g->nr_fns + 1) * sizeof(int));
	for (i = 0; i < g->nr_edges; i++) {
		const struct g_edge *e = &g->edges[i];

		for (k = 0; k < e->nr_targets; k++) {
			int t = e->targets[k].node;

			if (!precise_target(e, k))
				continue;
			if (enter[t])
				rev[fill[t]++] = i;
			if (lock[t] && d->dist[e->caller] == INF) {
				d->dist[e->caller] = 1;
				d->next_edge[e->caller] = i;
				d->next_node[e->caller] = t;
				queue[tail++] = e->caller;
			}
		}
	}
	while (head < tail) {
		n = queue[head++];
		for (i = start[n]; i < start[n + 1]; i++) {
			int caller = g->edges[rev[i]].caller;

			if (d->dist[caller] != INF)
				continue;
			d->dist[caller] = d->dist[n] + 1;
			d->next_edge[caller] = rev[i];
			d->next_node[caller] = n;
			queue[tail++] = caller;
		}
	}
	free(start);
	free(rev);
	free(fill);
	free(queue);
	free(enter);
	free(lock);
}

/* The node of a handler set up in file_id, or -1 when it was not analyzed. */
static int handler_node(struct graph *g, const char *name, int is_static, int file_id)
{
	int n = gmap_get(&g->fmap, name, file_id);

	if (n >= 0 && (is_static || !g->fns[n].is_static))
		return n;
	if (is_static)
		return -1;
	return gmap_get(&g->fmap, name, SCOPE_GLOBAL);
}

/* The first fact of kind on object, for a wait in file_id: its own file's if any. */
static int first_fact(struct wload *w, const char *kind, const char *object, int is_static,
		      int file_id, int *same_file)
{
	int i = gmap_get(&w->by_key, key2(kind, object), is_static ? file_id : 0);
	int j;

	*same_file = 0;
	if (strncmp(object, "struct ", 7))
		return i;
	for (j = i; j >= 0; j = w->f[j].next)
		if (w->f[j].file_id == file_id)
			*same_file = 1;
	return i;
}

struct best {
	int handler, nr;
	const struct wfact *at;		/* where it was set up, or queued */
};

static void consider(struct graph *g, struct deadlocks *d, const struct wfact *f,
		     const struct wfact *at, struct best *b)
{
	int h = handler_node(g, f->handler, f->handler_static, f->file_id);

	if (h < 0 || d->dist[h] >= INF)
		return;
	b->nr++;
	if (b->handler < 0 || d->dist[h] < d->dist[b->handler]) {
		b->handler = h;
		b->at = at;
	}
}

/* The handlers of kind ("work", "thread") on object that reach the lock. */
static void object_handlers(struct graph *g, struct deadlocks *d, struct wload *w,
			    const char *kind, const char *object, int is_static, int file_id,
			    const struct wfact *queued, struct best *b)
{
	int i, same;

	/* a variable is one object; a struct member, any struct's */
	for (i = first_fact(w, kind, object, is_static, file_id, &same); i >= 0;
	     i = w->f[i].next)
		if (!same || w->f[i].file_id == file_id)
			consider(g, d, &w->f[i], queued ? queued : &w->f[i], b);
}

static void wait_handlers(struct graph *g, struct deadlocks *d, struct wload *w,
			  const struct wfact *f, struct best *b)
{
	int i, same;

	if (!strcmp(f->kind, "wait-work")) {
		object_handlers(g, d, w, "work", f->object, f->object_static, f->file_id, NULL, b);
		return;
	}
	if (!strcmp(f->kind, "wait-thread")) {
		object_handlers(g, d, w, "thread", f->object, f->object_static, f->file_id, NULL,
				b);
		return;
	}
	for (i = first_fact(w, "queue", f->object, f->object_static, f->file_id, &same);
	     i >= 0; i = w->f[i].next) {
		const struct wfact *q = &w->f[i];

		if (same && q->file_id != f->file_id)
			continue;
		object_handlers(g, d, w, "work", q->object, q->object_static, q->file_id, q, b);
	}
}

static const char *how(const struct wfact *f)
{
	if (!strcmp(f->kind, "wait-thread"))
		return "thread";
	return strcmp(f->kind, "wait-wq") ? "work" : "queued";
}

int deadlocks_load(sqlite3 *db, struct graph *g, struct deadlocks *d)
{
	struct wload w = { 0 };
	int i;

	memset(d, 0, sizeof(*d));
	d->dead = calloc(g->nr_edges + 1, sizeof(int));
	d->dist = calloc(g->nr_fns + 1, sizeof(int));
	d->next_edge = calloc(g->nr_fns + 1, sizeof(int));
	d->next_node = calloc(g->nr_fns + 1, sizeof(int));
	if (load_facts(db, g, &w)) {
		gmap_free(&w.by_key);
		gmap_free(&w.by_call);
		free(w.f);
		return -1;
	}
	if (!w.nr)
		goto out;
	lock_distances(g, d);
	for (i = 0; i < g->nr_edges; i++) {
		const struct g_edge *e = &g->edges[i];
		const struct g_fn *caller = &g->fns[e->caller];
		struct best b = { -1, 0, NULL };
		struct g_dead *x;
		int j;

		if (e->kind != CALL_DIRECT || !e->callee ||
		    !(g->fns[e->targets[0].node].prims & PRIM_BIT(PRIM_WAIT)))
			continue;
		j = gmap_get(&w.by_call, call_key(caller->name, e->line, e->callee),
			     caller->file_id);
		for (; j >= 0; j = w.f[j].next)
			wait_handlers(g, d, &w, &w.f[j], &b);
		if (b.handler < 0)
			continue;
		x = ARR_PUSH(d->d, d->nr, d->alloc);
		x->handler = b.handler;
		x->nr = b.nr;
		x->file = b.at->file;
		x->line = b.at->line;
		j = gmap_get(&w.by_call, call_key(caller->name, e->line, e->callee),
			     caller->file_id);
		x->how = how(&w.f[j]);
		d->dead[i] = d->nr;
	}
out:
	gmap_free(&w.by_key);
	gmap_free(&w.by_call);
	free(w.f);
	return 0;
}

void deadlocks_free(struct deadlocks *d)
{
	free(d->dead);
	free(d->d);
	free(d->dist);
	free(d->next_edge);
	free(d->next_node);
	memset(d, 0, sizeof(*d));
}
