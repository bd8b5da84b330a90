// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass, part two: chains.  From every call made with the BKL
 * held (held 'yes' anywhere; 'yes' or 'caller' in an implicitly covered
 * function) to a primitive that sleeps (class sleep) or waits for another
 * task (class wait), the shortest path per call and class, through direct
 * calls and resolved member calls, each edge a call that keeps the BKL
 * (held 'yes' or 'caller' in the callee: a callee that releases it around
 * schedule() makes no chain).
 *
 * One pass over the whole graph per class, backwards: a breadth-first
 * search from the calls that end a chain gives every function its
 * distance to the nearest primitive and the next call on that path, so
 * each site just follows the "next" links; recursion cannot loop.
 *
 * What ends a chain: a wait primitive; an allocation primitive whose
 * constant gfp argument allows direct reclaim; a plain sleep primitive,
 * whatever its body reaches: msleep is where its caller sleeps, and
 * schedule -> __schedule -> ... with the scheduler's calls through
 * pointers is one sink, not chains of their own.  Going on into the body
 * would name a call the chain cannot know runs: schedule_timeout calls
 * schedule() in two places, the first for MAX_SCHEDULE_TIMEOUT only.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/graph.h"
#include "db/db.h"
#include "lib/strbuf.h"

enum { CLASS_SLEEP, CLASS_WAIT, CLASS_DEADLOCK, NR_CLASSES };
static const char *const class_name[NR_CLASSES] = { "sleep", "wait", "deadlock" };

#define INF 0x3fffffff

/* per node: what the primitives table says of its name */
enum { P_NONE, P_BKL, P_WAIT, P_GFP, P_SLEEP, P_ATOMIC };

struct chains {
	struct graph *g;
	unsigned char *prim;		/* P_* */
	int *rev_start, *rev;		/* reverse edges: edge indexes, by target */
	int *dist[NR_CLASSES], *next_edge[NR_CLASSES], *next_node[NR_CLASSES];
	int *queue;
	struct deadlocks dl;		/* waits whose work takes the lock */
};

static int prop(const struct g_edge *e)
{
	return !!(e->held & (HELD_YES | HELD_CALLER));
}

static void classify(struct chains *c)
{
	struct graph *g = c->g;
	int n;

	for (n = 0; n < g->nr_fns; n++) {
		unsigned m = g->fns[n].prims;

		if (m & PRIMS_LOCK)
			c->prim[n] = P_BKL;
		else if (m & PRIM_BIT(PRIM_WAIT))
			c->prim[n] = P_WAIT;
		else if (m & PRIM_BIT(PRIM_ATOMIC))
			c->prim[n] = P_ATOMIC;	/* followed() never enters it */
		else if (m & PRIM_BIT(PRIM_SLEEP))
			c->prim[n] = g->fns[n].gfp_arg ? P_GFP : P_SLEEP;
	}
}

/* Is one of the size arguments (rule r's) of call e a constant 0? */
static int zero_size(const struct graph *g, const struct g_edge *e)
{
	const struct prim_rule *r = e->callee ? prim_match(g->prims, PRIM_SLEEP, e->callee) : NULL;
	long long v;
	int a;

	for (a = 1; r && a < 32; a++)
		if ((r->sizes & (1u << a)) && e->args && graph_arg_value(e->args, a, &v) == 1 &&
		    !v)
			return 1;
	return 0;
}

/* One frame of an inline path (inlined.c: "fsleep delay.h:60;usleep_range delay.h:48") */
struct frame {
	const char *name, *file;
	int name_len, file_len, line;
};

/* The frame at *pp, which moves past it; 0 at the end, or where no frame is. */
static int next_frame(const char **pp, struct frame *f)
{
	const char *p = *pp, *sp, *end, *colon;

	if (!p || !*p)
		return 0;
	sp = strchr(p, ' ');
	end = strchrnul(p, ';');
	for (colon = end; colon > p && *colon != ':'; colon--)
		;
	if (!sp || sp > colon)
		return 0;
	*f = (struct frame){ p, sp + 1, sp - p, colon - sp - 1, atoi(colon + 1) };
	*pp = *end ? end + 1 : end;
	return 1;
}

