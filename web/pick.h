/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_WEB_PICK_H
#define BKL_WEB_PICK_H

#include <sqlite3.h>
#include <stddef.h>
#include "lib/strbuf.h"

/* The pick-a-driver ranking and claims, as `bkl pick` and `bkl claim`. */
struct pick {
	char *driver, *subsystem, *status, *why;
	int sites, implicit, chains, imbalances;
	int score;		/* audit_effort(): the lower the easier */
};

struct pick_list {
	struct pick *p;
	int nr;
	const char *order;	/* how they are ranked, in words */
	char *audit_note;	/* the audit is not finished: how far */
};

struct web_server;
int pick_load(sqlite3 *db, struct web_server *srv, struct pick_list *pl);
void pick_release(struct pick_list *pl);
/*
 * Claim driver for by ("Name <email>").  0, or an HTTP status with a
 * one-line message: 404 no such driver, 409 already claimed, 500.
 */
int pick_claim(sqlite3 *db, const char *driver, const char *by, char *msg, size_t n);

#endif
