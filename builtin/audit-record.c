// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "campaign/pushdown.h"
#include "campaign/record.h"
#include "campaign/rules.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_audit_record[] =
	"usage: bkl audit-record [--db DB] [--tree DIR] [--by WHO] [--rules] DRIVER...\n"
	"   or: bkl audit-record --confirm [--note TEXT] [--by WHO] DRIVER...\n"
	"   or: bkl audit-record --bug TEXT [--by WHO] DRIVER\n"
	"\n"
	"Write drivers-audit/<subsystem>/DRIVER.md: the facts (entry points, lock\n"
	"sites, chains with their paths, imbalances, the file-scope variables the\n"
	"entry points touch and who else does, whether the driver registers its\n"
	"device before it initializes what open() or ioctl() read, and what the\n"
	"entry points write and what protects each write), what a rule makes of\n"
	"them, a checklist, and a Verdict section.  Run again, it regenerates the\n"
	"facts and keeps the checklist, verdict and notes as they are.  A record\n"
	"with a verdict moves the driver to 'audited'.\n"
	"\n"
	"The rules (\"What the facts decide\"): empty-open (the entry points do\n"
	"nothing a lock could protect), protected (every write they make is under\n"
	"the driver's own lock, atomic, or into this open's file or what it\n"
	"allocated), init-order (the device is registered before state the file\n"
	"operations read is set).  Elsewhere the record says what is left to check.\n"
	"\n"
	"    --rules      where the record has no verdict and a rule decides, write\n"
	"                 the rule's verdict and reasoning, marked as the rule's\n"
	"    --confirm    a person read the code and agrees with the verdict: add\n"
	"                 \"Confirmed by WHO\" (--note: what they checked); a tested\n"
	"                 driver whose verdict is confirmed is done, and so is a\n"
	"                 converted one QEMU cannot present (qemu-tests/unexercised\n"
	"                 names the hardware) whose files compiled with the BKL on\n"
	"                 and off in the last bkl tree --build (make check)\n"
	"    --bug TEXT   the audit found a bug in the tree's own code (a race its\n"
	"                 conversion fixes): \"Bug found: TEXT\" after the verdict, and\n"
	"                 a step in the log; bkl report counts them\n"
	"    --by WHO     who runs it (\"Name <email>\"; default: git's user)\n";

struct mode {
	const char *by, *note, *bug;
	int rules, confirm;
};

static int apply_rule(struct campaign *c, const struct cdriver *d, const char *path, const char *who)
{
	struct proposal p;
	int v = record_propose(c, d, &p), ret = 0;

	if (v == -2)
		return -1;
	if (v >= 0 && !(ret = record_rule_verdict(path, &p, who, campaign_now())))
		printf("%s: rule %s gives verdict %s\n", d->id, p.rule, verdict_names[v]);
	else if (v < 0)
		printf("%s: no rule decides; left to check: %s\n", d->id, sb_str(&p.left));
	proposal_release(&p);
	return ret;
}

static int confirm(struct campaign *c, const struct cdriver *d, const char *path, const char *who,
		   const char *note)
{
	if (record_confirmed(path)) {
		printf("%s: already confirmed\n", d->id);
		return campaign_settle(c, d, who);
	}
	if (record_confirm(path, who, campaign_now(), note))
		return -1;
	printf("%s: verdict confirmed by %s\n", d->id, who);
	return campaign_advance(c, d->id, "confirm", CS_AUDITED, who, "verdict confirmed") ||
	       campaign_settle(c, d, who) ? -1 : 0;
}

static int bug(struct campaign *c, const struct cdriver *d, const char *path, const char *who,
	       const char *text)
{
	struct strbuf line = STRBUF_INIT;
	int ret;

	strbuf_addf(&line, "Bug found: %s", text);
	ret = record_append_verdict(path, line.buf) ||
	      campaign_record(c, d->id, "bug", d->st.status, d->st.holder, who, text) ? -1 : 0;
	if (!ret)
		printf("%s: bug found, recorded\n", d->id);
	strbuf_release(&line);
	return ret;
}

static int one(struct campaign *c, const char *id, const struct mode *m)
{
	struct strbuf why = STRBUF_INIT;
	const char *who = NULL;
	struct cdriver d;
	int created, verdict = -1, has, ret;
	char *path;

	if (campaign_driver(c, id, &d))
		return -1;
	ret = record_write(c, &d, &created);
	path = cdriver_record_path(c, &d);
	if (!ret)
		printf("%s: %s %s\n", d.id, created ? "wrote" : "regenerated the facts of",
		       path + strlen(c->repo) + 1);
	has = ret ? -1 : record_verdict(path, &verdict, &why);
	if ((m->rules || m->confirm || m->bug || (has == 0 && d.st.status < CS_AUDITED)) &&
	    !(who = campaign_who(m->by)))
		ret = -1;
	if (!ret && m->bug)
		ret = has != 0 ? error("'%s' has no verdict: write it before the bug it found", d.id) :
		      bug(c, &d, path, who, m->bug);
	else if (!ret && m->confirm && has != 0)
		ret = has < 0 ? -1 : error("'%s' has no verdict to confirm", d.id);
	else if (!ret && m->confirm)
		ret = confirm(c, &d, path, who, m->note);
	if (!ret && m->rules && has == 1) {
		ret = apply_rule(c, &d, path, who);
		strbuf_reset(&why);
		has = ret ? -1 : record_verdict(path, &verdict, &why);
	}
	if (!ret && has == 0 && d.st.status < CS_AUDITED && !who && !(who = campaign_who(m->by)))
		ret = -1;
	if (!ret && has == 0 && d.st.status < CS_AUDITED) {
		struct strbuf note = STRBUF_INIT;

		strbuf_addf(&note, "verdict %s%s", verdict_names[verdict],
			    strstr(sb_str(&why), "Given by rule ") ? ", given by a rule" : "");
		ret = campaign_advance(c, d.id, "audit", CS_AUDITED, who, note.buf);
		strbuf_release(&note);
	}
	free(path);
	strbuf_release(&why);
	cdriver_release(&d);
	return ret;
}

int cmd_audit_record(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL;
	struct mode m = { 0 };
	struct campaign c;
	int i, ret = 0;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "by", &m.by),
		OPT_STRING(0, "note", &m.note),
		OPT_STRING(0, "bug", &m.bug),
		OPT_BOOL(0, "rules", &m.rules),
		OPT_BOOL(0, "confirm", &m.confirm),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 1 || (m.rules + m.confirm + !!m.bug > 1) || (m.note && !m.confirm) ||
	    (m.bug && (argc != 1 || !*m.bug)))
		return show_usage(usage_audit_record, 1);
	if (campaign_open(&c, db, tree))
		return -1;
	for (i = 0; i < argc && !ret; i++)
		ret = one(&c, argv[i], &m);
	campaign_close(&c);
	return ret;
}
