// SPDX-License-Identifier: GPL-2.0
/*
 * bkl test: boot each driver's test kernel in QEMU, before and after its
 * conversion, run the exerciser on its nodes with lockdep watching, judge
 * the console and record the result in the DB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "db/db.h"
#include "campaign/campaign.h"
#include "ktree/ktree.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/quote.h"
#include "qemu/driver.h"
#include "qemu/witness.h"
#include "report/report.h"
#include "ktree/series.h"
#include "lib/usage.h"

const char usage_test[] =
	"usage: bkl test [--before | --both] [--json] [--timeout S] [--accel auto|tcg|kvm]\n"
	"                [--keep] [--db DB] [--no-record] [--mark [--by WHO]] [--list]\n"
	"                (DRIVER | FILE.test)...\n"
	"   or: bkl test --all [--both] ...\n"
	"\n"
	"Boot the test kernel (base.config + campaign.config + the config lines of\n"
	"every qemu-tests/drivers/*.test: one kernel for all drivers) with\n"
	"patches/series applied up to and including the drivers' patches (after\n"
	"their conversion), or without their conversions (--before: the BKL still\n"
	"pushed down into their open()), and run the exerciser on each driver's\n"
	"nodes from several threads.  Any lockdep report, BUG, WARNING, hung\n"
	"task, BKL message, panic or timeout fails the driver, and so does the\n"
	"witness (the kernel's count of BKL acquisitions per function) when the\n"
	"driver's pushed-down open() did not take the BKL before its conversion,\n"
	"or still took it after.  A driver needs its push-down in the series.  A\n"
	"FILE.test (a negative control of qemu-tests/controls/) loads its module\n"
	"while its node is being opened.  Each result goes into the DB (bkl\n"
	"status, the dashboard); console logs are kept in $BKL_CACHE/qemu/logs/.\n"
	"Exit status 0 when every boot passed, 1 otherwise.\n"
	"\n"
	"    --before         test the state before the conversion only\n"
	"    --both           before, then after\n"
	"    --all            every driver with a .test file and a conversion in the series\n"
	"    --json           one JSON object per boot, one per line\n"
	"    --timeout S      kill QEMU after S seconds (default 120)\n"
	"    --accel A        auto (default: KVM when the kernel boots under it), tcg, kvm\n"
	"    --keep           keep old kernel builds\n"
	"    --db DB          record the results there (default: $BKL_DB, $BKL_CACHE/bkl.db)\n"
	"    --no-record      do not record the results\n"
	"    --mark           a converted driver whose boots all passed becomes 'tested'\n"
	"    --by WHO         who marks it (default: $BKL_AUTHOR, git's user)\n"
	"    --list           print what each boot would be; build and boot nothing\n"
	"\n"
	"The .test format and the controls: qemu-tests/README.\n";

struct test_opts {
	struct qboot_opts boot;
	int before, both, all, json, no_record, mark, list;
	const char *db, *by;
};

struct tested {
	struct qdriver d;
	int failed;		/* a boot of it did not pass */
};

/* A driver's name, or a FILE.test (named after the file, less .test). */
static int load_driver(struct tested *t, const char *arg)
{
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	size_t n = strlen(base);
	int is_file = n > 5 && !strcmp(base + n - 5, ".test");
	char name[256];

	if (!is_file && base == arg)
		return qdriver_find(&t->d, arg);
	snprintf(name, sizeof(name), "%.*s", (int)(is_file ? n - 5 : n), base);
	return qdriver_read(&t->d, name, arg);
}

/* --all: the drivers with a .test file and a conversion patch in the series. */
static int all_drivers(struct tested **list, int *nr, const struct series *s)
{
	struct strbuf dir = STRBUF_INIT;
	int i, ret = 0;

	strbuf_addf(&dir, "%s/qemu-tests/drivers/", bkl_repo_dir());
	for (i = 0; i < s->nr && !ret; i++) {
		char name[256], test[600];
		int j, seen = 0, conv;

		if (!qdriver_patch_of(s->names[i], name, sizeof(name), &conv) || !conv)
			continue;
		snprintf(test, sizeof(test), "%s%s.test", dir.buf, name);
		for (j = 0; j < *nr; j++)
			seen |= !strcmp((*list)[j].d.name, name);
		if (seen || !path_exists(test))
			continue;
		*list = realloc(*list, (*nr + 1) * sizeof(**list));
		memset(&(*list)[*nr], 0, sizeof(**list));
		ret = qdriver_read(&(*list)[*nr].d, name, test);
		(*nr)++;
	}
	strbuf_release(&dir);
	if (!ret && !*nr)
		ret = error("no driver has both a conversion in the series and a qemu-tests/drivers/*.test");
	return ret;
}

