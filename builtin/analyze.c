// SPDX-License-Identifier: GPL-2.0
/*
 * bkl analyze: run the BKL analyzer (analyzer/) on C files, then the
 * global pass.  Our options and sparse's are mixed on one command line;
 * ours are the long ones below, everything else goes to sparse.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/analyzer.h"
#include "builtin.h"
#include "db/db.h"
#include "lib/parse-options.h"
#include "lib/usage.h"

const char usage_analyze[] =
	"usage: bkl analyze [--db DB] [--no-resolve] [--lock-profile NAME]\n"
	"                   [--kernel-profile NAME] [--primitives FILE] [-q]\n"
	"                   [--quiet-profiles] [--sparse-warnings] [--timeout SECS]\n"
	"                   [--max-mem MIB] [sparse flags] FILE.c...\n"
	"\n"
	"Analyze C files with sparse and record in the database where the BKL is\n"
	"taken and released, imbalances, function-pointer stores and call edges,\n"
	"then run the global pass: the functions the BKL covers implicitly and\n"
	"the call chains that sleep with it held.  Files analyzed again replace\n"
	"their old facts.  A file sparse cannot parse is recorded with its first\n"
	"error and the others are still analyzed; the exit status is 1 then.\n"
	"Each file is analyzed in a child process with limits, so that none can\n"
	"stop the run: its time and memory, gcc's 200 nested #includes (a header\n"
	"that includes itself), and sparse's stack (an expression nested too deep).\n"
	"\n"
	"What the analyzer knows of the lock and of the kernel's primitives comes\n"
	"from two profiles (analyzer/profiles/README): the kernel profile of the\n"
	"tree's release (its top Makefile's VERSION and PATCHLEVEL; the tree is\n"
	"found above the files or the -I directories), with the gfp bit that\n"
	"allows sleeping read from its headers, and that profile's lock profile.\n"
	"One line on stderr says which; with no tree found and no profile asked\n"
	"for (loose files), bkl and 6.x apply and nothing is said.\n"
	"\n"
	"    --db DB            the database (default $BKL_DB, else $BKL_CACHE/bkl.db)\n"
	"    --no-resolve       skip the global pass (for shards: see bkl merge)\n"
	"    --lock-profile NAME    the lock: bkl (6.1 with the series), bkl-2.6,\n"
	"                       rtnl, console, tty\n"
	"    --kernel-profile NAME  the kernel's primitives: 6.x, 2.6\n"
	"    --primitives FILE  one file with every rule instead of both profiles\n"
	"    -q, --quiet        no summary, no profile line, no per-file warnings\n"
	"    --quiet-profiles   neither the profile line nor its warnings (for\n"
	"                       bkl audit's workers: bkl audit says it once)\n"
	"    --sparse-warnings  show sparse's own warnings\n"
	"    --timeout SECS     give up on a file after SECS seconds (default 300)\n"
	"    --max-mem MIB      give up on a file that needs more (default 8192);\n"
	"                       with --timeout 0 --max-mem 0, a single file is\n"
	"                       analyzed in this process (bkl audit's workers)\n"
	"\n"
	"sparse flags: -I DIR, -D X, -U X, -include FILE, -isystem DIR, -m64, -W...,\n"
	"as sparse takes them.  Then: bkl sites, bkl imbalance, bkl chains.\n";

/* our option at argv[*i] (and its value): 1, else 0 (sparse's), -1 bad */
static int our_option(int argc, const char **argv, int *i, const char *name,
		      const char **value)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, len))
		return 0;
	if (!value)
		return a[len] ? 0 : 1;
	if (a[len] == '=') {
		*value = a + len + 1;
		return 1;
	}
	if (a[len])
		return 0;
	if (*i + 1 >= argc) {
		error("option '%s' requires a value", name);
		return -1;
	}
	*value = argv[++*i];
	return 1;
}

/* A partial file (sparse dropped code) is said only when there is one. */
static void print_summary(const struct analyzer_stats *stats, int no_resolve)
{
	printf("analyzed %d file%s (%d failed", stats->files, stats->files == 1 ? "" : "s",
	       stats->failed);
	if (stats->partial)
		printf(", %d partial", stats->partial);
	printf("): %d sites, %d imbalances, %d unresolved pointer calls in the database%s\n",
	       stats->sites, stats->imbalances, stats->unresolved,
	       no_resolve ? " (not resolved)" : "");
}

int cmd_analyze(int argc, const char **argv)
{
	const char *db_path = NULL, **sargv;
	struct analyzer_opts o = { .timeout = 300, .max_mem_mib = 8192 };
	const char *timeout = NULL, *max_mem = NULL;
	struct analyzer_stats stats;
	int i, sargc = 1, no_resolve = 0, rc, ret = -1, only_sparse = 0, max;
	sqlite3 *db;

	sargv = calloc(argc + 1, sizeof(*sargv));
	if (!sargv)
		die("out of memory");
	sargv[0] = "sparse";
	for (i = 1; i < argc; i++) {
		if (only_sparse || argv[i][0] != '-') {
			sargv[sargc++] = argv[i];
			continue;
		}
		if (!strcmp(argv[i], "--")) {
			only_sparse = 1;
			continue;
		}
		if ((rc = our_option(argc, argv, &i, "--db", &db_path)) ||
		    (rc = our_option(argc, argv, &i, "--primitives", &o.primitives)) ||
		    (rc = our_option(argc, argv, &i, "--lock-profile", &o.lock_profile)) ||
		    (rc = our_option(argc, argv, &i, "--kernel-profile", &o.kernel_profile)) ||
		    (rc = our_option(argc, argv, &i, "--timeout", &timeout)) ||
		    (rc = our_option(argc, argv, &i, "--max-mem", &max_mem)) ||
		    (rc = our_option(argc, argv, &i, "--quiet-profiles", NULL) * 5) ||
		    (rc = our_option(argc, argv, &i, "--no-resolve", NULL) * 2) ||
		    (rc = our_option(argc, argv, &i, "--sparse-warnings", NULL) * 3) ||
		    (rc = our_option(argc, argv, &i, "--quiet", NULL) * 4) ||
		    (rc = our_option(argc, argv, &i, "-q", NULL) * 4)) {
			if (rc < 0)
				goto out;
			no_resolve |= rc == 2;
			o.sparse_warnings |= rc == 3;
			o.quiet |= rc == 4;
			o.quiet_profiles |= rc == 5;
			continue;
		}
		sargv[sargc++] = argv[i];
	}
	for (i = 1; i < sargc && sargv[i][0] == '-'; i++)
		;
	if (sargc == 1) {
		free(sargv);
		return show_usage(usage_analyze, 1);
	}
	if ((timeout && parse_int("--timeout", timeout, 0, INT_MAX, &o.timeout)) ||
	    (max_mem && parse_int("--max-mem", max_mem, 0, INT_MAX, &max)))
		goto out;
	if (max_mem)
		o.max_mem_mib = max;
	if (analyzer_check_profiles(&o))
		goto out;
	if (!db_path)
		db_path = db_default_path();
	if (db_open(db_path, &db))
		goto out;
	rc = analyzer_run(db, sargc, (char **)sargv, &o, &stats);
	if (rc >= 0 && !stats.files)
		rc = error("no C file to analyze");
	if (rc >= 0 && !no_resolve && analyzer_resolve(db, &o))
		rc = -1;
	if (rc >= 0 && !o.quiet)
		print_summary(&stats, no_resolve);
	db_close(db);
	ret = rc < 0 ? -1 : rc > 0 ? 1 : 0;
out:
	free(sargv);
	return ret;
}
