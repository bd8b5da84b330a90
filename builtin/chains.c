// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"
#include "lib/facts-cmd.h"

const char usage_chains[] =
	"usage: bkl chains [--db DB] [--lock NAME] [--json]\n"
	"\n"
	"Print the call chains from a call made with the BKL held to a primitive\n"
	"that sleeps (class sleep) or waits for another task (class wait),\n"
	"as file:line: warnings, or with --json as a JSON array of\n"
	"{\"file\",\"line\",\"function\",\"class\",\"path\"}, path: the functions called.\n"
	"\n"
	"    --db DB   the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --lock NAME  the facts of that lock profile's analysis (bkl analyze\n"
	"              --lock-profile); default: bkl if the DB has it, else its first\n"
	"    --json    JSON output (a stable contract)\n";

int cmd_chains(int argc, const char **argv)
{
	return facts_command(argc, argv, "chains", analyzer_print_chains);
}