static int frame_is(const struct frame *f, const char *fn)
{
	return (size_t)f->name_len == strlen(fn) && !strncmp(f->name, fn, f->name_len);
}

/* Does an inline path name fn, in a frame after one named after (NULL: anywhere)? */
static int path_has(const char *path, const char *fn, const char *after)
{
	int seen = !after;
	struct frame f;

	while (next_frame(&path, &f)) {
		if (seen && frame_is(&f, fn))
			return 1;
		seen |= !seen && frame_is(&f, after);
	}
	return 0;
}

/*
 * Is allocation e one of nothing: its own size is 0, or it is inside the
 * inlined body of an allocation inline called with size 0 on that line
 * (ptr_ring_init(r, 0, gfp) -> kvmalloc_array(0, ...) -> kvmalloc): the
 * body's calls name that inline in their inline path, and a nested
 * inline's own row is inside it when a call of that line goes through
 * both, in that order.
 */
static int allocates_nothing(const struct graph *g, const struct g_edge *e)
{
	const struct g_fn *f = &g->fns[e->caller];
	int i, j, end = f->first_edge + f->nr_edges;

	if (zero_size(g, e))
		return 1;
	for (i = f->first_edge; i < end; i++) {
		const struct g_edge *z = &g->edges[i];

		if (z->line != e->line || !z->inlined || !zero_size(g, z))
			continue;
		if (path_has(e->inline_path, z->callee, NULL))
			return 1;
		for (j = f->first_edge; e->inlined && j < end; j++)
			if (g->edges[j].line == e->line &&
			    path_has(g->edges[j].inline_path, e->callee, z->callee))
				return 1;
	}
	return 0;
}

/* The class of chain edge e into t ends, or -1 when it does not end one. */
static int sink_class(struct chains *c, const struct g_edge *e, int t)
{
	switch (c->prim[t]) {
	case P_WAIT:
		return c->dl.dead[e - c->g->edges] ? CLASS_DEADLOCK : CLASS_WAIT;
	case P_GFP:	/* an allocation whose constant gfp may reclaim, of something */
		return e->has_gfp && (e->gfp & c->g->prims->gfp_reclaim) &&
		       !allocates_nothing(c->g, e) ? CLASS_SLEEP : -1;
	case P_SLEEP:	/* an inline's rule: its inlined body's calls decide */
		return e->inlined ? -1 : CLASS_SLEEP;
	default:
		return -1;
	}
}

/* May a chain go on through edge e into t's body? */
static int followed(struct chains *c, const struct g_edge *e, int t)
{
	return prop(e) && !c->g->fns[t].ext && c->prim[t] == P_NONE;
}

static void build_reverse(struct chains *c)
{
	struct graph *g = c->g;
	int i, k, n;

	for (i = 0; i < g->nr_edges; i++)
		for (k = 0; k < g->edges[i].nr_targets; k++)
			if (followed(c, &g->edges[i], g->edges[i].targets[k].node))
				c->rev_start[g->edges[i].targets[k].node + 1]++;
	for (n = 0; n < g->nr_fns; n++)
		c->rev_start[n + 1] += c->rev_start[n];
	c->rev = xrealloc_arr(NULL, c->rev_start[g->nr_fns] + 1, sizeof(int));
	{
		int *fill = xrealloc_arr(NULL, g->nr_fns + 1, sizeof(int));

		memcpy(fill, c->rev_start, (g->nr_fns + 1) * sizeof(int));
		for (i = 0; i < g->nr_edges; i++)
			for (k = 0; k < g->edges[i].nr_targets; k++) {
				int t = g->edges[i].targets[k].node;

				if (followed(c, &g->edges[i], t))
					c->rev[fill[t]++] = i;
			}
		free(fill);
	}
}

