// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include "lib/usage.h"

const char *bkl_prog = "bkl";

static void report(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", bkl_prog, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("fatal: ", fmt, ap);
	va_end(ap);
	exit(128);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

int usage_said;

int show_usage(const char *usage, int misuse)
{
	if (!misuse || !usage_said)
		fputs(usage, misuse ? stderr : stdout);
	return misuse ? 129 : 0;
}
