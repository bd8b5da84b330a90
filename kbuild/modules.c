// SPDX-License-Identifier: GPL-2.0
/*
 * Kbuild module membership, from the tree's Makefiles.  A reader of the
 * Kbuild language small enough to be wrong in understood ways: it takes
 * every assignment whatever ifeq/ifdef surrounds it, and ignores
 * variables used in right-hand sides.  That is what "which module is
 * this file in" needs: the union over configurations.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kbuild/modules.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

struct kb_assign {
	char *lhs;
	char **words;
	int nr;
};

struct kb_makefile {
	char *dir;		/* tree-relative, "" for the top */
	struct kb_assign *a;
	int nr;
};

struct kbuild_cache {
	char *tree;
	struct kb_makefile **mk;	/* pointers: callers hold them across reads */
	int nr_mk;
	char **names;		/* "name\tdir" of every obj- object, sorted */
	int nr_names;
	int names_read;
};

struct kbuild_cache *kbuild_cache_new(const char *tree)
{
	struct kbuild_cache *kc = calloc(1, sizeof(*kc));

	kc->tree = strdup(tree);
	return kc;
}

static void free_makefile(struct kb_makefile *m)
{
	int i, j;

	for (i = 0; i < m->nr; i++) {
		for (j = 0; j < m->a[i].nr; j++)
			free(m->a[i].words[j]);
		free(m->a[i].words);
		free(m->a[i].lhs);
	}
	free(m->a);
	free(m->dir);
}

void kbuild_cache_free(struct kbuild_cache *kc)
{
	int i;

	if (!kc)
		return;
	for (i = 0; i < kc->nr_mk; i++) {
		free_makefile(kc->mk[i]);
		free(kc->mk[i]);
	}
	for (i = 0; i < kc->nr_names; i++)
		free(kc->names[i]);
	free(kc->names);
	free(kc->mk);
	free(kc->tree);
	free(kc);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* One logical line "lhs op rhs" into m; anything else is skipped. */
static void parse_line(struct kb_makefile *m, char *line)
{
	char *eq = strchr(line, '='), *lhs, *rhs, *w;
	struct kb_assign *a;

	if (!eq || eq == line)
		return;
	rhs = eq + 1;
	if (strchr("+:?", eq[-1]))
		eq--;
	*eq = '\0';
	lhs = trim(line);
	if (!*lhs || strchr(lhs, ' ') || strchr(lhs, '\t'))
		return;		/* "ifeq (a,b)" and the like */
	m->a = realloc(m->a, (m->nr + 1) * sizeof(*m->a));
	a = &m->a[m->nr++];
	a->lhs = strdup(lhs);
	a->words = NULL;
	a->nr = 0;
	for (w = strtok(rhs, " \t\r"); w; w = strtok(NULL, " \t\r")) {
		a->words = realloc(a->words, (a->nr + 1) * sizeof(*a->words));
		a->words[a->nr++] = strdup(w);
	}
}

static void parse_text(struct kb_makefile *m, char *text)
{
	char *p = text, *nl, *hash;
	struct strbuf line = STRBUF_INIT;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		strbuf_add(&line, p, nl - p);
		p = *nl ? nl + 1 : nl;
		if (line.len && line.buf[line.len - 1] == '\\') {
			line.buf[--line.len] = ' ';	/* continued */
			continue;
		}
		hash = strchr(line.buf, '#');
		if (hash)
			*hash = '\0';
		parse_line(m, line.buf);
		strbuf_reset(&line);
	}
	if (line.len)
		parse_line(m, line.buf);
	strbuf_release(&line);
}

/* The parsed Makefile and Kbuild of dir (either may be missing). */
static struct kb_makefile *get_makefile(struct kbuild_cache *kc, const char *dir)
{
	static const char *const names[] = { "Kbuild", "Makefile" };
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct kb_makefile *m;
	int i;

