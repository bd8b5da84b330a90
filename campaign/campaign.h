/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_H
#define BKL_CAMPAIGN_H

#include <sqlite3.h>
#include <stdio.h>

/*
 * The campaign: each driver (a Kbuild module with code the BKL covers)
 * goes unclaimed -> claimed -> pushed-down -> audited -> converted ->
 * tested -> done, or is blocked with a reason.  Every step is one line of
 * drivers-audit/campaign.log in the repository (the record that survives
 * a rebuilt DB) and one row of campaign_log in the DB (what the commands
 * and the dashboard query); opening the campaign merges the file into
 * the DB, so either may be rebuilt from the other.
 */
#define CAMPAIGN_LOG "drivers-audit/campaign.log"

enum cstatus {
	CS_UNCLAIMED, CS_CLAIMED, CS_PUSHED_DOWN, CS_AUDITED, CS_CONVERTED,
	CS_TESTED, CS_DONE, CS_BLOCKED, CS_NR
};
extern const char *const cstatus_names[CS_NR];
int cstatus_parse(const char *name);	/* -1 when unknown */

struct campaign {
	sqlite3 *db;
	char *db_path;
	char *tree;		/* the kernel tree: Makefiles, MAINTAINERS, sources */
	char *repo;		/* drivers-audit/ and patches/ live here */
	char *log_path;
	char *kconfig;		/* the audited .config (meta audit.objtree), read on use */
	int kconfig_read;
};

/*
 * Open the DB (creating it), merge the repository's log into it.  tree
 * NULL: $BKL_TREE, else the work tree ($BKL_CACHE/linux/work).
 */
int campaign_open(struct campaign *c, const char *db_path, const char *tree);
void campaign_close(struct campaign *c);

struct cstate {
	int status;
	char *holder;		/* "" when nobody holds it */
	char *since, *who, *note;
};
/* A driver without history is unclaimed. */
int campaign_state(struct campaign *c, const char *driver, struct cstate *st);
void cstate_release(struct cstate *st);

/* One step: appended to the repository's log, then to the DB. */
int campaign_record(struct campaign *c, const char *driver, const char *action, int status,
		    const char *holder, const char *who, const char *note);
/* Raise the status to at least st (pushdown, convert); keeps the holder. */
int campaign_advance(struct campaign *c, const char *driver, const char *action, int st,
		     const char *who, const char *note);

/*
 * Who runs the command, as "Name <email>": by, else $BKL_AUTHOR, else git's
 * user.name and user.email.  NULL after a one-line error() when none says
 * who, or what it says is no "Name <email>" a person reads (a stand-in such
 * as an address at .invalid): a patch or a log step is signed by a person.
 */
const char *campaign_who(const char *by);
/* "Name <email>", the address not at the reserved .invalid domain. */
int campaign_valid_who(const char *who);
/* Now, or $BKL_DATE, as 2024-05-01T12:00:00Z. */
const char *campaign_now(void);

/* Merge a log file into the DB (and into the repository's log when
 * to_repo).  Returns the number of new steps, or -1 after error(). */
int campaign_import(struct campaign *c, const char *path, int to_repo);
/* The whole history in the log format, oldest first. */
int campaign_export(struct campaign *c, const char *driver, FILE *out);

#endif
