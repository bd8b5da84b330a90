// SPDX-License-Identifier: GPL-2.0
/*
 * The profiles (analyzer/profiles/, built in): a lock profile says what
 * the lock is (its lock/unlock/locked names, its sparse context, the
 * char-device entry points that hold it), a kernel profile what a kernel
 * release's primitives do (sleep, wait, atomic, registrations, the gfp
 * bit that allows sleeping).  One run loads one of each into a struct
 * primitives; `--primitives FILE` loads one file holding both instead.
 * See analyzer/profiles/README for the format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/internal.h"
#include "analyzer/analyzer.h"
#include "lib/embed.h"
#include "ktree/series.h"
#include "lib/strbuf.h"

/* analyzer/profiles/\*.lock and \*.kernel, built in by scripts/embed.sh */
extern const struct embedded_file analyzer_profiles_files[];

enum { IN_LOCK = 1, IN_KERNEL = 2, IN_ANY = 3 };

static const struct {
	const char *name;
	int where;
} classes[PRIM_NR] = {
	[PRIM_LOCK] = { "lock", IN_LOCK }, [PRIM_UNLOCK] = { "unlock", IN_LOCK },
	[PRIM_TRYLOCK] = { "trylock", IN_LOCK }, [PRIM_LOCKED] = { "locked", IN_LOCK },
	[PRIM_DROP] = { "drop", IN_LOCK }, [PRIM_RETAKE] = { "retake", IN_LOCK },
	[PRIM_RESTRICT] = { "restrict", IN_LOCK }, [PRIM_MACRO] = { "macro", IN_ANY },
	[PRIM_SLEEP] = { "sleep", IN_KERNEL }, [PRIM_WAIT] = { "wait", IN_KERNEL },
	[PRIM_REGISTER] = { "register", IN_KERNEL },
	[PRIM_REGISTER_STORE] = { "register-store", IN_KERNEL },
	[PRIM_DISPATCH] = { "dispatch", IN_KERNEL }, [PRIM_ATOMIC] = { "atomic", IN_KERNEL },
};

#define MAX_FIELDS	8

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

/* "1" or "1,2": the size arguments of an allocation, as a mask of their bits */
static int parse_sizes(const char *s, unsigned *mask)
{
	char buf[32], *tok, *save = NULL;
	int arg;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_arg(tok, &arg))
			return -1;
		*mask |= 1u << arg;
	}
	return *mask ? 0 : -1;
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

/* "2.6" as 2006: VERSION * 1000 + PATCHLEVEL */
static int parse_release(const char *s, int *out)
{
	unsigned v, p;
	char c;

	if (sscanf(s, "%u.%u%c", &v, &p, &c) != 2 || p > 999)
		return -1;
	*out = v * 1000 + p;
	return 0;
}

/* gfp-reclaim VALUE, or gfp-reclaim MACRO VALUE [HEADER...] */
static int parse_gfp(struct primitives *p, char **f, int n)
{
	int i = 1;
	char *end;

	if (n >= 3) {
		p->gfp_macro = intern(f[1], strlen(f[1]));
		i = 2;
	} else if (n != 2) {
		return -1;
	}
	p->gfp_reclaim = strtoull(f[i], &end, 0);
	if (*end || !p->gfp_reclaim)
		return -1;
	for (i++; i < n && p->nr_gfp_headers < PRIM_MAX_HEADERS; i++)
		p->gfp_headers[p->nr_gfp_headers++] = intern(f[i], strlen(f[i]));
	return i < n ? -1 : 0;
}

/* The profile-wide settings; 1: not one of them */
static int parse_setting(struct primitives *p, char **f, int n, int where)
{
	if (!strcmp(f[0], "gfp-reclaim") && (where & IN_KERNEL))
		return parse_gfp(p, f, n);
	if (!strcmp(f[0], "releases") && (where & IN_KERNEL))
		return n != 3 || parse_release(f[1], &p->rel_lo) ||
		       parse_release(f[2], &p->rel_hi) ? -1 : 0;
	if (!strcmp(f[0], "default-lock") && (where & IN_KERNEL)) {
		if (n != 2)
			return -1;
		p->default_lock = intern(f[1], strlen(f[1]));
		return 0;
	}
	if (!strcmp(f[0], "context") && (where & IN_LOCK)) {
		if (n != 2)
			return -1;
		p->context = intern(f[1], strlen(f[1]));
		return 0;
	}
	if (!strcmp(f[0], "describe") && (where & IN_LOCK)) {
		struct strbuf sb = STRBUF_INIT;
		int i;

		for (i = 1; i < n; i++)
			strbuf_addf(&sb, "%s%s", i > 1 ? " " : "", f[i]);
		if (sb.len)
			p->describe = intern(sb.buf, sb.len);
		strbuf_release(&sb);
		return n < 2 ? -1 : 0;
	}
	return 1;
}

