/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_KBUILD_WALK_H
#define BKL_KBUILD_WALK_H

/* The .c files bkl audit analyzes, tree-relative, run from the tree's top. */
struct walk {
	char **files;
	int nr, alloc;
	long long newest_makefile;	/* mtime (ns) of the newest Makefile/Kbuild seen */
	int all_arch;			/* keep arch/X other than x86 */
};

/*
 * Every .c file under rel (tree-relative, "." for the top).  Left out:
 * tools/, scripts/, Documentation/, usr/ at the top, arch/X other than
 * x86 (unless all_arch), dot-directories (.git, quilt's .pc); only below
 * what was named: `bkl audit arch` leaves out arch/arm, `arch/arm` not.
 */
void kwalk_dir(struct walk *w, const char *rel);
void kwalk_add(struct walk *w, const char *path);
void kwalk_sort(struct walk *w);
void kwalk_release(struct walk *w);

/*
 * The scope arguments as tree-relative paths (absolute ones must be in
 * the tree); each must exist.  "." when none.  Returns how many, or -1
 * after one error() line.
 */
int kwalk_scope(const char *tree, int argc, const char **argv, char ***out);
/* The directories whose Makefiles cover the scope: a file's directory. */
const char **kwalk_scope_dirs(char **scope, int nr);

#endif
