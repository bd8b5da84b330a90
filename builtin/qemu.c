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
#include "ktree/ktree.h"
#include "lib/parse-options.h"
#include "lib/paths.h"
#include "lib/quote.h"
#include "qemu/qemu.h"
#include "report/report.h"
#include "ktree/series.h"
#include "qemu/driver.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char usage_qemu[] =
	"usage: bkl qemu [--config NAME]... [--suite NAME] [--timeout S] [--json] [--keep]\n"
	"                [--accel auto|tcg|kvm] [--append ARGS] [--expect FILE]\n"
	"   or: bkl qemu --classify LOG --expect FILE [--json]\n"
	"\n"
	"Build the kernel (the pristine tree with the core of patches/series and\n"
	"every push-down applied, the state before any conversion; with --config\n"
	"end, the whole series, its end too) from\n"
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

struct qemu_opts {
	const char *configs[16];
	int nr_configs;
	const char *suite, *expect, *classify, *append;
	struct qboot_opts boot;
	int json;
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

static void print_boot(const struct qboot *b, int json)
{
	struct strbuf sb = STRBUF_INIT;

	if (!json) {
		qboot_print_text(b, NULL);
		return;
	}
	strbuf_addstr(&sb, "{\"boot\":");
	json_str_or_null(&sb, b->name);
	strbuf_addch(&sb, ',');
	qboot_json_members(&sb, b);
	printf("%s}\n", sb.buf);
	strbuf_release(&sb);
}

/* base.config, then each NAME.config; the boot is named "NAME+NAME". */
static int setup_boot(struct qboot *b, const char **names, int nr, struct strbuf *frag)
{
	const char *repo = bkl_repo_dir();
	int i;

	for (i = 0; i <= nr; i++) {
		const char *name = i ? names[i - 1] : "base";

		if (strchr(name, '/') || !*name)
			return error("bad config name '%s'", name);
		strbuf_reset(frag);
		strbuf_addf(frag, "%s/qemu-tests/configs/%s.config", repo, name);
		if (qboot_add_frag(b, frag->buf))
			return -1;
		if (i)
			snprintf(b->name + strlen(b->name), sizeof(b->name) - strlen(b->name),
				 "%s%s", i > 1 ? "+" : "", name);
	}
	if (!nr)
		strcpy(b->name, "base");
	return 0;
}

static int run_one(const struct qemu_opts *o, const char **names, int nr,
		   const struct series *s, int *failed)
{
	struct strbuf frag = STRBUF_INIT, expect = STRBUF_INIT;
	struct qboot b;
	int ret = -1;

	qboot_init(&b, "");
	if (setup_boot(&b, names, nr, &frag))
		goto out;
	if (o->expect)
		strbuf_addstr(&expect, o->expect);
	else
		strbuf_addf(&expect, "%s/qemu-tests/%s/%s.expect", bkl_repo_dir(), o->suite, b.name);
	b.expect = expect.buf;
	b.log_name = o->suite;
	/* chardev-open's run time; after it, so that --append can change it */
	strbuf_addstr(&b.append, "bkl_seconds=3");
	if (o->append)
		strbuf_addf(&b.append, " %s", o->append);
	/*
	 * COM1 the console, as -nographic makes it; COM2 (ttyS1) a host
	 * "tty" on /dev/null, which has no modem lines: QEMU's UART then
	 * shows no carrier, and init/tty-carrier.c's blocking open waits.
	 */
	if (qboot_add_arg(&b, "-serial") || qboot_add_arg(&b, "mon:stdio") ||
	    qboot_add_arg(&b, "-serial") || qboot_add_arg(&b, "/dev/null"))
		goto out;
	if (qboot_run(&b, &o->boot, s))
		goto out;
	print_boot(&b, o->json);
	*failed += b.res.verdict != V_PASS;
	ret = 0;
out:
	fflush(stdout);
	qboot_release(&b);
	strbuf_release(&frag);
	strbuf_release(&expect);
	return ret;
}

static int classify_only(const struct qemu_opts *o)
{
	struct qboot b;
	int ret;

	if (!o->expect)
		return error("--classify needs --expect FILE");
	qboot_init(&b, o->classify);
	strbuf_addstr(&b.log, o->classify);
	ret = qboot_judge(&b, o->expect, NULL);
	if (!ret) {
		print_boot(&b, o->json);
		ret = b.res.verdict == V_PASS ? 0 : 1;
	}
	qboot_release(&b);
	return ret;
}

/* The series before the campaign converted anything, and before its end. */
static int before_conversions(const char *name, int idx, void *data)
{
	char driver[256];
	int conversion = 0;

	if (series_is_end(name))
		return 0;
	return !qdriver_patch_of(name, driver, sizeof(driver), &conversion) || !conversion;
}

static int is_end_boot(const char **names, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], "end"))
			return 1;
	return 0;
}

static int run_boots(const struct qemu_opts *o, const char **names[], const int *nr, int boots)
{
	struct strbuf patches = STRBUF_INIT;
	const char *tarball = getenv("BKL_TARBALL");
	struct series full, s;
	int i, ret = 0, failed = 0;

	strbuf_addf(&patches, "%s/patches", bkl_repo_dir());
	if (series_read(&full, patches.buf)) {
		strbuf_release(&patches);
		return -1;
	}
	if (mkdir_p(ktree_dir("")) ||
	    series_subset(&s, &full, ktree_dir("series.pushed-down"), before_conversions, NULL)) {
		ret = -1;
		goto out_full;
	}
	if (ktree_unpack(tarball && *tarball ? tarball : DEFAULT_TARBALL)) {
		ret = -1;
		goto out;
	}
	/*
	 * The "end" boot has the whole series; the others the core and every
	 * push-down, the 2.6.27 state: what the core's tests need (misc_open()
	 * and tty_open() holding the BKL, their drops of it for a wait)
	 */
	for (i = 0; i < boots && ret >= 0; i++)
		ret = run_one(o, names[i], nr[i], is_end_boot(names[i], nr[i]) ? &full : &s,
			      &failed);
out:
	series_release(&s);
out_full:
	series_release(&full);
	strbuf_release(&patches);
	return ret < 0 ? ret : failed ? 1 : 0;
}

int cmd_qemu(int argc, const char **argv)
{
	static const char *nobkl[] = { "nobkl" }, *bkl[] = { "bkl" };
	struct qemu_opts o = { .suite = "boot", .boot = { .accel = "auto", .timeout = 180 } };
	const struct option opts[] = {
		OPT_STRING(0, "suite", &o.suite),
		OPT_INT(0, "timeout", &o.boot.timeout),
		OPT_BOOL(0, "json", &o.json),
		OPT_BOOL(0, "keep", &o.boot.keep),
		OPT_STRING(0, "accel", &o.boot.accel),
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
		return show_usage(usage_qemu, 1);
	if (qboot_opts_check(&o.boot))
		return -1;
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
