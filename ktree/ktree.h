/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_KTREE_H
#define BKL_KTREE_H

struct series;
struct strbuf;

/*
 * The kernel tree lives in the cache, never in the repository:
 *   $BKL_CACHE/linux/pristine   the tarball as shipped, never modified
 *   $BKL_CACHE/linux/work       a copy with patches/series applied (quilt)
 */
#define DEFAULT_TARBALL "/usr/src/linux-source-6.1.tar.xz"

const char *ktree_dir(const char *which);	/* "pristine", "work", ... */
/* "6.1.158" from dir/Makefile into ver; -1 after error() when unreadable. */
int ktree_version(const char *dir, struct strbuf *ver);
/* Unpack tarball as the pristine tree unless it is there already. */
int ktree_unpack(const char *tarball);
/* quilt push -a in dir; names the failing patch and file on error. */
int ktree_apply(const char *dir, const struct series *s);
/* The tree dir with the series applied, re-made only when the series moved. */
int ktree_prepare_work(const struct series *s, int force);

/*
 * The campaign's series: patches_dir/series without its end (the tree
 * bkl audit analyzes and bkl test boots), its series file in the cache.
 * -1 after error().
 */
struct series;
int ktree_campaign_series(struct series *s, const char *patches_dir);

#endif
