// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/primitives.txt: the BKL functions, the sleeping and waiting
 * primitives and the registration rules, as data.  See the file itself
 * for the format.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/internal.h"
#include "lib/embed.h"
#include "lib/strbuf.h"

/* analyzer/primitives.txt, built in by scripts/embed.sh */
extern const struct embedded_file analyzer_primitives_files[];

static const char *const class_names[PRIM_NR] = {
	[PRIM_LOCK] = "lock", [PRIM_UNLOCK] = "unlock", [PRIM_LOCKED] = "locked",
	[PRIM_DROP] = "drop", [PRIM_RETAKE] = "retake",
	[PRIM_SLEEP] = "sleep", [PRIM_WAIT] = "wait", [PRIM_REGISTER] = "register",
	[PRIM_REGISTER_STORE] = "register-store", [PRIM_RESTRICT] = "restrict",
	[PRIM_DISPATCH] = "dispatch", [PRIM_ATOMIC] = "atomic",
};

static int split(char *line, char **f, int max)
{
	int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t\r", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t\r", &save))
		f[n++] = tok;
	return tok ? max + 1 : n;
}

static int parse_arg(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < 1 || v > 16)
		return -1;
	*out = v;
	return 0;
}

/* STRUCT.MEMBER into rule->st and rule->member */
static int parse_member(struct prim_rule *r, const char *s)
{
	const char *dot = strchr(s, '.');

	if (!dot || dot == s || !dot[1])
		return -1;
	r->st = intern(s, dot - s);
	r->member = intern(dot + 1, strlen(dot + 1));
	return 0;
}

static int parse_rule(struct primitives *p, char **f, int n, int lineno)
{
	struct prim_rule r = { .line = lineno };
	int c;

	if (!strcmp(f[0], "gfp-reclaim")) {
		char *end;

		if (n != 2)
			return -1;
		p->gfp_reclaim = strtoull(f[1], &end, 0);
		return *end || !p->gfp_reclaim ? -1 : 0;
	}
	for (c = 0; c < PRIM_NR; c++)
		if (!strcmp(f[0], class_names[c]))
			break;
	if (c == PRIM_NR)
		return -1;
	r.cls = c;
	switch (r.cls) {
	case PRIM_LOCK: case PRIM_UNLOCK: case PRIM_LOCKED: case PRIM_WAIT:
	case PRIM_DROP: case PRIM_RETAKE: case PRIM_ATOMIC:
		if (n != 2)
			return -1;
		r.name = intern(f[1], strlen(f[1]));
		break;
	case PRIM_RESTRICT:
		if (n != 3)
			return -1;
		r.st = intern(f[1], strlen(f[1]));
		r.name = intern(f[2], strlen(f[2]));
		break;
	case PRIM_SLEEP:
		if (n != 2 && n != 3)
			return -1;
		r.name = intern(f[1], strlen(f[1]));
		if (n == 3 && parse_arg(f[2], &r.arg))
			return -1;
		break;
	case PRIM_REGISTER:
		if (n != 4 && n != 5)
			return -1;
		r.kind = intern(f[1], strlen(f[1]));
		r.name = intern(f[2], strlen(f[2]));
		if (parse_arg(f[3], &r.arg))
			return -1;
		if (n == 5 && parse_member(&r, f[4]))
			return -1;
		break;
	case PRIM_REGISTER_STORE:
		if (n != 3 || parse_member(&r, f[2]))
			return -1;
		r.kind = intern(f[1], strlen(f[1]));
		r.name = r.st;
		break;
	case PRIM_DISPATCH:
		if (n != 4)
			return -1;
		r.kind = intern(f[1], strlen(f[1]));
		r.st = intern(f[2], strlen(f[2]));
		r.name = intern(f[3], strlen(f[3]));
		break;
	default:
		return -1;
	}
	*ARR_PUSH(p->rules, p->nr, p->alloc) = r;
	return 0;
}

static int parse(struct primitives *p, char *text, const char *source)
{
	char *line, *save = NULL, *f[8];
	int lineno = 0, n;

	p->source = source;
	for (line = text; line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		n = split(line, f, 6);
		if (!n)
			continue;
		if (n > 5 || parse_rule(p, f, n, lineno))
			return error("%s:%d: bad primitive rule '%s'", source, lineno, f[0]);
	}
	if (!p->gfp_reclaim)
		return error("%s: no gfp-reclaim rule", source);
	return 0;
}

int primitives_load(struct primitives *p, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	memset(p, 0, sizeof(*p));
	if (!path) {
		strbuf_add(&sb, analyzer_primitives_files[0].data, analyzer_primitives_files[0].len);
		ret = parse(p, sb.buf, "built-in primitives.txt");
	} else if (strbuf_read_file(&sb, path) < 0) {
		ret = error("cannot read primitives file '%s'", path);
	} else {
		ret = parse(p, sb.buf, intern(path, strlen(path)));
	}
	strbuf_release(&sb);
	if (ret)
		primitives_release(p);
	return ret;
}


static const struct prim_rule *match(const struct primitives *p, enum prim_class cls,
				     const char *name)
{
	int i;

	for (i = 0; i < p->nr; i++) {
		const struct prim_rule *r = &p->rules[i];

		if (r->cls != cls)
			continue;
		if (strpbrk(r->name, "*?[") ? !fnmatch(r->name, name, 0) : !strcmp(r->name, name))
			return r;
	}
	return NULL;
}

/*
 * Names are interned (intern.c), so answers are cached by the name's
 * address: the same callee is asked about once per class, not per call.
 */
static struct pm_slot {
	const struct primitives *p;
	const char *name;
	const struct prim_rule *rule;
	int cls;
} *pm_cache;
static size_t pm_nr, pm_size;

static size_t pm_hash(const char *name, int cls)
{
	return (((size_t)name >> 3) * 31 + cls) * 0x9e3779b97f4a7c15ULL;
}

static struct pm_slot *pm_find(const struct primitives *p, const char *name, int cls)
{
	size_t j;

	for (j = pm_hash(name, cls) & (pm_size - 1); pm_cache[j].name;
	     j = (j + 1) & (pm_size - 1))
		if (pm_cache[j].name == name && pm_cache[j].cls == cls && pm_cache[j].p == p)
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
			*pm_find(old[i].p, old[i].name, old[i].cls) = old[i];
	free(old);
}

const struct prim_rule *prim_match(const struct primitives *p, enum prim_class cls,
				   const char *name)
{
	struct pm_slot *s;

	if (!name)
		return NULL;
	if (2 * (pm_nr + 1) > pm_size)
		pm_grow();
	s = pm_find(p, name, cls);
	if (s->name)
		return s->rule;
	s->p = p;
	s->name = name;
	s->cls = cls;
	s->rule = match(p, cls, name);
	pm_nr++;
	return s->rule;
}

void primitives_release(struct primitives *p)
{
	/* cached answers about p go with it */
	free(pm_cache);
	pm_cache = NULL;
	pm_nr = pm_size = 0;
	free(p->rules);
	memset(p, 0, sizeof(*p));
}
