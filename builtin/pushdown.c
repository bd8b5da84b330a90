// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "campaign/check.h"
#include "campaign/patch.h"
#include "campaign/pushdown.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_pushdown[] =
	"usage: bkl pushdown [--db DB] [--tree DIR] [--by WHO] [--force] DRIVER...\n"
	"   or: bkl pushdown [--db DB] [--tree DIR] [--by WHO] --all [--subsystem S] [--any-config]\n"
	"   or: bkl pushdown [--db DB] [--tree DIR] [--by WHO] --core [--partial]\n"
	"   or: bkl pushdown [--db DB] [--tree DIR] --check\n"
	"   or: bkl pushdown [--db DB] [--by WHO] --withdraw --why TEXT DRIVER...\n"
	"\n"
	"Push the BKL from chrdev_open() down into a driver: writes\n"
	"patches/drivers/DRIVER/0001-<area>-DRIVER-push-down-the-BKL-into-open.patch,\n"
	"with lock_kernel()/unlock_kernel() in each entry point: the open() and\n"
	"fasync() of a registered char device, what chrdev_open(), misc_open()\n"
	"and fasync called with the BKL held (what those reach stays covered and\n"
	"is listed in the audit record, never patched)\n"
	"(several returns become a single exit: ret = X; goto out;), made against\n"
	"the series so far and checked with the tree's checkpatch.pl, and appends\n"
	"it to patches/series.  Check the whole queue with 'bkl tree --check'.\n"
	"\n"
	"    --all            every covered driver without a push-down (or those of\n"
	"                     --subsystem S) that the audited .config builds (all\n"
	"                     of them with --any-config); one that cannot be done\n"
	"                     is reported and skipped\n"
	"    --core           the patch that stops chrdev_open() taking the BKL;\n"
	"                     refused, naming them, while a covered driver has none,\n"
	"                     and refused when the DB holds less than a whole-tree\n"
	"                     audit (a driver outside it would lose the BKL unseen)\n"
	"                     unless --partial\n"
	"    --check          walk patches/series against the DB: name every\n"
	"                     lock_kernel() a push-down adds outside an entry\n"
	"                     point (exit 1 if any)\n"
	"    --withdraw       take the driver's patches (push-down and conversion)\n"
	"                     out of the series, logged with --why\n"
	"    --force          write a driver's push-down again\n"
	"    --by WHO         author and Signed-off-by (default $BKL_AUTHOR or git's)\n";

static int has_pushdown(const struct campaign *c, const struct cdriver *d)
{
	char *p = campaign_patch_find(c, d, 1);
	int yes = p && series_contains(c, p);

	free(p);
	return yes;
}

static int covered(const struct cdriver *d)
{
	int i;

	for (i = 0; i < d->nr_e; i++)
		if (d->e[i].implicit)
			return 1;
	return 0;
}

static int all(struct campaign *c, struct cdriver *d, int nr, const char *subsystem,
	       const char *who, int any_config)
{
	int i, done = 0, failed = 0, skipped = 0, unbuilt = 0;

	for (i = 0; i < nr; i++) {
		if (!covered(&d[i]) || (subsystem && !strcasestr(d[i].subsystem, subsystem)))
			continue;
		if (!any_config && cdriver_built(c, &d[i]) == 'n') {
			unbuilt++;	/* not in the audited configuration */
			continue;
		}
		if (has_pushdown(c, &d[i])) {
			skipped++;
			continue;
		}
		if (campaign_pushdown(c, &d[i], who, 0))
			failed++;
		else
			done++;
	}
	printf("pushed down %d driver%s; %d failed; %d had theirs already", done,
	       done == 1 ? "" : "s", failed, skipped);
	if (unbuilt)
		printf("; %d not built in the audited config (--any-config)", unbuilt);
	printf("\n");
	return failed ? 1 : 0;
}

static int check_series(const char *db, const char *tree)
{
	struct campaign c;
	struct strbuf dir = STRBUF_INIT;
	int ret;

	if (campaign_open(&c, db, tree))
		return -1;
	strbuf_addf(&dir, "%s/patches", c.repo);
	ret = campaign_check_series(c.db, dir.buf, c.tree);
	strbuf_release(&dir);
	campaign_close(&c);
	return ret;
}

int cmd_pushdown(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL, *by = NULL, *subsystem = NULL, *why = NULL, *who;
	int do_all = 0, core = 0, force = 0, any_config = 0, partial = 0, check = 0, withdraw = 0;
	int nr, i, k, ret = 0;
	struct campaign c;
	struct cdriver *d;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "by", &by),
		OPT_STRING(0, "subsystem", &subsystem),
		OPT_BOOL(0, "all", &do_all),
		OPT_BOOL(0, "core", &core),
		OPT_BOOL(0, "force", &force),
		OPT_BOOL(0, "any-config", &any_config),
		OPT_BOOL(0, "partial", &partial),
		OPT_BOOL(0, "check", &check),
		OPT_BOOL(0, "withdraw", &withdraw),
		OPT_STRING(0, "why", &why),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (check && argc >= 0 && !argc && !do_all && !core && !force && !by)
		return check_series(db, tree);
	if (argc < 0 || (!argc && !do_all && !core) || (argc && (do_all || core)) ||
	    (do_all && core) || ((subsystem || any_config) && !do_all) || (partial && !core) ||
	    (withdraw && (!argc || force || !why || !*why)) || (why && !withdraw))
		return show_usage(usage_pushdown, 1);
	who = campaign_who(by);
	if (!who)
		return -1;
	if (campaign_open(&c, db, tree))
		return -1;
	if (campaign_load(&c, NULL, &d, &nr)) {
		campaign_close(&c);
		return -1;
	}
	if (withdraw) {
		for (i = 0; i < argc && !ret; i++)
			ret = campaign_withdraw(&c, argv[i], who, why);
		argc = 0;
	} else if (core)
		ret = campaign_pushdown_core(&c, d, nr, who, partial);
	else if (do_all)
		ret = all(&c, d, nr, subsystem, who, any_config);
	for (i = 0; i < argc && !ret; i++) {
		for (k = 0; k < nr && strcmp(d[k].id, argv[i]); k++)
			;
		if (k == nr)
			ret = error("no driver '%s' (see 'bkl drivers')", argv[i]);
		else
			ret = campaign_pushdown(&c, &d[k], who, force);
	}
	cdrivers_release(d, nr);
	campaign_close(&c);
	return ret;
}
