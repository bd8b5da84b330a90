// SPDX-License-Identifier: GPL-2.0
/*
 * What bkl audit analyzes: the .c files under the directories and files
 * it is given, less what the default scope leaves out.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "kbuild/flags.h"
#include "kbuild/walk.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static const char *const skipped_top[] = { "tools", "scripts", "Documentation", "usr", NULL };

void kwalk_add(struct walk *w, const char *path)
{
	if (w->nr == w->alloc) {
		w->alloc = w->alloc ? w->alloc * 2 : 1024;
		w->files = realloc(w->files, w->alloc * sizeof(*w->files));
		if (!w->files)
			abort();
	}
	w->files[w->nr++] = strdup(path);
}

/* A directory the default scope leaves out, unless named on the command line. */
static int skipped_dir(const struct walk *w, const char *rel)
{
	int i;

	for (i = 0; skipped_top[i]; i++)
		if (!strcmp(rel, skipped_top[i]))
			return 1;
	return !w->all_arch && !strncmp(rel, "arch/", 5) && !strchr(rel + 5, '/') &&
	       strcmp(rel, "arch/x86");
}

static int is_makefile(const char *name)
{
	return !strncmp(name, "Makefile", 8) || !strncmp(name, "Kbuild", 6);
}

/*
 * rel is tree-relative ("." for the top); we run from the tree's top.
 * The default exclusions apply below what was named: `bkl audit arch`
 * still leaves out arch/arm, `bkl audit arch/arm` does not.
 */
void kwalk_dir(struct walk *w, const char *rel)
{
	DIR *d = opendir(rel);
	struct strbuf p = STRBUF_INIT;
	struct dirent *de;
	struct stat st;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')	/* ., .., .git, .pc (quilt) */
			continue;
		strbuf_reset(&p);
		if (strcmp(rel, "."))
			strbuf_addf(&p, "%s/", rel);
		strbuf_addstr(&p, de->d_name);
		if (lstat(p.buf, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!skipped_dir(w, p.buf))
				kwalk_dir(w, p.buf);
		} else if (S_ISREG(st.st_mode) && n > 2 && !strcmp(de->d_name + n - 2, ".c")) {
			kwalk_add(w, p.buf);
		} else if (S_ISREG(st.st_mode) && is_makefile(de->d_name) &&
			   kflags_mtime_ns(&st) > w->newest_makefile) {
			w->newest_makefile = kflags_mtime_ns(&st);
		}
	}
	closedir(d);
	strbuf_release(&p);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void kwalk_sort(struct walk *w)
{
	qsort(w->files, w->nr, sizeof(*w->files), cmp_str);
}

void kwalk_release(struct walk *w)
{
	int i;

	for (i = 0; i < w->nr; i++)
		free(w->files[i]);
	free(w->files);
	w->files = NULL;
	w->nr = w->alloc = 0;
}

/*
 * The scope arguments as tree-relative paths; an absolute path must be
 * inside the tree.  Each must exist.
 */
int kwalk_scope(const char *tree, int argc, const char **argv, char ***out)
{
	char **scope = calloc(argc + 2, sizeof(*scope)), *p;
	struct strbuf full = STRBUF_INIT;
	size_t tl = strlen(tree);
	int i, ret = 0;

	if (!scope)
		abort();
	for (i = 0; i < argc && !ret; i++) {
		const char *a = argv[i];

		if (a[0] == '/' && !strncmp(a, tree, tl) && (a[tl] == '/' || !a[tl]))
			a = a[tl] ? a + tl + 1 : ".";
		p = strdup(*a ? a : ".");
		kflags_normalize_path(p);
		scope[i] = p;
		strbuf_reset(&full);
		strbuf_addf(&full, "%s/%s", tree, p);
		if (p[0] == '/' || !strncmp(p, "..", 2) || !path_exists(full.buf))
			ret = error("'%s' is not in the tree '%s'", argv[i], tree);
	}
	if (!argc)
		scope[argc++] = strdup(".");
	strbuf_release(&full);
	*out = scope;
	return ret ? ret : argc;
}

/* The directories whose Makefiles the flags dump must evaluate. */
const char **kwalk_scope_dirs(char **scope, int nr)
{
	const char **dirs = calloc(nr + 1, sizeof(*dirs));
	struct stat st;
	int i;

	for (i = 0; i < nr; i++) {
		char *d = strdup(scope[i]), *slash;

		if (!stat(d, &st) && !S_ISDIR(st.st_mode)) {
			slash = strrchr(d, '/');
			if (slash)
				*slash = '\0';
			else
				strcpy(d, ".");
		}
		dirs[i] = d;
	}
	return dirs;
}

