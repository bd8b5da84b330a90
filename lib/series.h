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
};

/* -1 after error() when the series file or a patch it names is unreadable. */
int series_read(struct series *s, const char *patches_dir);
void series_release(struct series *s);
/* 16 hex digits of s->hash: the key of every cache that depends on it. */
const char *series_hash_hex(const struct series *s);
uint64_t fnv1a(uint64_t h, const void *data, unsigned long len);
#define FNV1A_INIT 0xcbf29ce484222325ULL

#endif
