// SPDX-License-Identifier: GPL-2.0
/*
 * One boot, shared by bkl qemu and bkl test: build (or reuse) the kernel
 * for the boot's fragments and series, let the caller add to the
 * initramfs, boot it in QEMU, judge the console against an .expect file,
 * and print the verdict (text or one JSON object).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "lib/quote.h"
#include "qemu/qemu.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

#define DEFAULT_APPEND	"console=ttyS0 panic=-1"

int qboot_opts_check(const struct qboot_opts *o)
{
	if (o->timeout <= 0)
		return error("--timeout must be a positive number of seconds");
	if (strcmp(o->accel, "auto") && strcmp(o->accel, "tcg") && strcmp(o->accel, "kvm"))
		return error("--accel must be auto, tcg or kvm, not '%s'", o->accel);
	return 0;
}

void qboot_init(struct qboot *b, const char *name)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
}

int qboot_add_frag(struct qboot *b, const char *path)
{
	if (b->nr_frags == QBOOT_MAX_FRAGS)
		return error("too many config fragments for boot '%s'", b->name);
	if (!path_exists(path))
		return error("no config fragment '%s'", path);
	strbuf_addstr(&b->frag_paths[b->nr_frags], path);
	b->frags[b->nr_frags] = b->frag_paths[b->nr_frags].buf;
	b->nr_frags++;
	return 0;
}

int qboot_add_arg(struct qboot *b, const char *arg)
{
	if (b->nr_args == QBOOT_MAX_ARGS)
		return error("too many QEMU arguments for boot '%s'", b->name);
	b->args[b->nr_args++] = arg;
	return 0;
}

void qboot_release(struct qboot *b)
{
	int i;

	if (b->built)
		qemu_kbuild_release(&b->kb);
	for (i = 0; i < QBOOT_MAX_FRAGS; i++)
		strbuf_release(&b->frag_paths[i]);
	strbuf_release(&b->append);
	strbuf_release(&b->log);
	qemu_result_release(&b->res);
}

int qboot_judge(struct qboot *b, const char *expect_path, const struct qemu_run *run)
{
	struct qemu_expect e;
	struct strbuf console = STRBUF_INIT;
	int ret = -1;

	if (qemu_expect_read(&e, expect_path))
		goto out;
	if (strbuf_read_file(&console, b->log.buf) < 0) {
		error("cannot read the console log '%s'", b->log.buf);
		goto out;
	}
	ret = qemu_classify(sb_str(&console), &e, run, &b->res);
out:
	qemu_expect_release(&e);
	strbuf_release(&console);
	return ret;
}

static void console_log_path(struct qboot *b, const struct qboot_opts *o)
{
	strbuf_addf(&b->log, "%s/console-%s", b->kb.dir.buf, b->log_name ? b->log_name : "boot");
	if (o->keep) {
		char stamp[32];
		time_t t = time(NULL);

		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
		strbuf_addf(&b->log, "-%s", stamp);
	}
	strbuf_addstr(&b->log, ".log");
}

int qboot_run(struct qboot *b, const struct qboot_opts *o, const struct series *s)
{
	struct strbuf initrd = STRBUF_INIT, append = STRBUF_INIT;
	int ret = -1;

	if (!path_exists(b->expect)) {
		error("no expectations for boot '%s': '%s'", b->name, b->expect);
		goto out;
	}
	if (qemu_kbuild_init(&b->kb, s, b->frags, b->nr_frags))
		goto out;
	b->built = 1;
	if (qemu_kbuild_make(&b->kb, s, b->frags, b->nr_frags)) {
		b->res.verdict = V_BUILD_FAILED;
		if (path_exists(b->kb.log.buf))	/* not when the series did not apply */
			strbuf_addstr(&b->log, b->kb.log.buf);
		ret = 0;
		goto out;
	}
	if (qemu_initramfs(bkl_repo_dir(), ktree_dir("pristine"), &initrd))
		goto out;
	if (b->prepare && b->prepare(b, &initrd, b->data)) {
		b->res.verdict = V_BUILD_FAILED;
		ret = 0;
		goto out;
	}
	b->accel = qemu_accel(o->accel, b->kb.bzimage.buf);
	strbuf_addf(&append, "%s%s%s", DEFAULT_APPEND, b->append.len ? " " : "", sb_str(&b->append));
	console_log_path(b, o);
	if (qemu_boot(b->kb.bzimage.buf, initrd.buf, b->accel, append.buf, b->args, b->nr_args,
		      o->timeout, b->log.buf, &b->run))
		goto out;
	b->booted = 1;
	ret = qboot_judge(b, b->expect, &b->run);
	if (!o->keep)
		qemu_kbuild_prune(&b->kb);
