// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "audit/progress.h"
#include "campaign/audit.h"
#include "lib/parse-options.h"
#include "lib/quote.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_pick[] =
	"usage: bkl pick [--db DB] [--tree DIR] [--subsystem S] [-n N] [--json]\n"
	"\n"
	"Drivers nobody holds, easiest first, each with the reason: an empty\n"
	"open() (cycle the lock or drop it) first, then open()s that touch no\n"
	"driver state, then those that do, then drivers that register before\n"
	"they initialize, and drivers with wait chains or BKL imbalances last.\n"
	"Take one with 'bkl claim DRIVER --by \"Name <email>\"'.\n"
	"\n"
	"    --subsystem S    only drivers whose MAINTAINERS section contains S\n"
	"    -n N             at most N drivers (default 20; 0: all)\n"
	"    --json           [{\"driver\",\"subsystem\",\"status\",\"score\",\"reason\",\n"
	"                      \"entry_points\"}], easiest first\n"
	"\n"
	"While the audit is missing or not finished, a warning on stderr says how\n"
	"far it is and what to run: drivers in files not analyzed yet are not\n"
	"listed, so an empty list then does not mean the campaign is over.\n";

struct pick {
	struct cdriver *d;
	int score;
	char *reason;
};

static int cmp_pick(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return strcmp(x->d->id, y->d->id);
}

static int available(const struct cdriver *d, const char *subsystem)
{
	if (*d->st.holder || !d->known || !d->nr_e)
		return 0;
	if (d->st.status != CS_UNCLAIMED && d->st.status != CS_PUSHED_DOWN &&
	    d->st.status != CS_AUDITED)
		return 0;
	return !subsystem || strcasestr(d->subsystem, subsystem);
}

static void show(const struct pick *p, int i, int json, struct strbuf *out)
{
	int k;

	if (!json) {
		printf("%3d. %-20s %-12s %s\n     %s\n", i + 1, tq(p->d->id),
		       cstatus_names[p->d->st.status], tq(p->d->subsystem), tq(p->reason));
		return;
	}
	strbuf_addstr(out, i ? ",\n{\"driver\":" : "\n{\"driver\":");
	json_str(out, p->d->id);
	strbuf_addstr(out, ",\"subsystem\":");
	json_str(out, p->d->subsystem);
	strbuf_addf(out, ",\"status\":\"%s\",\"score\":%d,\"reason\":",
		    cstatus_names[p->d->st.status], p->score);
	json_str(out, p->reason);
	strbuf_addstr(out, ",\"entry_points\":[");
	for (k = 0; k < p->d->nr_e; k++) {
		strbuf_addstr(out, k ? "," : "");
		json_str(out, p->d->e[k].function);
	}
	strbuf_addstr(out, "]}");
}

int cmd_pick(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL, *subsystem = NULL;
	int json = 0, max = 20, nr, np = 0, i, ret = 0, incomplete;
	struct strbuf out = STRBUF_INIT;
	struct pick *p = NULL;
	struct campaign c;
	struct cdriver *d;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "subsystem", &subsystem),
		OPT_INT('n', NULL, &max),
		OPT_BOOL(0, "json", &json),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc)
		return show_usage(usage_pick, 1);
	if (campaign_open(&c, db, tree))
		return -1;
	if (campaign_load(&c, NULL, &d, &nr)) {
		campaign_close(&c);
		return -1;
	}
	for (i = 0; i < nr && !ret; i++) {
		struct strbuf why = STRBUF_INIT;
		struct audit a;

		if (!available(&d[i], subsystem))
			continue;
		if (audit_analyze(&c, &d[i], NULL, &a)) {
			ret = -1;
			break;
		}
		p = realloc(p, (np + 1) * sizeof(*p));
		p[np].d = &d[i];
		p[np].score = audit_effort(&d[i], &a, &why);
		p[np++].reason = strdup(sb_str(&why));
		strbuf_release(&why);
		audit_release(&a);
	}
	qsort(p, np, sizeof(*p), cmp_pick);
	incomplete = audit_progress_warn(c.db) > 0;
	for (i = 0; !ret && i < np && (!max || i < max); i++)
		show(&p[i], i, json, &out);
	if (!ret && json)
		printf("[%s\n]\n", sb_str(&out));
	else if (!ret && !np)
		printf("no unclaimed driver%s%s%s%s\n", subsystem ? " in '" : "",
		       subsystem ? tq(subsystem) : "", subsystem ? "'" : "",
		       incomplete ? " among the files analyzed so far" : "");
	for (i = 0; i < np; i++)
		free(p[i].reason);
	free(p);
	strbuf_release(&out);
	cdrivers_release(d, nr);
	campaign_close(&c);
	return ret;
}
