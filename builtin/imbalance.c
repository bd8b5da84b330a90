// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"

const char usage_imbalance[] =
	"usage: bkl imbalance [--db DB] [--lock NAME] [--json]\n"
	"\n"
	"Print the imbalances: returns with the BKL held while other paths\n"
	"balance, or after a partial release of a nested BKL, or in a function that\n"
	"takes it on every path and that a table calls (an ioctl: nothing releases\n"
	"after it, unless the table pairs it with a release, as seq_operations'\n"
	"start and stop) (return-held), unlocks of a BKL the function never took,\n"
	"unless every caller holds it (unlock-unheld), returns with the BKL released\n"
	"in a function entered with it held while other paths balance\n"
	"(return-released), as file:line: warnings, or with --json as a JSON array\n"
	"of {\"file\",\"line\",\"function\",\"kind\"}, kind: return-held,\n"
	"unlock-unheld, return-released (\"stored\": true for the table's taker).\n"
	"A helper that takes or releases the lock on every path counts at its calls\n"
	"later in its file; __must_hold and __releases say a function is entered\n"
	"held.  A row in a function sparse dropped code of (files.partial) is not\n"
	"complete: it says so (\"partial\": true in --json).\n"
	"\n"
	"    --db DB   the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --lock NAME  the facts of that lock profile's analysis (bkl analyze\n"
	"              --lock-profile); default: bkl if the DB has it, else its first\n"
	"    --json    JSON output (a stable contract)\n";

int cmd_imbalance(int argc, const char **argv)
{
	return facts_command(argc, argv, usage_imbalance, analyzer_print_imbalances, 0);
}
