// SPDX-License-Identifier: GPL-2.0
/*
 * bkl audit's plan and its run: which files changed (audit/state.c),
 * in which order (audit/order.c), analyzed by -j workers into shards
 * (audit/jobs.c) and merged into the DB batch by batch, so that the
 * DB has results early and a killed audit resumes
 * (audit/progress.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "analyzer/analyzer.h"
#include "db/db.h"
#include "audit/order.h"
#include "audit/progress.h"
#include "audit/run.h"
#include "kbuild/flags.h"
#include "audit/jobs.h"
#include "audit/state.h"
#include "kbuild/walk.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

/*
 * Did the analyzer's global pass run after the last analysis, with the
 * rules this bkl has (a newer bkl's profiles change the chains)?
 */
int audit_resolved(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;

	if (sqlite3_prepare_v2(db, "SELECT count(*) = 2 FROM meta WHERE "
			       "(key = 'analyzer.resolved' AND value = '1') OR "
			       "(key = 'analyzer.rules' AND value = @rules)", -1, &st, NULL) == SQLITE_OK &&
	    !db_bind_text(st, "@rules", analyzer_rules_key()) && sqlite3_step(st) == SQLITE_ROW)
		yes = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return yes;
}

/* bkl merge --db DB SHARD...: the shards in, then the global pass (if resolve). */
int audit_merge_shards(const char *db_path, const struct kjobs *k, int resolve)
{
	const char **argv = calloc(k->jobs + 7, sizeof(*argv));
	char **shards = calloc(k->jobs, sizeof(*shards));
	struct strbuf out = STRBUF_INIT;
	int i, nr = 0, rc;

	if (!argv || !shards)
		abort();
	argv[nr++] = bkl_self_exe();
	argv[nr++] = "merge";
	argv[nr++] = "--db";
	argv[nr++] = db_path;
	if (!resolve)
		argv[nr++] = "--no-resolve";
	else if (k->full_pass)
		argv[nr++] = "--full";
	for (i = 0; i < k->jobs; i++) {
		char buf[PATH_MAX];

		kjobs_shard_path(k, i, buf, sizeof(buf));
		if (path_exists(buf))
			argv[nr++] = shards[i] = strdup(buf);
	}
	if (isatty(2))
		fprintf(stderr, "merging %d shards into %s%s\n", nr - 4 - !resolve, db_path,
			resolve ? " and resolving" : "");
	rc = run_command(argv, NULL, &out);
	if (rc) {
		fputs(sb_str(&out), stderr);
		error("cannot merge the shards in '%s' into '%s' (kept for 'bkl merge')",
		      k->shard_dir, db_path);
	}
	for (i = 0; i < k->jobs; i++)
		free(shards[i]);
	free(shards);
	free(argv);
	strbuf_release(&out);
	return rc ? -1 : 0;
}

double audit_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}


/*
 * An audited DB holds one lock's facts: its incremental state is per file,
 * and the campaign reads every fact of the DB as the BKL's.
 */
int audit_one_lock(sqlite3 *db, const char *db_path, const char *lock)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT lock FROM files WHERE lock != @lock LIMIT 1");
	int rc;

	if (!lock)
		lock = "bkl";
	if (!st || db_bind_text(st, "@lock", lock)) {
		sqlite3_finalize(st);
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = error("'%s' holds facts of lock '%s': audit '%s' into a database of its own "
			   "(without --db: '%s')", db_path, sqlite3_column_text(st, 0), lock,
			   db_lock_path(lock));
	else
		rc = rc == SQLITE_DONE ? 0 : error("cannot read '%s'", db_path);
	sqlite3_finalize(st);
	return rc;
}

/*
 * What a file's analysis depends on besides its flags: the config, the
 * profiles when not the default ones (a DB audited for one lock is
 * analyzed again for another), and bkl's own analysis and rules (an
 * upgraded bkl analyzes again what it would record otherwise).
 */
void audit_plan_key(const char *config_hash, const char *lock, const char *kprofile,
		    char key[17])
{
	uint64_t h = fnv1a(FNV1A_INIT, config_hash, 16);

	h = fnv1a(h, lock ? lock : "bkl", strlen(lock ? lock : "bkl") + 1);
	if (kprofile)
		h = fnv1a(h, kprofile, strlen(kprofile));
	h = fnv1a(h, analyzer_facts_key(), 16);
	snprintf(key, 17, "%016llx", (unsigned long long)h);
}

/* Which files to analyze: those kstate says changed (all with --force). */
void audit_plan_make(struct audit_plan *p, struct walk *w, struct kbuild_flags *kf,
		      struct kstate *ks, const char *config_hash, int force)
{
	struct strbuf file = STRBUF_INIT, full = STRBUF_INIT;
	int i;

