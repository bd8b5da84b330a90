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

const char usage_audit_record[] =
	"usage: bkl audit-record [--db DB] [--tree DIR] [--by WHO] DRIVER...\n"
	"\n"
	"Write drivers-audit/<subsystem>/DRIVER.md: the facts (entry points, lock\n"
	"sites, chains with their paths, imbalances, the file-scope variables the\n"
	"entry points touch and who else does, and whether the driver registers\n"
	"its device before it initializes what open() or ioctl() read), a\n"
	"checklist, and a Verdict section for the reviewer to write.  Run again,\n"
	"it regenerates the facts and keeps the checklist, verdict and notes as\n"
	"they are.  A record with a verdict moves the driver to 'audited'.\n";

static int one(struct campaign *c, const char *id, const char *by)
{
	struct strbuf why = STRBUF_INIT;
	struct cdriver d;
	int created, verdict, ret;
	char *path;

	if (campaign_driver(c, id, &d))
		return -1;
	ret = record_write(c, &d, &created);
	path = cdriver_record_path(c, &d);
	if (!ret)
		printf("%s: %s %s\n", d.id, created ? "wrote" : "regenerated the facts of",
		       path + strlen(c->repo) + 1);
	if (!ret && record_verdict(path, &verdict, &why) == 0 &&
	    d.st.status < CS_AUDITED) {
		const char *who = campaign_who(by);
		struct strbuf note = STRBUF_INIT;

		strbuf_addf(&note, "verdict %s", verdict_names[verdict]);
		ret = who ? campaign_advance(c, d.id, "audit", CS_AUDITED, who, note.buf) : -1;
		strbuf_release(&note);
	}
	free(path);
	strbuf_release(&why);
	cdriver_release(&d);
	return ret;
}

int cmd_audit_record(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL, *by = NULL;
	struct campaign c;
	int i, ret = 0;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "by", &by),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 1)
		return show_usage(usage_audit_record, 1);
	if (campaign_open(&c, db, tree))
		return -1;
	for (i = 0; i < argc && !ret; i++)
		ret = one(&c, argv[i], by);
	campaign_close(&c);
	return ret;
}
