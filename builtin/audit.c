// SPDX-License-Identifier: GPL-2.0
/*
 * bkl audit: the whole-tree driver.  Configure the tree out of tree in
 * the cache, ask Kbuild for every file's flags (kbuild/flags.c),
 * run the analyzer on the files whose flags, content or headers changed
 * (audit/state.c), -j workers each into its own shard
 * (audit/jobs.c), merge the shards into the DB in one step (which
 * also runs the global pass), and sum up.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "analyzer/analyzer.h"
#include "db/db.h"
#include "audit/run.h"
#include "audit/progress.h"
#include "kbuild/config.h"
#include "kbuild/flags.h"
#include "audit/jobs.h"
#include "audit/state.h"
#include "kbuild/walk.h"
#include "ktree/ktree.h"
#include "lib/date.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_audit[] =
	"usage: bkl audit [--tree DIR] [--config defconfig|allmodconfig|FILE] [--db DB]\n"
	"                 [-j N] [--all-arch] [--force] [--full-pass] [--timeout SECS] [--batch N]\n"
	"                 [--lock NAME] [--kernel-profile NAME]\n"
	"                 [--show-flags | --plan | --jobs-list N | --shard I/N] [DIR|FILE...]\n"
	"\n"
	"Run the BKL analyzer on every .c file under the given directories or\n"
	"files of the kernel tree (default: the whole tree) with the flags Kbuild\n"
	"compiles it with, into the database, then merge and resolve.  Files whose\n"
	"content, flags and included headers did not change since the last run are\n"
	"skipped; a file sparse cannot parse is recorded with its error, one it\n"
	"parsed but dropped code of (an expression it could not type) as partial:\n"
	"the summary counts those apart from the failed ones.\n"
	"\n"
	"The tree is configured out of tree in $BKL_CACHE/audit/CONFIG-KEY (the\n"
	"config, then CONFIG_BKL and CONFIG_BKL_LEGACY_SITES, then make prepare;\n"
	"no kernel build).  By default tools/, scripts/, Documentation/, usr/ and\n"
	"arch/* other than arch/x86 are not analyzed (name them to include them).\n"
	"\n"
	"    --tree DIR       the kernel tree (default: the work tree `bkl tree`\n"
	"                     prepares, made first if it is missing)\n"
	"    --config NAME    a config target or a .config file (default allmodconfig)\n"
	"    --db DB          the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    -j N             analyzer processes (default: the number of CPUs)\n"
	"    --all-arch       also analyze arch/* other than x86\n"
	"    --force          analyze every file again\n"
	"    --full-pass      the global pass reads every file's facts from the\n"
	"                     database, not only those of the files analyzed since\n"
	"                     its last run (the others from its snapshot, DB.graph-LOCK)\n"
	"    --timeout SECS   give up on a file after SECS seconds (default 300)\n"
	"    --show-flags     print each file and its sparse flags, tab-separated\n"
	"                     (F built, O listed but off, D its directory's, H host\n"
	"                     program), and analyze nothing\n"
	"    --plan           print the files to analyze, in the order the audit\n"
	"                     takes them (tier, tab, path), and analyze nothing\n"
	"\n"
	"    --batch N        merge into the database every N files (default 1000)\n"
	"    --lock NAME      the lock to audit: an analyzer lock profile (bkl,\n"
	"                     rtnl, console, tty, bkl-2.6; default bkl); another\n"
	"                     lock than bkl goes to $BKL_CACHE/NAME.db unless --db\n"
	"                     or $BKL_DB names one\n"
	"    --kernel-profile NAME\n"
	"                     the kernel's rules (6.x, 2.6; default: the release\n"
	"                     the tree's Makefile names)\n"
	"\n"
	"Files are taken in this order, and merged into the database batch by\n"
	"batch, so that a first audit answers early and a killed one resumes:\n"
	"0: drivers/char, drivers/tty, fs; 1: files that register a char device\n"
	"and the other files of their directories; 2: the rest.  pick, drivers,\n"
	"report and serve say how complete the audit is while it runs.\n"
	"\n"
	"On several machines (the same tree, cache and bkl paths on each):\n"
	"    --jobs-list N    configure the tree, then print N shell commands,\n"
	"                     one per shard, for any runner (GNU parallel, xargs,\n"
	"                     a batch system); then 'bkl merge --db DB' the shard\n"
	"                     databases they write (DB.shard-I-of-N)\n"
	"    --shard I/N      analyze only the I-th of N shards of the plan into\n"
	"                     --db, without the global pass\n";

/*
 * --tree, else the work tree, prepared as `bkl tree` does when missing or
 * stale.  series: the series hash for the work tree ("" for --tree).
 */
