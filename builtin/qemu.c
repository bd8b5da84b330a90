// SPDX-License-Identifier: GPL-2.0
/*
 * bkl qemu: build the patched kernel for a boot (base.config plus named
 * fragments), boot it in QEMU with the test initramfs, and judge the
 * serial console against the boot's .expect file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "builtin.h"
#include "lib/ktree.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/qemu.h"
#include "lib/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_qemu[] =
	"usage: bkl qemu [--config NAME]... [--suite NAME] [--timeout S] [--json] [--keep]\n"
	"                [--accel auto|tcg|kvm] [--append ARGS] [--expect FILE]\n"
	"   or: bkl qemu --classify LOG --expect FILE [--json]\n"
	"\n"
	"Build the kernel (the pristine tree with patches/series applied) from\n"
	"qemu-tests/configs/base.config plus each --config NAME (NAME.config),\n"
	"boot it in QEMU with the test initramfs, and judge its console against\n"
	"qemu-tests/SUITE/BOOT.expect, BOOT being the NAMEs joined by '+'.\n"
	"Without --config: the boots 'nobkl' and 'bkl', one after the other.\n"
	"A build is reused while the fragments and the series are unchanged.\n"
	"Verdicts: pass, fail, timeout, build-failed; exit status 0 when every\n"
	"boot passed, 1 otherwise.\n"
	"\n"
	"    --config NAME    add qemu-tests/configs/NAME.config (repeatable)\n"
	"    --suite NAME     the expectations directory (default: boot)\n"
	"    --timeout S      kill QEMU after S seconds (default 180)\n"
	"    --json           one JSON object per boot, one per line\n"
	"    --keep           keep every console log (timestamped) and old builds\n"
	"    --accel A        auto (default: KVM when the kernel boots under it), tcg, kvm\n"
	"    --append ARGS    more kernel parameters\n"
	"    --expect FILE    the expectations instead of SUITE/BOOT.expect\n"
	"    --classify LOG   only judge a recorded console log (needs --expect)\n"
	"\n"
	"The format of .expect files and the report kinds: qemu-tests/README.\n";

#define DEFAULT_APPEND	"console=ttyS0 panic=-1 bkl_seconds=3"

struct qemu_opts {
	const char *configs[16];
	int nr_configs;
	const char *suite, *accel, *append, *expect, *classify;
	int timeout, json, keep;
};

struct boot {
	char name[256];
	const char *frags[18];
	int nr_frags;
	struct strbuf frag_paths[18];
	struct qemu_kbuild kb;
	int built;		/* kb was initialized */
	struct qemu_run run;
	int booted;
	const char *accel;
	struct strbuf log;
	struct qemu_result res;
};

/* --config may repeat: take every one out of argv before parse_options(). */
static int take_configs(int argc, const char **argv, struct qemu_opts *o)
{
	int i, n = 1;

	for (i = 1; i < argc; i++) {
		const char *v = NULL;

		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--config")) {
			if (i + 1 >= argc)
				return error("option '--config' requires a value");
			v = argv[++i];
		} else if (!strncmp(argv[i], "--config=", 9)) {
			v = argv[i] + 9;
		}
		if (!v) {
			argv[n++] = argv[i];
			continue;
		}
		if (o->nr_configs == 16)
			return error("too many --config");
		o->configs[o->nr_configs++] = v;
	}
	while (i < argc)
		argv[n++] = argv[i++];
	argv[n] = NULL;
	return n;
}

