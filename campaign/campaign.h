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
	int read_only;		/* the DB: not brought up to date from the log */
};

/*
 * Open the DB (an existing one: bkl audit makes it), merge the
 * repository's log into it (a read-only DB is read as it is).  tree
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

/*
 * campaign/log.c: the log file.  A step is CLOG_FIELDS tab-separated
 * fields; the limits are the same for the command line and the web.
 */
#define CLOG_HEADER "# bkl campaign log: ts\tdriver\taction\tstatus\tholder\twho\tnote\n"
#define CLOG_FIELDS 7
#define CLOG_NAME_MAX 64	/* driver, action */
#define CLOG_WHO_MAX 200	/* holder, who: "Name <email>" */
#define CLOG_NOTE_MAX 1000
#define CLOG_SKEW (24 * 3600)	/* how far in the future a step's time may be */
struct strbuf;
/* what: at most max bytes of UTF-8 without control characters; else why. */
int clog_check_text(const char *what, const char *s, size_t max, struct strbuf *why);
int clog_check_step(char *const *f, struct strbuf *why);
/* Split a line of len bytes into f (in place) and check it; -1 with why. */
int clog_split(char *line, size_t len, char **f, struct strbuf *why);
/*
 * fn(f, line number, data) for each step of path; a line that is not one
 * is an error() naming it (strict), or a warning() naming it and left out.
 * The number of such lines, or what fn or reading returned (< 0).
 */
int clog_read(const char *path, int strict, int (*fn)(char **f, int nr, void *data), void *data);
void clog_format(struct strbuf *sb, char *const *f);
/* Append text (whole lines) durably, all or nothing; -1 after error(). */
int clog_append(const char *path, const char *text);

/*
 * One step: checked, appended to the repository's log (durably), then
 * to the DB.  -1 after error() when the step is not recorded; a DB that
 * fails after the log has it is a warning (the DB catches up from the
 * log when next opened), and 0.
 */
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

/* A read-only DB: warn when the repository's log has steps it lacks. */
void campaign_warn_behind(struct campaign *c);
/* Merge a log file into the DB (and into the repository's log when
 * to_repo).  Returns the number of new steps, or -1 after error(). */
int campaign_import(struct campaign *c, const char *path, int to_repo);
/* The whole history in the log format, oldest first. */
int campaign_export(struct campaign *c, const char *driver, FILE *out);

#endif
