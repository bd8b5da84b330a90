/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_USAGE_H
#define BKL_USAGE_H

#include <stdarg.h>
#include <stdnoreturn.h>

/*
 * The one place errors go through.  die() is for the top level only
 * (bkl.c and builtin/), library code returns error()'s -1.
 */
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A command's usage text to stdout (asked for) or stderr (misuse): 0, or 129 on misuse. */
int show_usage(const char *usage, int misuse);
/* Set when the misuse was said in one line already (a bad option value): no usage after it. */
extern int usage_said;

/* Message prefix, "bkl" unless a command sets it (e.g. "bkl tree"). */
extern const char *bkl_prog;

#endif