static void json_string(const char *s)
{
	if (!s) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c < 0x20 || c == 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_seconds(int have, double s)
{
	if (have)
		printf("%.1f", s);
	else
		fputs("null", stdout);
}

static void print_json(struct boot *b)
{
	const struct qemu_result *r = &b->res;
	int i;

	printf("{\"boot\":");
	json_string(b->name);
	printf(",\"verdict\":\"%s\",\"kernel\":", qemu_verdict_name(r->verdict));
	json_string(b->built ? b->kb.key : NULL);
	printf(",\"series\":");
	json_string(b->built ? b->kb.series : NULL);
	printf(",\"config\":[");
	for (i = 0; i < b->nr_frags; i++) {
		printf(i ? "," : "");
		json_string(strrchr(b->frags[i], '/') + 1);
	}
	printf("],\"accel\":");
	json_string(b->booted ? b->accel : NULL);
	printf(",\"build_seconds\":");
	json_seconds(b->built, b->kb.seconds);
	printf(",\"build_cached\":%s,\"boot_seconds\":", b->built && b->kb.cached ? "true" : "false");
	json_seconds(b->booted, b->run.seconds);
	printf(",\"reports\":[");
	for (i = 0; i < r->nr_reports; i++) {
		printf("%s{\"kind\":\"%s\",\"expected\":%s,\"lines\":[%d,%d],\"excerpt\":",
		       i ? "," : "", r->reports[i].kind, r->reports[i].expected ? "true" : "false",
		       r->reports[i].first, r->reports[i].last);
		json_string(r->reports[i].excerpt);
		putchar('}');
	}
	printf("],\"missing\":[");
	for (i = 0; i < r->nr_missing; i++) {
		printf(i ? "," : "");
		json_string(r->missing[i]);
	}
	printf("],\"log\":");
	json_string(b->log.len ? b->log.buf : NULL);
	printf("}\n");
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

static void print_text(struct boot *b)
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
	for (i = 0; i < r->nr_reports; i++) {
		if (r->reports[i].expected)
			continue;
		printf("  unexpected %s report, console lines %d-%d:\n", r->reports[i].kind,
		       r->reports[i].first, r->reports[i].last);
		print_excerpt(r->reports[i].excerpt);
	}
	for (i = 0; i < r->nr_missing; i++)
		printf("  missing: %s\n", r->missing[i]);
	if (b->log.len)
		printf("  log: %s\n", b->log.buf);
}

static int judge_log(struct boot *b, const char *expect_path, const struct qemu_run *run)
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

static int setup_boot(struct boot *b, const char **names, int nr)
{
	const char *repo = bkl_repo_dir();
	int i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i <= nr; i++) {
		const char *name = i ? names[i - 1] : "base";

		if (strchr(name, '/') || !*name)
			return error("bad config name '%s'", name);
		strbuf_addf(&b->frag_paths[i], "%s/qemu-tests/configs/%s.config", repo, name);
		if (!path_exists(b->frag_paths[i].buf))
			return error("no config fragment '%s'", b->frag_paths[i].buf);
		b->frags[b->nr_frags++] = b->frag_paths[i].buf;
		if (i)
			snprintf(b->name + strlen(b->name), sizeof(b->name) - strlen(b->name),
				 "%s%s", i > 1 ? "+" : "", name);
	}
	if (!nr)
		strcpy(b->name, "base");
	return 0;
}

static void console_log_path(struct boot *b, const struct qemu_opts *o)
{
	strbuf_addf(&b->log, "%s/console-%s", b->kb.dir.buf, o->suite);
	if (o->keep) {
		char stamp[32];
		time_t t = time(NULL);

		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
		strbuf_addf(&b->log, "-%s", stamp);
	}
	strbuf_addstr(&b->log, ".log");
}

