// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "campaign/drivers.h"
#include "lib/parse-options.h"
#include "lib/usage.h"

const char usage_unclaim[] =
	"usage: bkl unclaim [--db DB] [--tree DIR] DRIVER [--by WHO] [--force] [--note TEXT]\n"
	"\n"
	"Let a driver go.  Only its holder may, unless --force (taking a stale\n"
	"claim away; the log keeps who did it).  A driver that was only claimed\n"
	"goes back to unclaimed; one further along keeps its status.\n";

int cmd_unclaim(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL, *by = NULL, *note = "", *who;
	struct campaign c;
	struct cdriver d;
	int force = 0, ret = -1;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "by", &by),
		OPT_STRING(0, "note", &note),
		OPT_BOOL(0, "force", &force),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc != 1)
		return show_usage(usage_unclaim, 1);
	who = campaign_who(by);
	if (!who)
		return -1;
	if (campaign_open(&c, db, tree))
		return -1;
	if (campaign_driver(&c, argv[0], &d))
		goto out;
	if (!*d.st.holder) {
		error("'%s' is not claimed", d.id);
	} else if (strcmp(d.st.holder, who) && !force) {
		error("'%s' is held by %s, not you; --force takes the claim away", d.id, d.st.holder);
	} else {
		int st = d.st.status == CS_CLAIMED ? CS_UNCLAIMED : d.st.status;

		ret = campaign_record(&c, d.id, "unclaim", st, "", who, note);
		if (!ret)
			printf("released '%s' (%s)\n", d.id, cstatus_names[st]);
	}
	cdriver_release(&d);
out:
	campaign_close(&c);
	return ret;
}
