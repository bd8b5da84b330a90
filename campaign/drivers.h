/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_DRIVERS_H
#define BKL_CAMPAIGN_DRIVERS_H

#include <string.h>
#include "campaign/campaign.h"

/* An entry point of a driver the BKL covers. */
struct centry {
	char *function;
	char *file;		/* tree-relative */
	int line;		/* its definition */
	int implicit;		/* the BKL covers it from outside (chrdev_open) */
	int locks;		/* lock_kernel() sites inside it (after a push-down) */
	char *member;		/* implicit: the member it is called through ("open") */
	char *via;		/* implicit: the function that calls it with the BKL held */
	/*
	 * implicit: the coverage table's evidence.  entry: a registered char
	 * device's ->open/->fasync, where a push-down goes; otherwise only
	 * reached under the BKL, through st.member, by edge ("registered",
	 * "by-type") among candidates functions.
	 */
	int entry, candidates, via_line, reg_line;
	char *st, *edge, *tbl, *via_file, *reg_via, *reg_file;
};

/* A type-resolved call with more targets than this names no caller. */
#define FEW_CANDIDATES 5

/* Does the push-down go into it: a registered char device's open/fasync? */
static inline int centry_is_entry(const struct centry *e)
{
	return e->implicit && e->entry;
}

struct cchain {
	char *file, *function, *class, *path;	/* path: "a -> b -> schedule" */
	int line;
};

struct cdriver {
	char *id;		/* the campaign's name for it */
	char *module, *config, *dir, *subsystem, *maintainers, *lists;
	char **files;
	int nr_files;
	struct centry *e;
	int nr_e;
	int locks, unlocks;	/* explicit sites in its files */
	int sleep, wait;	/* chains by class, from its entry points */
	int imbalances;
	struct cstate st;
	int known;		/* 0: only the log knows it */
	/*
	 * How the BKL reaches it (db/schema/0015-campaign-cover.sql): "own",
	 * "follows" (its parents, "a; b") or "possibly" (via: the by-type
	 * calls).  status: where it stands; a follower's may be its parent's
	 * (st is its own history, what claim and status --set move on).
	 */
	char *cover, *follows, *via;
	int status;
};
/* Its own campaign item: an entry point of its own, or lock sites. */
static inline int cdriver_is_own(const struct cdriver *d)
{
	return !strcmp(d->cover, "own");
}

/*
 * Re-derive campaign_drivers from the analyzer's facts, the tree's
 * Makefiles and MAINTAINERS, and the push-down patches in the repository;
 * does nothing when none of them changed.
 */
int campaign_refresh(struct campaign *c);
/* Every driver (only: just that one, with a one-line error if unknown). */
int campaign_load(struct campaign *c, const char *only, struct cdriver **out, int *nr);
void cdrivers_release(struct cdriver *d, int nr);
/* The one driver named; -1 after "no driver 'x'". */
int campaign_driver(struct campaign *c, const char *id, struct cdriver *d);
void cdriver_release(struct cdriver *d);

/* repo/drivers-audit/<subsystem slug>/<driver>.md, repo/patches/drivers/<driver> */
char *cdriver_record_path(const struct campaign *c, const struct cdriver *d);
char *cdriver_patch_dir(const struct campaign *c, const struct cdriver *d);
char *subsystem_slug(const char *subsystem);

/*
 * Is the driver built in the configuration bkl audit analyzed (meta
 * 'audit.objtree', its .config)?  'y', 'm', 'n', or '?' when unknown.
 */
int cdriver_built(struct campaign *c, const struct cdriver *d);

/* "char: misc" for subjects, "char-misc" for file names */
char *cdriver_prefix(const struct cdriver *d, int for_file);

/* "char" for drivers/char, "rtc" for drivers/rtc, "fuse" for fs/fuse */
char *cdriver_area(const struct cdriver *d);

/* Analyzer facts (campaign/facts.c): the only code that reads its tables. */
int facts_check(struct campaign *c);
/* Files with an implicitly covered function, tree-relative, sorted. */
int facts_covered_files(struct campaign *c, char ***files, int *nr);
int facts_fill(struct campaign *c, struct cdriver *d);
/* The chains starting in a driver's entry points, for its audit record. */
int facts_chains(struct campaign *c, const struct cdriver *d, struct cchain **out, int *nr);
void cchains_release(struct cchain *ch, int nr);
/* Drivers d's entry points call with the BKL held: "driver\tfunction" each. */
int facts_dependents(struct campaign *c, const struct cdriver *d, char ***out, int *nr);
/* Calls through pointers in d's entry points (where code the DB may not hold runs). */
int facts_indirect_calls(struct campaign *c, const struct cdriver *d);
/* Files the analyzer parsed; a whole-tree audit has some 20,000. */
int facts_analyzed_files(struct campaign *c);
#define WHOLE_TREE_FILES 10000

/* A path as the DB holds it, made tree-relative. */
char *facts_relpath(struct campaign *c, const char *path);
/*
 * The files whose file_operations tables hold fn (defined in fn_file) as
 * their ->member: when none is in fn's own driver, fn is a helper it
 * lends to other drivers' tables (nonseekable_open()), not an open of
 * its own.  Their number, or -1 after error().
 */
int facts_table_files(struct campaign *c, const char *fn, const char *fn_file, const char *member,
		      char ***files);

#endif
