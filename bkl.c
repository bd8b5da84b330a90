// SPDX-License-Identifier: GPL-2.0
/*
 * bkl: the front end of bkl-audit, a Big Kernel Lock removal campaign
 * run against a Linux tree.  Git-style: `bkl <command> [<args>]`, each
 * command a row of commands[] (builtin/help.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "db/db.h"
#include "lib/usage.h"

/*
 * What a command printed must all have gone out: a short write to a full
 * disk or a closed pipe is an error, not a truncated backup and exit 0.
 */
static int close_stdout(int ret)
{
	int failed = fflush(stdout) || ferror(stdout);

	if (fclose(stdout))
		failed = 1;
	if (failed) {
		error("cannot write to standard output: %s", errno ? strerror(errno) : "short write");
		return ret ? ret : 1;
	}
	if (!ret && db_damaged()) {
		error("the database is damaged (%s): what was printed may be incomplete", db_damaged());
		return ret ? ret : 1;
	}
	return ret;
}

static int is_help_flag(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int main(int argc, const char **argv)
{
	const struct cmd_struct *cmd;
	static char prog[64];
	int i;

	db_init();
	if (argc < 2 || is_help_flag(argv[1]))
		return close_stdout(cmd_help(1, argv));
	cmd = find_command(argv[1]);
	if (!cmd)
		die("'%s' is not a bkl command; see 'bkl help'", argv[1]);
	for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (is_help_flag(argv[i]))
			return close_stdout(show_usage(cmd->usage, 0));
	snprintf(prog, sizeof(prog), "bkl %s", cmd->name);
	bkl_prog = prog;
	i = cmd->fn(argc - 1, argv + 1);
	return close_stdout(i < 0 ? 1 : i);
}
