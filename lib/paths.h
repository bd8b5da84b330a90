/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_PATHS_H
#define BKL_PATHS_H

#include <stddef.h>

/* $BKL_CACHE, else ~/.cache/bkl-audit: the tree, sparse and kernel builds. */
const char *bkl_cache_dir(void);
/* The checkout bkl runs from ($BKL_REPO, else the directory of ./bkl). */
const char *bkl_repo_dir(void);
/* This bkl binary, for the workers it starts (its path also after a rebuild). */
const char *bkl_self_exe(void);
/* mkdir -p; -1 after error() on failure. */
int mkdir_p(const char *path);
/* mkdir -p of the directory path is in (none: 0); -1 after error(). */
int mkdir_parent(const char *path);
int path_exists(const char *path);
/* Copy a file (with its mode), making to's directory: -1 after error(). */
int copy_file(const char *from, const char *to);
/* Write text to path (created or replaced): -1 after error(). */
int write_file(const char *path, const char *text);
/*
 * Replace path whole with data, or leave it as it was: written to a new
 * file beside it (mkstemp: O_EXCL), fsync()ed, renamed over it.  Only a
 * regular file is replaced (not a device, FIFO or symlink): -1 after
 * error() naming path.
 */
int replace_file(const char *path, const char *data, size_t len);
/* Free space on the filesystem holding path, in MiB; -1 on error. */
long free_mib(const char *path);

#endif