static void distances(struct chains *c, int cls)
{
	struct graph *g = c->g;
	int *dist = c->dist[cls], head = 0, tail = 0, i, k, n;

	for (n = 0; n < g->nr_fns; n++)
		dist[n] = INF;
	for (i = 0; i < g->nr_edges; i++) {
		const struct g_edge *e = &g->edges[i];

		if (!prop(e) || dist[e->caller] != INF)
			continue;
		for (k = 0; k < e->nr_targets; k++)
			if (sink_class(c, e, e->targets[k].node) == cls) {
				dist[e->caller] = 1;
				c->next_edge[cls][e->caller] = i;
				c->next_node[cls][e->caller] = e->targets[k].node;
				c->queue[tail++] = e->caller;
				break;
			}
	}
	while (head < tail) {
		n = c->queue[head++];
		for (i = c->rev_start[n]; i < c->rev_start[n + 1]; i++) {
			int caller = g->edges[c->rev[i]].caller;

			if (dist[caller] != INF)
				continue;
			dist[caller] = dist[n] + 1;
			c->next_edge[cls][caller] = c->rev[i];
			c->next_node[cls][caller] = n;
			c->queue[tail++] = caller;
		}
	}
}

struct step {
	int node, line;			/* line: where node calls the next; 0 at the end */
	const struct g_edge *edge;	/* that call, NULL at the end */
	int to;				/* the node it reaches */
	const struct g_dead *dead;	/* a deadlock's wait: its work, set up at file:line */
	const char *name, *file;	/* an inline the call is made in (not a node) */
	int inlined;			/* the step calls an inline: edge "inlined" */
};

static const char *step_name(const struct graph *g, const struct step *s)
{
	return s->name ? s->name : g->fns[s->node].name;
}

/*
 * Push node's step, whose call e reaches to.  A call made in inlined
 * bodies goes through them first, each a step (e->inline_path, see
 * inlined.c: "fsleep delay.h:60;usleep_range delay.h:48"): node calls
 * the outermost at e's line, each inline the next at the line its path
 * says, and the innermost makes the call e.
 */
static int push_call(struct step **steps, int nr, int *alloc, int node,
		     const struct g_edge *e, int to)
{
	const char *p = e->inline_path;
	struct frame f;

	*ARR_PUSH(*steps, nr, *alloc) = (struct step){ node, e->line, e, to };
	/* a path that is not ours stops there: the call stays the caller's */
	while (next_frame(&p, &f)) {
		(*steps)[nr - 1].inlined = 1;
		*ARR_PUSH(*steps, nr, *alloc) = (struct step){ node, f.line, e, to,
			.name = intern(f.name, f.name_len), .file = intern(f.file, f.file_len) };
	}
	return nr;
}

/*
 * How a chain's call reached its target, as coverage.edge says it: by
 * name, through a registered table, through the one table the caller's
 * code names, or by the member's type alone (*candidates: how many
 * functions the call may reach).
 */
static const char *edge_kind(const struct g_edge *e, int to, int *candidates)
{
	int k;

	*candidates = e->kind == CALL_DIRECT ? 1 : e->nr_targets;
	if (e->kind == CALL_DIRECT)
		return "direct";
	if (e->by_table)
		return "table";
	for (k = 0; k < e->nr_targets; k++)
		if (e->targets[k].node == to && e->targets[k].reg >= 0)
			return "registered";
	return "by-type";
}

/* The path from site edge e through its target first: steps[], their number. */
static int build_path(struct chains *c, int cls, const struct g_edge *e, int first,
		      struct step **steps, int *alloc)
{
	int nr = 0, n = first;

	nr = push_call(steps, nr, alloc, e->caller, e, first);
	while (sink_class(c, e, n) != cls) {
		int ne = c->next_edge[cls][n];

		e = &c->g->edges[ne];
		nr = push_call(steps, nr, alloc, n, e, c->next_node[cls][n]);
		n = c->next_node[cls][n];
	}
	if (cls == CLASS_DEADLOCK) {
		const struct g_dead *d = &c->dl.d[c->dl.dead[e - c->g->edges] - 1];

		*ARR_PUSH(*steps, nr, *alloc) = (struct step){ n, d->line, NULL, d->handler, d };
		for (n = d->handler;;) {
			int next = c->dl.next_node[n], last = c->dl.dist[n] == 1;

			e = &c->g->edges[c->dl.next_edge[n]];
			nr = push_call(steps, nr, alloc, n, e, next);
			n = next;
			if (last)
				break;
		}
	}
	*ARR_PUSH(*steps, nr, *alloc) = (struct step){ n, 0, NULL, -1 };
	return nr;
}

