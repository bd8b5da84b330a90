// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "audit/progress.h"
#include "campaign/drivers.h"
#include "kbuild/modules.h"
#include "ktree/ktree.h"
#include "ktree/maintainers.h"
#include "qemu/driver.h"
#include "lib/parse-options.h"
#include "lib/quote.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_drivers[] =
	"usage: bkl drivers [--db DB] [--tree DIR] [--subsystem S] [--status ST] [--cover C] [--json]\n"
	"   or: bkl drivers --which [--tree DIR] FILE...\n"
	"\n"
	"The campaign's drivers: each Kbuild module holding a function the BKL\n"
	"covers (an implicitly covered open(), or one the campaign pushed the\n"
	"lock into), with its CONFIG symbol, its MAINTAINERS section, its entry\n"
	"points, its lock sites, the sleep and wait chains and imbalances in its\n"
	"files, and where it stands (unclaimed ... done, or blocked).\n"
	"\n"
	"REACH says how the BKL reaches it: \"own\", an entry point of its own\n"
	"(a registered open or fasync the BKL is taken around) or lock sites: a\n"
	"campaign item; \"follows\", only from other drivers' own entry points\n"
	"(v4l2_open(), tty_open()), named after the subsystem: it stands where\n"
	"they do once they are pushed down, unless it moves on by itself;\n"
	"\"possibly\", only through a call resolved by the member's type alone,\n"
	"named: listed, not counted by bkl report or the burn-down.\n"
	"\n"
	"    --db DB          the database (default $BKL_DB or $BKL_CACHE/bkl.db)\n"
	"    --tree DIR       the kernel tree (default $BKL_TREE or the work tree)\n"
	"    --subsystem S    only drivers whose MAINTAINERS section contains S\n"
	"    --status ST      only drivers in that state\n"
	"    --cover C        only drivers the BKL reaches so: own, follows, possibly\n"
	"    --json           one JSON array, one object per driver\n"
	"    --which          say which module, symbol and subsystem each FILE is in\n";

static int which(const char *tree, int argc, const char **argv)
{
	struct kbuild_cache *kc;
	struct maintainers mt;
	struct strbuf path = STRBUF_INIT;
	int i, ret = 0;

	if (!tree)
		tree = getenv("BKL_TREE");
	if (!tree || !*tree)
		tree = ktree_dir("work");
	strbuf_addf(&path, "%s/MAINTAINERS", tree);
	if (maintainers_read(path.buf, tree, &mt)) {
		strbuf_release(&path);
		return -1;
	}
	kc = kbuild_cache_new(tree);
	for (i = 0; i < argc && !ret; i++) {
		struct kbuild_module m;
		const struct maint_section *s;

		if (kbuild_module_of(kc, argv[i], &m)) {
			ret = -1;
			break;
		}
		s = maintainers_match(&mt, argv[i]);
		printf("%s\t%s%s\t%s\t%s\t", argv[i], m.name, m.found ? "" : "?", m.config,
		       s ? s->name : "THE REST");
		for (int k = 0; k < m.nr_files; k++)
			printf("%s%s", k ? " " : "", m.files[k]);
		printf("\n");
		kbuild_module_release(&m);
	}
	kbuild_cache_free(kc);
	maintainers_release(&mt);
	strbuf_release(&path);
	return ret;
}

static int matches(const struct cdriver *d, const char *subsystem, int status, const char *cover)
{
	if (status >= 0 && d->status != status)
		return 0;
	if (cover && strcmp(d->cover, cover))
		return 0;
	return !subsystem || strcasestr(d->subsystem, subsystem);
}

/* "qemu": its .test file or null; "unexercised": why not, or null */
static void exercised_json(struct strbuf *sb, const struct cdriver *d)
{
	struct strbuf why = STRBUF_INIT;
	int r = qdriver_exercised(d->id, &why);

	strbuf_addstr(sb, ",\"qemu\":");
	json_str_or_null(sb, r > 0 ? why.buf : NULL);
	strbuf_addstr(sb, ",\"unexercised\":");
	json_str_or_null(sb, r == 0 ? why.buf : NULL);
	strbuf_release(&why);
}

