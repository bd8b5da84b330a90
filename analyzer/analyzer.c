// SPDX-License-Identifier: GPL-2.0
/*
 * The driver: sparse_initialize() once, then per file sparse() on it, a
 * walk of every function (ast.c, linearize, paths.c, the checks, facts.c)
 * and one transaction to store the result (store.c).
 *
 * sparse exits on some errors (a missing header) and never frees.  With
 * several files, each is analyzed in a child process, so that both cost
 * one file, not the run; the parent keeps what all share (the -include
 * headers).  With one file (bkl audit and bkl check run one per
 * process) the fork is not worth its page faults: the file is analyzed
 * in place, and an exit() inside sparse is caught by an atexit() hook
 * that records the file's error before the process goes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "analyzer/analyzer.h"
#include "analyzer/internal.h"
#include "db/db.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

#define EXIT_DB_ERROR		11

struct run {
	const char *dbpath;
	struct primitives prims;
	const struct analyzer_opts *o;
	struct strbuf flags;
	int nr_global;			/* streams read before any file: -include */
	char macros[256];		/* write_macros()'s file, or "" */
	FILE *errf;			/* what sparse prints for the current file */
};

static void add_dep(struct file_info *fi, const char *name)
{
	const char *path = intern(name, strlen(name));
	int i;

	for (i = 0; i < fi->nr_deps; i++)
		if (fi->deps[i] == path)
			return;
	*ARR_PUSH(fi->deps, fi->nr_deps, fi->alloc_deps) = path;
}

static void analyze_symbol(struct tu *tu, struct symbol *sym, struct ast_info *ai)
{
	struct symbol *base = sym->ctype.base_type;
	struct fn_summary s = { 0 };
	struct entrypoint *ep;

	if (!base || !sym->ident)
		return;
	if (base->type != SYM_FN) {
		if (sym->initializer)
			ast_initializer(tu, sym, NULL);
		return;
	}
	if (!base->stmt)
		return;
	expand_symbol(sym);
	ast_prepare(tu, sym, ai);
	ep = linearize_symbol(sym);
	if (!ep || !ep->entry)
		return;
	s.sym = sym;
	s.name = ident_str(sym->ident);
	s.file = pos_file(sym->pos);
	s.line = sym->pos.line;
	s.is_inline = !!(sym->ctype.modifiers & MOD_INLINE);
	paths_walk(tu, ep, ai, &s);
	s.effect = fn_lock_effect(&s);
	check_sites(tu, &s);
	check_imbalance(tu, &s);
	facts_function(tu, &s, ep, ai);
	if (s.effect) {
		struct tu_helper *h = ARR_PUSH(tu->helpers, tu->nr_helpers, tu->alloc_helpers);

		h->name = s.name;
		h->delta = s.effect;
	}
	fn_summary_release(&s);
}

static int reset_tmp(FILE *fp)
{
	fflush(fp);
	rewind(fp);
	return ftruncate(fileno(fp), 0);
}

/* The captured stderr of a child, NUL-terminated. */
static void read_tmp(FILE *fp, struct strbuf *sb)
{
	char buf[4096];
	size_t n;

	strbuf_reset(sb);
	rewind(fp);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(sb, buf, n);
	if (!sb->buf)
		strbuf_addstr(sb, "");
}

/*
 * sparse reports some type errors on code that is fine for us, and that
 * the kernel lives with: comparisons of pointers in different address
 * spaces (__rcu ones, in fs/dcache.c...), and static_assert()s of a
 * struct's size that sparse lays out differently from gcc (amdgpu's
 * amd_sriov_msg_*_info "must be 1 KB": 348 files of allmodconfig).  A file
 * whose only errors are those is analyzed; any other error (a syntax
 * error, a missing header or member: a file not for this config) fails it.
 */
