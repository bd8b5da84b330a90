// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel tree a run analyzes, as the profiles need it: its release
 * (VERSION, PATCHLEVEL and SUBLEVEL of its top Makefile), and the gfp bit
 * that allows sleeping, read from its own headers.
 *
 * Where the tree is: Kbuild runs sparse from the top of the tree on
 * tree-relative files (bkl audit too), and passes -I of the source tree's
 * include directories, also when objects go to another directory (O=,
 * whose Makefile only includes the source tree's and sets no VERSION).
 * So the tree is the first directory, at or above a .c file of the
 * command line, else at or above an -I (or -isystem) directory, in the
 * order given, whose Makefile sets both VERSION and PATCHLEVEL.  A file
 * outside any kernel tree (a test's) finds none: the default profiles
 * apply.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/internal.h"
#include "lib/strbuf.h"

/* "NAME = value" at the start of a line of the Makefile's first 8 KiB */
static int make_var(const char *text, const char *name, int *out)
{
	size_t len = strlen(name);
	const char *p;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p + len;

		if (strncmp(p, name, len) || (*q != ' ' && *q != '\t' && *q != '='))
			continue;
		q += strspn(q, " \t");
		if (*q++ != '=')
			continue;
		q += strspn(q, " \t");
		if (!isdigit((unsigned char)*q))
			return -1;
		*out = atoi(q);
		return 0;
	}
	return -1;
}

static int read_makefile(const char *dir, struct tree_info *t)
{
	struct strbuf path = STRBUF_INIT;
	char text[8192];
	size_t n = 0;
	FILE *fp;

	strbuf_addf(&path, "%s/Makefile", dir);
	fp = fopen(path.buf, "r");
	strbuf_release(&path);
	if (!fp)
		return -1;
	n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	if (make_var(text, "VERSION", &t->version) || make_var(text, "PATCHLEVEL", &t->patchlevel))
		return -1;
	if (make_var(text, "SUBLEVEL", &t->sublevel))
		t->sublevel = -1;
	if (t->sublevel >= 0)
		snprintf(t->release, sizeof(t->release), "%d.%d.%d", t->version,
			 t->patchlevel, t->sublevel);
	else
		snprintf(t->release, sizeof(t->release), "%d.%d", t->version, t->patchlevel);
	return 0;
}

/* From path (a file or a directory) up to /: 0 found (t->root set). */
static int find_up(const char *path, int is_file, struct tree_info *t)
{
	char buf[PATH_MAX], *slash;

	if (!realpath(path, buf))
		return -1;
	if (is_file && (slash = strrchr(buf, '/')))
		*(slash == buf ? slash + 1 : slash) = '\0';
	for (;;) {
		if (!read_makefile(buf, t)) {
			t->root = strdup(buf);
			return t->root ? 0 : -1;
		}
		slash = strrchr(buf, '/');
		if (!slash || slash == buf)
			break;
		*slash = '\0';
	}
	return -1;
}

void tree_find(int argc, char **argv, struct tree_info *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 1; i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (argv[i][0] != '-' && len > 2 && !strcmp(argv[i] + len - 2, ".c") &&
		    !find_up(argv[i], 1, t))
			return;
	}
	for (i = 1; i < argc; i++) {
		const char *dir = NULL;

		if (!strncmp(argv[i], "-I", 2))
			dir = argv[i][2] ? argv[i] + 2 : i + 1 < argc ? argv[i + 1] : NULL;
		else if (!strcmp(argv[i], "-isystem") && i + 1 < argc)
			dir = argv[i + 1];
		if (dir && !find_up(dir, 0, t))
			return;
	}
}

void tree_release(struct tree_info *t)
{
	free(t->root);
	t->root = NULL;
}

/*
 * The object-like #defines of the profile's gfp headers, enough to
 * evaluate __GFP_WAIT ((__force gfp_t)0x10u) or __GFP_DIRECT_RECLAIM
 * ((__force gfp_t)___GFP_DIRECT_RECLAIM, 0x400u): numbers, other such
 * macros, casts, ( ) ~ | & + << >> and BIT(n).  What it cannot read
 * (a bit from an enum, as 6.8 has) is not guessed: the caller warns.
 */
#define IDENT_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

struct defs {
	char **name, **body;
	int nr, alloc;
	const char *header;
};

static void strip_comments(char *s)
{
	char *p = s, *e;

	while ((p = strchr(p, '/'))) {
		if (p[1] == '*' && (e = strstr(p + 2, "*/"))) {
			memset(p, ' ', e + 2 - p);
		} else if (p[1] == '*' || p[1] == '/') {
			*p = '\0';
			return;
		} else {
			p++;
		}
	}
}

static void read_defs(const char *path, struct defs *d)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *next, *p;

	if (strbuf_read_file(&sb, path) < 0)
		goto out;
	/* join continued lines */
	for (p = sb.buf; (p = strstr(p, "\\\n")); )
		p[0] = p[1] = ' ';
	for (line = sb.buf; line; line = next) {
		char *name;
		size_t len;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line += strspn(line, " \t");
		if (*line++ != '#')
			continue;
		line += strspn(line, " \t");
		if (strncmp(line, "define", 6) || !strchr(" \t", line[6]))
			continue;
		line += 6 + strspn(line + 6, " \t");
		name = line;
		len = strspn(name, IDENT_CHARS);
		if (!len || name[len] == '(')
			continue;
		strip_comments(name + len);
		if (d->nr == d->alloc) {
			d->alloc = d->alloc ? 2 * d->alloc : 64;
			d->name = xrealloc_arr(d->name, d->alloc, sizeof(*d->name));
			d->body = xrealloc_arr(d->body, d->alloc, sizeof(*d->body));
		}
		d->name[d->nr] = strndup(name, len);
		d->body[d->nr++] = strdup(name + len);
	}
