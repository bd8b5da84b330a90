// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "campaign/drivers.h"
#include "lib/parse-options.h"
#include "lib/usage.h"

const char usage_claim[] =
	"usage: bkl claim [--db DB] [--tree DIR] DRIVER --by \"Name <email>\" [--note TEXT]\n"
	"\n"
	"Take a driver for yourself: nobody else can claim it until you (or\n"
	"someone with 'bkl unclaim --force') let it go.  A claim on a driver that\n"
	"someone else holds is refused, naming who holds it and since when.\n"
	"--by defaults to $BKL_AUTHOR, then to git's user.name and user.email.\n";

int cmd_claim(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL, *by = NULL, *note = "", *who;
	struct campaign c;
	struct cdriver d;
	int ret = -1;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "by", &by),
		OPT_STRING(0, "note", &note),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc != 1)
		return show_usage(usage_claim, 1);
	who = campaign_who(by);
	if (!who)
		return -1;
	if (campaign_open(&c, db, tree))
		return -1;
	if (campaign_driver(&c, argv[0], &d))
		goto out;
	if (!strcmp(d.st.holder, who)) {
		printf("'%s' is already yours (since %s)\n", d.id, d.st.since);
		ret = 0;
	} else if (*d.st.holder) {
		error("'%s' is claimed by %s since %s", d.id, d.st.holder, d.st.since);
	} else if (d.st.status == CS_DONE) {
		error("'%s' is done: nothing left to claim", d.id);
	} else {
		int st = d.st.status == CS_UNCLAIMED ? CS_CLAIMED : d.st.status;

		ret = campaign_record(&c, d.id, "claim", st, who, who, note);
		if (!ret)
			printf("claimed '%s' (%s) for %s\n", d.id, cstatus_names[st], who);
	}
	cdriver_release(&d);
out:
	campaign_close(&c);
	return ret;
}
