/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_PUSHDOWN_H
#define BKL_CAMPAIGN_PUSHDOWN_H

#include "campaign/drivers.h"

/*
 * patches/drivers/<driver>/0001-<area>-<driver>-push-down-the-BKL-into-open.patch:
 * lock_kernel()/unlock_kernel() in each implicitly covered entry point,
 * made against the series so far, checkpatch-clean, appended to the series.
 */
int campaign_pushdown(struct campaign *c, const struct cdriver *d, const char *author, int force);

/*
 * The patch that stops chrdev_open() taking the BKL: refused, listing
 * them, while a covered driver has no push-down in the series; and,
 * unless partial, when the DB does not hold a whole-tree audit.
 */
int campaign_pushdown_core(struct campaign *c, const struct cdriver *all, int nr,
			   const char *author, int partial);
/*
 * Take driver id's patches out of patches/ and the series, and log the
 * step (status unclaimed) with why (campaign/withdraw.c).
 */
int campaign_withdraw(struct campaign *c, const char *id, const char *who, const char *why);
#define CORE_PATCH "drivers/_core/0001-chrdev-stop-taking-the-BKL-in-chrdev_open.patch"

struct csrc;
struct cfunc;
struct strbuf;
/*
 * " NAME " in names for each function-like macro that contains a return,
 * of text and of the headers it includes with "" from dir (campaign/macros.c).
 */
void returning_macros(const char *text, const char *dir, struct strbuf *names);
/* The token in f's body that calls one of names, or -1. */
int hidden_return(const struct csrc *c, const struct cfunc *f, const struct strbuf *names);

enum verdict { V_NONE, V_MUTEX, V_INIT_ORDER, V_NR };
extern const char *const verdict_names[V_NR];
int verdict_parse(const char *s);	/* -1 if unknown */

/*
 * patches/drivers/<driver>/0002-...: the conversion the audit's verdict asks
 * for.  A driver whose entry points call other drivers' with the BKL held
 * (misc_open()) loses its lock only once they all take their own: refused,
 * naming them, and refused on a DB short of a whole-tree audit unless partial.
 */
int campaign_convert(struct campaign *c, const struct cdriver *d, int verdict,
		     const char *why, const char *author, int partial);

/* Internal to convert: move initializations above the registration in scratch/b. */
struct strbuf;
int reorder_init(struct campaign *c, const struct cdriver *d, const char *scratch,
		 const char *author, struct strbuf *how);

#endif
