/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_QEMU_WITNESS_H
#define BKL_QEMU_WITNESS_H

#include "lib/strbuf.h"

struct qboot;
struct series;

/*
 * The witness of a driver's boot (bkl test).  Before its conversion a
 * driver's open() runs under the BKL only because its push-down takes it,
 * and after it without; both boot alike, so the kernel's count of
 * lock_kernel() calls per caller (CONFIG_BKL_DEBUG, printed by the
 * exerciser) is what tells them apart.
 */
struct qwitness_fn {
	char *name;		/* "nvram_misc_open" */
	unsigned long count;	/* lock_kernel() calls from it during the exercise */
};

struct qwitness {
	int seen;		/* the console has the exerciser's acquirers list */
	char *none;		/* or why it has none ("exercise: acquirers: none: ...") */
	struct qwitness_fn *acq;	/* the list, in the kernel's order */
	int nr_acq;
	struct qwitness_fn *opens;	/* the push-down's ->open() entry points */
	int nr_opens;
	int expect;		/* 1: one of them must take the BKL; 0: none may */
	char *problem;		/* why the witness fails the boot, or NULL */
};

/*
 * The ->open() entry points named by driver's push-down in s
 * (drivers/<driver>/0001-*, its "Entry points:" paragraph).  -1 after
 * error() when the patch cannot be read.
 */
int qwitness_opens(struct qwitness *w, const struct series *s, const char *driver);
/* Does s hold a conversion (drivers/<driver>/ but 0001-*) of driver? */
int qwitness_has_conversion(const struct series *s, const char *driver);
/* Read the acquirers list from the console log at path. */
int qwitness_read(struct qwitness *w, const char *path);
/*
 * Check w against w->expect; on a problem, add a "witness" report to b's
 * result and make its verdict fail.
 */
void qwitness_judge(struct qwitness *w, struct qboot *b);
/* ,"witness":{...} for bkl test --json */
void qwitness_json(struct strbuf *sb, const struct qwitness *w);
void qwitness_release(struct qwitness *w);

#endif