static int resolve_tree(const char *opt, struct strbuf *tree, struct strbuf *series)
{
	char real[PATH_MAX];
	struct strbuf patches = STRBUF_INIT;
	const char *tarball = getenv("BKL_TARBALL");
	struct series s;
	int ret = -1;

	if (opt) {
		if (!realpath(opt, real))
			return error("no kernel tree at '%s'", opt);
		strbuf_addstr(tree, real);
		return kbuild_check_tree(tree->buf);
	}
	strbuf_addf(&patches, "%s/patches", bkl_repo_dir());
	/* the campaign's tree: the series' end would take the sites it audits */
	if (ktree_campaign_series(&s, patches.buf))
		goto out;
	if (ktree_unpack(tarball && *tarball ? tarball : DEFAULT_TARBALL) ||
	    ktree_prepare_work(&s, 0))
		goto out_series;
	strbuf_addstr(tree, ktree_dir("work"));
	strbuf_addstr(series, series_hash_hex(&s));
	ret = kbuild_check_tree(tree->buf);
out_series:
	series_release(&s);
out:
	strbuf_release(&patches);
	return ret;
}

static void config_label(const char *config, struct strbuf *out)
{
	const char *base = strrchr(config, '/');

	base = base ? base + 1 : config;
	for (; *base; base++)
		strbuf_add(out, (*base >= 'a' && *base <= 'z') || (*base >= 'A' && *base <= 'Z') ||
			   (*base >= '0' && *base <= '9') || *base == '-' ? base : "_", 1);
}

static int record_config(sqlite3 *db, const char *tree, const char *objtree,
			 const char *series, const struct kbuild_config *c, int real_call)
{
	char bkl[2] = { c->bkl, 0 }, now[32];
	int ret;

	snprintf(now, sizeof(now), "%lld", (long long)time(NULL));
	if (db_begin(db))
		return -1;
	ret = db_set_meta(db, "audit.tree", tree) || db_set_meta(db, "audit.objtree", objtree) ||
	      db_set_meta(db, "audit.series", series) ||
	      db_set_meta(db, "audit.config", c->name) ||
	      db_set_meta(db, "audit.config_hash", c->hash) ||
	      db_set_meta(db, "audit.config_bkl", bkl) ||
	      db_set_meta(db, "audit.lock_kernel_call", real_call > 0 ? "yes" : "no") ||
	      db_set_meta(db, "audit.started", now);
	if (ret) {
		db_rollback(db);
		return -1;
	}
	return db_commit(db);
}

/*
 * Warn, in one line, when the analyzer will see no lock_kernel() call
 * (not when auditing another lock: quiet).
 */
static int probe_bkl(struct kbuild_flags *kf, const char *objtree,
		     const struct kbuild_config *c, int quiet)
{
	struct strbuf flags = STRBUF_INIT, why = STRBUF_INIT;
	int real;

	kbuild_flags_for(kf, "init/main.c", &flags);
	real = kbuild_probe_lock_kernel(objtree, flags.buf, c, &why);
	if (!real && !quiet)
		warning("lock_kernel() is not a real call after preprocessing: %s; "
			"no BKL site will be found", why.buf);
	strbuf_release(&flags);
	strbuf_release(&why);
	return real;
}

