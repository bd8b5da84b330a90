/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_KBUILD_JOBS_H
#define BKL_KBUILD_JOBS_H

/* One file for the analyzer. */
struct kjob {
	const char *path;	/* tree-relative .c, run from the tree's top */
	char *flags;		/* its sparse flags, '\n'-joined */
	int rc;			/* -1 not run, 0 ok, else the exit code or 128 + signal */
	char *err;		/* why it failed: the analyzer's first error line */
};

/*
 * Run `bkl analyze --no-resolve --quiet-profiles [--lock-profile L]
 * [--kernel-profile K] --db SHARD flags path` for each job, jobs
 * at a time; worker slot i always writes shard_dir/shard-i.db, so no two
 * processes share a shard.  A progress bar on a TTY, a line every 30 s
 * otherwise.  SIGINT/SIGTERM stop the launching; what finished is kept.
 */
struct kjobs {
	const char *self;	/* the bkl binary */
	const char *shard_dir;
	int jobs;
	int timeout;		/* seconds per file; 0 none */
	int quiet;		/* no progress output */
	/* --lock-profile, --kernel-profile for every worker; NULL: the tree's */
	const char *lock_profile, *kernel_profile;
	int full_pass;		/* bkl merge --full: no snapshot of the last pass */
	/* bkl audit's batches: one progress line over all of them */
	int base, base_failed, total;	/* done and failed before this run; in all */
	double t0;		/* when the first batch started (CLOCK_MONOTONIC) */
	/* out */
	int done, failed, interrupted;
	double elapsed;
};

int kjobs_run(struct kjobs *k, struct kjob *job, int nr);
/* "shard_dir/shard-i.db" */
void kjobs_shard_path(const struct kjobs *k, int slot, char *buf, size_t size);

#endif