/* The console is overwritten by the next boot: keep a copy. */
static void keep_log(struct qboot *b, const char *driver, const char *phase, struct strbuf *kept)
{
	char stamp[32];
	time_t t = time(NULL);

	if (!b->log.len)
		return;
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&t));
	strbuf_addf(kept, "%s/qemu/logs/%s-%s-%s-%d.log", bkl_cache_dir(), driver, phase, stamp,
		    (int)getpid());
	if (copy_file(b->log.buf, kept->buf))
		strbuf_reset(kept);
}

/* On a pass, the exerciser's summary; else the first problem. */
static void detail_of(const struct qboot *b, struct strbuf *out)
{
	const struct qemu_result *r = &b->res;
	struct strbuf console = STRBUF_INIT;
	const char *p;
	int i;

	for (i = 0; i < r->nr_reports; i++)
		if (!r->reports[i].expected) {
			strbuf_addf(out, "%s: %s", r->reports[i].kind, r->reports[i].excerpt);
			return;
		}
	if (r->nr_missing) {
		strbuf_addf(out, "missing: %s", r->missing[0]);
		return;
	}
	if (b->booted && strbuf_read_file(&console, b->log.buf) >= 0 &&
	    (p = strstr(console.buf, "exercise: done: ")))
		strbuf_addf(out, "%.*s", (int)strcspn(p, "\r\n"), p);
	strbuf_release(&console);
}

/* The witness's rows: every acquirer, and the push-down's opens even when absent. */
static int record_witness(sqlite3 *db, sqlite3_int64 id, const struct qwitness *w)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO qemu_witness (result_id, function, count, pushed_down) "
		"VALUES (@id, @function, @count, @pushed) ON CONFLICT (result_id, function) "
		"DO UPDATE SET count = count + excluded.count * (1 - excluded.pushed_down), "
		"pushed_down = max(pushed_down, excluded.pushed_down)");
	int i, ret = 0;

	if (!st)
		return -1;
	for (i = 0; i < w->nr_acq + w->nr_opens && !ret; i++) {
		const struct qwitness_fn *f = i < w->nr_acq ? &w->acq[i] : &w->opens[i - w->nr_acq];

		sqlite3_reset(st);
		if (db_bind_int(st, "@id", id) || db_bind_text(st, "@function", f->name) ||
		    db_bind_int(st, "@count", f->count) ||
		    db_bind_int(st, "@pushed", i >= w->nr_acq))
			ret = -1;
		else
			ret = db_step_done(st);
	}
	sqlite3_finalize(st);
	return ret;
}

static int record(sqlite3 *db, const char *driver, const char *phase, const struct qboot *b,
		  const char *detail, const struct qwitness *w)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO qemu_results (driver, phase, result, at, kernel, series, accel, "
		"build_seconds, boot_seconds, log, detail) VALUES (@driver, @phase, @result, @at, "
		"@kernel, @series, @accel, @build, @boot, @log, @detail)");
	int ret = -1;

	if (!st)
		return -1;
	if (db_bind_text(st, "@driver", driver) || db_bind_text(st, "@phase", phase) ||
	    db_bind_text(st, "@result", qemu_verdict_name(b->res.verdict)) ||
	    db_bind_text(st, "@at", campaign_now()) ||
	    db_bind_text(st, "@kernel", b->built ? b->kb.key : NULL) ||
	    db_bind_text(st, "@series", b->built ? b->kb.series : NULL) ||
	    db_bind_text(st, "@accel", b->booted ? b->accel : NULL) ||
	    db_bind_text(st, "@log", b->log.len ? b->log.buf : NULL) ||
	    db_bind_text(st, "@detail", detail) ||
	    (b->built && db_bind_double(st, "@build", b->kb.seconds)) ||
	    (b->booted && db_bind_double(st, "@boot", b->run.seconds)))
		goto out;
	ret = db_step_done(st);
	if (!ret && w->seen)
		ret = record_witness(db, sqlite3_last_insert_rowid(db), w);
out:
	sqlite3_finalize(st);
	return ret;
}

static void print_result(const struct qboot *b, const char *driver, const char *phase,
			 const char *detail, const struct qwitness *w, int json)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	if (!json) {
		/* on a pass, the exerciser's summary; else the problems say it */
		qboot_print_text(b, b->res.verdict == V_PASS ? detail : NULL);
		for (i = 0; i < w->nr_opens; i++)
			printf("  witness: %s() took the BKL %lu times\n", w->opens[i].name,
			       w->opens[i].count);
		return;
	}
	strbuf_addstr(&sb, "{\"driver\":");
	json_str_or_null(&sb, driver);
	strbuf_addf(&sb, ",\"phase\":\"%s\",\"detail\":", phase);
	json_str_or_null(&sb, detail);
	strbuf_addch(&sb, ',');
	qboot_json_members(&sb, b);
	qwitness_json(&sb, w);
	printf("%s}\n", sb.buf);
	strbuf_release(&sb);
}