/*
 * Why the chain's first call runs under the lock: its function holds it
 * there itself ("held"), or the function is covered, as the coverage
 * records say, back to a function that holds it.  Each covering call
 * that is neither registered, nor through a named table, nor a char
 * device's entry point was resolved by type: *by_type counts them, and the origin is "by-type"
 * if there is one.  (The walk is bounded: coverage records form a tree,
 * but a bound costs nothing.)
 */
static const char *chain_origin(const struct graph *g, const struct g_edge *site, int *by_type)
{
	int n = site->caller, hops = 0;

	*by_type = 0;
	if (site->held & HELD_YES)
		return "held";
	while (g->fns[n].covered && hops++ <= g->nr_cover) {
		const struct g_cover *cv = &g->cover[g->fns[n].covered - 1];
		const struct g_edge *e = &g->edges[cv->edge];

		*by_type += cover_by_type(cv);
		if (e->held & HELD_YES)
			break;
		n = e->caller;
	}
	return *by_type ? "by-type" : "covered";
}

static int insert_chain(sqlite3 *db, struct chains *c, int cls, const struct g_edge *e,
			const struct step *steps, int nr, const char *path,
			sqlite3_stmt *ins, sqlite3_stmt *step)
{
	struct graph *g = c->g;
	const struct g_fn *f = &g->fns[e->caller];
	const char *origin;
	sqlite3_int64 id;
	int i, n, by_type;

	origin = chain_origin(g, e, &by_type);
	for (i = 0; i < nr; i++)
		by_type += steps[i].edge && !steps[i].inlined &&
			   !strcmp(edge_kind(steps[i].edge, steps[i].to, &n), "by-type");
	if (db_bind_int(ins, "@by_type", by_type) || db_bind_text(ins, "@origin", origin) ||
	    db_bind_int(ins, "@id", f->file_id) || db_bind_text(ins, "@file", f->file) ||
	    db_bind_int(ins, "@line", e->line) || db_bind_text(ins, "@function", f->name) ||
	    db_bind_text(ins, "@class", class_name[cls]) || db_bind_text(ins, "@path", path) ||
	    db_step_done(ins))
		return -1;
	id = sqlite3_last_insert_rowid(db);
	for (i = 0; i < nr; i++) {
		const struct g_fn *s = &g->fns[steps[i].node];

		if (db_bind_int(step, "@chain", id) || db_bind_int(step, "@step", i) ||
		    db_bind_text(step, "@function", step_name(g, &steps[i])))
			return -1;
		if (steps[i].line && (db_bind_text(step, "@file", steps[i].dead ?
						       steps[i].dead->file : steps[i].file ?
						       steps[i].file : s->file) ||
				      db_bind_int(step, "@line", steps[i].line)))
			return -1;
		if (steps[i].inlined && (db_bind_text(step, "@edge", "inlined") ||
					 db_bind_int(step, "@candidates", 1)))
			return -1;
		if (steps[i].dead && (db_bind_text(step, "@edge", steps[i].dead->how) ||
				      db_bind_int(step, "@candidates", steps[i].dead->nr)))
			return -1;
		if (steps[i].edge && !steps[i].inlined &&
		    (db_bind_text(step, "@edge", edge_kind(steps[i].edge, steps[i].to, &n)) ||
		     db_bind_int(step, "@candidates", n)))
			return -1;
		if (db_step_done(step))
			return -1;
	}
	return 0;
}

/* The best target of a site edge for a class: its node, or -1; *len its length. */
static int best_target(struct chains *c, int cls, const struct g_edge *e, int *best_len)
{
	int k, best = -1;

	*best_len = INF;
	for (k = 0; k < e->nr_targets; k++) {
		int t = e->targets[k].node, len;

		if (c->prim[t] == P_BKL)
			continue;
		if (sink_class(c, e, t) == cls)
			len = 1;
		else if (c->prim[t] == P_NONE || c->prim[t] == P_SLEEP)
			len = c->g->fns[t].ext ? INF : c->dist[cls][t];
		else
			continue;
		if (len < *best_len) {
			*best_len = len;
			best = t;
		}
	}
	return best;
}

