// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass, between coverage and chains: constant arguments
 * narrow the callee (analyzer/guards.c has the facts).  A direct call
 * whose constant argument a switch in the callee tests (the 2.6 compat
 * ioctl handlers call sys_ioctl with one command) gets a copy of the
 * callee that keeps only the calls that value reaches: the other arms'
 * calls are not on any chain through that call.  Copies are nodes of
 * the graph after the externals (no chain starts in one; each prints as
 * the function it copies), one per (callee, relevant constants).
 *
 * Values go on through parameters: a copy's calls that pass one of its
 * parameters on (`get_buf(n, gfp)` calling `kmalloc(n, gfp)`) take the
 * value the copy was made for, so they are specialized in turn, through
 * any number of wrappers, and an allocation among them gets its gfp
 * flags, which decide whether it sleeps.  A member call through a table
 * the code names is specialized as a direct call is.  Only the values a
 * callee uses (a guard tests them, or it passes them on to one that
 * does) make a copy, and copies are bounded: a callee left whole only
 * loses narrowing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/graph.h"
#include "lib/strbuf.h"

/* One entry of an args string: "N=V", "N=!0" or "N=@P&A|O" (guards.c). */
struct arg_ent {
	int pos;
	int known;			/* 1: the constant v, 2: not 0, 0: param passed on */
	long long v;
	int param;
	unsigned long long and, or;	/* the value is (param & and) | or */
	const char *s;			/* the entry as written, len long */
	int len;
};

/* Parse the entry at *pp into a and move *pp past it; 0 at the end. */
static int next_arg(const char **pp, struct arg_ent *a)
{
	const char *p = *pp, *semi;
	char *end;

	if (!p || !*p)
		return 0;
	memset(a, 0, sizeof(*a));
	a->s = p;
	a->pos = strtol(p, &end, 10);
	if (*end != '=')
		return 0;
	p = end + 1;
	if (*p == '!') {
		a->known = 2;
	} else if (*p == '@') {
		a->param = strtol(p + 1, &end, 10);
		a->and = ~0ULL;
		if (*end == '&')
			a->and = strtoull(end + 1, &end, 10);
		if (*end == '|')
			a->or = strtoull(end + 1, &end, 10);
	} else {
		a->known = 1;
		a->v = strtoll(p, NULL, 10);
	}
	semi = strchr(p, ';');
	a->len = semi ? semi - a->s : (int)strlen(a->s);
	*pp = semi ? semi + 1 : NULL;
	return 1;
}

/*
 * What an args string ("2=1;4=0;1=!0") says of parameter param: 1 and
 * the constant in *v, 2 if it is only known not to be 0, else 0.
 */
int graph_arg_value(const char *args, int param, long long *v)
{
	struct arg_ent a;

	while (next_arg(&args, &a))
		if (a.pos == param) {
			*v = a.v;
			return a.known;
		}
	return 0;
}

/* The parameter a guard tests ("2:1-1,3-5"); 0 if none. */
static int guard_param(const char *guard)
{
	return guard ? atoi(guard) : 0;
}