/*
 * Read the witness from the console and, for a driver (a control has no
 * push-down), judge it: its open() takes the BKL before the conversion
 * (and after, when the series has none), and not after it.
 */
static int witness(struct qwitness *w, struct qboot *b, const struct tested *t, int before,
		   const struct series *all)
{
	if (!b->booted || b->res.verdict == V_TIMEOUT)
		return 0;	/* no exercise to judge */
	if (qwitness_read(w, b->log.buf))
		return -1;
	if (t->d.module)
		return 0;
	w->expect = before || !qwitness_has_conversion(all, t->d.name);
	if (qwitness_opens(w, all, t->d.name))
		return -1;
	qwitness_judge(w, b);
	return 0;
}

/* One driver's boot on the phase's series. */
static int boot_driver(struct tested *t, const char *phase, const char *const *frags,
		       const struct series *s, const struct series *all,
		       const struct test_opts *o, sqlite3 *db)
{
	struct strbuf expect = STRBUF_INIT, kept = STRBUF_INIT, detail = STRBUF_INIT;
	struct strbuf log_name = STRBUF_INIT, name = STRBUF_INIT;
	struct qwitness w;
	struct qboot b;
	int ret = -1;

	memset(&w, 0, sizeof(w));

	strbuf_addf(&name, "%s (%s)", t->d.name, phase);
	qboot_init(&b, name.buf);
	strbuf_addf(&expect, "%s/qemu-tests/drivers/driver.expect", bkl_repo_dir());
	strbuf_addf(&log_name, "test-%s-%s", t->d.name, phase);
	b.expect = expect.buf;
	b.log_name = log_name.buf;
	if (qdriver_boot(&b, &t->d, frags, 3) || qboot_run(&b, &o->boot, s) ||
	    witness(&w, &b, t, !strcmp(phase, "before"), all))
		goto out;
	keep_log(&b, t->d.name, phase, &kept);
	if (kept.len) {
		strbuf_reset(&b.log);
		strbuf_addstr(&b.log, kept.buf);
	}
	detail_of(&b, &detail);
	print_result(&b, t->d.name, phase, sb_str(&detail), &w, o->json);
	t->failed |= b.res.verdict != V_PASS;
	ret = db ? record(db, t->d.name, phase, &b, sb_str(&detail), &w) : 0;
out:
	fflush(stdout);
	qwitness_release(&w);
	qboot_release(&b);
	strbuf_release(&expect);
	strbuf_release(&kept);
	strbuf_release(&detail);
	strbuf_release(&log_name);
	strbuf_release(&name);
	return ret;
}

static int run_phase(struct tested *list, int nr, enum qphase phase, const struct series *all,
		     const char *const *frags, const struct test_opts *o, sqlite3 *db)
{
	struct qdriver **ds = calloc(nr, sizeof(*ds));
	struct series s;
	int i, ret;

	for (i = 0; i < nr; i++)
		ds[i] = &list[i].d;
	ret = qdriver_series(&s, all, ds, nr, phase);
	free(ds);
	if (ret)
		return -1;
	for (i = 0; i < nr && !ret; i++)
		ret = boot_driver(&list[i], phase == QPHASE_BEFORE ? "before" : "after", frags, &s, all,
				  o, db);
	unlink(s.file);
	series_release(&s);
	return ret;
}

/* --mark: a converted driver whose boots all passed is tested. */
static int mark_tested(struct tested *list, int nr, const struct test_opts *o)
{
	const char *who = campaign_who(o->by);
	struct campaign c;
	int i, ret = 0;

	if (!who)
		return -1;
	if (campaign_open(&c, o->db, NULL))
		return -1;
	for (i = 0; i < nr && !ret; i++) {
		struct cstate st;
		char note[512];

		if (list[i].failed || list[i].d.module || campaign_state(&c, list[i].d.name, &st))
			continue;
		snprintf(note, sizeof(note), "bkl test%s: every boot passed (qemu-tests/drivers/%s.test)",
			 o->both ? " --both" : o->before ? " --before" : "", list[i].d.name);
		if (st.status == CS_CONVERTED)
			ret = campaign_advance(&c, list[i].d.name, "test", CS_TESTED, who, note);
		cstate_release(&st);
	}
	campaign_close(&c);
	return ret;
}