	p->kind = calloc(w->nr + 1, 1);
	p->job = calloc(w->nr + 1, sizeof(*p->job));
	p->flags_hash = calloc(w->nr + 1, sizeof(*p->flags_hash));
	p->src_hash = calloc(w->nr + 1, sizeof(*p->src_hash));
	if (!p->kind || !p->job || !p->flags_hash || !p->src_hash)
		abort();
	for (i = 0; i < w->nr; i++) {
		const char *src;

		p->kind[i] = kbuild_flags_for(kf, w->files[i], &file);
		if (p->kind[i] == KFLAGS_HOST) {
			p->host++;
			continue;
		}
		/* Not a compilation unit: analyzed as part of its includer. */
		if (p->kind[i] == KFLAGS_DIR && kstate_included(ks, w->files[i])) {
			p->kind[i] = 'I';
			p->included++;
			continue;
		}
		strbuf_reset(&full);
		strbuf_addstr(&full, kbuild_checkflags(kf));
		if (full.len && file.len)
			strbuf_addstr(&full, "\n");
		strbuf_addstr(&full, file.buf);
		/*
		 * The configuration counts as a flag: a file that failed has
		 * no recorded headers, but is tried again when it changes.
		 */
		snprintf(p->flags_hash[p->nr], 17, "%016llx", (unsigned long long)
			 fnv1a(fnv1a(FNV1A_INIT, full.buf, full.len), config_hash, 16));
		if (!force && !kstate_stale(ks, w->files[i], p->flags_hash[p->nr])) {
			p->skipped++;
			continue;
		}
		src = kstate_hash(ks, w->files[i]);
		snprintf(p->src_hash[p->nr], 17, "%s", src ? src : "unreadable");
		p->job[p->nr].path = w->files[i];
		p->job[p->nr].flags = strdup(full.buf);
		p->nr++;
	}
	strbuf_release(&file);
	strbuf_release(&full);
}

/* The jobs in audit/order.h's order (stable within a tier). */
void audit_plan_order(struct audit_plan *p)
{
	const char **paths = calloc(p->nr + 1, sizeof(*paths));
	struct kjob *job = calloc(p->nr + 1, sizeof(*job));
	char (*fh)[17] = calloc(p->nr + 1, sizeof(*fh)), (*sh)[17] = calloc(p->nr + 1, sizeof(*sh));
	unsigned char *tier = calloc(p->nr + 1, 1);
	struct audit_order *o;
	int i, t, n = 0;

	if (!paths || !job || !fh || !sh || !tier)
		abort();
	for (i = 0; i < p->nr; i++)
		paths[i] = p->job[i].path;
	o = audit_order_new(paths, p->nr);
	for (t = 0; t < AUDIT_TIERS; t++)
		for (i = 0; i < p->nr; i++) {
			if (audit_order_tier(o, i) != t)
				continue;
			job[n] = p->job[i];
			memcpy(fh[n], p->flags_hash[i], 17);
			memcpy(sh[n], p->src_hash[i], 17);
			tier[n++] = t;
		}
	audit_order_free(o);
	free(paths);
	free(p->job);
	free(p->flags_hash);
	free(p->src_hash);
	p->job = job;
	p->flags_hash = fh;
	p->src_hash = sh;
	p->tier = tier;
}

/*
 * At most this many files between two merges: what a kill -9 loses, and
 * how soon the first files are in the DB.
 */
#define AUDIT_BATCH	1000

static int batch_len(const struct audit_plan *p, int off)
{
	int n = 1, max = p->batch > 0 ? p->batch : AUDIT_BATCH;

	while (off + n < p->nr && n < max && p->tier[off + n] == p->tier[off])
		n++;
	return n;
}

/*
 * The plan in batches, each merged into the DB and recorded as done, so
 * that readers see results early and a killed audit resumes.  The global
 * pass runs after the last batch, after each tier (the first report),
 * and otherwise only once the time since the last one is ten times what
 * it took: it stays within a tenth of the run.
 */
int audit_plan_run(sqlite3 *db, const char *db_path, struct audit_plan *p, struct kstate *ks,
		       struct kjobs *k)
{
	const char *rm[] = { "rm", "-rf", k->shard_dir, NULL };
	double last_resolve = audit_now(), cost = 0, t;
	int off, n, done = 0, failed = 0, last, resolve;

	k->total = p->nr;
	k->t0 = audit_now();
	for (off = 0; off < p->nr; off += n) {
		n = batch_len(p, off);
		k->base = done;
		k->base_failed = failed;
		if (run_command(rm, NULL, NULL) || mkdir_p(k->shard_dir) ||
		    kjobs_run(k, p->job + off, n))
			return -1;
		done += k->done;
		failed += k->failed;
		last = off + n >= p->nr || k->interrupted;
		resolve = !p->shard && (last || p->tier[off + n] != p->tier[off] ||
			  audit_now() - last_resolve >= 10 * cost);
		t = audit_now();
		if (audit_merge_shards(db_path, k, resolve))
			return -1;
		if (resolve) {
			last_resolve = audit_now();
			cost = last_resolve - t;
		}
		if (kstate_record(ks, db, p->job + off, p->flags_hash + off,
				  (const char (*)[17])p->src_hash + off, n) ||
		    audit_progress_done(db, p->job + off, n))
			return -1;
		run_command(rm, NULL, NULL);
		if (k->interrupted)
			break;
	}
	k->done = done;
	k->failed = failed;
	return 0;
}

void audit_plan_shard(struct audit_plan *p, int shard, int n)
{
	int i, k = 0;

	/*
	 * By a hash of the path, not by position: the plan depends on what
	 * each shard's database already holds, a file's shard must not (a
	 * shard run again resumes its own files).  The order stays.
	 */
	for (i = 0; i < p->nr; i++) {
		const char *path = p->job[i].path;

		if (fnv1a(FNV1A_INIT, path, strlen(path)) % n != (unsigned)(shard - 1)) {
			free(p->job[i].flags);
			continue;
		}
		p->job[k] = p->job[i];
		memcpy(p->flags_hash[k], p->flags_hash[i], 17);
		memcpy(p->src_hash[k], p->src_hash[i], 17);
		p->tier[k++] = p->tier[i];
	}
	p->nr = k;
}

void audit_plan_release(struct audit_plan *p)
{
	int i;

	for (i = 0; i < p->nr; i++) {
		free(p->job[i].flags);
		free(p->job[i].err);
	}
	free(p->kind);
	free(p->tier);
	free(p->job);
	free(p->flags_hash);
	free(p->src_hash);
	memset(p, 0, sizeof(*p));
}