/* Build, boot, judge one boot; its verdict lands in b->res. */
static int run_boot(struct boot *b, const struct qemu_opts *o, const struct series *s)
{
	struct strbuf expect = STRBUF_INIT, initrd = STRBUF_INIT, append = STRBUF_INIT;
	int ret = -1;

	if (o->expect)
		strbuf_addstr(&expect, o->expect);
	else
		strbuf_addf(&expect, "%s/qemu-tests/%s/%s.expect", bkl_repo_dir(), o->suite, b->name);
	if (!path_exists(expect.buf)) {
		error("no expectations for boot '%s': '%s'", b->name, expect.buf);
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
	b->accel = qemu_accel(o->accel, b->kb.bzimage.buf);
	strbuf_addf(&append, "%s%s%s", DEFAULT_APPEND, o->append ? " " : "",
		    o->append ? o->append : "");
	console_log_path(b, o);
	if (qemu_boot(b->kb.bzimage.buf, initrd.buf, b->accel, append.buf, o->timeout,
		      b->log.buf, &b->run))
		goto out;
	b->booted = 1;
	ret = judge_log(b, expect.buf, &b->run);
	if (!o->keep)
		qemu_kbuild_prune(&b->kb);
out:
	strbuf_release(&expect);
	strbuf_release(&initrd);
	strbuf_release(&append);
	return ret;
}

static void release_boot(struct boot *b)
{
	int i;

	if (b->built)
		qemu_kbuild_release(&b->kb);
	for (i = 0; i < 18; i++)
		strbuf_release(&b->frag_paths[i]);
	strbuf_release(&b->log);
	qemu_result_release(&b->res);
}

static int classify_only(const struct qemu_opts *o)
{
	struct boot b;
	int ret;

	if (!o->expect)
		return error("--classify needs --expect FILE");
	memset(&b, 0, sizeof(b));
	snprintf(b.name, sizeof(b.name), "%s", o->classify);
	strbuf_addstr(&b.log, o->classify);
	ret = judge_log(&b, o->expect, NULL);
	if (!ret) {
		if (o->json)
			print_json(&b);
		else
			print_text(&b);
		ret = b.res.verdict == V_PASS ? 0 : 1;
	}
	release_boot(&b);
	return ret;
}

static int run_boots(const struct qemu_opts *o, const char **names[], const int *nr, int boots)
{
	struct strbuf patches = STRBUF_INIT;
	const char *tarball = getenv("BKL_TARBALL");
	struct series s;
	struct boot b;
	int i, ret = 0, failed = 0;

	strbuf_addf(&patches, "%s/patches", bkl_repo_dir());
	if (series_read(&s, patches.buf)) {
		strbuf_release(&patches);
		return -1;
	}
	if (mkdir_p(ktree_dir("")) || ktree_unpack(tarball && *tarball ? tarball : DEFAULT_TARBALL)) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < boots && ret >= 0; i++) {
		if (setup_boot(&b, names[i], nr[i]) || run_boot(&b, o, &s)) {
			ret = -1;
		} else {
			if (o->json)
				print_json(&b);
			else
				print_text(&b);
			failed += b.res.verdict != V_PASS;
		}
		fflush(stdout);
		release_boot(&b);
	}
out:
	series_release(&s);
	strbuf_release(&patches);
	return ret < 0 ? ret : failed ? 1 : 0;
}

int cmd_qemu(int argc, const char **argv)
{
	static const char *nobkl[] = { "nobkl" }, *bkl[] = { "bkl" };
	struct qemu_opts o = { .suite = "boot", .accel = "auto", .timeout = 180 };
	const struct option opts[] = {
		OPT_STRING(0, "suite", &o.suite),
		OPT_INT(0, "timeout", &o.timeout),
		OPT_BOOL(0, "json", &o.json),
		OPT_BOOL(0, "keep", &o.keep),
		OPT_STRING(0, "accel", &o.accel),
		OPT_STRING(0, "append", &o.append),
		OPT_STRING(0, "expect", &o.expect),
		OPT_STRING(0, "classify", &o.classify),
		OPT_END()
	};
	const char **names[2];
	int nr[2];

	argc = take_configs(argc, argv, &o);
	if (argc < 0)
		return -1;
	argc = parse_options(argc, argv, opts);
	if (argc < 0)
		return -1;
	if (argc)
		return show_usage(find_command("qemu"), 1);
	if (o.timeout <= 0)
		return error("--timeout must be a positive number of seconds");
	if (strcmp(o.accel, "auto") && strcmp(o.accel, "tcg") && strcmp(o.accel, "kvm"))
		return error("--accel must be auto, tcg or kvm, not '%s'", o.accel);
	if (strchr(o.suite, '/') || !*o.suite)
		return error("bad suite name '%s'", o.suite);
	if (o.classify)
		return classify_only(&o);
	if (o.nr_configs) {
		names[0] = o.configs;
		nr[0] = o.nr_configs;
		return run_boots(&o, names, nr, 1);
	}
	if (o.expect)
		return error("--expect needs one boot: name it with --config");
	names[0] = nobkl;
	names[1] = bkl;
	nr[0] = nr[1] = 1;
	return run_boots(&o, names, nr, 2);
}
