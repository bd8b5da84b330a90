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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/graph.h"
#include "lib/strbuf.h"

/*
 * What an args string ("2=1;4=0;1=!0") says of parameter param: 1 and
 * the constant in *v, 2 if it is only known not to be 0, else 0.
 */
static int arg_value(const char *args, int param, long long *v)
{
	const char *p = args;

	while (p && *p) {
		char *end;
		long pos = strtol(p, &end, 10);

		if (*end != '=')
			return 0;
		if (pos == param) {
			if (end[1] == '!')
				return 2;
			*v = strtoll(end + 1, NULL, 10);
			return 1;
		}
		p = strchr(end, ';');
		p = p ? p + 1 : NULL;
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

	if (!p || !(known = arg_value(args, guard_param(guard), &v)))
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

/* The key of a copy of t for args: t and the constants its guards test; NULL: none. */
static const char *copy_key(struct graph *g, int t, const char *args)
{
	const struct g_fn *f = &g->fns[t];
	struct strbuf sb = STRBUF_INIT;
	const char *key = NULL;
	int j, narrows = 0;

	for (j = f->first_edge; j < f->first_edge + f->nr_edges && !narrows; j++)
		narrows = g->edges[j].guard && !guard_allows(g->edges[j].guard, args);
	if (narrows) {
		strbuf_addf(&sb, "copy:%d:%s", t, args);
		key = intern(sb.buf, sb.len);
	}
	strbuf_release(&sb);
	return key;
}

static int copy_node(struct graph *g, int t, const char *args)
{
	struct g_fn *f;
	int n, j, first = g->fns[t].first_edge, nr = g->fns[t].nr_edges;

	f = ARR_PUSH(g->fns, g->nr_fns, g->alloc_fns);
	*f = g->fns[t];
	f->next_same_name = -1;
	f->first_edge = g->nr_edges;
	f->nr_edges = 0;
	n = g->nr_fns - 1;
	for (j = first; j < first + nr; j++) {
		struct g_edge *e;

		if (g->edges[j].guard && !guard_allows(g->edges[j].guard, args))
			continue;
		e = ARR_PUSH(g->edges, g->nr_edges, g->alloc_edges);
		*e = g->edges[j];
		e->caller = n;
		g->fns[n].nr_edges++;
	}
	return n;
}

void graph_specialize(struct graph *g)
{
	int i, nr = g->nr_edges;

	for (i = 0; i < nr; i++) {
		const char *key, *args = g->edges[i].args;
		int t, c;

		if (g->edges[i].kind != CALL_DIRECT || !args || g->edges[i].nr_targets != 1)
			continue;
		t = g->edges[i].targets[0].node;
		if (g->fns[t].ext || !(key = copy_key(g, t, args)))
			continue;
		c = gmap_get(&g->cache, key, 0);
		if (c < 0) {
			c = copy_node(g, t, args);
			gmap_put(&g->cache, key, 0, c);
		}
		g->edges[i].targets[0].node = c;
	}
}
