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

/*
 * Every command, one row each: bkl.c dispatches through this table and
 * `bkl help` lists it, so a command that is not here does not exist.
 */
const struct cmd_struct commands[] = {
	{ "help", cmd_help, "list the commands, or show one command's usage", usage_help },
	{ "tree", cmd_tree, "unpack Linux 6.1 into the cache and apply patches/series", usage_tree },
	{ "analyze", cmd_analyze, "analyze C files for the BKL into the database (sparse-based)", usage_analyze },
	{ "sites", cmd_sites, "lock_kernel()/unlock_kernel() sites and implicit BKL coverage", usage_sites },
	{ "imbalance", cmd_imbalance, "returns with the BKL held, unlocks of a BKL never taken", usage_imbalance },
	{ "chains", cmd_chains, "call chains that sleep or wait with the BKL held", usage_chains },
	{ "merge", cmd_merge, "merge analyzer shard databases, then resolve", usage_merge },
	{ "qemu", cmd_qemu, "build the patched kernel, boot it in QEMU, judge the console", usage_qemu },
	{ "test", cmd_test, "exercise a driver in QEMU before and after its conversion", usage_test },
	{ "report", cmd_report, "the campaign per subsystem or whole tree: text, md, html, json", usage_report },
	{ "serve", cmd_serve, "serve the dashboard (overview, burn-down, pick a driver) and /api", usage_serve },
	{ "audit", cmd_audit, "analyze the whole tree (or dirs) with Kbuild's flags, incrementally", usage_audit },
	{ "check", cmd_check, "Kbuild checker mode: make C=2 CHECK=\"bkl check --db DB\"", usage_check },
	{ "drivers", cmd_drivers, "the campaign's drivers: module, subsystem, entry points, status", usage_drivers },
	{ "pick", cmd_pick, "unclaimed drivers, easiest first, with the reason", usage_pick },
	{ "claim", cmd_claim, "take a driver for yourself (refused if someone holds it)", usage_claim },
	{ "unclaim", cmd_unclaim, "let a driver go", usage_unclaim },
	{ "status", cmd_status, "where a driver stands; --set moves it on, logged", usage_status },
	{ "log", cmd_log, "the campaign's history: who did what to which driver, when", usage_log },
	{ "pushdown", cmd_pushdown, "push the BKL from chrdev_open() into a driver's open(): a patch", usage_pushdown },
	{ "audit-record", cmd_audit_record, "write a driver's audit record; keeps the verdict", usage_audit_record },
	{ "convert", cmd_convert, "the conversion patch for a driver's verdict: none, mutex, init-order", usage_convert },
	{ "export", cmd_export, "write the campaign's history (log format, or --json)", usage_export },
	{ "import", cmd_import, "merge exported campaign histories into the DB and the repo", usage_import },
	{ NULL, NULL, NULL, NULL }
};

const struct cmd_struct *find_command(const char *name)
{
	const struct cmd_struct *c;

	for (c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

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
		return show_usage(usage_help, 1);
	cmd = find_command(argv[1]);
	if (!cmd)
		return error("no such command '%s'; see 'bkl help'", argv[1]);
	return show_usage(cmd->usage, 0);
}