/* Is v in the ranges at p ("1-1,3-5", up to a space)? */
static int in_ranges(const char *p, long long v)
{
	int in = 0;

	while (*p && !in) {
		char *end;
		long long lo = strtoll(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtoll(end + 1, &end, 10);
		/* a value as another width saw it (a truncated switch) matches too */
		in = (v >= lo && v <= hi) ||
		     (lo == hi && !(((unsigned long long)v ^ (unsigned long long)lo) & 0xffffffffULL));
		p = *end == ',' ? end + 1 : end;
		if (end == p && *p)
			break;
	}
	return in;
}

/*
 * Does one test ("2:1-1,3-5", "4:!&2048", up to a space) allow the
 * arguments args?  A value known only not to be 0 is refused by "0-0"
 * alone, and allowed by anything else.
 */
static int test_allows(const char *guard, const char *args)
{
	const char *p = strchr(guard, ':');
	long long v = 0;
	int neg, in, known;

	if (!p || !(known = graph_arg_value(args, guard_param(guard), &v)))
		return 1;
	neg = *++p == '!';
	p += neg;
	if (known == 2)
		return neg || *p == '&' || strncmp(p, "0-0", 3) || (p[3] && p[3] != ' ');
	in = *p == '&' ? !!(v & strtoull(p + 1, NULL, 10)) : in_ranges(p, v);
	return neg ? !in : in;
}

/* Does a call guarded so ("1:!0-0 2:1-1": every test it is under) run for args? */
static int guard_allows(const char *guard, const char *args)
{
	for (; guard; guard = strchr(guard, ' '), guard = guard ? guard + 1 : NULL)
		if (!test_allows(guard, args))
			return 0;
	return 1;
}

/* A call that passes parameters on: its (position, parameter) pairs. */
struct fwd {
	int edge;
	int first, nr;			/* in spec.pairs */
};

struct spec {
	struct graph *g;
	unsigned long long *uses;	/* per function: the parameters it uses */
	struct fwd *fwd;		/* the calls that pass a parameter on */
	int nr_fwd, alloc_fwd;
	int (*pairs)[2];
	int nr_pairs, alloc_pairs;
	int budget;			/* copies left */
};

static unsigned long long param_bit(int param)
{
	return param > 0 && param <= 64 ? 1ULL << (param - 1) : 0;
}

/* The function a node stands for: a copy's original. */
static int original(const struct graph *g, int t)
{
	return g->fns[t].copy_of ? g->fns[t].copy_of - 1 : t;
}

/*
 * A primitive whose body chains.c never looks into (the lock, a wait, an
 * atomic one, an allocation: its flags decide): no copies of it.  A
 * plain sleep primitive's body may give a site its wait chain.
 */
static int is_primitive(const struct graph *g, int t)
{
	return (g->fns[t].prims & (PRIMS_LOCK | PRIM_BIT(PRIM_WAIT) | PRIM_BIT(PRIM_ATOMIC))) ||
	       g->fns[t].gfp_arg > 0;
}

/* Calls whose target a copy may replace: direct, or through a named table. */
static int specializable(const struct g_edge *e)
{
	return (e->kind == CALL_DIRECT && e->nr_targets == 1) ||
	       (e->kind == CALL_MEMBER && e->by_table);
}

/* The parameters fwd call f passes on that its targets use. */
static unsigned long long passed_uses(const struct spec *s, const struct fwd *f)
{
	const struct graph *g = s->g;
	const struct g_edge *e = &g->edges[f->edge];
	unsigned long long u = 0;
	int j, k;

	for (j = f->first; j < f->first + f->nr; j++) {
		int pos = s->pairs[j][0], param = s->pairs[j][1];

		for (k = 0; k < e->nr_targets; k++) {
			int t = e->targets[k].node;

			if (e->kind == CALL_DIRECT && g->fns[t].gfp_arg == pos)
				u |= param_bit(param);
			else if (!g->fns[t].ext && (s->uses[t] & param_bit(pos)))
				u |= param_bit(param);
		}
	}
	return u;
}

/* Edge i passes parameters on: note its pairs once, not per round. */
static void add_fwd(struct spec *s, int i)
{
	const char *p = s->g->edges[i].args;
	struct fwd *f = ARR_PUSH(s->fwd, s->nr_fwd, s->alloc_fwd);
	struct arg_ent a;

	f->edge = i;
	f->first = s->nr_pairs;
	while (next_arg(&p, &a)) {
		int *pair;

		if (a.known)
			continue;
		pair = *ARR_PUSH(s->pairs, s->nr_pairs, s->alloc_pairs);
		pair[0] = a.pos;
		pair[1] = a.param;
		f->nr++;
	}
}

/*
 * Which parameters each function uses: those its guards test, and
 * those it passes on to a callee that uses them or to an allocation's
 * flags; to a fixed point, so that any number of wrappers count.
 */
static void param_uses(struct spec *s)
{
	struct graph *g = s->g;
	int i, changed;

	for (i = 0; i < g->nr_edges; i++) {
		const struct g_edge *e = &g->edges[i];
		const char *t;

		for (t = e->guard; t; t = strchr(t, ' '), t = t ? t + 1 : NULL)
			s->uses[e->caller] |= param_bit(guard_param(t));
		if (e->args && strchr(e->args, '@') && specializable(e))
			add_fwd(s, i);
	}
	do {
		changed = 0;
		for (i = 0; i < s->nr_fwd; i++) {
			int caller = g->edges[s->fwd[i].edge].caller;
			unsigned long long u = passed_uses(s, &s->fwd[i]);

			if (u & ~s->uses[caller]) {
				s->uses[caller] |= u;
				changed = 1;
			}
		}
	} while (changed);
}

/* The entries of args whose value t uses, into rel; their number. */
static int relevant_args(const struct spec *s, int t, const char *args, struct strbuf *rel)
{
	struct arg_ent a;
	int nr = 0;

	while (next_arg(&args, &a))
		if (a.known && (s->uses[t] & param_bit(a.pos))) {
			strbuf_addf(rel, "%s%.*s", nr++ ? ";" : "", a.len, a.s);
		}
	return nr;
}

/* Does args pass on a parameter whose value rel knows? */
static int passes_on(const char *args, const char *rel)
{
	struct arg_ent a;
	long long v;

	while (next_arg(&args, &a))
		if (!a.known && graph_arg_value(rel, a.param, &v))
			return 1;
	return 0;
}

/* Would a copy of t for rel drop a call, or pass a value on? */
static int worth_a_copy(const struct graph *g, int t, const char *rel)
{
	const struct g_fn *f = &g->fns[t];
	int j;

	for (j = f->first_edge; j < f->first_edge + f->nr_edges; j++)
		if ((g->edges[j].guard && !guard_allows(g->edges[j].guard, rel)) ||
		    (g->edges[j].args && passes_on(g->edges[j].args, rel)))
			return 1;
	return 0;
}

/*
 * A copy's edge i: the parameters it passes on resolved with the values
 * rel gives them, and an allocation's flags from those.  A value known
 * only not to be 0 stays so when no bit of it may be cleared.
 */
static void pass_on(struct graph *g, int i, const char *rel)
{
	struct g_edge *e = &g->edges[i];
	struct strbuf sb = STRBUF_INIT;
	const char *p = e->args;
	struct arg_ent a;
	long long v;
	int ga;

	if (!p || !passes_on(p, rel))
		return;
	while (next_arg(&p, &a)) {
		int known = a.known ? 0 : graph_arg_value(rel, a.param, &v);

		strbuf_addstr(&sb, sb.len ? ";" : "");
		if (known == 1)
			strbuf_addf(&sb, "%d=%lld", a.pos,
				    (long long)(((unsigned long long)v & a.and) | a.or));
		else if (known == 2 && (a.or || a.and == ~0ULL))
			strbuf_addf(&sb, "%d=!0", a.pos);
		else
			strbuf_add(&sb, a.s, a.len);
	}
	e->args = intern(sb.buf, sb.len);
	strbuf_release(&sb);
	ga = e->kind == CALL_DIRECT ? g->fns[e->targets[0].node].gfp_arg : 0;
	if (ga && graph_arg_value(e->args, ga, &v) == 1) {
		e->has_gfp = 1;
		e->gfp = v;
	}
}

static int copy_node(struct graph *g, int t, const char *rel)
{
	struct g_fn *f;
	int n, j, first = g->fns[t].first_edge, nr = g->fns[t].nr_edges;

	f = ARR_PUSH(g->fns, g->nr_fns, g->alloc_fns);
	*f = g->fns[t];
	f->next_same_name = -1;
	f->first_edge = g->nr_edges;
	f->nr_edges = 0;
	f->copy_of = t + 1;
	n = g->nr_fns - 1;
	for (j = first; j < first + nr; j++) {
		struct g_edge *e;

		if (g->edges[j].guard && !guard_allows(g->edges[j].guard, rel))
			continue;
		e = ARR_PUSH(g->edges, g->nr_edges, g->alloc_edges);
		*e = g->edges[j];
		e->caller = n;
		g->fns[n].nr_edges++;
		pass_on(g, g->nr_edges - 1, rel);
	}
	return n;
}

/* The copy of t for the values of args it uses: made once; -1 for none. */
static int copy_for(struct spec *s, int t, const char *args)
{
	struct graph *g = s->g;
	struct strbuf rel = STRBUF_INIT, key = STRBUF_INIT;
	const char *k;
	int c = -1;

	if (!relevant_args(s, t, args, &rel) || !worth_a_copy(g, t, rel.buf))
		goto out;
	strbuf_addf(&key, "copy:%d:%s", t, rel.buf);
	k = intern(key.buf, key.len);
	c = gmap_get(&g->cache, k, 0);
	if (c < 0 && s->budget > 0) {
		s->budget--;
		c = copy_node(g, t, rel.buf);
		gmap_put(&g->cache, k, 0, c);
	}
out:
	strbuf_release(&rel);
	strbuf_release(&key);
	return c;
}

/*
 * Point edge i at the copies its arguments call for.  Its targets go to
 * a list of its own: a copy's edges share their original's, and a
 * table's member calls share one.
 */
static void specialize_edge(struct spec *s, int i)
{
	struct graph *g = s->g;
	struct g_tlist *l;
	int k, li = -1;

	if (!g->edges[i].args || !specializable(&g->edges[i]))
		return;
	for (k = 0; k < g->edges[i].nr_targets; k++) {
		int t = original(g, g->edges[i].targets[k].node), c;

		if (g->fns[t].ext || is_primitive(g, t))
			continue;
		c = copy_for(s, t, g->edges[i].args);
		if (c < 0)
			continue;
		if (li < 0) {
			l = ARR_PUSH(g->tlists, g->nr_tlists, g->alloc_tlists);
			li = g->nr_tlists - 1;
			l->nr = l->alloc = g->edges[i].nr_targets;
			l->t = xrealloc_arr(NULL, l->alloc, sizeof(*l->t));
			memcpy(l->t, g->edges[i].targets, l->nr * sizeof(*l->t));
		}
		g->tlists[li].t[k].node = c;
	}
	if (li >= 0) {
		g->edges[i].tl = li;
		g->edges[i].targets = g->tlists[li].t;
	}
}

void graph_specialize(struct graph *g)
{
	struct spec s = { .g = g, .budget = g->nr_fns };
	int i;

	s.uses = xrealloc_arr(NULL, g->nr_fns + 1, sizeof(*s.uses));
	memset(s.uses, 0, (g->nr_fns + 1) * sizeof(*s.uses));
	param_uses(&s);
	/* copies' edges come after: they are specialized in turn */
	for (i = 0; i < g->nr_edges; i++)
		specialize_edge(&s, i);
	free(s.uses);
	free(s.fwd);
	free(s.pairs);
}
