// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"
#include "lib/facts-cmd.h"

const char usage_chains[] =
	"usage: bkl chains [--db DB] [--lock NAME] [--precise] [--json]\n"
	"\n"
	"Print the call chains from a call made with the BKL held to a primitive\n"
	"that sleeps (class sleep) or waits for another task (class wait),\n"
	"as file:line: warnings, or with --json as a JSON array of\n"
	"{\"file\",\"line\",\"function\",\"class\",\"path\",\"by_type\",\"origin\",\n"
	"\"built\",\"edges\"}, path: the functions called; edges: how each call was resolved,\n"
	"{\"edge\",\"candidates\"}: direct (by name), registered (through a table\n"
	"whose registration the DB holds), table (through the one table the\n"
	"caller's code points the object at: a_ops = &udf_aops) or by-type (any\n"
	"function stored in that struct member: one of candidates); origin: why the first call runs\n"
	"under the lock: held (its function takes it), covered (through\n"
	"registrations, named tables or an entry point) or by-type (covered\n"
	"through a call by type); by_type: how many by-type calls, in the chain and in\n"
	"that coverage (null: stored before bkl knew); built: false when a file of\n"
	"the chain is one the audited configuration does not build (bkl audit\n"
	"analyzes every .c file of a directory), null when no audit says.  The\n"
	"text says all three.\n"
	"\n"
	"    --db DB   the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --lock NAME  the facts of that lock profile's analysis (bkl analyze\n"
	"              --lock-profile); default: bkl if the DB has it, else its first\n"
	"    --precise only the chains without a by-type call (by_type 0), in files\n"
	"              the audited configuration builds (built not false)\n"
	"    --json    JSON output (a stable contract)\n";

int cmd_chains(int argc, const char **argv)
{
	return facts_command(argc, argv, "chains", analyzer_print_chains, 1);
}
