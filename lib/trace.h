/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_TRACE_H
#define BKL_TRACE_H

#include <stdint.h>

/*
 * Where a command's time goes, as git's GIT_TRACE_PERFORMANCE says it:
 * with BKL_TRACE_PERFORMANCE set (1, or an absolute path to append to), each
 * trace_performance_since() prints one line "performance: S s: WHAT" to
 * stderr (or that file).  Unset, it costs one getenv() per process.
 */
uint64_t getnanotime(void);
void trace_performance_since(uint64_t start, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
