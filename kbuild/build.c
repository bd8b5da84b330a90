// SPDX-License-Identifier: GPL-2.0
/*
 * bkl tree --build: does every patched file still compile?  The series
 * patches ~500 .c files; quilt applying it says nothing about whether
 * they build (an #include pushed under an #ifdef, a const assigned).
 *
 * Each config has its own persistent out-of-tree build in the cache,
 * configured and prepared as bkl audit does (kbuild/config.c), so
 * Kbuild's own incrementality covers the generated headers.  Which
 * objects a config builds comes from Kbuild's Makefiles
 * (kbuild/flags.c): an object behind an option that is off is
 * reported, not built (building it anyway would use its directory's
 * flags, not its own).  The objects are built in one `make -k` with
 * every one as a single target.  A result is kept per object, keyed by
 * its source, the .config and every other file the series touches
 * (headers, Makefiles, Kconfig), so a new driver patch rebuilds only the
 * files it changed.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "kbuild/config.h"
#include "kbuild/flags.h"
#include "lib/date.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "kbuild/build.h"
#include "lib/usage.h"

struct bobj {
	char *src;		/* tree-relative .c */
	char *target;		/* what make builds it as: "x/y.o", "x/../z/y.o" */
	char key[17];		/* source, config and shared files, hashed */
	char status;		/* 'o'k, 'f'ailed, 'n'ot built by this config */
	int cached;
	char *err;		/* the compiler's first error line */
};

struct blist {
	char **path;
	int nr, alloc;
};

static void blist_add(struct blist *l, const char *p, size_t n)
{
	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 64;
		l->path = realloc(l->path, l->alloc * sizeof(*l->path));
		if (!l->path)
			abort();
	}
	l->path[l->nr++] = strndup(p, n);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void blist_sort_uniq(struct blist *l)
{
	int i, n = 0;

	qsort(l->path, l->nr, sizeof(*l->path), cmp_str);
	for (i = 0; i < l->nr; i++) {
		if (n && !strcmp(l->path[n - 1], l->path[i])) {
			free(l->path[i]);
			continue;
		}
		l->path[n++] = l->path[i];
	}
	l->nr = n;
}

static void blist_release(struct blist *l)
{
	int i;

	for (i = 0; i < l->nr; i++)
		free(l->path[i]);
	free(l->path);
	memset(l, 0, sizeof(*l));
}

/* The files a patch writes: its "+++ b/path" lines (deletions left out). */
static int patch_targets(const char *file, struct blist *c_files, struct blist *other)
{
	struct strbuf text = STRBUF_INIT;
	const char *p;

	if (strbuf_read_file(&text, file) < 0)
		return error("cannot read '%s'", file);
	for (p = text.buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *name, *slash;
		size_t n;

		if (strncmp(p, "+++ ", 4))
			continue;
		name = p + 4;
		n = strcspn(name, "\t\n");
		if (n >= 9 && !strncmp(name, "/dev/null", 9))
			continue;
		slash = memchr(name, '/', n);	/* b/drivers/... */
		if (!slash)
			continue;
		n -= slash + 1 - name;
		name = slash + 1;
		if (n > 2 && !strncmp(name + n - 2, ".c", 2))
			blist_add(c_files, name, n);
		else
			blist_add(other, name, n);
	}
	strbuf_release(&text);
	return 0;
}

/* "./drivers/char/" -> "drivers/char"; an absolute path inside tree made relative. */
static char *scope_rel(const char *tree, const char *arg)
{
	size_t n = strlen(tree);
	char *s;

	if (!strncmp(arg, tree, n) && (arg[n] == '/' || !arg[n]))
		arg += n + (arg[n] == '/');
	while (!strncmp(arg, "./", 2))
		arg += 2;
	s = strdup(*arg ? arg : ".");
	n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		s[--n] = '\0';
	return s;
}

static int in_scope(const char *path, const char *scope)
{
	size_t n = strlen(scope);

	return !strcmp(scope, ".") ||
	       (!strncmp(path, scope, n) && (!path[n] || path[n] == '/'));
}

/*
 * The .c files the series writes, those under scope only; shared: a hash
 * of the other files it writes, as they are in the tree now; newest: the
 * mtime of the newest of those.
 */
