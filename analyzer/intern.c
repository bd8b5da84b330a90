// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers shared by the analyzer: interned strings (names live as
 * long as the process; one TU's worth of them in the analyzing child)
 * and array growth.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/internal.h"

void *xrealloc_arr(void *p, size_t nr, size_t size)
{
	p = realloc(p, nr * size);
	if (!p) {
		fprintf(stderr, "bkl: out of memory\n");
		abort();
	}
	return p;
}

static struct {
	const char **slots;
	size_t nr, size;
} strtab;

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static void strtab_grow(void)
{
	size_t i, old = strtab.size;
	const char **slots = strtab.slots;

	strtab.size = old ? 2 * old : 4096;
	strtab.slots = calloc(strtab.size, sizeof(*slots));
	if (!strtab.slots)
		abort();
	for (i = 0; i < old; i++) {
		size_t j;

		if (!slots[i])
			continue;
		j = hash_bytes(slots[i], strlen(slots[i])) & (strtab.size - 1);
		while (strtab.slots[j])
			j = (j + 1) & (strtab.size - 1);
		strtab.slots[j] = slots[i];
	}
	free(slots);
}

const char *intern(const char *s, size_t len)
{
	size_t j;
	char *copy;

	if (2 * (strtab.nr + 1) > strtab.size)
		strtab_grow();
	j = hash_bytes(s, len) & (strtab.size - 1);
	for (; strtab.slots[j]; j = (j + 1) & (strtab.size - 1))
		if (!strncmp(strtab.slots[j], s, len) && !strtab.slots[j][len])
			return strtab.slots[j];
	copy = malloc(len + 1);
	if (!copy)
		abort();
	memcpy(copy, s, len);
	copy[len] = '\0';
	strtab.slots[j] = copy;
	strtab.nr++;
	return copy;
}

const char *ident_str(const struct ident *id)
{
	return id ? intern(id->name, id->len) : NULL;
}
