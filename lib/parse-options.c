// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/parse-options.h"
#include "lib/usage.h"

static const struct option *find_long(const struct option *o, const char *name,
				      size_t len)
{
	for (; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len &&
		    !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

static const struct option *find_short(const struct option *o, char c)
{
	for (; o->type != OPTION_END; o++)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

int parse_int(const char *name, const char *arg, long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || v < min || v > max) {
		usage_said = 1;
		return error("option '%s' expects a number from %ld to %ld, not '%.40s'",
			     name, min, max, arg);
	}
	*out = v;
	return 0;
}

static int set_value(const struct option *o, const char *arg, const char *name)
{
	switch (o->type) {
	case OPTION_BOOL:
		*(int *)o->value = 1;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_INT:
		return parse_int(name, arg, o->min, o->max, o->value);
	default:
		return error("option '%s' has no type", name);
	}
}

static int takes_arg(const struct option *o)
{
	return o->type == OPTION_STRING || o->type == OPTION_INT;
}

int parse_options(int argc, const char **argv, const struct option *opts)
{
	int i, nr = 0, only_args = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *arg = NULL, *eq;
		const struct option *o;

		if (only_args || a[0] != '-' || !a[1]) {
			argv[nr++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		if (a[1] == '-') {
			eq = strchr(a + 2, '=');
			o = find_long(opts, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
			if (eq)
				arg = eq + 1;
		} else {
			o = find_short(opts, a[1]);
			if (a[2])
				arg = a + 2;
		}
		if (!o)
			return error("unknown option '%s'", a);
		if (takes_arg(o) && !arg) {
			if (i + 1 >= argc)
				return error("option '%s' requires a value", a);
			arg = argv[++i];
		} else if (!takes_arg(o) && arg) {
			return error("option '%s' takes no value", a);
		}
		if (set_value(o, arg, a))
			return -1;
	}
	argv[nr] = NULL;
	return nr;
}
