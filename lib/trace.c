// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/trace.h"

uint64_t getnanotime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* stderr, a file, or NULL (not asked for); looked up once */
static FILE *trace_file(void)
{
	static FILE *f;
	static int done;
	const char *v;

	if (done)
		return f;
	done = 1;
	v = getenv("BKL_TRACE_PERFORMANCE");
	if (!v || !*v || !strcmp(v, "0"))
		return NULL;
	if (*v != '/')			/* 1, 2, true: as git reads it */
		f = stderr;
	else if (!(f = fopen(v, "a")))
		fprintf(stderr, "warning: cannot open '%s' for BKL_TRACE_PERFORMANCE\n", v);
	return f;
}

void trace_performance_since(uint64_t start, const char *fmt, ...)
{
	FILE *f = trace_file();
	va_list ap;

	if (!f)
		return;
	fprintf(f, "performance: %.3f s: ", (getnanotime() - start) / 1e9);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
}
