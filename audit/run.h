/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_AUDIT_RUN_H
#define BKL_AUDIT_RUN_H

#include <sqlite3.h>

struct kbuild_flags;
struct kjob;
struct kjobs;
struct kstate;
struct walk;

/* What bkl audit will analyze: the files kstate says changed, in order. */
struct audit_plan {
	char *kind;		/* per walked file: enum kflags_kind */
	struct kjob *job;
	unsigned char *tier;	/* per job: audit/order.h */
	char (*flags_hash)[17];
	char (*src_hash)[17];
	int nr, skipped, host, included;
	int shard;		/* a shard of a sharded audit: no global pass */
	int batch;		/* files between two merges (0: AUDIT_BATCH) */
};

/* Is the DB free of other locks' facts than lock's (NULL: bkl)?  -1 after error(). */
int audit_one_lock(sqlite3 *db, const char *db_path, const char *lock);
/* The key of what the analysis depends on besides flags: config, profiles. */
void audit_plan_key(const char *config_hash, const char *lock, const char *kprofile,
		    char key[17]);
/* Which files to analyze: those kstate says changed (all with force). */
void audit_plan_make(struct audit_plan *p, struct walk *w, struct kbuild_flags *kf,
		     struct kstate *ks, const char *config_hash, int force);
/* The jobs in audit/order.h's order. */
void audit_plan_order(struct audit_plan *p);
/* Keep the jobs of shard I of N (1-based), chosen by a hash of the path. */
void audit_plan_shard(struct audit_plan *p, int shard, int n);
/* Analyze, merge and record the plan in batches (see audit/run.c). */
int audit_plan_run(sqlite3 *db, const char *db_path, struct audit_plan *p, struct kstate *ks,
		   struct kjobs *k);
void audit_plan_release(struct audit_plan *p);

/* bkl merge --db DB SHARD...; the global pass too if resolve. */
int audit_merge_shards(const char *db_path, const struct kjobs *k, int resolve);
/* Did the analyzer's global pass run after the last analysis? */
int audit_resolved(sqlite3 *db);
double audit_now(void);

#endif
