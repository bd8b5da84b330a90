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

#endif