static int errors_tolerable(struct run *r)
{
	struct strbuf out = STRBUF_INIT;
	char *line, *nl;
	int ok = 1;

	fflush(stderr);
	read_tmp(r->errf, &out);
	for (line = out.buf; ok && *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		if (memmem(line, nl - line, ": error: ", 9) &&
		    !memmem(line, nl - line, "(different address spaces)", 26) &&
		    !memmem(line, nl - line, ": error: static assertion failed: ", 34))
			ok = 0;
		if (!*nl)
			break;
	}
	strbuf_release(&out);
	return ok;
}

/* Did sparse drop code it said it could not handle?  (diag.c) */
static void said_partial(struct run *r, struct tu *tu, struct symbol_list *list)
{
	struct strbuf out = STRBUF_INIT;

	fflush(stderr);
	read_tmp(r->errf, &out);
	diag_partial(tu, list, out.buf);
	strbuf_release(&out);
}

/*
 * The BKL primitives must stay calls: in the BKL series kernel_locked() is
 * a static inline, and inlined, its result would be an anonymous compare
 * that paths.c cannot tie to the BKL.  Un-inline them before any function
 * is expanded (sparse inlines when it expands a call).
 */
static void keep_primitives_calls(const struct primitives *p)
{
	int i;

	for (i = 0; i < p->nr; i++) {
		const struct prim_rule *rule = &p->rules[i];
		struct symbol *sym;

		if (rule->cls != PRIM_LOCK && rule->cls != PRIM_UNLOCK &&
		    rule->cls != PRIM_LOCKED && rule->cls != PRIM_TRYLOCK)
			continue;
		if (rule->glob)
			continue;
		sym = lookup_symbol(built_in_ident(rule->name), NS_SYMBOL);
		for (; sym; sym = sym->same_symbol) {
			sym->ctype.modifiers &= ~MOD_INLINE;
			if (sym->definition)
				sym->definition->ctype.modifiers &= ~MOD_INLINE;
		}
	}
}

/*
 * A function-like macro the profile names (kernel_locked() in 2.6:
 * `#define kernel_locked() (current->lock_depth >= 0)`) would be expanded
 * before the IR has a call to see.  Before any file, each becomes a
 * strong macro of itself, `NAME(args...)` -> `NAME(args)`: sparse does
 * not expand a macro inside its own expansion, and a strong define is
 * not replaced by the tree's #define (nor removed by its #undef), so the
 * use stays a call to NAME; a declaration `NAME(...)`, which takes any
 * arguments, gives it a type, void for what takes or releases the lock,
 * int otherwise (a tree's own prototype of NAME agrees with it).  A tree
 * where NAME is a function anyway is not hurt: `kernel_locked(void)`
 * expands to itself.  They go in a file sparse reads first, as an
 * -include (its pre-buffer cannot be added to before sparse_initialize()
 * sets up its identifiers); the file is not a dependency of any file.
 * 0 and path[0] = '\0' when there are none.
 */