static int series_objects(const struct series *s, const char *tree, const char **scope,
			  int nr_scope, struct blist *out, uint64_t *shared, long long *newest)
{
	struct stat st;
	struct blist c_files = { 0 }, other = { 0 };
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	char **rel = calloc(nr_scope + 1, sizeof(*rel));
	int i, j, *used = calloc(nr_scope + 1, sizeof(*used)), ret = -1;

	if (!rel || !used)
		abort();
	for (i = 0; i < s->nr; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", s->dir, s->names[i]);
		if (patch_targets(path.buf, &c_files, &other))
			goto out;
	}
	blist_sort_uniq(&c_files);
	blist_sort_uniq(&other);
	*shared = FNV1A_INIT;
	for (i = 0; i < other.nr; i++) {
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s", tree, other.path[i]);
		if (strbuf_read_file(&text, path.buf) < 0)
			strbuf_addstr(&text, "(unreadable)");
		if (!stat(path.buf, &st) && kflags_mtime_ns(&st) > *newest)
			*newest = kflags_mtime_ns(&st);
		*shared = fnv1a(*shared, other.path[i], strlen(other.path[i]) + 1);
		*shared = fnv1a(*shared, text.buf, text.len);
	}
	for (i = 0; i < nr_scope; i++)
		rel[i] = scope_rel(tree, scope[i]);
	for (i = 0; i < c_files.nr; i++) {
		int keep = !nr_scope;

		for (j = 0; j < nr_scope; j++)
			if (in_scope(c_files.path[i], rel[j]))
				keep = used[j] = 1;
		if (keep)
			blist_add(out, c_files.path[i], strlen(c_files.path[i]));
	}
	for (j = 0; j < nr_scope; j++)
		if (!used[j]) {
			error("'%s' holds no .c file the series patches", scope[j]);
			goto out;
		}
	ret = 0;
out:
	for (i = 0; i < nr_scope; i++)
		free(rel[i]);
	free(rel);
	free(used);
	blist_release(&c_files);
	blist_release(&other);
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/* The result cache, objtree/bkl-build.tsv: "src\tkey\tstatus\terror" per line. */
static const char *cached_result(const struct strbuf *cache, const char *src,
				 const char *key, struct strbuf *err)
{
	size_t n = strlen(src);
	const char *p;

	for (p = cache->buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *k = p + n + 1;

		if (strncmp(p, src, n) || p[n] != '\t' || strncmp(k, key, 16) || k[16] != '\t')
			continue;
		strbuf_reset(err);
		strbuf_add(err, k + 19, strcspn(k + 19, "\n"));
		return k + 17;
	}
	return NULL;
}

static int save_results(const char *file, const struct strbuf *old, const struct bobj *o,
			int nr)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *p;
	FILE *f;
	int i, ret;

	strbuf_addf(&tmp, "%s.tmp", file);
	f = fopen(tmp.buf, "w");
	if (!f) {
		ret = error("cannot write '%s'", tmp.buf);
		goto out;
	}
	for (i = 0; i < nr; i++)
		if (o[i].status != 'n')
			fprintf(f, "%s\t%s\t%c\t%s\n", o[i].src, o[i].key, o[i].status,
				o[i].err ? o[i].err : "");
	/* results of objects outside this run's scope are kept */
	for (p = old->buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t n = strcspn(p, "\t\n");
		int mine = 0;

		for (i = 0; i < nr && !mine; i++)
			mine = strlen(o[i].src) == n && !strncmp(o[i].src, p, n);
		if (!mine)
			fprintf(f, "%.*s\n", (int)strcspn(p, "\n"), p);
	}
	ret = fclose(f) || rename(tmp.buf, file) ? error("cannot write '%s'", file) : 0;
out:
	strbuf_release(&tmp);
	return ret;
}

/* The compiler's first error about src in make's output, path made tree-relative. */
static int find_error(const char *log, const char *tree, const char *src, int any,
		      struct strbuf *line)
{
	const char *p;
	size_t t = strlen(tree);

	for (p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t n = strcspn(p, "\n");
		const char *e = memmem(p, n, "error", 5);
		const char *file = p;

		if (!e || !memmem(p, n, ": ", 2))
			continue;
		if (!strncmp(file, tree, t) && file[t] == '/')
			file += t + 1;
		if (!any && (strncmp(file, src, strlen(src)) || file[strlen(src)] != ':'))
			continue;
		strbuf_reset(line);
		strbuf_add(line, file, n - (file - p));
		return 1;
	}
	return 0;
}

