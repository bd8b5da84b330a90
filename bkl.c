// SPDX-License-Identifier: GPL-2.0
/*
 * bkl: the front end of bkl-audit, a Big Kernel Lock removal campaign
 * run against a Linux tree.  Git-style: `bkl <command> [<args>]`.
 */
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "lib/usage.h"

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

int show_usage(const struct cmd_struct *cmd, int misuse)
{
	fputs(cmd->usage, misuse ? stderr : stdout);
	return misuse ? 129 : 0;
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

	if (argc < 2 || is_help_flag(argv[1]))
		return cmd_help(1, argv);
	cmd = find_command(argv[1]);
	if (!cmd)
		die("'%s' is not a bkl command; see 'bkl help'", argv[1]);
	for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (is_help_flag(argv[i]))
			return show_usage(cmd, 0);
	snprintf(prog, sizeof(prog), "bkl %s", cmd->name);
	bkl_prog = prog;
	i = cmd->fn(argc - 1, argv + 1);
	return i < 0 ? 1 : i;
}
