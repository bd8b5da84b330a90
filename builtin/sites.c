// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "analyzer/analyzer.h"
#include "builtin.h"
#include "builtin/facts.h"

const char usage_sites[] =
	"usage: bkl sites [--db DB] [--lock NAME] [--json]\n"
	"\n"
	"Print the lock_kernel()/unlock_kernel() sites and the implicit ones\n"
	"(functions called through a pointer with the BKL held, with the evidence),\n"
	"as file:line: warnings, or with --json as a JSON array of\n"
	"{\"file\",\"line\",\"function\",\"kind\"}, kind: lock, unlock, implicit.\n"
	"\n"
	"    --db DB   the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --lock NAME  the facts of that lock profile's analysis (bkl analyze\n"
	"              --lock-profile); default: bkl if the DB has it, else its first\n"
	"    --json    JSON output (a stable contract)\n";

int cmd_sites(int argc, const char **argv)
{
	return facts_command(argc, argv, "sites", analyzer_print_sites, 0);
}