static int run_tests(struct tested *list, int nr, const struct series *all,
		     const struct test_opts *o)
{
	struct strbuf base = STRBUF_INIT, camp = STRBUF_INIT, uni = STRBUF_INIT;
	const char *frags[3];
	sqlite3 *db = NULL;
	int i, ret = -1, failed = 0;

	strbuf_addf(&base, "%s/qemu-tests/configs/base.config", bkl_repo_dir());
	strbuf_addf(&camp, "%s/qemu-tests/configs/campaign.config", bkl_repo_dir());
	if (qdriver_union_config(&uni))
		goto out;
	frags[0] = base.buf;
	frags[1] = camp.buf;
	frags[2] = uni.buf;
	/* the results may be the first thing a DB holds: it may be made here */
	if (!o->no_record && db_open(o->db ? o->db : db_default_path(), &db))
		goto out;
	ret = 0;
	if (o->before || o->both)
		ret = run_phase(list, nr, QPHASE_BEFORE, all, frags, o, db);
	if (!ret && !o->before)
		ret = run_phase(list, nr, QPHASE_AFTER, all, frags, o, db);
	if (db)
		db_close(db);
	if (!ret && o->mark)
		ret = mark_tested(list, nr, o);
	for (i = 0; i < nr; i++)
		failed |= list[i].failed;
	if (!ret && failed)
		ret = 1;
out:
	strbuf_release(&base);
	strbuf_release(&camp);
	strbuf_release(&uni);
	return ret;
}

/* --list: what each boot would be, without building or booting. */
static int list_tests(struct tested *list, int nr)
{
	struct strbuf uni = STRBUF_INIT, params = STRBUF_INIT;
	const char *arg;
	int i, j;

	if (qdriver_union_config(&uni))
		return -1;
	for (i = 0; i < nr; i++) {
		const struct qdriver *d = &list[i].d;

		strbuf_reset(&params);
		qdriver_params(d, &params);
		printf("%s: %s\n  kernel parameters:%s\n", d->name, d->path, sb_str(&params));
		if (d->nr_args)
			printf("  qemu:");
		for (j = 0, arg = d->args.buf; j < d->nr_args; j++, arg += strlen(arg) + 1)
			printf(" %s", arg);
		if (d->nr_args)
			printf("\n");
		if (d->module)
			printf("  module: %s/%s.ko, loaded while opening\n", d->dir, d->module);
		if (d->kmod)
			printf("  module: %s of the kernel build, loaded while opening\n", d->kmod);
	}
	printf("kernel config: base.config campaign.config %s\n", uni.buf);
	strbuf_release(&uni);
	strbuf_release(&params);
	return 0;
}

int cmd_test(int argc, const char **argv)
{
	struct test_opts o = { .boot = { .accel = "auto", .timeout = 120 } };
	const struct option opts[] = {
		OPT_BOOL(0, "before", &o.before),
		OPT_BOOL(0, "both", &o.both),
		OPT_BOOL(0, "all", &o.all),
		OPT_BOOL(0, "json", &o.json),
		OPT_INT(0, "timeout", &o.boot.timeout),
		OPT_STRING(0, "accel", &o.boot.accel),
		OPT_BOOL(0, "keep", &o.boot.keep),
		OPT_STRING(0, "db", &o.db),
		OPT_BOOL(0, "no-record", &o.no_record),
		OPT_BOOL(0, "mark", &o.mark),
		OPT_STRING(0, "by", &o.by),
		OPT_BOOL(0, "list", &o.list),
		OPT_END()
	};
	struct strbuf patches = STRBUF_INIT;
	const char *tarball = getenv("BKL_TARBALL");
	struct tested *list = NULL;
	struct series s;
	int i, nr = 0, ret = -1;

	argc = parse_options(argc, argv, opts);
	if (argc < 0)
		return -1;
	if ((!argc && !o.all) || (argc && o.all) || (o.before && o.both))
		return show_usage(usage_test, 1);
	if (qboot_opts_check(&o.boot))
		return -1;
	if (o.mark && o.no_record)
		return error("--mark needs the results recorded: drop --no-record");
	strbuf_addf(&patches, "%s/patches", bkl_repo_dir());
	/* the campaign's kernel: the series' end would take the BKL's old sites */
	if (ktree_campaign_series(&s, patches.buf)) {
		strbuf_release(&patches);
		return -1;
	}
	if (o.all) {
		if (all_drivers(&list, &nr, &s))
			goto out;
	} else {
		list = calloc(argc, sizeof(*list));
		for (nr = 0; nr < argc; nr++)
			if (load_driver(&list[nr], argv[nr])) {
				nr++;
				goto out;
			}
	}
	if (o.list) {
		ret = list_tests(list, nr);
		goto out;
	}
	if (mkdir_p(ktree_dir("")) || ktree_unpack(tarball && *tarball ? tarball : DEFAULT_TARBALL))
		goto out;
	ret = run_tests(list, nr, &s, &o);
out:
	for (i = 0; i < nr; i++)
		qdriver_release(&list[i].d);
	free(list);
	series_release(&s);
	strbuf_release(&patches);
	return ret;
}