static void show_flags(struct walk *w, struct kbuild_flags *kf)
{
	struct strbuf flags = STRBUF_INIT, full = STRBUF_INIT;
	char *p;
	int i;

	for (i = 0; i < w->nr; i++) {
		char kind = kbuild_flags_for(kf, w->files[i], &flags);

		strbuf_reset(&full);
		strbuf_addf(&full, "%s\t%c\t%s\t%s", w->files[i], kind, kbuild_checkflags(kf),
			    flags.buf);
		for (p = full.buf; *p; p++)
			if (*p == '\n')
				*p = '\t';
		puts(full.buf);
	}
	strbuf_release(&flags);
	strbuf_release(&full);
}

static int outside_other_arch(const char *path)
{
	return strncmp(path, "arch/", 5) || !strncmp(path, "arch/x86/", 9);
}

static void pct(char *buf, size_t size, int n, int of)
{
	snprintf(buf, size, "%d/%d (%.1f%%)", n, of, of ? 100.0 * n / of : 0.0);
}

/* A count from the analyzer's tables, or "?" while they are not there. */
static void count(sqlite3 *db, const char *sql, char *buf, size_t size)
{
	sqlite3_stmt *st = NULL;

	snprintf(buf, size, "?");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, size, "%lld", (long long)sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
}

static void summary(sqlite3 *db, const char *db_path, struct walk *w, struct audit_plan *p,
		    struct kstate *ks, const struct kjobs *k, double elapsed,
		    const char *lock)
{
	int i, fail = 0, total = 0, fail_x86 = 0, total_x86 = 0, fail_b = 0, total_b = 0;
	char a[64], b[64], c[64], sites[32], impl[32], imb[32], chains[32], el[32], part[32];

	for (i = 0; i < w->nr; i++) {
		char st = kstate_status(ks, w->files[i]);

		if (p->kind[i] == KFLAGS_DIR && kstate_included(ks, w->files[i]))
			p->kind[i] = 'I';	/* found to be #included by this run */
		if (!st || p->kind[i] == 'I' || p->kind[i] == KFLAGS_HOST)
			continue;
		total++;
		fail += st != 'o';
		if (outside_other_arch(w->files[i])) {
			total_x86++;
			fail_x86 += st != 'o';
		}
		if (p->kind[i] == KFLAGS_BUILT) {
			total_b++;
			fail_b += st != 'o';
		}
	}
	pct(a, sizeof(a), fail, total);
	pct(b, sizeof(b), fail_x86, total_x86);
	pct(c, sizeof(c), fail_b, total_b);
	count(db, "SELECT count(*) FROM sites WHERE kind != 'implicit'", sites, sizeof(sites));
	count(db, "SELECT count(*) FROM (SELECT DISTINCT file, function FROM sites "
		  "WHERE kind = 'implicit')", impl, sizeof(impl));
	count(db, "SELECT count(*) FROM imbalances", imb, sizeof(imb));
	count(db, "SELECT count(*) FROM chains", chains, sizeof(chains));
	count(db, "SELECT count(*) FROM files WHERE partial IS NOT NULL", part, sizeof(part));
	format_duration(elapsed, el, sizeof(el));
	printf("audit: %d files: %d analyzed, %d skipped (unchanged), %d failed",
	       w->nr, k->done, p->skipped, k->failed);
	/* analyzed, but sparse dropped code: apart from the failed, in the database */
	if (strcmp(part, "0"))
		printf(", %s partial (sparse dropped code)", part);
	if (p->host)
		printf(", %d host programs left out", p->host);
	for (i = p->included = 0; i < w->nr; i++)
		p->included += p->kind[i] == 'I';
	if (p->included)
		printf(", %d #included by other .c files (analyzed there)", p->included);
	printf("\naudit: parse failures %s; outside arch/ other than x86 %s; "
	       "in files this config builds %s\n", a, b, c);
	printf("audit: database: %s %s sites, %s implicit functions, %s imbalances, %s chains\n",
	       sites, lock && strcmp(lock, "bkl") ? lock : "BKL", impl, imb, chains);
	printf("audit: %s elapsed; database %s\n", el, db_path);
}

/*
 * Shards of one machine configure the same build directory: the first
 * configures it and dumps the flags, the others wait and find it fresh.
 */
