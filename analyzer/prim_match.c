// SPDX-License-Identifier: GPL-2.0
/*
 * Matching names against the profiles' rules (prim_match()): what every
 * call the analyzer sees, and every node of the global pass, asks.  The
 * rules are indexed by class and name once primitives_load() has read
 * them, and the answers cached by the name's address.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/internal.h"

/*
 * The rules by class, for match(): each (exact name, class)'s first rule
 * in a table keyed by the interned name, and each class's globs in order.
 * A million names are asked of a few hundred rules.
 */
struct prim_index {
	struct { const char *name; int cls, rule; } *slot;
	size_t size;
	int *globs[PRIM_NR], nr_globs[PRIM_NR];
};

static size_t exact_slot(const struct prim_index *x, const char *name, int cls)
{
	size_t j;

	for (j = ptr_hash(name, cls) & (x->size - 1); x->slot[j].name;
	     j = (j + 1) & (x->size - 1))
		if (x->slot[j].name == name && x->slot[j].cls == cls)
			break;
	return j;
}

void prim_match_prepare(struct primitives *p)
{
	struct prim_index *x = xrealloc_arr(NULL, 1, sizeof(*x));
	int i, alloc[PRIM_NR] = { 0 };

	memset(x, 0, sizeof(*x));
	for (x->size = 16; x->size < 2 * (size_t)p->nr + 2; x->size *= 2)
		;
	x->slot = xrealloc_arr(NULL, x->size, sizeof(*x->slot));
	memset(x->slot, 0, x->size * sizeof(*x->slot));
	for (i = 0; i < p->nr; i++) {
		const struct prim_rule *r = &p->rules[i];
		size_t j;

		if (!r->name)
			continue;
		if (r->glob) {
			*ARR_PUSH(x->globs[r->cls], x->nr_globs[r->cls], alloc[r->cls]) = i;
			continue;
		}
		j = exact_slot(x, r->name, r->cls);
		if (!x->slot[j].name) {
			x->slot[j].name = r->name;
			x->slot[j].cls = r->cls;
			x->slot[j].rule = i;
		}
	}
	p->index = x;
}

static void free_index(struct prim_index *x)
{
	int c;

	if (!x)
		return;
	for (c = 0; c < PRIM_NR; c++)
		free(x->globs[c]);
	free(x->slot);
	free(x);
}

/* The first rule of class cls that names name or whose glob matches it. */
static const struct prim_rule *match(const struct primitives *p, enum prim_class cls,
				     const char *name)
{
	const struct prim_index *x = p->index;
	int i, first = p->nr;
	size_t j;

	name = intern(name, strlen(name));
	j = exact_slot(x, name, cls);
	if (x->slot[j].name)
		first = x->slot[j].rule;
	for (i = 0; i < x->nr_globs[cls] && x->globs[cls][i] < first; i++)
		if (!fnmatch(p->rules[x->globs[cls][i]].name, name, 0))
			return &p->rules[x->globs[cls][i]];
	return first < p->nr ? &p->rules[first] : NULL;
}

/*
 * Names are interned (intern.c), so answers are cached by the name's
 * address: the same callee is asked about once per class, not per call.
 * One slot per name, with every class's answer: a pass asks several
 * classes of each of a million names, and each slot is a cache miss.
 * A name matches one class, rarely more: the slot keeps the first rule
 * matched, and matches again for another.
 */
static struct pm_slot {
	const struct primitives *p;
	const char *name;
	const struct prim_rule *rule;
	unsigned short asked, matched;	/* by class */
} *pm_cache;
_Static_assert(PRIM_NR <= 16, "pm_slot's class masks");
static size_t pm_nr, pm_size;

static struct pm_slot *pm_find(const struct primitives *p, const char *name)
{
	size_t j;

	for (j = ptr_hash(name, 0) & (pm_size - 1); pm_cache[j].name;
	     j = (j + 1) & (pm_size - 1))
		if (pm_cache[j].name == name && pm_cache[j].p == p)
			break;
	return &pm_cache[j];
}

static void pm_grow(void)
{
	struct pm_slot *old = pm_cache;
	size_t i, n = pm_size;

	pm_size = n ? 2 * n : 4096;
	pm_cache = xrealloc_arr(NULL, pm_size, sizeof(*pm_cache));
	memset(pm_cache, 0, pm_size * sizeof(*pm_cache));
	for (i = 0; i < n; i++)
		if (old[i].name)
			*pm_find(old[i].p, old[i].name) = old[i];
	free(old);
}

const struct prim_rule *prim_match(const struct primitives *p, enum prim_class cls,
				   const char *name)
{
	unsigned short bit = 1 << cls;
	const struct prim_rule *r;
	struct pm_slot *s;

	if (!name)
		return NULL;
	if (2 * (pm_nr + 1) > pm_size)
		pm_grow();
	s = pm_find(p, name);
	if (!s->name) {
		s->p = p;
		s->name = name;
		pm_nr++;
	}
	if (s->asked & bit) {
		if (!(s->matched & bit))
			return NULL;
		if (s->rule->cls == cls)
			return s->rule;
		return match(p, cls, name);
	}
	s->asked |= bit;
	r = match(p, cls, name);
	if (r) {
		s->matched |= bit;
		if (!s->rule)
			s->rule = r;
	}
	return r;
}

void prim_match_release(struct primitives *p)
{
	/* cached answers about p go with it */
	free(pm_cache);
	pm_cache = NULL;
	pm_nr = pm_size = 0;
	free_index(p->index);
	p->index = NULL;
}
