// SPDX-License-Identifier: GPL-2.0
/*
 * The global pass's maps: (interned name, scope) -> int, open addressing.
 * Names are compared by address (intern.c).
 */
#include "analyzer/graph.h"

static struct g_slot *gmap_slot(struct gmap *m, const char *name, int scope);

static void gmap_grow(struct gmap *m)
{
	struct g_slot *old = m->slots;
	size_t i, n = m->size;

	m->size = n ? 2 * n : 4096;
	m->slots = xrealloc_arr(NULL, m->size, sizeof(*m->slots));
	memset(m->slots, 0, m->size * sizeof(*m->slots));
	m->nr = 0;
	for (i = 0; i < n; i++)
		if (old[i].name)
			gmap_put(m, old[i].name, old[i].scope, old[i].value);
	free(old);
}

static struct g_slot *gmap_slot(struct gmap *m, const char *name, int scope)
{
	size_t j;

	if (2 * (m->nr + 1) > m->size)
		gmap_grow(m);
	for (j = ptr_hash(name, scope) & (m->size - 1); m->slots[j].name;
	     j = (j + 1) & (m->size - 1))
		if (m->slots[j].name == name && m->slots[j].scope == scope)
			return &m->slots[j];
	return &m->slots[j];
}

void gmap_put(struct gmap *m, const char *name, int scope, int value)
{
	struct g_slot *s = gmap_slot(m, name, scope);

	if (!s->name)
		m->nr++;
	s->name = name;
	s->scope = scope;
	s->value = value;
}

/* value, or -1 */
int gmap_get(struct gmap *m, const char *name, int scope)
{
	struct g_slot *s = gmap_slot(m, name, scope);

	return s->name ? s->value : -1;
}


void gmap_free(struct gmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
