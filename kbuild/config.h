/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_KBUILD_CONFIG_H
#define BKL_KBUILD_CONFIG_H

struct strbuf;

/* A configured out-of-tree build of a kernel tree, as bkl audit keeps it. */
struct kbuild_config {
	char *name;		/* "allmodconfig", or the FILE given */
	char hash[17];		/* FNV-1a of the resulting .config */
	char bkl;		/* CONFIG_BKL in it: 'y', 'm' or 'n' */
	char legacy;		/* CONFIG_BKL_LEGACY_SITES */
};

/* Is dir a kernel tree Kbuild can build?  -1 after one error() line. */
int kbuild_check_tree(const char *dir);

/* Is CONFIG a config target name or a readable file?  An error if not. */
int kbuild_config_check(const char *config);

/*
 * Configure srctree into objtree (make O=objtree CONFIG, or a copy of
 * the file CONFIG then olddefconfig), switch CONFIG_BKL and
 * CONFIG_BKL_LEGACY_SITES on, olddefconfig, then make prepare (generated
 * headers only, no kernel build).  Configuring is skipped while the
 * config asked for (a file: its content) and series (any string naming
 * the tree's patches, may be "") are those of last time; prepare is
 * incremental.  Output goes to objtree/bkl-config.log.  -1 after error().
 */
int kbuild_configure(const char *srctree, const char *objtree, const char *config,
		     const char *series, int jobs, struct kbuild_config *out);
/* The same with the BKL switched on (bkl = 1) or off (0: -d BKL, no retry). */
int kbuild_configure_bkl(const char *srctree, const char *objtree, const char *config,
			 const char *series, int bkl, int jobs, struct kbuild_config *out);
void kbuild_config_release(struct kbuild_config *c);

/*
 * Preprocess a probe that calls lock_kernel() with cc_flags ('\n'-joined,
 * as kbuild_flags_for() gives them) and say whether it is a real call.
 * 1: it is; 0: not, why in reason; -1: the probe could not be run.
 */
int kbuild_probe_lock_kernel(const char *objtree, const char *cc_flags,
			     const struct kbuild_config *c, struct strbuf *reason);

#endif