static int write_macros(const struct primitives *p, char *path, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	FILE *fp = NULL;
	int i, fd;

	path[0] = '\0';
	for (i = 0; i < p->nr; i++) {
		const struct prim_rule *m = &p->rules[i];
		int is_void = m->arg == PRIM_LOCK || m->arg == PRIM_UNLOCK ||
			      m->arg == PRIM_DROP || m->arg == PRIM_RETAKE;

		if (m->cls != PRIM_MACRO)
			continue;
		if (!fp) {
			snprintf(path, size, "%s/bkl-macros-XXXXXX", tmp && *tmp ? tmp : "/tmp");
			fd = mkstemp(path);
			if (fd < 0 || !(fp = fdopen(fd, "w"))) {
				if (fd >= 0)
					close(fd);
				return error("cannot create a temporary file: %s", strerror(errno));
			}
		}
		fprintf(fp, "#strong_define %s(args...) %s(args)\nextern %s %s(...);\n",
			m->name, m->name, is_void ? "void" : "int", m->name);
	}
	if (fp && fclose(fp))
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

/*
 * Parse, analyze, store one file: 0, EXIT_SPARSE_ERROR (sparse reported
 * errors: nothing stored) or EXIT_DB_ERROR.  db NULL: open our own (in a
 * child).
 */
static int analyze_one(struct run *r, sqlite3 *db, const char *file, const char *hash)
{
	struct tu tu = { .path = file, .prims = &r->prims };
	struct file_info fi = { .path = file, .hash = hash, .flags = r->flags.buf,
				 .lock = r->prims.lock };
	struct ast_info ai = { 0 };
	struct symbol_list *list;
	struct symbol *sym;
	int start = input_stream_nr, i, ret, own = !db;

	has_error = 0;
	list = sparse((char *)file);
	if (has_error && !errors_tolerable(r))
		return EXIT_SPARSE_ERROR;
	keep_primitives_calls(&r->prims);
	tu.main_stream = start;
	FOR_EACH_PTR(list, sym) {
		analyze_symbol(&tu, sym, &ai);
	} END_FOR_EACH_PTR(sym);
	if (has_error && !errors_tolerable(r))
		return EXIT_SPARSE_ERROR;
	said_partial(r, &tu, list);
	facts_store_registrations(&tu);
	objects_resolve(&tu);
	for (i = 0; i < r->nr_global; i++)
		if (!*r->macros || strcmp(stream_name(i), r->macros))
			add_dep(&fi, stream_name(i));
	for (i = start + 1; i < input_stream_nr; i++)
		add_dep(&fi, stream_name(i));
	if (own) {
		if (db_open(r->dbpath, &db))
			return EXIT_DB_ERROR;
	}
	ret = store_tu(db, &fi, &tu);
	if (own)
		db_close(db);
	return ret ? EXIT_DB_ERROR : 0;
}

/* The first error sparse printed, one line. */
static const char *first_error(struct strbuf *out, int status)
{
	static char msg[512];
	char *line, *nl;

	for (line = out->buf; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strstr(line, "error:") && !strstr(line, "too many errors")) {
			snprintf(msg, sizeof(msg), "%s", line);
			return msg;
		}
		if (nl)
			*nl = '\n';
	}
	if (WIFSIGNALED(status))
		snprintf(msg, sizeof(msg), "sparse crashed (signal %d)", WTERMSIG(status));
	else if (out->len)
		snprintf(msg, sizeof(msg), "%.*s", (int)strcspn(out->buf, "\n"), out->buf);
	else
		snprintf(msg, sizeof(msg), "sparse failed (exit %d)", WEXITSTATUS(status));
	return msg;
}

/* What an analysis ended with, told and recorded: 0 ok, 1 failed, -1 DB error. */
static int conclude(struct run *r, sqlite3 *db, struct file_info *fi, int status)
{
	struct strbuf out = STRBUF_INIT;
	int ret = 1;

	read_tmp(r->errf, &out);
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		if (r->o->sparse_warnings)
			fputs(out.buf, stderr);
		ret = 0;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_DB_ERROR) {
		fputs(out.buf, stderr);
		ret = -1;
	} else {
		const char *err = first_error(&out, status);

		if (r->o->sparse_warnings)
			fputs(out.buf, stderr);
		if (!r->o->quiet)
			warning("'%s' not analyzed: %s", fi->path, err);
		if (store_failed(db, fi, err))
			ret = -1;
	}
	strbuf_release(&out);
	return ret;
}

/* In-place analysis: if sparse exits, record why on the way out. */
static struct {
	struct run *r;
	sqlite3 *db;
	struct file_info *fi;		/* NULL: in sparse_initialize() */
	int saved_err;
} in_place;

static void in_place_exit(void)
{
	if (!in_place.r)
		return;
	if (!in_place.fi) {
		/* sparse_initialize() died on a bad option: say so */
		struct strbuf out = STRBUF_INIT;

		if (*in_place.r->macros)
			unlink(in_place.r->macros);
		fflush(stderr);
		dup2(in_place.saved_err, 2);
		read_tmp(in_place.r->errf, &out);
		error("sparse: %.*s", (int)strcspn(out.buf, "\n"), out.buf);
		strbuf_release(&out);
		return;
	}
	fflush(stderr);
	dup2(in_place.saved_err, 2);
	conclude(in_place.r, in_place.db, in_place.fi, 1 << 8);	/* "exit 1" */
	in_place.r = NULL;
}

