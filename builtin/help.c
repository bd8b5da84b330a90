// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "lib/usage.h"

const char usage_help[] =
	"usage: bkl help [COMMAND]\n"
	"\n"
	"Without COMMAND, list every bkl command with one line each.\n"
	"With COMMAND, show its usage (the same as 'bkl COMMAND -h').\n";

static void list_commands(void)
{
	const struct cmd_struct *c;
	size_t width = 0;

	for (c = commands; c->name; c++)
		if (strlen(c->name) > width)
			width = strlen(c->name);
	printf("usage: bkl <command> [<args>]\n\n"
	       "bkl-audit runs a Big Kernel Lock removal campaign on a Linux tree.\n\n"
	       "commands:\n");
	for (c = commands; c->name; c++)
		printf("   %-*s  %s\n", (int)width, c->name, c->summary);
	printf("\n'bkl help <command>' or 'bkl <command> -h' shows one command's usage.\n");
}

int cmd_help(int argc, const char **argv)
{
	const struct cmd_struct *cmd;

	if (argc < 2) {
		list_commands();
		return 0;
	}
	if (argc > 2)
		return show_usage(find_command("help"), 1);
	cmd = find_command(argv[1]);
	if (!cmd)
		return error("no such command '%s'; see 'bkl help'", argv[1]);
	return show_usage(cmd, 0);
}