static int parse_rule(struct primitives *p, char **f, int n, int lineno, int where)
{
	struct prim_rule r = { .line = lineno };
	int c = parse_setting(p, f, n, where);

	if (c <= 0)
		return c;
	for (c = 0; c < PRIM_NR; c++)
		if (!strcmp(f[0], classes[c].name) && (classes[c].where & where))
			break;
	if (c == PRIM_NR)
		return -1;
	r.cls = c;
	switch (r.cls) {
	case PRIM_LOCK: case PRIM_UNLOCK: case PRIM_TRYLOCK: case PRIM_LOCKED:
	case PRIM_WAIT: case PRIM_DROP: case PRIM_RETAKE: case PRIM_ATOMIC:
	case PRIM_MACRO:
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
		if (n < 2 || n > 4)
			return -1;
		r.name = intern(f[1], strlen(f[1]));
		if (n >= 3 && parse_arg(f[2], &r.arg))
			return -1;
		if (n == 4 && parse_sizes(f[3], &r.sizes))
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
	r.glob = r.name && strpbrk(r.name, "*?[");
	*ARR_PUSH(p->rules, p->nr, p->alloc) = r;
	return 0;
}

static int parse(struct primitives *p, char *text, const char *source, int where)
{
	char *line, *save = NULL, *f[MAX_FIELDS];
	int lineno = 0, n;

	for (line = text; line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		n = split(line, f, MAX_FIELDS);
		if (!n)
			continue;
		if (n > MAX_FIELDS || parse_rule(p, f, n, lineno, where))
			return error("%s:%d: bad primitive rule '%s'", source, lineno, f[0]);
	}
	return 0;
}

/* A hash of what, and revision rev, with every profile bkl has built in. */
uint64_t profiles_hash(const char *what, int rev)
{
	const struct embedded_file *e;
	uint64_t h = fnv1a(FNV1A_INIT, what, strlen(what));

	h = fnv1a(h, &rev, sizeof(rev));
	for (e = analyzer_profiles_files; e->name; e++)
		h = fnv1a(fnv1a(h, e->name, strlen(e->name) + 1), e->data, e->len);
	return h;
}

static const struct embedded_file *find_profile(const char *name, const char *suffix)
{
	const struct embedded_file *e;
	size_t len = strlen(name);

	for (e = analyzer_profiles_files; e->name; e++)
		if (!strncmp(e->name, name, len) && !strcmp(e->name + len, suffix))
			return e;
	return NULL;
}

void profiles_list(const char *suffix, struct strbuf *out)
{
	const struct embedded_file *e;
	size_t sl = strlen(suffix);

	for (e = analyzer_profiles_files; e->name; e++) {
		size_t len = strlen(e->name);

		if (len > sl && !strcmp(e->name + len - sl, suffix))
			strbuf_addf(out, "%s%.*s", out->len ? ", " : "", (int)(len - sl), e->name);
	}
}

static int load_embedded(struct primitives *p, const char *name, const char *suffix,
			 const char *what, int where)
{
	const struct embedded_file *e = find_profile(name, suffix);
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!e) {
		struct strbuf names = STRBUF_INIT;

		profiles_list(suffix, &names);
		ret = error("unknown %s profile '%s' (known: %s)", what, name, sb_str(&names));
		strbuf_release(&names);
		return ret;
	}
	strbuf_add(&sb, e->data, e->len);
	ret = parse(p, sb.buf, intern(e->name, strlen(e->name)), where);
	strbuf_release(&sb);
	return ret;
}

