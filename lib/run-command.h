/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_RUN_COMMAND_H
#define BKL_RUN_COMMAND_H

struct strbuf;

/*
 * Run argv[0] (searched in PATH) in dir (NULL: here).  With out != NULL
 * its stdout and stderr are collected there; otherwise they pass through.
 * Returns the exit status, 128 + signal, or -1 when it could not start.
 */
int run_command(const char *const *argv, const char *dir, struct strbuf *out);

#endif
