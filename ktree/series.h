/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_SERIES_H
#define BKL_SERIES_H

#include <stdint.h>

/* A quilt series: patches/series, one patch name per line, '#' comments. */
struct series {
	char *dir;		/* the patches directory */
	char **names;		/* patch file names, relative to dir */
	int nr;
	uint64_t hash;		/* FNV-1a over series order and patch contents */
	char *file;		/* the series file, when not dir/series (a subset) */
};

/* -1 after error() when the series file or a patch it names is unreadable. */
int series_read(struct series *s, const char *patches_dir);
void series_release(struct series *s);
/*
 * dst: the patches of src that keep() takes, in order, with their own
 * hash and series file (written to file, which quilt is then given as
 * QUILT_SERIES).  -1 after error().
 */
int series_subset(struct series *dst, const struct series *src, const char *file,
		  int (*keep)(const char *name, int idx, void *data), void *data);
/*
 * The series' end (patches/end/...): once every driver is converted or
 * blocked, the 2.6.26 sites go, as in 2.6.39.  The campaign's tree, the
 * one bkl audit analyzes and bkl test boots, is everything before it.
 */
int series_is_end(const char *name);
/* dst: src without its end (file: its series file, for quilt).  -1 after error(). */
int series_campaign(struct series *dst, const struct series *src, const char *file);

/* 16 hex digits of s->hash: the key of every cache that depends on it. */
const char *series_hash_hex(const struct series *s);
uint64_t fnv1a(uint64_t h, const void *data, unsigned long len);
#define FNV1A_INIT 0xcbf29ce484222325ULL

#endif
