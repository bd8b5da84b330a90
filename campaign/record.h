/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_RECORD_H
#define BKL_CAMPAIGN_RECORD_H

#include "campaign/drivers.h"

struct strbuf;

/*
 * Write (or regenerate the facts of) drivers-audit/<subsystem>/<driver>.md;
 * *created says whether it is new.  What follows "## Checklist" in an
 * existing record is kept byte for byte.
 */
int record_write(struct campaign *c, const struct cdriver *d, int *created);
/*
 * The first item of the record's checklist still unticked ("- [ ] ..."),
 * its text on one line, into item.  1: there is one; 0: every item is
 * ticked ("- [x]"); -1 after error() (no record, no checklist).
 */
int record_unticked(const char *path, struct strbuf *item);
/*
 * The record's "Verdict: none|mutex|init-order" into *verdict, and the
 * reasoning after it into why.  0: found; 1: no verdict written yet;
 * -1 after error() (no record, an unknown verdict).
 */
int record_verdict(const char *path, int *verdict, struct strbuf *why);

struct proposal;
/* Write a rule's verdict into the record's empty "Verdict:"; -1 after error(). */
int record_rule_verdict(const char *path, const struct proposal *p, const char *who,
			const char *date);
/* Add "Confirmed by WHO, DATE, reading the code: note" after the verdict. */
int record_confirm(const char *path, const char *who, const char *date, const char *note);
/* Add a line after the verdict's last one ("Bug found: ..."). */
int record_append_verdict(const char *path, const char *line);
/* Does the record's verdict carry a person's confirmation? */
int record_confirmed(const char *path);
/* The rules' proposal for d (campaign/rules.c): its verdict, -1 none, -2 error. */
int record_propose(struct campaign *c, const struct cdriver *d, struct proposal *p);
/* Tested and confirmed: record the driver done (a log step).  -1 after error(). */
int campaign_settle(struct campaign *c, const struct cdriver *d, const char *who);

#endif
