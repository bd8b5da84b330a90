/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_MAINTAINERS_H
#define BKL_MAINTAINERS_H

/*
 * The tree's MAINTAINERS file, matched as scripts/get_maintainer.pl
 * matches it: F: patterns are globs anchored at the tree root, a trailing
 * '/' (or a pattern naming a directory) covers everything below, any
 * other pattern only files at its own depth; X: excludes a section for
 * that file.  The most specific section is the one whose matching F:
 * pattern is deepest.  N: and K: (regexes) are not used.
 */
struct maint_section {
	char *name;		/* "CHAR and MISC DRIVERS" */
	char *status;		/* S: */
	char **m, **l, **f, **x;	/* M:, L:, F:, X: values */
	int nr_m, nr_l, nr_f, nr_x;
};

struct maintainers {
	struct maint_section *s;
	int nr;
};

/* tree: where directory patterns are checked (may be NULL).  -1 after error(). */
int maintainers_read(const char *path, const char *tree, struct maintainers *mt);
void maintainers_release(struct maintainers *mt);
/* The most specific section for a tree-relative file, or NULL. */
const struct maint_section *maintainers_match(const struct maintainers *mt, const char *file);

#endif