/*
 * The site calls of one line of a function, edges [from, to): per class,
 * the shortest chain among them (the first on a tie: the call as the
 * user wrote it comes first, see facts.c).
 */
static int site_chains(sqlite3 *db, struct chains *c, int from, int to, int held,
		       sqlite3_stmt *ins, sqlite3_stmt *step, int *nr_chains)
{
	struct step *steps = NULL;
	struct strbuf path = STRBUF_INIT;
	int cls, alloc = 0, ret = 0;

	for (cls = 0; cls < NR_CLASSES && !ret; cls++) {
		int i, t = -1, site = -1, best = INF, len, nr, k;

		for (i = from; i < to; i++) {
			int bt;

			if (!(c->g->edges[i].held & held))
				continue;
			bt = best_target(c, cls, &c->g->edges[i], &len);
			if (bt >= 0 && len < best) {
				best = len;
				t = bt;
				site = i;
			}
		}
		if (t < 0)
			continue;
		nr = build_path(c, cls, &c->g->edges[site], t, &steps, &alloc);
		strbuf_reset(&path);
		strbuf_addstr(&path, "[");
		for (k = 0; k < nr; k++)
			strbuf_addf(&path, "%s\"%s\"", k ? "," : "", step_name(c->g, &steps[k]));
		strbuf_addstr(&path, "]");
		ret = insert_chain(db, c, cls, &c->g->edges[site], steps, nr, path.buf, ins, step);
		(*nr_chains)++;
	}
	free(steps);
	strbuf_release(&path);
	return ret;
}

int chains_store(sqlite3 *db, struct graph *g, int *nr_chains)
{
	struct chains c = { .g = g };
	sqlite3_stmt *ins = db_prepare(db, "INSERT INTO chains (file_id, file, line, function, "
				       "class, path, lock, by_type, origin) VALUES (@id, @file, "
				       "@line, @function, @class, @path, (SELECT lock FROM files "
				       "WHERE id = @id), @by_type, @origin)");
	sqlite3_stmt *step = db_prepare(db, "INSERT INTO chain_steps (chain_id, step, function, "
					"file, line, edge, candidates) VALUES (@chain, @step, "
					"@function, @file, @line, @edge, @candidates)");
	int n, i, j, cls, ret = ins && step ? 0 : -1;
	size_t sz = g->nr_fns + 1;

	c.prim = calloc(sz, 1);
	c.rev_start = calloc(sz + 1, sizeof(int));
	c.queue = calloc(sz, sizeof(int));
	for (cls = 0; cls < NR_CLASSES; cls++) {
		c.dist[cls] = calloc(sz, sizeof(int));
		c.next_edge[cls] = calloc(sz, sizeof(int));
		c.next_node[cls] = calloc(sz, sizeof(int));
	}
	if (deadlocks_load(db, g, &c.dl))
		ret = -1;
	classify(&c);
	build_reverse(&c);
	for (cls = 0; cls < NR_CLASSES; cls++)
		distances(&c, cls);
	*nr_chains = 0;
	for (n = 0; n < g->nr_bodies && !ret; n++) {
		const struct g_fn *f = &g->fns[n];
		int held = graph_held_context(g, n) ? HELD_YES | HELD_CALLER : HELD_YES;

		for (i = f->first_edge; i < f->first_edge + f->nr_edges && !ret; i = j) {
			for (j = i; j < f->first_edge + f->nr_edges &&
			     g->edges[j].line == g->edges[i].line; j++)
				;
			ret = site_chains(db, &c, i, j, held, ins, step, nr_chains);
		}
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(step);
	free(c.prim);
	free(c.rev_start);
	free(c.rev);
	free(c.queue);
	deadlocks_free(&c.dl);
	for (cls = 0; cls < NR_CLASSES; cls++) {
		free(c.dist[cls]);
		free(c.next_edge[cls]);
		free(c.next_node[cls]);
	}
	return ret;
}
