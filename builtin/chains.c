// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"

const char usage_chains[] =
	"usage: bkl chains [--db DB] [--lock NAME] [--precise] [--json]\n"
	"\n"
	"Print the call chains from a call made with the BKL held to a primitive\n"
	"that sleeps (class sleep) or waits for another task (class wait), as\n"
	"file:line: warnings, or with --json as a JSON array of\n"
	"{\"file\",\"line\",\"function\",\"class\",\"path\",\"by_type\",\"origin\",\n"
	"\"built\",\"edges\"}, path: the functions called; edges: how each call\n"
	"was resolved, {\"edge\",\"candidates\"}: direct (by name), registered\n"
	"(through a table whose registration the DB holds), table (through the\n"
	"one table the caller's code points the object at: a_ops = &udf_aops,\n"
	"or the one table its file stores in what a static pointer points to:\n"
	"ptm_driver->ops) or\n"
	"by-type (any function stored in that struct member: one of candidates);\n"
	"origin: why the first call runs under the lock: held (its function takes\n"
	"it), covered (through registrations, named tables or an entry point) or\n"
	"by-type (covered through a call by type); by_type: how many by-type\n"
	"calls, in the chain and in that coverage (null: stored before bkl knew);\n"
	"built: false when a file of the chain is one the audited configuration\n"
	"does not build (bkl audit analyzes every .c file of a directory), null\n"
	"when no audit says.  The text says all three.\n"
	"\n"
	"A wait for a work item, a thread or a workqueue whose handler takes the\n"
	"lock (INIT_WORK, INIT_DELAYED_WORK, DECLARE_WORK, kthread_run, queue_work\n"
	"on that workqueue: the same struct member or variable) is class deadlock:\n"
	"its path goes on past the wait into the handler, down to the lock, the\n"
	"wait's edge being work, thread or queued (candidates: how many of its\n"
	"handlers take the lock), at the file:line the work was set up.\n"
	"\n"
	"    --db DB   the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --lock NAME  the facts of that lock profile's analysis (bkl analyze\n"
	"              --lock-profile); default: bkl if the DB has it, else its first\n"
	"    --precise only the chains without a by-type call (by_type 0), in files\n"
	"              the audited configuration builds (built not false)\n"
	"    --json    JSON output (a stable contract)\n";

int cmd_chains(int argc, const char **argv)
{
	return facts_command(argc, argv, usage_chains, analyzer_print_chains, 1);
}
