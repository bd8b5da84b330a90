// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "ktree/ktree.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "kbuild/build.h"
#include "lib/usage.h"

const char usage_tree[] =
	"usage: bkl tree [--check] [--end] [--force] [--tarball FILE] [--patches DIR]\n"
	"   or: bkl tree --build [--end] [--config NAME] [-j N] [--patches DIR] [DIR|FILE...]\n"
	"\n"
	"Unpack the Linux 6.1 tarball into $BKL_CACHE/linux/pristine (once, never\n"
	"modified after) and make $BKL_CACHE/linux/work, a copy with the quilt\n"
	"series applied; it is re-made only when the series changes.  Prints the\n"
	"kernel version, the number of patches applied and the tree's path.\n"
	"The series' end (patches/end/: the 2.6.26 sites go, once the campaign is\n"
	"over) is left out: the work tree is the campaign's, the one bkl audit\n"
	"analyzes and bkl test boots.\n"
	"\n"
	"    --check          only verify that the whole series, its end too, applies\n"
	"                     to a pristine tree\n"
	"    --end            the work tree with the series' end applied too\n"
	"    --force          re-make the work tree even if files in it were edited\n"
	"    --tarball FILE   the kernel tarball (default " DEFAULT_TARBALL ")\n"
	"    --patches DIR    the quilt patches directory (default: patches/ here)\n"
	"\n"
	"--build prepares the work tree, then compiles with Kbuild every .c file\n"
	"the series patches (with DIR|FILE arguments, tree-relative, only those\n"
	"under them) twice: in NAME (default allmodconfig) with CONFIG_BKL and\n"
	"CONFIG_BKL_LEGACY_SITES on, then with CONFIG_BKL off.  Prints, per config,\n"
	"one line per object that fails (with the compiler's first error line) or\n"
	"that the config does not build (its option off, another arch), then\n"
	"\"N objects, N failed (config)\".  Exits 1 when an object fails.  Each\n"
	"config is built in $BKL_CACHE/build/; an object is compiled again only\n"
	"when its source, the .config or another file the series writes changed.\n"
	"\n"
	"    --config NAME    the base config target or file (default allmodconfig)\n"
	"    -j N             make jobs (default: the number of CPUs)\n"
	"\n"
	"$BKL_CACHE defaults to ~/.cache/bkl-audit.\n";

/*
 * Apply the series to a hard-linked scratch copy: patch breaks the links.
 * "pristine/." so that a pristine tree that is a symlink (a cache sharing
 * another's tree) is copied, not the link: quilt would patch through it.
 */
static int check_series(const struct series *s)
{
	struct strbuf scratch = STRBUF_INIT, from = STRBUF_INIT;
	const char *cp[] = { "cp", "-al", NULL, NULL, NULL };
	const char *rm[] = { "rm", "-rf", NULL, NULL };
	int ret;

	strbuf_addf(&from, "%s/.", ktree_dir("pristine"));
	strbuf_addstr(&scratch, ktree_dir("check.tmp"));
	cp[2] = from.buf;
	cp[3] = rm[2] = scratch.buf;
	run_command(rm, NULL, NULL);
	ret = run_command(cp, NULL, NULL) ? error("cannot copy the pristine tree") : 0;
	if (!ret)
		ret = ktree_apply(scratch.buf, s);
	run_command(rm, NULL, NULL);
	strbuf_release(&scratch);
	strbuf_release(&from);
	return ret;
}

int cmd_tree(int argc, const char **argv)
{
	const char *tarball = getenv("BKL_TARBALL"), *patches = NULL, *config = "allmodconfig";
	int check = 0, force = 0, build = 0, end = 0, jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), ret = -1;
	char real[PATH_MAX];
	struct strbuf ver = STRBUF_INIT, def = STRBUF_INIT;
	struct series s;
	const struct option opts[] = {
		OPT_BOOL(0, "check", &check),
		OPT_BOOL(0, "end", &end),
		OPT_BOOL(0, "force", &force),
		OPT_STRING(0, "tarball", &tarball),
		OPT_STRING(0, "patches", &patches),
		OPT_BOOL(0, "build", &build),
		OPT_STRING(0, "config", &config),
		OPT_INT_RANGE('j', "jobs", &jobs, 1, 1024),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 0 || (argc && !build) || (build && check))
		return show_usage(usage_tree, 1);
	if (!tarball || !*tarball)
		tarball = DEFAULT_TARBALL;
	if (!patches) {
		strbuf_addf(&def, "%s/patches", bkl_repo_dir());
		patches = def.buf;
	}
	/* --check and --end: the whole series; else the campaign's */
	if (check || end ? series_read(&s, patches) : ktree_campaign_series(&s, patches))
		goto out;
	if (mkdir_p(ktree_dir("")) || ktree_unpack(tarball) ||
	    ktree_version(ktree_dir("pristine"), &ver))
		goto out_series;
	if (check) {
		ret = check_series(&s);
		if (!ret)
			printf("linux %s: series applies (%d patches)\n", ver.buf, s.nr);
		goto out_series;
	}
	ret = ktree_prepare_work(&s, force);
	if (!ret && build) {
		/* gcc names files by Kbuild's absolute srctree */
		ret = realpath(ktree_dir("work"), real) ?
		      tree_build(&s, real, config, argv, argc, jobs) :
		      error("no work tree at '%s'", ktree_dir("work"));
		goto out_series;
	}
	if (!ret)
		printf("linux %s: %d patches applied in %s\n", ver.buf, s.nr, ktree_dir("work"));
out_series:
	series_release(&s);
out:
	strbuf_release(&ver);
	strbuf_release(&def);
	return ret;
}