static int run_in_place(struct run *r, sqlite3 *db, struct file_info *fi)
{
	int rc;

	fflush(stderr);
	in_place.r = r;
	in_place.db = db;
	in_place.saved_err = dup(2);
	dup2(fileno(r->errf), 2);
	in_place.fi = fi;
	rc = analyze_one(r, db, fi->path, fi->hash);
	in_place.r = NULL;
	in_place.fi = NULL;
	fflush(stderr);
	dup2(in_place.saved_err, 2);
	close(in_place.saved_err);
	return rc << 8;		/* as a wait() status */
}

static int run_in_child(struct run *r, struct file_info *fi, int *status)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return error("cannot fork: %s", strerror(errno));
	if (!pid) {
		dup2(fileno(r->errf), 2);
		limits_child(fi->path, r->o->timeout, r->o->max_mem_mib);
		_exit(analyze_one(r, NULL, fi->path, fi->hash));
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return error("cannot wait for the analyzer: %s", strerror(errno));
	return 0;
}

/* 0 analyzed, 1 not analyzed (reported), -1 a DB error */
static int analyze_file(struct run *r, sqlite3 *db, const char *file, int in_place)
{
	struct file_info fi = { .path = file, .flags = r->flags.buf,
				 .lock = r->prims.lock };
	struct stat stbuf;
	char hash[17];
	int status;

	if (stat(file, &stbuf) || (S_ISREG(stbuf.st_mode) && hash_file(file, hash))) {
		if (!r->o->quiet)
			warning("cannot read '%s': %s", file, strerror(errno));
		return 1;
	}
	if (!S_ISREG(stbuf.st_mode)) {
		if (!r->o->quiet)
			warning("cannot read '%s': not a regular file", file);
		return 1;
	}
	fi.hash = hash;
	if (reset_tmp(r->errf))
		return error("cannot reset a temporary file: %s", strerror(errno));
	if (in_place)
		status = run_in_place(r, db, &fi);
	else if (run_in_child(r, &fi, &status))
		return -1;
	return conclude(r, db, &fi, status);
}

static int is_file_arg(struct string_list *files, const char *arg)
{
	char *f;

	FOR_EACH_PTR(files, f) {
		if (f == arg)
			return 1;
	} END_FOR_EACH_PTR(f);
	return 0;
}

