// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ktree/maintainers.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static void push(char ***v, int *nr, const char *s)
{
	*v = realloc(*v, (*nr + 1) * sizeof(**v));
	(*v)[(*nr)++] = strdup(s);
}

static int is_dir(const char *tree, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int ret;

	strbuf_addf(&p, "%s/%s", tree, rel);
	ret = !stat(p.buf, &st) && S_ISDIR(st.st_mode);
	strbuf_release(&p);
	return ret;
}

/* get_maintainer.pl appends '/' to a pattern that names a directory. */
static void add_pattern(char ***v, int *nr, const char *val, const char *tree)
{
	size_t n = strlen(val);

	if (tree && n && val[n - 1] != '/' && !strpbrk(val, "*?") && is_dir(tree, val)) {
		char *d = malloc(n + 2);

		sprintf(d, "%s/", val);
		push(v, nr, d);
		free(d);
		return;
	}
	push(v, nr, val);
}

/* "HPET:\tHigh Precision..." -> "HPET: High Precision..." */
static char *squeeze(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\r') {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
			continue;
		}
		*o++ = *s;
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

static int is_tag(const char *line)
{
	return line[0] >= 'A' && line[0] <= 'Z' && line[1] == ':';
}

static void add_tag(struct maint_section *s, const char *line, const char *tree)
{
	const char *val = line + 2;
	char *v;
	size_t n;

	while (*val == ' ' || *val == '\t')
		val++;
	n = strlen(val);
	while (n && strchr(" \t\r", val[n - 1]))
		n--;
	v = strndup(val, n);
	switch (line[0]) {
	case 'M': push(&s->m, &s->nr_m, v); break;
	case 'L': push(&s->l, &s->nr_l, v); break;
	case 'F': add_pattern(&s->f, &s->nr_f, v, tree); break;
	case 'X': add_pattern(&s->x, &s->nr_x, v, tree); break;
	case 'S': free(s->status); s->status = strdup(v); break;
	}
	free(v);
}

int maintainers_read(const char *path, const char *tree, struct maintainers *mt)
{
	struct strbuf text = STRBUF_INIT;
	char *line, *next, *title = NULL;
	struct maint_section *cur = NULL;

	memset(mt, 0, sizeof(*mt));
	if (strbuf_read_file(&text, path) < 0)
		return error("cannot read '%s'", path);
	for (line = text.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line || *line == ' ' || *line == '\t') {
			cur = NULL;	/* a blank line ends a section */
			title = NULL;
			continue;
		}
		if (is_tag(line) && (cur || title)) {
			if (!cur) {
				mt->s = realloc(mt->s, (mt->nr + 1) * sizeof(*mt->s));
				cur = &mt->s[mt->nr++];
				memset(cur, 0, sizeof(*cur));
				cur->name = squeeze(title);
			}
			add_tag(cur, line, tree);
			continue;
		}
		cur = NULL;
		title = line;
	}
	strbuf_release(&text);
	if (!mt->nr)
		return error("no sections in '%s'", path);
	return 0;
}

static void free_v(char **v, int nr)
{
	while (nr--)
		free(v[nr]);
	free(v);
}

void maintainers_release(struct maintainers *mt)
{
	int i;

	for (i = 0; i < mt->nr; i++) {
		struct maint_section *s = &mt->s[i];

		free_v(s->m, s->nr_m);
		free_v(s->l, s->nr_l);
		free_v(s->f, s->nr_f);
		free_v(s->x, s->nr_x);
		free(s->name);
		free(s->status);
	}
	free(mt->s);
	memset(mt, 0, sizeof(*mt));
}

/* Does the glob p match a prefix of s?  '*' and '?' may match '/'. */
static int glob_prefix(const char *p, const char *s)
{
	for (; *p; p++, s++) {
		if (*p == '*') {
			for (;; s++) {
				if (glob_prefix(p + 1, s))
					return 1;
				if (!*s)
					return 0;
			}
		}
		if (!*s || (*p != '?' && *p != *s))
			return 0;
	}
	return 1;
}

static int slashes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/* get_maintainer.pl's file_match_pattern() */
static int file_match(const char *file, const char *pat)
{
	size_t n = strlen(pat);

	if (!glob_prefix(pat, file))
		return 0;
	return (n && pat[n - 1] == '/') || slashes(file) == slashes(pat);
}

/* How specific a matching pattern is: its depth, as get_maintainer.pl counts. */
static int depth(const char *pat)
{
	size_t n = strlen(pat);

	if (pat[0] == '*')
		return -1;
	return slashes(pat) + (n && pat[n - 1] != '/');
}

const struct maint_section *maintainers_match(const struct maintainers *mt, const char *file)
{
	const struct maint_section *best = NULL;
	int i, j, best_depth = -2;
	size_t best_len = 0;

	for (i = 0; i < mt->nr; i++) {
		const struct maint_section *s = &mt->s[i];

		for (j = 0; j < s->nr_x; j++)
			if (file_match(file, s->x[j]))
				break;
		if (j < s->nr_x)
			continue;
		for (j = 0; j < s->nr_f; j++) {
			int d = depth(s->f[j]);
			size_t len = strlen(s->f[j]);

			if (!file_match(file, s->f[j]))
				continue;
			/* deeper wins; on a tie the longer pattern, then the first */
			if (d > best_depth || (d == best_depth && len > best_len)) {
				best = s;
				best_depth = d;
				best_len = len;
			}
		}
	}
	return best;
}
