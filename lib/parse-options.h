/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_PARSE_OPTIONS_H
#define BKL_PARSE_OPTIONS_H

#include <limits.h>

enum opt_type {
	OPTION_END,
	OPTION_BOOL,		/* int *, set to 1 */
	OPTION_STRING,		/* const char **, takes an argument */
	OPTION_INT,		/* int *, takes a decimal argument in [min, max] */
};

struct option {
	enum opt_type type;
	char short_name;
	const char *long_name;
	void *value;
	long min, max;		/* OPTION_INT */
};

#define OPT_BOOL(s, l, v)	{ OPTION_BOOL, (s), (l), (v) }
#define OPT_STRING(s, l, v)	{ OPTION_STRING, (s), (l), (v) }
/* A count, a port, seconds: 0 to INT_MAX unless a range is given. */
#define OPT_INT(s, l, v)	{ OPTION_INT, (s), (l), (v), 0, INT_MAX }
#define OPT_INT_RANGE(s, l, v, lo, hi)	{ OPTION_INT, (s), (l), (v), (lo), (hi) }
#define OPT_END()		{ OPTION_END, 0, NULL, NULL }

/*
 * Parse argv[1..] against opts.  Non-option arguments are moved to the
 * front of argv and their count is returned; "--" ends the options.
 * Returns -1 after error() on an unknown option or a missing argument.
 */
int parse_options(int argc, const char **argv, const struct option *opts);
/* A decimal in [min, max] into out, as OPT_INT takes it; one error() line else. */
int parse_int(const char *name, const char *arg, long min, long max, int *out);

#endif