	for (i = 0; i < kc->nr_mk; i++)
		if (!strcmp(kc->mk[i]->dir, dir))
			return kc->mk[i];
	kc->mk = realloc(kc->mk, (kc->nr_mk + 1) * sizeof(*kc->mk));
	m = kc->mk[kc->nr_mk++] = calloc(1, sizeof(*m));
	m->dir = strdup(dir);
	for (i = 0; i < 2; i++) {
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s%s%s", kc->tree, dir, *dir ? "/" : "", names[i]);
		if (strbuf_read_file(&text, path.buf) == 0 && text.len)
			parse_text(m, text.buf);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return m;
}

static int has_word(const struct kb_assign *a, const char *w)
{
	int i;

	for (i = 0; i < a->nr; i++)
		if (!strcmp(a->words[i], w))
			return 1;
	return 0;
}

static int is_obj(const char *lhs)
{
	return !strncmp(lhs, "obj-", 4);
}

/* "rtc-core-y", "8250_base-$(CONFIG_X)", "foo-objs" -> the composite's name */
static char *composite_name(const char *lhs)
{
	static const char *const reserved[] = {
		"obj", "lib", "subdir", "ccflags", "asflags", "ldflags", "cflags",
		"always", "extra", "targets", "hostprogs", "userprogs", "clean",
		"header-test", "no-clean-files", "real-obj", "multi-obj", NULL
	};
	const char *end = strstr(lhs, "-$("), *const *r;
	size_t n = strlen(lhs);

	if (!end && n > 2 && !strcmp(lhs + n - 2, "-y"))
		end = lhs + n - 2;
	if (!end && n > 5 && !strcmp(lhs + n - 5, "-objs"))
		end = lhs + n - 5;
	if (!end || end == lhs || memchr(lhs, '$', end - lhs))
		return NULL;
	for (r = reserved; *r; r++)
		if (strlen(*r) == (size_t)(end - lhs) && !strncmp(lhs, *r, end - lhs))
			return NULL;
	return strndup(lhs, end - lhs);
}

/* "obj-$(CONFIG_FOO)" -> "CONFIG_FOO"; obj-y, obj-m -> "y" */
static char *lhs_config(const char *lhs)
{
	const char *c = strstr(lhs, "CONFIG_");
	size_t n = 0;

	if (!c)
		return strdup("y");
	while (c[n] == '_' || (c[n] >= 'A' && c[n] <= 'Z') || (c[n] >= 'a' && c[n] <= 'z') ||
	       (c[n] >= '0' && c[n] <= '9'))
		n++;
	return strndup(c, n);
}

static char *parent_dir(const char *dir)
{
	const char *slash = strrchr(dir, '/');

	return slash ? strndup(dir, slash - dir) : strdup("");
}

/* An obj-y module is built when its directory is: take the parents' symbol. */
static char *inherit_config(struct kbuild_cache *kc, const char *dir)
{
	char *cur = strdup(dir), *parent, *word;
	struct kb_makefile *m;
	char *cfg = NULL;
	int i;

	while (*cur && !cfg) {
		parent = parent_dir(cur);
		word = malloc(strlen(cur) + 2);
		sprintf(word, "%s/", cur + (*parent ? strlen(parent) + 1 : 0));
		m = get_makefile(kc, parent);
		for (i = 0; i < m->nr && !cfg; i++)
			if (is_obj(m->a[i].lhs) && has_word(&m->a[i], word) &&
			    strstr(m->a[i].lhs, "CONFIG_"))
				cfg = lhs_config(m->a[i].lhs);
		free(word);
		free(cur);
		cur = parent;
	}
	free(cur);
	return cfg ? cfg : strdup("y");
}

static void add_file(struct kbuild_module *m, const char *tree, const char *dir,
		     const char *obj)
{
	struct strbuf rel = STRBUF_INIT, abs = STRBUF_INIT;
	size_t n = strlen(obj);
	int i;

	if (n < 3 || strcmp(obj + n - 2, ".o"))
		return;
	strbuf_addf(&rel, "%s%s%.*s.c", dir, *dir ? "/" : "", (int)(n - 2), obj);
	strbuf_addf(&abs, "%s/%s", tree, rel.buf);
	for (i = 0; i < m->nr_files; i++)
		if (!strcmp(m->files[i], rel.buf))
			goto out;
	if (path_exists(abs.buf)) {
		m->files = realloc(m->files, (m->nr_files + 1) * sizeof(*m->files));
		m->files[m->nr_files++] = strdup(rel.buf);
	}
out:
	strbuf_release(&rel);
	strbuf_release(&abs);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fill m for the object "name" built in dir's Makefile, with its parts. */
static void describe(struct kbuild_cache *kc, struct kb_makefile *mk,
		     const char *name, struct kbuild_module *m)
{
	char *obj = malloc(strlen(name) + 3), *n;
	int i, j;

	sprintf(obj, "%s.o", name);
	m->name = strdup(name);
	m->dir = strdup(mk->dir);
	for (i = 0; i < mk->nr; i++) {	/* pty.o: LEGACY_PTYS || UNIX98_PTYS */
		char *cfg;

		if (!is_obj(mk->a[i].lhs) || !has_word(&mk->a[i], obj))
			continue;
		cfg = lhs_config(mk->a[i].lhs);
		if (!m->config) {
			m->config = cfg;
		} else if (strcmp(cfg, "y") && !strstr(m->config, cfg)) {
			char *both = malloc(strlen(m->config) + strlen(cfg) + 5);

			sprintf(both, "%s || %s", m->config, cfg);
			free(m->config);
			free(cfg);
			m->config = both;
		} else {
			free(cfg);
		}
	}
	if (m->config && !strcmp(m->config, "y")) {
		free(m->config);
		m->config = inherit_config(kc, mk->dir);
	}
	if (!m->config)
		m->config = strdup("?");
	for (i = 0; i < mk->nr; i++) {
		n = composite_name(mk->a[i].lhs);
		if (n && !strcmp(n, name))
			for (j = 0; j < mk->a[i].nr; j++)
				add_file(m, kc->tree, mk->dir, mk->a[i].words[j]);
		free(n);
	}
	if (!m->nr_files)
		add_file(m, kc->tree, mk->dir, obj);
	qsort(m->files, m->nr_files, sizeof(*m->files), cmp_str);
	free(obj);
}

/* Look for word (a path relative to dir) in dir's Makefile. */
static int find_in(struct kbuild_cache *kc, const char *dir, const char *word,
		   struct kbuild_module *m)
{
	struct kb_makefile *mk = get_makefile(kc, dir);
	const char *base;
	char *n, *name;
	int i;

	for (i = 0; i < mk->nr; i++) {
		n = composite_name(mk->a[i].lhs);
		if (n && has_word(&mk->a[i], word)) {
			describe(kc, mk, n, m);
			free(n);
			return 1;
		}
		free(n);
	}
	for (i = 0; i < mk->nr; i++) {
		if (!is_obj(mk->a[i].lhs) || !has_word(&mk->a[i], word))
			continue;
		base = strrchr(word, '/');
		base = base ? base + 1 : word;
		name = strndup(base, strlen(base) - 2);
		if (strchr(word, '/')) {	/* obj-y += sub/x.o: rare, keep it whole */
			m->name = name;
			m->dir = strdup(dir);
			m->config = lhs_config(mk->a[i].lhs);
			add_file(m, kc->tree, dir, word);
			return 1;
		}
		describe(kc, mk, name, m);
		free(name);
		return 1;
	}
	return 0;
}

/* dir "a/b", word "x.o" -> dir "a", word "b/x.o": as the parent would spell it */
static void climb(char **dir, char **word)
{
	char *p = parent_dir(*dir), *w;
	const char *last = *dir + (*p ? strlen(p) + 1 : 0);

	w = malloc(strlen(last) + strlen(*word) + 2);
	sprintf(w, "%s/%s", last, *word);
	free(*word);
	free(*dir);
	*word = w;
	*dir = p;
}

int kbuild_module_of(struct kbuild_cache *kc, const char *file, struct kbuild_module *m)
{
	char *dir = parent_dir(file), *up, *word;
	const char *base = strrchr(file, '/');
	size_t n = strlen(file);
	int depth, found = 0;

	memset(m, 0, sizeof(*m));
	if (n < 3 || strcmp(file + n - 2, ".c")) {
		free(dir);
		return error("'%s' is not a .c file", file);
	}
	base = base ? base + 1 : file;
	word = malloc(n + 1);
	sprintf(word, "%.*s.o", (int)(strlen(base) - 2), base);
	up = strdup(dir);
	for (depth = 0; depth < 4 && !found; depth++) {
		found = find_in(kc, up, word, m);
		if (found || !*up)
			break;
		climb(&up, &word);
	}
	if (!found) {
		m->name = strndup(base, strlen(base) - 2);
		m->config = strdup("?");
		m->dir = strdup(dir);
		m->files = malloc(sizeof(*m->files));
		m->files[0] = strdup(file);
		m->nr_files = 1;
	}
	m->found = found;
	free(up);
	free(word);
	free(dir);
	return 0;
}

void kbuild_module_release(struct kbuild_module *m)
{
	int i;

	for (i = 0; i < m->nr_files; i++)
		free(m->files[i]);
	free(m->files);
	free(m->name);
	free(m->config);
	free(m->dir);
	memset(m, 0, sizeof(*m));
}

/* nftw has no user pointer: the one scan in progress. */
static struct kbuild_cache *scanning;

static void index_makefile(struct kbuild_cache *kc, const char *path)
{
	struct kb_makefile m = { 0 };
	struct strbuf text = STRBUF_INIT, key = STRBUF_INIT;
	const char *rel = path + strlen(kc->tree) + 1, *slash = strrchr(rel, '/');
	int i, j;

	if (strbuf_read_file(&text, path) || !text.len)
		goto out;
	m.dir = slash ? strndup(rel, slash - rel) : strdup("");
	parse_text(&m, text.buf);
	for (i = 0; i < m.nr; i++) {
		if (!is_obj(m.a[i].lhs))
			continue;
		for (j = 0; j < m.a[i].nr; j++) {
			const char *w = m.a[i].words[j], *b = strrchr(w, '/');
			size_t n;

			b = b ? b + 1 : w;
			n = strlen(b);
			if (n < 3 || strcmp(b + n - 2, ".o"))
				continue;
			strbuf_reset(&key);
			strbuf_addf(&key, "%.*s\t%s", (int)(n - 2), b, m.dir);
			kc->names = realloc(kc->names, (kc->nr_names + 1) * sizeof(*kc->names));
			kc->names[kc->nr_names++] = strdup(key.buf);
		}
	}
	free_makefile(&m);
out:
	strbuf_release(&text);
	strbuf_release(&key);
}

/* As bkl audit scopes the tree: x86 only, and no tools, scripts or docs. */
static int skipped_dir(const char *rel)
{
	static const char *const skip[] = {
		"tools", "scripts", "Documentation", "samples", "usr", ".pc", NULL
	};
	const char *const *s;

	if (!strncmp(rel, "arch/", 5))
		return strcmp(rel + 5, "x86") != 0;
	for (s = skip; *s; s++)
		if (!strcmp(rel, *s))
			return 1;
	return 0;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;

	if (type == FTW_D && ftw->level && ftw->level <= 2 &&
	    skipped_dir(path + strlen(scanning->tree) + 1))
		return FTW_SKIP_SUBTREE;

	if (type == FTW_F && (!strcmp(base, "Makefile") || !strcmp(base, "Kbuild")))
		index_makefile(scanning, path);
	return 0;
}

static void read_names(struct kbuild_cache *kc)
{
	int i, j;

	kc->names_read = 1;
	scanning = kc;
	nftw(kc->tree, visit, 16, FTW_PHYS | FTW_ACTIONRETVAL);
	scanning = NULL;
	qsort(kc->names, kc->nr_names, sizeof(*kc->names), cmp_str);
	for (i = j = 0; i < kc->nr_names; i++) {	/* one per (name, dir) */
		if (j && !strcmp(kc->names[j - 1], kc->names[i])) {
			free(kc->names[i]);
			continue;
		}
		kc->names[j++] = kc->names[i];
	}
	kc->nr_names = j;
}

int kbuild_name_count(struct kbuild_cache *kc, const char *name)
{
	size_t n = strlen(name);
	int lo = 0, hi, count = 0;

	if (!kc->names_read)
		read_names(kc);
	hi = kc->nr_names;
	while (lo < hi) {	/* first entry >= "name\t" */
		int mid = (lo + hi) / 2;
		int c = strncmp(kc->names[mid], name, n);

		if (c < 0 || (!c && kc->names[mid][n] < '\t'))
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo < kc->nr_names && !strncmp(kc->names[lo], name, n) &&
	       kc->names[lo][n] == '\t') {
		count++;
		lo++;
	}
	return count;
}