static void obj_name(struct strbuf *sb, const char *objtree, const char *src)
{
	strbuf_reset(sb);
	if (objtree)
		strbuf_addf(sb, "%s/", objtree);
	strbuf_add(sb, src, strlen(src) - 1);
	strbuf_addstr(sb, "o");
}

/* Did make say the rule for obj failed: "[...Makefile.build:250: drivers/x.o] Error 1"? */
static int make_failed(const char *log, const char *obj)
{
	const char *p = log;
	size_t n = strlen(obj);

	while ((p = strstr(p, obj))) {
		if (p > log && (p[-1] == ' ' || p[-1] == '/') && !strncmp(p + n, "] Error ", 8))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * A .o older than its source, the .config or the newest file the series
 * writes besides .c files is stale: it goes, so that it cannot pass for
 * a build that failed.  One newer is kept (an interrupted run built it)
 * and Kbuild decides.
 */
static void drop_stale(const char *tree, const char *objtree, const struct bobj *b,
		       long long newest)
{
	const char *src = b->src;
	struct strbuf obj = STRBUF_INIT, path = STRBUF_INIT;
	struct stat st;
	long long t;

	strbuf_addf(&obj, "%s/%s", objtree, b->target);
	strbuf_addf(&path, "%s/.config", objtree);
	if (!stat(path.buf, &st) && kflags_mtime_ns(&st) > newest)
		newest = kflags_mtime_ns(&st);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s", tree, src);
	if (!stat(path.buf, &st) && kflags_mtime_ns(&st) > newest)
		newest = kflags_mtime_ns(&st);
	if (stat(obj.buf, &st))
		goto out;
	t = kflags_mtime_ns(&st);
	if (t <= newest)
		unlink(obj.buf);
out:
	strbuf_release(&obj);
	strbuf_release(&path);
}

/*
 * make -k every object in todo at once; an object whose .o is there
 * after, and whose rule make does not say failed, is built.  A failure's
 * error line comes from that output, else from building it alone (an
 * error in a header names the header).
 */
static int build_objects(const char *tree, const char *objtree, struct bobj **todo, int nr,
			 long long newest, int jobs)
{
	const char **argv = calloc(nr + 10, sizeof(*argv));
	struct strbuf o = STRBUF_INIT, j = STRBUF_INIT, log = STRBUF_INIT, obj = STRBUF_INIT;
	struct strbuf *names = calloc(nr + 1, sizeof(*names));
	int i, base = 0, argc = 0, ret = -1;

	if (!argv || !names)
		abort();
	strbuf_addf(&j, "-j%d", jobs > 0 ? jobs : 1);
	strbuf_addf(&o, "O=%s", objtree);
	argv[argc++] = "make";
	argv[argc++] = "-s";
	argv[argc++] = "-k";
	argv[argc++] = j.buf;	/* argv[3]: -j1 when one is built again alone */
	argv[argc++] = "-C";
	argv[argc++] = tree;
	argv[argc++] = o.buf;
	base = argc;
	for (i = 0; i < nr; i++) {
		drop_stale(tree, objtree, todo[i], newest);
		strbuf_addstr(&names[i], todo[i]->target);
		argv[argc++] = names[i].buf;
	}
	if (run_command(argv, NULL, &log) < 0) {
		error("cannot run make");
		goto out;
	}
	for (i = 0; i < nr; i++) {
		struct strbuf line = STRBUF_INIT, alone = STRBUF_INIT;

		strbuf_reset(&obj);
		strbuf_addf(&obj, "%s/%s", objtree, todo[i]->target);
		if (path_exists(obj.buf) && !make_failed(sb_str(&log), names[i].buf)) {
			todo[i]->status = 'o';
			continue;
		}
		todo[i]->status = 'f';
		if (!find_error(sb_str(&log), tree, todo[i]->src, 0, &line)) {
			argv[base] = names[i].buf;
			argv[base + 1] = NULL;
			argv[3] = "-j1";
			run_command(argv, NULL, &alone);
			if (!find_error(sb_str(&alone), tree, todo[i]->src, 1, &line))
				strbuf_addstr(&line, "no .o and no compiler error: see make's output");
		}
		todo[i]->err = strdup(line.buf);
		strbuf_release(&line);
		strbuf_release(&alone);
	}
	ret = 0;
out:
	for (i = 0; i < nr; i++)
		strbuf_release(&names[i]);
	free(names);
	free(argv);
	strbuf_release(&o);
	strbuf_release(&j);
	strbuf_release(&log);
	strbuf_release(&obj);
	return ret;
}

/* Which objects the config builds, from its Makefiles (dumped once per change). */
static int load_kinds(const char *tree, const char *objtree, struct blist *files, int jobs,
		      struct kbuild_flags **kf)
{
	struct blist dirs = { 0 };
	struct strbuf out = STRBUF_INIT, mk = STRBUF_INIT;
	long long newest = 0;
	struct stat st;
	int i, ret = -1;

	for (i = 0; i < files->nr; i++) {
		const char *slash = strrchr(files->path[i], '/');

		if (slash)
			blist_add(&dirs, files->path[i], slash - files->path[i]);
		else
			blist_add(&dirs, ".", 1);
	}
	blist_sort_uniq(&dirs);
	for (i = 0; i < dirs.nr; i++) {
		strbuf_reset(&mk);
		strbuf_addf(&mk, "%s/%s/Makefile", tree, dirs.path[i]);
		if (!stat(mk.buf, &st) && kflags_mtime_ns(&st) > newest)
			newest = kflags_mtime_ns(&st);
	}
	strbuf_addf(&out, "%s/bkl-flags-build", objtree);
	if (!kbuild_flags_fresh(tree, objtree, out.buf, (const char *const *)dirs.path,
				dirs.nr, newest) &&
	    kbuild_flags_dump(tree, objtree, out.buf, (const char *const *)dirs.path,
			      dirs.nr, jobs))
		goto out;
	ret = kbuild_flags_load(kf, out.buf, objtree);
out:
	blist_release(&dirs);
	strbuf_release(&out);
	strbuf_release(&mk);
	return ret;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* $BKL_CACHE/build/<config>-bkl-<y|n>-<hash of the tree's path>: one config's objects */
static void build_objtree(struct strbuf *sb, const char *tree, const char *config, int bkl)
{
	size_t i;

	strbuf_addf(sb, "%s/build/%s-bkl-%c-%016llx", bkl_cache_dir(), config,
		    bkl ? 'y' : 'n', (unsigned long long)fnv1a(FNV1A_INIT, tree, strlen(tree)));
	if (strchr(config, '/'))	/* a config file: its name only */
		for (i = strlen(bkl_cache_dir()) + 7; i < sb->len; i++)
			if (sb->buf[i] == '/')
				sb->buf[i] = '_';
}

/* One config: configure, sort the objects, build what changed, report. */
static int build_config(const char *tree, const char *series_hex, const char *config,
			int bkl, struct blist *files, uint64_t shared, long long newest,
			int jobs)
{
	struct strbuf objtree = STRBUF_INIT, cache = STRBUF_INIT, cfile = STRBUF_INIT;
	struct strbuf label = STRBUF_INIT, text = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, flags = STRBUF_INIT;
	struct kbuild_config cfg = { 0 };
	struct kbuild_flags *kf = NULL;
	struct bobj *o = calloc(files->nr + 1, sizeof(*o));
	struct bobj **todo = calloc(files->nr + 1, sizeof(*todo));
	int i, nr_todo = 0, built = 0, failed = 0, off = 0, ret = -1;
	double start = now();
	char el[32];

	if (!o || !todo)
		abort();
	build_objtree(&objtree, tree, config, bkl);
	if (kbuild_configure_bkl(tree, objtree.buf, config, series_hex, bkl, jobs, &cfg))
		goto out;
	strbuf_addf(&label, "%s CONFIG_BKL=%c", config, cfg.bkl);
	if (cfg.bkl == 'y')
		strbuf_addf(&label, " CONFIG_BKL_LEGACY_SITES=%c", cfg.legacy);
	if (bkl && cfg.bkl != 'y')
		warning("CONFIG_BKL could not be switched on in '%s' (is the core series applied?)",
			objtree.buf);
	if (load_kinds(tree, objtree.buf, files, jobs, &kf))
		goto out;
	strbuf_addf(&cfile, "%s/bkl-build.tsv", objtree.buf);
	strbuf_read_file(&cache, cfile.buf);
	for (i = 0; i < files->nr; i++) {
		uint64_t h = shared;
		const char *st;

		o[i].src = files->path[i];
		if (kbuild_flags_for(kf, o[i].src, &flags) != KFLAGS_BUILT) {
			o[i].status = 'n';
			continue;
		}
		kbuild_flags_target(kf, o[i].src, &path);
		o[i].target = strdup(path.buf);
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s", tree, o[i].src);
		if (strbuf_read_file(&text, path.buf) < 0)
			strbuf_addstr(&text, "(unreadable)");
		h = fnv1a(fnv1a(h, text.buf, text.len), cfg.hash, 16);
		snprintf(o[i].key, sizeof(o[i].key), "%016llx", (unsigned long long)h);
		st = cached_result(&cache, o[i].src, o[i].key, &err);
		if (st && (*st == 'o' || *st == 'f')) {
			o[i].status = *st;
			o[i].err = *st == 'f' ? strdup(err.buf) : NULL;
			o[i].cached = 1;
		} else {
			todo[nr_todo++] = &o[i];
		}
	}
	if (nr_todo && isatty(2))
		fprintf(stderr, "building %d objects in %s\n", nr_todo, objtree.buf);
	if (nr_todo && build_objects(tree, objtree.buf, todo, nr_todo, newest, jobs))
		goto out;
	if (save_results(cfile.buf, &cache, o, files->nr))
		goto out;
	for (i = 0; i < files->nr; i++) {
		obj_name(&path, NULL, o[i].src);
		if (o[i].status == 'n') {
			off++;
			printf("%s (%s): not built by this config\n", path.buf, label.buf);
			continue;
		}
		built++;
		if (o[i].status == 'f') {
			failed++;
			printf("%s (%s): %s\n", path.buf, label.buf, o[i].err);
		}
	}
	format_duration(now() - start, el, sizeof(el));
	printf("%d objects, %d failed (%s); %d not built by this config; "
	       "%d compiled, %d from the cache; %s\n",
	       built, failed, label.buf, off, nr_todo, built - nr_todo, el);
	fflush(stdout);
	ret = failed ? 1 : 0;
out:
	for (i = 0; i < files->nr; i++) {
		free(o[i].err);
		free(o[i].target);
	}
	free(o);
	free(todo);
	kbuild_flags_free(kf);
	kbuild_config_release(&cfg);
	strbuf_release(&objtree);
	strbuf_release(&cache);
	strbuf_release(&cfile);
	strbuf_release(&label);
	strbuf_release(&text);
	strbuf_release(&path);
	strbuf_release(&err);
	strbuf_release(&flags);
	return ret;
}

int tree_build(const struct series *s, const char *tree, const char *config,
	       const char **scope, int nr_scope, int jobs)
{
	struct blist files = { 0 };
	uint64_t shared = 0;
	long long newest = 0;
	char key[17];
	int a, b, ret = -1;

	if (kbuild_check_tree(tree))
		return -1;
	if (series_objects(s, tree, scope, nr_scope, &files, &shared, &newest))
		goto out;
	if (!files.nr) {
		error("the series patches no .c file: nothing to build");
		goto out;
	}
	/* under make (make check): the kernel's make must not join that one */
	unsetenv("MAKEFLAGS");
	unsetenv("MAKELEVEL");
	unsetenv("MFLAGS");
	unsetenv("MAKEFILES");
	/* the compiler's messages in ASCII: Kbuild unexports LC_ALL */
	setenv("LANG", "C", 1);
	setenv("LC_CTYPE", "C", 1);
	setenv("LC_MESSAGES", "C", 1);
	if (chdir(tree)) {
		error("cannot enter '%s'", tree);
		goto out;
	}
	/*
	 * Configure again when what the series writes besides .c files
	 * (Kconfig, Makefiles, headers) changed, not for each driver patch.
	 */
	snprintf(key, sizeof(key), "%016llx", (unsigned long long)shared);
	a = build_config(tree, key, config, 1, &files, shared, newest, jobs);
	if (a < 0)
		goto out;
	b = build_config(tree, key, config, 0, &files, shared, newest, jobs);
	if (b < 0)
		goto out;
	ret = a || b;
out:
	blist_release(&files);
	return ret;
}

int tree_build_result(const char *tree, const char *config, int bkl, const char *src)
{
	struct strbuf file = STRBUF_INIT, text = STRBUF_INIT;
	size_t n = strlen(src);
	const char *p;
	int status = 0;

	build_objtree(&file, tree, config, bkl);
	strbuf_addstr(&file, "/bkl-build.tsv");
	if (!strbuf_read_file(&text, file.buf))
		for (p = text.buf; p && *p && !status; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (!strncmp(p, src, n) && p[n] == '\t') {
				const char *st = strchr(p + n + 1, '\t');

				status = st ? st[1] : 0;
			}
	strbuf_release(&file);
	strbuf_release(&text);
	return status;
}
