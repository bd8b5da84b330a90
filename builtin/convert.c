// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "campaign/pushdown.h"
#include "campaign/record.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_convert[] =
	"usage: bkl convert [--db DB] [--tree DIR] [--by WHO] [--partial] DRIVER\n"
	"                   [--verdict none|mutex|init-order]\n"
	"\n"
	"Write the conversion patch the audit asks for,\n"
	"patches/drivers/DRIVER/0002-..., after the push-down in patches/series:\n"
	"  none        the BKL protects nothing here: drop the pushed-down lock\n"
	"  mutex       the driver's own state needs it: a DEFINE_MUTEX(<driver>_mutex)\n"
	"              takes its place\n"
	"  init-order  open() races the driver's initialization: register the\n"
	"              device after it (when that is a plain move; otherwise a\n"
	"              .patch.draft skeleton with a checklist, not in the series)\n"
	"The verdict comes from the audit record's Verdict section unless given;\n"
	"given and different, it is refused.  The driver becomes 'converted'.\n"
	"\n"
	"A driver whose entry points call other drivers' with the BKL held\n"
	"(misc_open() calls every misc driver's open()) keeps its lock until each\n"
	"of those takes the BKL itself: refused, naming them; and refused when\n"
	"the DB holds less than a whole-tree audit, unless --partial.\n"
	"\n"
	"The patch's author and Signed-off-by: whoever runs it: --by, else\n"
	"$BKL_AUTHOR, else git's user.name and user.email; none of them is an error.\n";

int cmd_convert(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL, *by = NULL, *given = NULL, *who;
	struct strbuf why = STRBUF_INIT;
	struct campaign c;
	struct cdriver d;
	int verdict = -1, recorded = -1, r, ret = -1, partial = 0;
	char *path;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "by", &by),
		OPT_STRING(0, "verdict", &given),
		OPT_BOOL(0, "partial", &partial),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc != 1)
		return show_usage(usage_convert, 1);
	if (given && (verdict = verdict_parse(given)) < 0)
		return error("unknown verdict '%s' (none, mutex or init-order)", given);
	if (campaign_open(&c, db, tree))
		return -1;
	if (campaign_driver(&c, argv[0], &d))
		goto out;
	who = campaign_who(by);
	if (!who)
		goto out_driver;
	path = cdriver_record_path(&c, &d);
	r = record_verdict(path, &recorded, &why);
	free(path);
	if (r < 0)		/* no record, or a verdict we cannot read */
		goto out_driver;
	while (why.len && why.buf[why.len - 1] == ' ')
		why.buf[--why.len] = '\0';
	if (verdict < 0 && recorded < 0) {
		error("no verdict for '%s': write it in its audit record, or pass --verdict", d.id);
		goto out_driver;
	}
	if (verdict >= 0 && recorded >= 0 && verdict != recorded) {
		error("the audit record of '%s' says '%s', not '%s'", d.id, verdict_names[recorded],
		      verdict_names[verdict]);
		goto out_driver;
	}
	ret = campaign_convert(&c, &d, verdict >= 0 ? verdict : recorded, why.buf, who, partial);
out_driver:
	cdriver_release(&d);
out:
	strbuf_release(&why);
	campaign_close(&c);
	return ret;
}