/* The kernel profile whose releases are nearest VERSION.PATCHLEVEL. */
const char *profile_kernel_for(int version, int patchlevel, int *exact)
{
	const struct embedded_file *e;
	const char *best = NULL;
	long rel = version * 1000L + patchlevel, best_d = -1;

	for (e = analyzer_profiles_files; e->name; e++) {
		struct primitives p = { 0 };
		struct strbuf sb = STRBUF_INIT;
		size_t len = strlen(e->name);
		long d;

		if (len < 8 || strcmp(e->name + len - 7, ".kernel"))
			continue;
		strbuf_add(&sb, e->data, e->len);
		if (!parse(&p, sb.buf, e->name, IN_KERNEL) && p.rel_hi) {
			d = rel < p.rel_lo ? p.rel_lo - rel : rel > p.rel_hi ? rel - p.rel_hi : 0;
			if (best_d < 0 || d < best_d) {
				best_d = d;
				best = intern(e->name, len - 7);
			}
		}
		strbuf_release(&sb);
		free(p.rules);
	}
	*exact = best_d == 0;
	return best;
}

/*
 * Every macro rule must name a function of another rule: that tells the
 * type its stand-in declaration gets (analyzer.c).
 */
static int check_macros(struct primitives *p)
{
	int i, j;

	for (i = 0; i < p->nr; i++) {
		struct prim_rule *m = &p->rules[i];

		if (m->cls != PRIM_MACRO)
			continue;
		for (j = 0; j < p->nr; j++)
			if (j != i && p->rules[j].cls != PRIM_MACRO && p->rules[j].name == m->name)
				break;
		if (j == p->nr || strpbrk(m->name, "*?["))
			return error("%s: macro '%s' names no lock, unlock or primitive rule",
				     p->source, m->name);
		m->arg = p->rules[j].cls;	/* the class it stands for */
	}
	return 0;
}

int primitives_load(struct primitives *p, const char *path, const char *lock,
		    const char *kernel)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	memset(p, 0, sizeof(*p));
	if (path) {
		p->source = intern(path, strlen(path));
		if (strbuf_read_file(&sb, path) < 0)
			ret = error("cannot read primitives file '%s'", path);
		else
			ret = parse(p, sb.buf, p->source, IN_ANY);
		p->lock_profile = p->kernel_profile = p->source;
		p->lock = "bkl";
	} else {
		if (!kernel)
			kernel = "6.x";
		p->kernel_profile = intern(kernel, strlen(kernel));
		ret = load_embedded(p, p->kernel_profile, ".kernel", "kernel", IN_KERNEL);
		if (!lock)
			lock = p->default_lock ? p->default_lock : "bkl";
		p->lock_profile = intern(lock, strlen(lock));
		p->lock = p->lock_profile;
		p->source = p->lock_profile;
		if (!ret)
			ret = load_embedded(p, lock, ".lock", "lock", IN_LOCK);
	}
	strbuf_release(&sb);
	if (!ret && !p->gfp_reclaim)
		ret = error("%s: no gfp-reclaim rule", p->source);
	if (!ret)
		ret = check_macros(p);
	if (!ret)
		prim_match_prepare(p);
	if (!p->context)
		p->context = "kernel_lock";
	if (!p->describe)
		p->describe = "the BKL";
	if (ret)
		primitives_release(p);
	return ret;
}

/*
 * How the built-in lock profile lock names itself and its unlock, for
 * the queries; -1 (quietly) when there is no such profile.
 */
int profile_describe(const char *lock, const char **describe, const char **unlock)
{
	const struct embedded_file *e = find_profile(lock, ".lock");
	struct primitives p = { 0 };
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (!e)
		return -1;
	strbuf_add(&sb, e->data, e->len);
	if (!parse(&p, sb.buf, e->name, IN_LOCK)) {
		*describe = p.describe ? p.describe : "the BKL";
		*unlock = prim_unlock_name(&p);
		ret = 0;
	}
	strbuf_release(&sb);
	free(p.rules);
	return ret;
}

/* The first unlock rule's name, as messages name the unlock. */
const char *prim_unlock_name(const struct primitives *p)
{
	int i;

	for (i = 0; i < p->nr; i++)
		if (p->rules[i].cls == PRIM_UNLOCK && !p->rules[i].glob)
			return p->rules[i].name;
	return "unlock_kernel";
}

void primitives_release(struct primitives *p)
{
	prim_match_release(p);
	free(p->rules);
	memset(p, 0, sizeof(*p));
}