out:
	strbuf_release(&initrd);
	strbuf_release(&append);
	return ret;
}

/* ---- printing ---- */

static void json_seconds(struct strbuf *sb, int have, double s)
{
	if (have)
		strbuf_addf(sb, "%.1f", s);
	else
		strbuf_addstr(sb, "null");
}

/*
 * The members every boot has, without braces: "verdict" ... "log".
 * bkl qemu puts "boot" before them, bkl test "driver" and "phase".
 */
void qboot_json_members(struct strbuf *sb, const struct qboot *b)
{
	const struct qemu_result *r = &b->res;
	int i;

	strbuf_addf(sb, "\"verdict\":\"%s\",\"kernel\":", qemu_verdict_name(r->verdict));
	json_str_or_null(sb, b->built ? b->kb.key : NULL);
	strbuf_addstr(sb, ",\"series\":");
	json_str_or_null(sb, b->built ? b->kb.series : NULL);
	strbuf_addstr(sb, ",\"config\":[");
	for (i = 0; i < b->nr_frags; i++) {
		const char *slash = strrchr(b->frags[i], '/');

		strbuf_addstr(sb, i ? "," : "");
		json_str_or_null(sb, slash ? slash + 1 : b->frags[i]);
	}
	strbuf_addstr(sb, "],\"accel\":");
	json_str_or_null(sb, b->booted ? b->accel : NULL);
	strbuf_addstr(sb, ",\"build_seconds\":");
	json_seconds(sb, b->built, b->kb.seconds);
	strbuf_addf(sb, ",\"build_cached\":%s,\"boot_seconds\":",
		    b->built && b->kb.cached ? "true" : "false");
	json_seconds(sb, b->booted, b->run.seconds);
	strbuf_addstr(sb, ",\"reports\":[");
	for (i = 0; i < r->nr_reports; i++) {
		strbuf_addf(sb, "%s{\"kind\":\"%s\",\"expected\":%s,\"lines\":[%d,%d],\"excerpt\":",
			    i ? "," : "", r->reports[i].kind,
			    r->reports[i].expected ? "true" : "false",
			    r->reports[i].first, r->reports[i].last);
		json_str_or_null(sb, r->reports[i].excerpt);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "],\"missing\":[");
	for (i = 0; i < r->nr_missing; i++) {
		strbuf_addstr(sb, i ? "," : "");
		json_str_or_null(sb, r->missing[i]);
	}
	strbuf_addstr(sb, "],\"log\":");
	json_str_or_null(sb, b->log.len ? b->log.buf : NULL);
}

static void print_excerpt(const char *excerpt)
{
	const char *p = excerpt, *nl;

	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		printf("    | %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
		if (!nl)
			break;
	}
}

/* The problems of a boot, indented: unexpected reports, missing lines. */
static void print_problems(const struct qboot *b)
{
	const struct qemu_result *r = &b->res;
	int i;

	for (i = 0; i < r->nr_reports; i++) {
		if (r->reports[i].expected)
			continue;
		printf("  unexpected %s report, console lines %d-%d:\n", r->reports[i].kind,
		       r->reports[i].first, r->reports[i].last);
		print_excerpt(r->reports[i].excerpt);
	}
	for (i = 0; i < r->nr_missing; i++)
		printf("  missing: %s\n", r->missing[i]);
}

void qboot_print_text(const struct qboot *b, const char *extra)
{
	const struct qemu_result *r = &b->res;
	int i, expected = 0;

	for (i = 0; i < r->nr_reports; i++)
		expected += r->reports[i].expected;
	printf("%s: %s", b->name, qemu_verdict_name(r->verdict));
	if (b->built)
		printf(" (build %.1f s%s", b->kb.seconds, b->kb.cached ? " reused" : "");
	if (b->booted)
		printf(", boot %.1f s %s", b->run.seconds, b->accel);
	printf("%s%d reports, %d expected)\n", b->built ? ", " : " (", r->nr_reports, expected);
	if (b->built)
		printf("  kernel %s, series %s\n", b->kb.key, b->kb.series);
	if (extra && *extra)
		printf("  %s\n", extra);
	print_problems(b);
	if (b->log.len)
		printf("  log: %s\n", b->log.buf);
}
