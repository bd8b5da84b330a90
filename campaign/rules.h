/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_RULES_H
#define BKL_CAMPAIGN_RULES_H

#include "campaign/audit.h"
#include "campaign/pushdown.h"
#include "lib/strbuf.h"

/* What a rule makes of an audit's facts (campaign/rules.c). */
struct proposal {
	const char *rule;	/* "empty-open", "no-state", "init-order"; NULL: none decides */
	int verdict;		/* enum verdict, or -1 */
	struct strbuf why;	/* the facts the rule read, as reasoning */
	struct strbuf left;	/* what a person still checks ("" when nothing) */
};

/* The proposal for d; returns its verdict, -1 when no rule decides. */
int audit_propose(const struct cdriver *d, const struct audit *a, struct proposal *p);
void proposal_release(struct proposal *p);

#endif
