// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"

const char usage_imbalance[] =
	"usage: bkl imbalance [--db DB] [--lock NAME] [--json]\n"
	"\n"
	"Print the imbalances: returns with the BKL held while other paths\n"
	"balance, or after a partial release of a nested BKL (return-held), unlocks of\n"
	"a BKL the function never took, unless every caller holds it (unlock-unheld),\n"
	"returns with the BKL released in a function entered with it held while other\n"
	"paths balance (return-released), as file:line: warnings, or with --json as a\n"
	"JSON array of {\"file\",\"line\",\"function\",\"kind\"}, kind: return-held,\n"
	"unlock-unheld, return-released.  A row in a function sparse dropped code of\n"
	"(files.partial) is not complete: it says so (\"partial\": true in --json).\n"
	"\n"
	"    --db DB   the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --lock NAME  the facts of that lock profile's analysis (bkl analyze\n"
	"              --lock-profile); default: bkl if the DB has it, else its first\n"
	"    --json    JSON output (a stable contract)\n";

int cmd_imbalance(int argc, const char **argv)
{
	return facts_command(argc, argv, usage_imbalance, analyzer_print_imbalances, 0);
}
