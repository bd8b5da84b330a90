/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_REWRITE_H
#define BKL_CAMPAIGN_REWRITE_H

#include "campaign/csrc.h"

struct strbuf;

/* Replace [off, off + len) of a source text by text; insertions have len 0. */
struct edit {
	int off, len, seq;
	char *text;
};

struct edits {
	struct edit *e;
	int nr;
};

void edits_add(struct edits *ed, int off, int len, const char *text);
/* Apply in offset order (insertions at one offset in the order added); -1 on overlap. */
int edits_apply(const char *text, int size, struct edits *ed, struct strbuf *out);
void edits_release(struct edits *ed);

/*
 * Make f take the BKL itself: lock_kernel() after its declarations (an
 * initializer that reads more than the arguments moves below the lock),
 * unlock_kernel() on every way out.  Several returns become the kernel's
 * single exit: "ret = X; goto out;" and "out: unlock_kernel(); return ret;".
 * Returns -1 after error() naming the function when its shape is beyond
 * this (the driver is then done by hand); what it did is appended to notes.
 */
int rewrite_pushdown(const struct csrc *c, const struct cfunc *f, struct edits *ed,
		     struct strbuf *notes);

/*
 * #include <header> after the last #include of the leading block that no
 * #if encloses: 1 when already there, -1 after error() when none.
 */
/* "#  ifdef X" -> "ifdef X": the directive of a preprocessor line, else NULL. */
const char *cpp_directive(const char *line);

int rewrite_add_include(const struct csrc *c, const char *header, struct edits *ed);
/* Drop the #include <header> line; 1 when there is none. */
int rewrite_drop_include(const struct csrc *c, const char *header, struct edits *ed);

#endif
