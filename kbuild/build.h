/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_TREE_BUILD_H
#define BKL_TREE_BUILD_H

struct series;

/*
 * bkl tree --build: compile, with Kbuild, every .c file the series
 * patches (only those under scope[], tree-relative, when nr_scope > 0)
 * in the work tree, under config with CONFIG_BKL and its legacy sites,
 * then with CONFIG_BKL off.  Prints one line per object that fails (its
 * first compiler error) or that a config does not build, and a summary
 * line per config.  Returns 0 when every object built, 1 when some
 * failed, -1 after error().
 */
int tree_build(const struct series *s, const char *tree, const char *config,
	       const char **scope, int nr_scope, int jobs);

/*
 * What the last bkl tree --build of tree (its real path) in config made
 * of src (tree-relative), CONFIG_BKL on (bkl 1) or off: 'o' compiled,
 * 'f' failed, 'n' not built by that config; 0 never built.
 */
int tree_build_result(const char *tree, const char *config, int bkl, const char *src);

#endif
