// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "qemu/driver.h"
#include "db/db.h"
#include "campaign/drivers.h"
#include "campaign/patch.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/quote.h"
#include "lib/usage.h"

const char usage_status[] =
	"usage: bkl status [--db DB] [--tree DIR] DRIVER [--set STATUS --note TEXT] [--by WHO]\n"
	"\n"
	"Where a driver stands: its status, holder, entry points, patches and\n"
	"audit record.  --set moves it to another status (unclaimed, pushed-down,\n"
	"audited, converted, tested, done, or blocked, which needs --note saying\n"
	"why); claiming goes through 'bkl claim'.  Every change is logged with\n"
	"its time and who made it ('bkl log').\n";

/* The witness of one boot: how often the push-down's opens took the BKL. */
static void show_witness(struct campaign *c, sqlite3_int64 id)
{
	sqlite3_stmt *st = db_prepare(c->db,
		"SELECT function, count FROM qemu_witness WHERE result_id = @id AND pushed_down = 1 "
		"ORDER BY function");

	if (!st)
		return;
	if (!db_bind_int(st, "@id", id))
		while (sqlite3_step(st) == SQLITE_ROW)
			printf("              witness: %s() took the BKL %lld times\n",
			       (const char *)sqlite3_column_text(st, 0),
			       (long long)sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
}

/* The newest result of each phase of bkl test, when the DB has any. */
static void show_qemu(struct campaign *c, const char *driver)
{
	sqlite3_stmt *st = db_prepare(c->db,
		"SELECT q.phase, q.result, q.at, q.detail, q.log, q.id FROM qemu_results q "
		"WHERE q.driver = @driver AND q.id = (SELECT m.id FROM qemu_results m "
		"WHERE m.driver = q.driver AND m.phase = q.phase ORDER BY m.at DESC, m.id DESC "
		"LIMIT 1) ORDER BY q.phase DESC");

	if (!st)
		return;
	if (!db_bind_text(st, "@driver", driver))
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *detail = (const char *)sqlite3_column_text(st, 3);
			char label[32];

			snprintf(label, sizeof(label), "qemu %s:", (const char *)sqlite3_column_text(st, 0));
			printf("%-14s%s at %s: %.*s\n", label, (const char *)sqlite3_column_text(st, 1),
			       (const char *)sqlite3_column_text(st, 2),
			       detail ? (int)strcspn(detail, "\n") : 0, detail ? detail : "");
			if (sqlite3_column_text(st, 4))
				printf("              log %s\n", (const char *)sqlite3_column_text(st, 4));
			show_witness(c, sqlite3_column_int64(st, 5));
		}
	sqlite3_finalize(st);
}

/* Which QEMU test exercises it, or why none does. */
static void show_exercised(const struct cdriver *d)
{
	struct strbuf why = STRBUF_INIT;
	int r = qdriver_exercised(d->id, &why);

	if (r > 0)
		printf("qemu:         exercised by %s\n", why.buf);
	else if (!r)
		printf("qemu:         not exercised: %s\n", tq(why.buf));
	strbuf_release(&why);
}

static void show(struct campaign *c, const struct cdriver *d)
{
	char *rec = cdriver_record_path(c, d), *pdir = cdriver_patch_dir(c, d);
	int i;

	printf("driver:       %s (module %s, %s, %s)\n", tq(d->id), tq(d->module), d->config, tq(d->dir));
	printf("subsystem:    %s%s%s%s\n", tq(d->subsystem), *d->maintainers ? " (" : "",
	       tq(d->maintainers), *d->maintainers ? ")" : "");
	if (d->status != d->st.status)	/* a follower, where its parent stands */
		printf("status:       %s, as %s (its own: %s%s%s)\n", cstatus_names[d->status],
		       tq(d->follows), cstatus_names[d->st.status], *d->st.since ? " since " : "",
		       d->st.since);
	else
		printf("status:       %s%s%s\n", cstatus_names[d->st.status], *d->st.since ? " since " : "",
		       d->st.since);
	if (strcmp(d->cover, "own"))
		printf("reach:        %s%s%s%s%s\n", d->cover, *d->follows ? " " : "", tq(d->follows),
		       *d->via ? ", via " : "", tq(d->via));
	printf("holder:       %s\n", *d->st.holder ? tq(d->st.holder) : "-");
	if (*d->st.note)
		printf("note:         %s\n", tq(d->st.note));
	for (i = 0; i < d->nr_e; i++)
		printf("entry point:  %s() %s:%d%s%s%s%s\n", d->e[i].function, d->e[i].file, d->e[i].line,
		       d->e[i].implicit ? ", covered by " : "",
		       d->e[i].implicit ? (*d->e[i].via ? d->e[i].via : "chrdev_open") : "",
		       d->e[i].implicit ? "()" : "",
		       d->e[i].locks ? ", takes the BKL itself" : "");
	for (i = 1; i <= 2; i++) {
		char *p = campaign_patch_find(c, d, i);

		if (p)
			printf("patch:        %s%s\n", p, series_contains(c, p) ? " (in the series)" : "");
		free(p);
	}
	printf("record:       %s%s\n", rec + strlen(c->repo) + 1, path_exists(rec) ? "" : " (not written)");
	show_exercised(d);
	show_qemu(c, d->id);
	free(rec);
	free(pdir);
}

int cmd_status(int argc, const char **argv)
{
	const char *db = NULL, *tree = NULL, *by = NULL, *set = NULL, *note = NULL, *who = NULL;
	struct campaign c;
	struct cdriver d;
	int st = -1, ret = -1;
	const struct option opts[] = {
		OPT_STRING(0, "db", &db),
		OPT_STRING(0, "tree", &tree),
		OPT_STRING(0, "by", &by),
		OPT_STRING(0, "set", &set),
		OPT_STRING(0, "note", &note),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts);
	if (argc != 1 || (note && !set))
		return show_usage(usage_status, 1);
	if (set && (st = cstatus_parse(set)) < 0)
		return error("unknown status '%s' (one of unclaimed, pushed-down, audited, "
			     "converted, tested, done, blocked)", set);
	if (st == CS_CLAIMED)
		return error("claim a driver with 'bkl claim %s --by \"Name <email>\"'", argv[0]);
	if (st == CS_BLOCKED && (!note || !*note))
		return error("say why it is blocked: --note TEXT");
	if (set && !(who = campaign_who(by)))
		return -1;
	if (campaign_open(&c, db, tree))
		return -1;
	if (campaign_driver(&c, argv[0], &d))
		goto out;
	if (!set) {
		show(&c, &d);
		ret = 0;
	} else {
		ret = campaign_record(&c, d.id, "status", st, st == CS_UNCLAIMED ? "" : d.st.holder,
				      who, note ? note : "");
		if (!ret)
			printf("'%s': %s -> %s\n", d.id, cstatus_names[d.st.status], cstatus_names[st]);
	}
	cdriver_release(&d);
out:
	campaign_close(&c);
	return ret;
}