static void print_json(struct campaign *c, const struct cdriver *d, struct strbuf *sb)
{
	int i;

	strbuf_addstr(sb, "{\"driver\":");
	json_str(sb, d->id);
	strbuf_addstr(sb, ",\"module\":");
	json_str(sb, d->module);
	strbuf_addstr(sb, ",\"config\":");
	json_str(sb, d->config);
	strbuf_addstr(sb, ",\"dir\":");
	json_str(sb, d->dir);
	strbuf_addstr(sb, ",\"subsystem\":");
	json_str(sb, d->subsystem);
	strbuf_addstr(sb, ",\"maintainers\":");
	json_list(sb, d->maintainers);
	strbuf_addstr(sb, ",\"lists\":");
	json_list(sb, d->lists);
	strbuf_addstr(sb, ",\"files\":[");
	for (i = 0; i < d->nr_files; i++) {
		strbuf_addstr(sb, i ? "," : "");
		json_str(sb, d->files[i]);
	}
	strbuf_addstr(sb, "],\"entry_points\":[");
	for (i = 0; i < d->nr_e; i++) {
		strbuf_addstr(sb, i ? ",{\"function\":" : "{\"function\":");
		json_str(sb, d->e[i].function);
		strbuf_addstr(sb, ",\"file\":");
		json_str(sb, d->e[i].file);
		strbuf_addf(sb, ",\"line\":%d,\"implicit\":%s,\"locks\":%d,\"member\":", d->e[i].line,
			    d->e[i].implicit ? "true" : "false", d->e[i].locks);
		json_str(sb, d->e[i].member);
		strbuf_addstr(sb, ",\"via\":");
		json_str(sb, d->e[i].via);
		strbuf_addstr(sb, "}");
	}
	strbuf_addf(sb, "],\"sites\":{\"lock\":%d,\"unlock\":%d},\"chains\":{\"sleep\":%d,"
		    "\"wait\":%d},\"imbalances\":%d,\"status\":\"%s\",\"holder\":",
		    d->locks, d->unlocks, d->sleep, d->wait, d->imbalances, cstatus_names[d->status]);
	json_str(sb, d->st.holder);
	strbuf_addstr(sb, ",\"since\":");
	json_str(sb, d->st.since);
	strbuf_addstr(sb, ",\"cover\":");
	json_str(sb, d->cover);
	strbuf_addstr(sb, ",\"follows\":");
	json_list(sb, d->follows);
	strbuf_addstr(sb, ",\"via\":");
	json_str_or_null(sb, *d->via ? d->via : NULL);
	strbuf_addf(sb, ",\"built\":\"%c\"", cdriver_built(c, d));
	exercised_json(sb, d);
	strbuf_addstr(sb, "}");
}

static void print_text(const struct cdriver *d)
{
	struct strbuf eps = STRBUF_INIT;
	int i;

	for (i = 0; i < d->nr_e; i++)
		strbuf_addf(&eps, "%s%s", i ? "," : "", d->e[i].function);
	printf("%-20s %-12s %-8s %-26s %5d %5d %4d %3d  %s%s%s", tq(d->id), cstatus_names[d->status],
	       d->cover, eps.len ? eps.buf : "-", d->locks + d->unlocks, d->sleep, d->wait,
	       d->imbalances, tq(d->subsystem), *d->st.holder ? "  held by " : "", tq(d->st.holder));
	if (*d->follows)
		printf("  follows %s", tq(d->follows));
	else if (*d->via)
		printf("  via %s", tq(d->via));
	printf("\n");
	strbuf_release(&eps);
}

int cmd_drivers(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL, *subsystem = NULL, *status = NULL, *cover = NULL;
	int json = 0, do_which = 0, st = -1, nr, i, shown = 0;
	struct strbuf out = STRBUF_INIT;
	struct campaign c;
	struct cdriver *d;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "subsystem", &subsystem),
		OPT_STRING(0, "status", &status),
		OPT_STRING(0, "cover", &cover),
		OPT_BOOL(0, "json", &json),
		OPT_BOOL(0, "which", &do_which),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc < 0 || (argc && !do_which) || (do_which && !argc))
		return show_usage(usage_drivers, 1);
	if (do_which)
		return which(tree, argc, argv);
	if (status && (st = cstatus_parse(status)) < 0)
		return error("unknown status '%s'", status);
	if (cover && strcmp(cover, "own") && strcmp(cover, "follows") && strcmp(cover, "possibly"))
		return error("unknown reach '%s' (one of own, follows, possibly)", cover);
	if (campaign_open(&c, db, tree))
		return -1;
	if (campaign_load(&c, NULL, &d, &nr)) {
		campaign_close(&c);
		return -1;
	}
	audit_progress_warn(c.db);
	if (!json)
		printf("%-20s %-12s %-8s %-26s %5s %5s %4s %3s  %s\n", "DRIVER", "STATUS", "REACH", "ENTRY POINTS",
		       "SITES", "SLEEP", "WAIT", "IMB", "SUBSYSTEM");
	strbuf_addstr(&out, "[");
	for (i = 0; i < nr; i++) {
		if (!matches(&d[i], subsystem, st, cover))
			continue;
		if (json) {
			strbuf_addstr(&out, shown ? ",\n" : "\n");
			print_json(&c, &d[i], &out);
		} else {
			print_text(&d[i]);
		}
		shown++;
	}
	strbuf_addstr(&out, "\n]\n");
	if (json)
		fputs(out.buf, stdout);
	strbuf_release(&out);
	cdrivers_release(d, nr);
	campaign_close(&c);
	return 0;
}