/* A count over the rows of one lock (@lock) */
static void count(sqlite3 *db, const char *sql, const char *lock, int *out)
{
	sqlite3_stmt *st = db_prepare(db, sql);

	if (st && db_bind_text(st, "@lock", lock)) {
		sqlite3_finalize(st);
		return;
	}
	if (st && sqlite3_step(st) == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
}

/*
 * What a file's facts depend on in bkl itself: this analysis (bump
 * ANALYZER_FACTS_REV when a change to it changes the facts it records)
 * and the profiles' rules.  bkl audit analyzes a file again when its key
 * differs, as it does when the file or its flags change.
 */
#define ANALYZER_FACTS_REV	6

const char *analyzer_facts_key(void)
{
	static char key[17];

	if (!*key)
		snprintf(key, sizeof(key), "%016llx",
			 (unsigned long long)profiles_hash("facts", ANALYZER_FACTS_REV));
	return key;
}

int analyzer_run(sqlite3 *db, int argc, char **argv, const struct analyzer_opts *o,
		 struct analyzer_stats *stats)
{
	static int initialized;
	struct run r = { .o = o, .flags = STRBUF_INIT };
	struct strbuf said = STRBUF_INIT;
	struct tree_info tree;
	struct analyzer_stats dummy;
	char **sargv = NULL;
	int nr;
	struct string_list *files = NULL;
	char *file;
	int i, ret = 0, saved_err;

	if (!stats)
		stats = &dummy;
	memset(stats, 0, sizeof(*stats));
	if (initialized++)
		return error("the analyzer runs once per process (sparse keeps global state)");
	r.dbpath = sqlite3_db_filename(db, "main");
	if (!r.dbpath || !*r.dbpath)
		return error("the analyzer needs a database file, not an in-memory one");
	tree_find(argc, argv, &tree);
	if (profiles_choose(&r.prims, o, &tree, &said)) {
		tree_release(&tree);
		strbuf_release(&said);
		return -1;
	}
	/*
	 * Said when chosen: from a tree, or by an option.  Loose files (the
	 * tests') get bkl and 6.x, as before profiles, and one line per
	 * failure on stderr.
	 */
	if (!o->quiet && !o->quiet_profiles &&
	    (tree.root || o->lock_profile || o->kernel_profile || o->primitives))
		fprintf(stderr, "%s: profiles: %s\n", bkl_prog, said.buf);
	strbuf_release(&said);
	ret = profiles_store(db, &r.prims, o, &tree);
	tree_release(&tree);
	if (ret)
		goto out;
	if (write_macros(&r.prims, r.macros, sizeof(r.macros))) {
		ret = -1;
		goto out;
	}
	r.errf = tmpfile();
	if (!r.errf) {
		ret = error("cannot create a temporary file: %s", strerror(errno));
		goto out;
	}
	/*
	 * sparse's complaints about the -include headers: captured too.  If
	 * it exits on a bad option, in_place_exit() tells what it said.
	 */
	atexit(in_place_exit);
	fflush(stderr);
	saved_err = dup(2);
	dup2(fileno(r.errf), 2);
	in_place.r = &r;
	in_place.saved_err = saved_err;
	sargv = xrealloc_arr(NULL, argc + 3, sizeof(*sargv));
	sargv[0] = argv[0];
	nr = 1;
	if (*r.macros) {
		sargv[nr++] = "-include";
		sargv[nr++] = r.macros;
	}
	memcpy(sargv + nr, argv + 1, (argc - 1) * sizeof(*argv));
	sargv[nr + argc - 1] = NULL;
	sparse_initialize(nr + argc - 1, sargv, &files);
	if (*r.macros)
		unlink(r.macros);	/* read: sparse keeps its tokens */
	in_place.r = NULL;
	fflush(stderr);
	dup2(saved_err, 2);
	close(saved_err);
	if (o->sparse_warnings) {
		struct strbuf sb = STRBUF_INIT;

		read_tmp(r.errf, &sb);
		fputs(sb.buf, stderr);
		strbuf_release(&sb);
	}
	r.nr_global = input_stream_nr;
	for (i = 1; i < argc; i++) {
		if (is_file_arg(files, argv[i]))
			continue;
		if (r.flags.len)
			strbuf_addstr(&r.flags, " ");
		strbuf_addstr(&r.flags, argv[i]);
	}
	if (!r.flags.buf)
		strbuf_addstr(&r.flags, "");
	FOR_EACH_PTR(files, file) {
		/* one file without limits (bkl audit's worker, bounded by audit): no fork */
		int rc = analyze_file(&r, db, file, ptr_list_size((struct ptr_list *)files) == 1 &&
				      !o->timeout && !o->max_mem_mib);

		stats->files++;
		if (rc < 0) {
			ret = -1;
			goto out;
		}
		if (rc) {
			stats->failed++;
		} else {
			stats->ok++;
			stats->partial += diag_said(db, file, r.prims.lock, o->quiet);
		}
	} END_FOR_EACH_PTR(file);
	ret = stats->failed;
	count(db, "SELECT count(*) FROM sites WHERE kind != 'implicit' AND lock = @lock",
	      r.prims.lock, &stats->sites);
	count(db, "SELECT count(*) FROM imbalances WHERE lock = @lock", r.prims.lock,
	      &stats->imbalances);
	count(db, "SELECT coalesce(sum(unresolved), 0) FROM files WHERE lock = @lock",
	      r.prims.lock, &stats->unresolved);
out:
	if (*r.macros)
		unlink(r.macros);
	if (r.errf)
		fclose(r.errf);
	free(sargv);
	strbuf_release(&r.flags);
	primitives_release(&r.prims);
	return ret;
}