out:
	strbuf_release(&sb);
}

static const char *lookup(const struct defs *d, const char *name, size_t len)
{
	int i;

	for (i = d->nr - 1; i >= 0; i--)
		if (strlen(d->name[i]) == len && !memcmp(d->name[i], name, len))
			return d->body[i];
	return NULL;
}

struct ev {
	const struct defs *d;
	const char *s;
	int depth, bad;
};

static unsigned long long ev_or(struct ev *e);

static void skip_ws(struct ev *e)
{
	e->s += strspn(e->s, " \t");
}

static int is_type_word(const char *w, size_t len)
{
	static const char *const words[] = {
		"__force", "gfp_t", "unsigned", "int", "long", "u32", "__u32", "const", NULL
	};
	int i;

	for (i = 0; words[i]; i++)
		if (strlen(words[i]) == len && !memcmp(words[i], w, len))
			return 1;
	return 0;
}

/* "(__force gfp_t)": a cast, skipped; 1 when one was */
static int skip_cast(struct ev *e)
{
	const char *p = e->s + 1;
	size_t len;
	int words = 0;

	for (;;) {
		p += strspn(p, " \t");
		if (*p == ')')
			break;
		len = strspn(p, IDENT_CHARS);
		if (!len || !is_type_word(p, len))
			return 0;
		p += len;
		words++;
	}
	if (!words)
		return 0;
	e->s = p + 1;
	return 1;
}

static unsigned long long ev_macro(struct ev *e, const char *body)
{
	struct ev sub = { .d = e->d, .s = body, .depth = e->depth + 1 };
	unsigned long long v;

	if (sub.depth > 16) {
		e->bad = 1;
		return 0;
	}
	v = ev_or(&sub);
	skip_ws(&sub);
	if (sub.bad || *sub.s)
		e->bad = 1;
	return v;
}

static unsigned long long ev_unary(struct ev *e)
{
	unsigned long long v;
	const char *body;
	char *end;
	size_t len;

	skip_ws(e);
	if (*e->s == '~') {
		e->s++;
		return ~ev_unary(e);
	}
	if (*e->s == '(') {
		if (skip_cast(e))
			return ev_unary(e);
		e->s++;
		v = ev_or(e);
		skip_ws(e);
		if (*e->s++ != ')')
			e->bad = 1;
		return v;
	}
	if (isdigit((unsigned char)*e->s)) {
		v = strtoull(e->s, &end, 0);
		e->s = end + strspn(end, "uUlL");
		return v;
	}
	len = strspn(e->s, IDENT_CHARS);
	if (len == 3 && !memcmp(e->s, "BIT", 3)) {
		e->s += 3;
		skip_ws(e);
		if (*e->s != '(') {
			e->bad = 1;
			return 0;
		}
		v = ev_unary(e);
		return v < 64 ? 1ULL << v : (e->bad = 1, 0);
	}
	if (len && (body = lookup(e->d, e->s, len))) {
		e->s += len;
		return ev_macro(e, body);
	}
	e->bad = 1;
	return 0;
}

static unsigned long long ev_shift(struct ev *e)
{
	unsigned long long v = ev_unary(e), r;

	for (;;) {
		skip_ws(e);
		if (*e->s == '+') {
			e->s++;
			v += ev_unary(e);
		} else if ((e->s[0] == '<' || e->s[0] == '>') && e->s[1] == e->s[0]) {
			int left = e->s[0] == '<';

			e->s += 2;
			r = ev_unary(e);
			v = r >= 64 ? 0 : left ? v << r : v >> r;
		} else {
			return v;
		}
	}
}

static unsigned long long ev_and(struct ev *e)
{
	unsigned long long v = ev_shift(e);

	for (skip_ws(e); *e->s == '&' && e->s[1] != '&'; skip_ws(e)) {
		e->s++;
		v &= ev_shift(e);
	}
	return v;
}

static unsigned long long ev_or(struct ev *e)
{
	unsigned long long v = ev_and(e);

	for (skip_ws(e); *e->s == '|' && e->s[1] != '|'; skip_ws(e)) {
		e->s++;
		v |= ev_and(e);
	}
	return v;
}

int tree_gfp_bit(const struct tree_info *t, const struct primitives *p,
		 unsigned long long *value, const char **header)
{
	struct defs d = { 0 };
	const char *body = NULL;
	int i, ret = -1;

	if (!t->root || !p->gfp_macro)
		return -1;
	/* all the headers first: a macro may use one of another header */
	for (i = 0; i < p->nr_gfp_headers; i++) {
		struct strbuf path = STRBUF_INIT;
		int before = d.nr;

		strbuf_addf(&path, "%s/%s", t->root, p->gfp_headers[i]);
		read_defs(path.buf, &d);
		strbuf_release(&path);
		if (!body && (body = lookup(&d, p->gfp_macro, strlen(p->gfp_macro))) &&
		    d.nr > before)
			*header = p->gfp_headers[i];
	}
	if (body) {
		struct ev e = { .d = &d, .s = "" };
		unsigned long long v = ev_macro(&e, body);

		if (!e.bad && v) {
			*value = v;
			ret = 0;
		}
	}
	for (i = 0; i < d.nr; i++) {
		free(d.name[i]);
		free(d.body[i]);
	}
	free(d.name);
	free(d.body);
	return ret;
}