static int lock_objtree(const char *objtree)
{
	const char *base = strrchr(objtree, '/');
	struct strbuf path = STRBUF_INIT;
	int fd = -1;

	/*
	 * A dot file beside the build directory, in $BKL_CACHE/audit/: not
	 * in it (configuring may remove it), not matched by its name's glob.
	 */
	base = base ? base + 1 : objtree;
	strbuf_add(&path, objtree, base - objtree);
	if (mkdir_p(path.len ? path.buf : ".") >= 0) {
		strbuf_addf(&path, ".%s.lock", base);
		fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	}
	if (fd < 0 || flock(fd, LOCK_EX)) {
		error("cannot lock '%s': %s", path.buf, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	strbuf_release(&path);
	return fd;
}

/* One word for sh, after a space unless after VAR=: it's is 'it'\''s'. */
static void sq(struct strbuf *out, const char *s)
{
	int space = out->len && out->buf[out->len - 1] != '=';

	strbuf_addstr(out, space ? " '" : "'");
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_add(out, s, 1);
	}
	strbuf_addstr(out, "'");
}

/*
 * --jobs-list N: one `bkl audit --shard I/N` line per shard, with the
 * cache named, so that it is the same on a host whose environment is not.
 */
static int print_jobs(int n, const char *tree, const char *config, const char *db_path,
		      int timeout, const char *more, char **scope, int nr_scope)
{
	struct strbuf line = STRBUF_INIT, db = STRBUF_INIT, cfg = STRBUF_INIT;
	char real[PATH_MAX];
	int i, j;

	/* a .config file given relative to where we were: absolute now */
	strbuf_addstr(&cfg, strchr(config, '/') && realpath(config, real) ? real : config);
	for (i = 1; i <= n; i++) {
		strbuf_reset(&line);
		strbuf_reset(&db);
		strbuf_addf(&db, "%s.shard-%d-of-%d", db_path, i, n);
		strbuf_addstr(&line, "BKL_CACHE=");
		sq(&line, bkl_cache_dir());
		sq(&line, bkl_self_exe());
		strbuf_addstr(&line, " audit --tree");
		sq(&line, tree);
		strbuf_addstr(&line, " --config");
		sq(&line, cfg.buf);
		strbuf_addstr(&line, " --db");
		sq(&line, db.buf);
		strbuf_addf(&line, " -j 1 --timeout %d --shard %d/%d%s", timeout, i, n, more);
		for (j = 0; j < nr_scope; j++)
			sq(&line, scope[j]);
		puts(line.buf);
	}
	strbuf_release(&line);
	strbuf_release(&db);
	strbuf_release(&cfg);
	return 0;
}

int cmd_audit(int argc, const char **argv)
{
	const char *opt_tree = NULL, *config = "allmodconfig", *db_opt = NULL;
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), all_arch = 0, force = 0, timeout = 300;
	int show = 0, plan = 0, jobs_list = 0, batch = 0, full_pass = 0;
	const char *lock = NULL, *kprofile = NULL;
	struct analyzer_opts ao = { 0 };
	struct strbuf more = STRBUF_INIT;
	char key[17];
	const char *shard_opt = NULL;
	int shard = 0, nr_shards = 0;
	struct strbuf tree = STRBUF_INIT, series = STRBUF_INIT, obj = STRBUF_INIT;
	struct strbuf fdir = STRBUF_INIT, shards = STRBUF_INIT, label = STRBUF_INIT;
	struct kbuild_config cfg = { 0 };
	struct kbuild_flags *kf = NULL;
	struct kstate *ks = NULL;
	struct walk w = { 0 };
	struct audit_plan p = { 0 };
	struct kjobs k = { 0 };
	char **scope = NULL, db_path[PATH_MAX + 1];
	const char **dirs = NULL;
	sqlite3 *db = NULL;
	double start = audit_now();
	int i, nr_scope, gone, ret = -1, lock_fd = -1;
	const struct option opts[] = {
		OPT_STRING(0, "tree", &opt_tree),
		OPT_STRING(0, "config", &config),
		OPT_STRING(0, "db", &db_opt),
		OPT_INT_RANGE('j', "jobs", &jobs, 1, 1024),
		OPT_BOOL(0, "all-arch", &all_arch),
		OPT_BOOL(0, "force", &force),
		OPT_BOOL(0, "full-pass", &full_pass),
		OPT_INT(0, "timeout", &timeout),
		OPT_INT(0, "batch", &batch),
		OPT_BOOL(0, "show-flags", &show),
		OPT_BOOL(0, "plan", &plan),
		OPT_INT(0, "jobs-list", &jobs_list),
		OPT_STRING(0, "shard", &shard_opt),
		OPT_STRING(0, "lock", &lock),
		OPT_STRING(0, "kernel-profile", &kprofile),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 0)
		return show_usage(usage_audit, 1);
	if (jobs < 1)
		jobs = 1;
	if (shard_opt && (sscanf(shard_opt, "%d/%d", &shard, &nr_shards) != 2 ||
			  shard < 1 || shard > nr_shards))
		return error("--shard wants I/N with 1 <= I <= N, not '%s'", shard_opt);
	if (batch < 0)
		return error("--batch wants a positive number of files, not %d", batch);
	if (jobs_list < 0 || (jobs_list && (shard_opt || plan || show)))
		return error("--jobs-list N takes a positive N, without --shard, --plan or --show-flags");
	ao.lock_profile = lock;
	ao.kernel_profile = kprofile;
	if (analyzer_check_profiles(&ao))
		return -1;
	/* bkl audit may run under make: the kernel's make must not join that one. */
	unsetenv("MAKEFLAGS");
	unsetenv("MAKELEVEL");
	unsetenv("MFLAGS");
	unsetenv("MAKEFILES");
	if (!db_opt)	/* another lock: its own DB, its own incremental state */
		db_opt = db_lock_path(lock);
	if (!realpath(db_opt, db_path)) {	/* a new DB: make its name absolute */
		char cwd[PATH_MAX / 2];

		if (db_opt[0] == '/' || !getcwd(cwd, sizeof(cwd)))
			snprintf(db_path, sizeof(db_path), "%.*s", PATH_MAX, db_opt);
		else
			snprintf(db_path, sizeof(db_path), "%s/%.*s", cwd, PATH_MAX / 2 - 1, db_opt);
	}
	if (resolve_tree(opt_tree, &tree, &series))
		goto out;
	nr_scope = kwalk_scope(tree.buf, argc, argv, &scope);
	if (nr_scope < 0)
		goto out;
	/*
	 * One build directory per tree and config, kept across series
	 * changes: every file's flags name it, so a new directory would
	 * re-analyze everything.  A new series re-runs the config (its
	 * Kconfig may differ) and make prepare in it instead.
	 */
	config_label(config, &label);
	strbuf_addf(&obj, "%s/audit/%s-%016llx", bkl_cache_dir(), label.buf,
		    (unsigned long long)fnv1a(FNV1A_INIT, tree.buf, tree.len));
	if (kbuild_config_check(config))
		goto out;
	lock_fd = lock_objtree(obj.buf);
	if (lock_fd < 0 || kbuild_configure(tree.buf, obj.buf, config, sb_str(&series), jobs, &cfg))
		goto out;
	if (chdir(tree.buf)) {
		error("cannot enter '%s'", tree.buf);
		goto out;
	}
	w.all_arch = all_arch;
	for (i = 0; i < nr_scope; i++) {
		struct stat st;

		if (!stat(scope[i], &st) && S_ISDIR(st.st_mode))
			kwalk_dir(&w, scope[i]);
		else
			kwalk_add(&w, scope[i]);
	}
	kwalk_sort(&w);
	dirs = kwalk_scope_dirs(scope, nr_scope);
	strbuf_addf(&fdir, "%s/bkl-flags", obj.buf);
	if (!kbuild_flags_fresh(tree.buf, obj.buf, fdir.buf, dirs, nr_scope, w.newest_makefile)) {
		if (isatty(2))
			fprintf(stderr, "asking Kbuild for the flags of %d files\n", w.nr);
		if (kbuild_flags_dump(tree.buf, obj.buf, fdir.buf, dirs, nr_scope, jobs))
			goto out;
	}
	if (kbuild_flags_load(&kf, fdir.buf, obj.buf))
		goto out;
	close(lock_fd);		/* configured and flags dumped: shards may go */
	lock_fd = -1;
	if (jobs_list) {
		strbuf_addf(&more, "%s%s", all_arch ? " --all-arch" : "", force ? " --force" : "");
		if (lock)
			strbuf_addf(&more, " --lock %s", lock);
		if (kprofile)
			strbuf_addf(&more, " --kernel-profile %s", kprofile);
		ret = print_jobs(jobs_list, tree.buf, config, db_path, timeout, more.buf,
				 scope, nr_scope);
		goto out;
	}
	if (show) {
		show_flags(&w, kf);
		ret = 0;
		goto out;
	}
	if (db_open(db_path, &db) || audit_one_lock(db, db_path, lock) ||
	    (!plan && analyzer_say_profiles(tree.buf, &ao)) ||
	    record_config(db, tree.buf, obj.buf, sb_str(&series), &cfg,
			  probe_bkl(kf, obj.buf, &cfg, lock && strncmp(lock, "bkl", 3))))
		goto out;
	if (kstate_load(db, &ks) || kstate_scan_deps(ks, db) < 0)
		goto out;
	gone = kstate_forget_missing(ks, db, (const char *const *)scope, nr_scope);
	if (gone < 0)
		goto out;
	audit_plan_key(cfg.hash, lock, kprofile, key);
	audit_plan_make(&p, &w, kf, ks, key, force);
	audit_plan_order(&p);
	if (shard)
		audit_plan_shard(&p, shard, nr_shards);
	if (plan) {
		for (i = 0; i < p.nr; i++)
			printf("%d\t%s\n", p.tier[i], p.job[i].path);
		ret = 0;
		goto out;
	}
	p.shard = shard;
	p.batch = batch;
	k.self = bkl_self_exe();
	k.jobs = jobs;
	k.timeout = timeout;
	k.lock_profile = lock;
	k.kernel_profile = kprofile;
	k.full_pass = full_pass;
	strbuf_addf(&shards, "%s.shards", db_path);
	k.shard_dir = shards.buf;
	if (audit_progress_plan(db, (const char *const *)w.files, p.kind, w.nr, p.job,
				p.tier, p.nr))
		goto out;
	if (p.nr) {
		if (audit_plan_run(db, db_path, &p, ks, &k))
			goto out;
	} else if (!shard && (gone || !audit_resolved(db))) {
		/* files gone, or `bkl check` analyses: the global pass again */
		if (audit_merge_shards(db_path, &k, 1))
			goto out;
	}
	if ((p.nr && kstate_scan_included(ks, db)) || audit_progress_finish(db) < 0)
		goto out;
	summary(db, db_path, &w, &p, ks, &k, audit_now() - start, lock);
	if (gone)
		printf("audit: %d files gone from the tree: their facts removed\n", gone);
	ret = 0;
	if (k.interrupted)
		ret = error("interrupted: %d of %d files not analyzed", p.nr - k.done, p.nr);
out:
	if (lock_fd >= 0)
		close(lock_fd);
	db_close(db);
	kstate_free(ks);
	kbuild_flags_free(kf);
	kbuild_config_release(&cfg);
	audit_plan_release(&p);
	kwalk_release(&w);
	for (i = 0; scope && scope[i]; i++)
		free(scope[i]);
	for (i = 0; dirs && dirs[i]; i++)
		free((char *)dirs[i]);
	free(scope);
	free(dirs);
	strbuf_release(&tree);
	strbuf_release(&series);
	strbuf_release(&obj);
	strbuf_release(&fdir);
	strbuf_release(&shards);
	strbuf_release(&label);
	strbuf_release(&more);
	return ret;
}
