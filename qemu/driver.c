// SPDX-License-Identifier: GPL-2.0
/*
 * A driver's test in QEMU (bkl test): its .test file, the kernel config
 * all driver tests share, the part of the series a phase runs on, and the
 * out-of-tree module a negative control loads while its node is opened.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/paths.h"
#include "qemu/driver.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/usage.h"

#define UNION_HEADER \
	"# Written by bkl test: the config lines of every qemu-tests/drivers/*.test.\n"

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? strndup(path, slash - path) : strdup(".");
}

/* Comma-separated lists, as the exerciser reads them. */
static void list_add(struct strbuf *list, const char *item)
{
	strbuf_addf(list, "%s%s", list->len ? "," : "", item);
}

static int list_has(const struct strbuf *list, const char *item)
{
	const char *p = sb_str(list);
	size_t n = strlen(item);

	for (; *p; p += strcspn(p, ",") + !!p[strcspn(p, ",")])
		if (!strncmp(p, item, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

static int parse_node(struct qdriver *d, char *rest, const char *where)
{
	char *node = strtok(rest, " \t"), *flag;

	if (!node || node[0] != '/' || strchr(node, ',') || strchr(node, ':'))
		return error("%s: 'node' needs a path such as /dev/nvram", where);
	if (!list_has(&d->nodes, node))
		list_add(&d->nodes, node);
	while ((flag = strtok(NULL, " \t"))) {
		if (!strcmp(flag, "read"))
			list_add(&d->reads, node);
		else if (!strcmp(flag, "vclose"))
			list_add(&d->vclose, node);
		else
			return error("%s: unknown node flag '%s' (read, vclose)", where, flag);
	}
	return 0;
}

static int parse_ioctl(struct qdriver *d, char *rest, const char *where)
{
	char *node = strtok(rest, " \t"), *nr = strtok(NULL, " \t"), *end;

	if (!node || !nr || strtok(NULL, " \t"))
		return error("%s: 'ioctl' needs a node and a number", where);
	errno = 0;
	strtoul(nr, &end, 0);
	if (errno || *end || !list_has(&d->nodes, node))
		return error("%s: bad ioctl '%s %s' (a node named before, a number)", where, node, nr);
	strbuf_addf(&d->ioctls, "%s%s:%s", d->ioctls.len ? "," : "", node, nr);
	return 0;
}

static int parse_line(struct qdriver *d, char *line, const char *where)
{
	char *verb = strtok(line, " \t"), *rest = strtok(NULL, "");
	char *arg;

	if (!rest)
		return error("%s: '%s' needs an argument", where, verb);
	rest += strspn(rest, " \t");
	if (!strcmp(verb, "config")) {
		if (strncmp(rest, "CONFIG_", 7) || !strchr(rest, '=') || strpbrk(rest, " \t"))
			return error("%s: bad config line '%s' (CONFIG_X=y)", where, rest);
		strbuf_addf(&d->config, "%s\n", rest);
	} else if (!strcmp(verb, "node")) {
		return parse_node(d, rest, where);
	} else if (!strcmp(verb, "ioctl")) {
		return parse_ioctl(d, rest, where);
	} else if (!strcmp(verb, "qemu")) {
		for (arg = strtok(rest, " \t"); arg; arg = strtok(NULL, " \t")) {
			if (d->nr_args == QBOOT_MAX_ARGS)
				return error("%s: too many QEMU arguments", where);
			strbuf_add(&d->args, arg, strlen(arg) + 1);
			d->nr_args++;
		}
	} else if (!strcmp(verb, "append")) {
		strbuf_addf(&d->append, " %s", rest);
	} else if (!strcmp(verb, "module")) {
		if (d->module || d->kmod || strpbrk(rest, "/ \t"))
			return error("%s: one 'module NAME' (a .ko built from this directory)", where);
		d->module = strdup(rest);
	} else if (!strcmp(verb, "kmod")) {
		size_t n = strlen(rest);

		if (d->module || d->kmod || strpbrk(rest, " \t") || n < 4 || strcmp(rest + n - 3, ".ko") ||
		    rest[0] == '/' || strstr(rest, ".."))
			return error("%s: one 'kmod PATH.ko' (the driver built =m, as in the tree)", where);
		d->kmod = strdup(rest);
	} else if (!strcmp(verb, "seconds")) {
		d->seconds = atoi(rest);
		if (d->seconds <= 0 || d->seconds > 60)
			return error("%s: 'seconds' must be 1 to 60", where);
	} else {
		return error("%s: unknown directive '%s'", where, verb);
	}
	return 0;
}

int qdriver_read(struct qdriver *d, const char *name, const char *path)
{
	char line[1024], where[600];
	int n = 0, ret = 0;
	FILE *f;

	memset(d, 0, sizeof(*d));
	d->name = strdup(name);
	d->path = strdup(path);
	d->dir = dir_of(path);
	d->seconds = 3;
	f = fopen(path, "r");
	if (!f)
		return error("cannot read the driver test '%s': %s", path, strerror(errno));
	while (!ret && fgets(line, sizeof(line), f)) {
		char *p = line;

		n++;
		line[strcspn(line, "#\r\n")] = '\0';
		p += strspn(p, " \t");
		if (!*p)
			continue;
		snprintf(where, sizeof(where), "%s:%d", path, n);
		ret = parse_line(d, p, where);
	}
	fclose(f);
	if (!ret && !d->nodes.len)
		ret = error("%s: no 'node' to exercise", path);
	return ret;
}

void qdriver_release(struct qdriver *d)
{
	free(d->name);
	free(d->path);
	free(d->dir);
	free(d->module);
	free(d->kmod);
	strbuf_release(&d->config);
	strbuf_release(&d->nodes);
	strbuf_release(&d->reads);
	strbuf_release(&d->vclose);
	strbuf_release(&d->ioctls);
	strbuf_release(&d->append);
	strbuf_release(&d->args);
	memset(d, 0, sizeof(*d));
}

int qdriver_find(struct qdriver *d, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	if (!*name || strchr(name, '/')) {
		memset(d, 0, sizeof(*d));
		return error("bad driver name '%s'", name);
	}
	strbuf_addf(&path, "%s/qemu-tests/drivers/%s.test", bkl_repo_dir(), name);
	if (!path_exists(path.buf)) {
		memset(d, 0, sizeof(*d));
		ret = error("no QEMU test for driver '%s': write '%s' (see qemu-tests/README)",
			    name, path.buf);
	} else {
		ret = qdriver_read(d, name, path.buf);
	}
	strbuf_release(&path);
	return ret;
}

/* qemu-tests/unexercised, read once: bkl drivers --json asks for every driver */
static const char *unexercised_text(void)
{
	static struct strbuf text = STRBUF_INIT;
	static int read;

	if (!read) {
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "%s/qemu-tests/unexercised", bkl_repo_dir());
		if (strbuf_read_file(&text, path.buf))
			strbuf_reset(&text);
		strbuf_release(&path);
		read = 1;
	}
	return sb_str(&text);
}

int qdriver_exercised(const char *name, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT;
	const char *p;
	size_t n = strlen(name);
	int ret = -1;

	strbuf_addf(&path, "%s/qemu-tests/drivers/%s.test", bkl_repo_dir(), name);
	if (path_exists(path.buf)) {
		strbuf_addf(why, "qemu-tests/drivers/%s.test", name);
		ret = 1;
	}
	for (p = unexercised_text(); ret < 0 && p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == '\t') {
			strbuf_add(why, p + n + 1, strcspn(p + n + 1, "\n"));
			ret = 0;
		}
	strbuf_release(&path);
	return ret;
}

static int test_file(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 5 && !strcmp(de->d_name + n - 5, ".test") && de->d_name[0] != '.';
}

/* Add d's lines to all, refusing an option two files set differently. */
static int merge_config(struct strbuf *all, const struct qdriver *d)
{
	const char *p, *nl;

	for (p = sb_str(&d->config); *p; p = nl + 1) {
		const char *eq = strchr(p, '=');
		struct strbuf key = STRBUF_INIT;
		const char *have;

		nl = strchr(p, '\n');
		strbuf_addf(&key, "\n%.*s", (int)(eq - p + 1), p);
		have = strstr(sb_str(all), key.buf);
		if (have && strncmp(have + 1, p, nl - p + 1)) {
			error("%s asks %.*s, another driver test %.*s", d->path, (int)(nl - p), p,
			      (int)strcspn(have + 1, "\n"), have + 1);
			strbuf_release(&key);
			return -1;
		}
		if (!have)
			strbuf_addf(all, "%.*s\n", (int)(nl - p), p);
		strbuf_release(&key);
	}
	return 0;
}

int qdriver_union_config(struct strbuf *path)
{
	struct strbuf dir = STRBUF_INIT, all = STRBUF_INIT, file = STRBUF_INIT;
	struct dirent **list = NULL;
	struct qdriver d;
	int i, n, ret = -1;

	strbuf_addf(&dir, "%s/qemu-tests/drivers", bkl_repo_dir());
	n = scandir(dir.buf, &list, test_file, alphasort);
	if (n < 0) {
		error("no driver tests in '%s'", dir.buf);
		goto out;
	}
	strbuf_addstr(&all, UNION_HEADER);
	for (i = 0; i < n; i++) {
		int len = strlen(list[i]->d_name) - 5;
		char name[256];

		snprintf(name, sizeof(name), "%.*s", len, list[i]->d_name);
		strbuf_reset(&file);
		strbuf_addf(&file, "%s/%s", dir.buf, list[i]->d_name);
		if (qdriver_read(&d, name, file.buf) || merge_config(&all, &d)) {
			qdriver_release(&d);
			goto out;
		}
		qdriver_release(&d);
	}
	/*
	 * One file per content: another repository's bkl test (a test's
	 * scratch repo) must not rewrite the one a running test builds
	 * with.  The name stays drivers.config, part of the kernel's key.
	 */
	strbuf_addf(path, "%s/qemu/drivers-%016llx", bkl_cache_dir(),
		    (unsigned long long)fnv1a(FNV1A_INIT, all.buf, all.len));
	if (mkdir_p(path->buf))
		goto out;
	strbuf_addstr(path, "/drivers.config");
	ret = write_file(path->buf, all.buf);
out:
	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
	strbuf_release(&dir);
	strbuf_release(&all);
	strbuf_release(&file);
	return ret;
}

struct phase_sel {
	struct qdriver *const *drivers;
	int nr, last;
	enum qphase phase;
	struct strbuf withheld;		/* "\nchar-misc\n...": drivers left out */
};

int qdriver_patch_of(const char *patch, char *driver, size_t size, int *conversion)
{
	const char *slash;

	if (strncmp(patch, "drivers/", 8) || !(slash = strchr(patch + 8, '/')))
		return 0;
	snprintf(driver, size, "%.*s", (int)(slash - patch - 8), patch + 8);
	*conversion = strncmp(slash + 1, "0001-", 5) != 0;
	return 1;
}

/* Which of sel's drivers the patch belongs to, or -1; *conv: a conversion. */
static int owner(const struct phase_sel *sel, const char *patch, int *conv)
{
	char name[256];
	int i;

	if (!qdriver_patch_of(patch, name, sizeof(name), conv))
		return -1;
	for (i = 0; i < sel->nr; i++)
		if (!strcmp(name, sel->drivers[i]->name))
			return i;
	return -1;
}

static int is_withheld(const struct phase_sel *sel, const char *driver)
{
	struct strbuf key = STRBUF_INIT;
	int ret;

	strbuf_addf(&key, "\n%s\n", driver);
	ret = strstr(sb_str(&sel->withheld), key.buf) != NULL;
	strbuf_release(&key);
	return ret;
}

static int keep_patch(const char *name, int idx, void *data)
{
	const struct phase_sel *sel = data;
	char driver[256];
	int conv;

	if (idx > sel->last)
		return 0;
	if (qdriver_patch_of(name, driver, sizeof(driver), &conv) && is_withheld(sel, driver))
		return 0;
	return !(sel->phase == QPHASE_BEFORE && owner(sel, name, &conv) >= 0 && conv);
}

/*
 * qemu-tests/campaign-withheld: the drivers whose patches the test kernel
 * leaves out, one a line, '#' to the end of the line a comment.
 */
static int read_withheld(struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	char line[512];
	FILE *f;

	strbuf_addf(&path, "%s/qemu-tests/campaign-withheld", bkl_repo_dir());
	strbuf_addch(out, '\n');
	f = fopen(path.buf, "r");
	if (!f) {
		strbuf_release(&path);
		return errno == ENOENT ? 0 : error("cannot read '%s': %s", path.buf, strerror(errno));
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		p[strcspn(p, "# \t\r\n")] = '\0';
		if (*p)
			strbuf_addf(out, "%s\n", p);
	}
	fclose(f);
	strbuf_release(&path);
	return 0;
}

int qdriver_series(struct series *dst, const struct series *src, struct qdriver *const *drivers,
		   int nr, enum qphase phase)
{
	struct phase_sel sel = { drivers, nr, -1, phase, STRBUF_INIT };
	struct strbuf file = STRBUF_INIT;
	int i, d, c, ret;
	int *pushed = calloc(nr, sizeof(*pushed)), *conv = calloc(nr, sizeof(*conv));

	ret = read_withheld(&sel.withheld);
	for (i = 0; i < src->nr && !ret; i++) {
		d = owner(&sel, src->names[i], &c);
		if (d < 0)
			continue;
		pushed[d] |= !c;
		conv[d] |= c;
		sel.last = i;
	}
	for (d = 0; d < nr && !ret; d++) {
		if (drivers[d]->module)		/* a control: no patches of its own */
			continue;
		if (!pushed[d])
			ret = error("driver '%s' has no push-down in patches/series "
				    "(drivers/%s/0001-*): its open() never took the BKL",
				    drivers[d]->name, drivers[d]->name);
		else if (is_withheld(&sel, drivers[d]->name))
			ret = error("driver '%s' is withheld from the test kernel "
				    "(qemu-tests/campaign-withheld)", drivers[d]->name);
		else if (phase == QPHASE_BEFORE && !conv[d])
			ret = error("driver '%s' has no conversion in patches/series: "
				    "nothing to test before it", drivers[d]->name);
	}
	if (sel.last < 0)
		sel.last = src->nr - 1;
	strbuf_addf(&file, "%s/qemu", bkl_cache_dir());
	if (!ret && !mkdir_p(file.buf)) {
		strbuf_addf(&file, "/series-%d", (int)getpid());
		ret = series_subset(dst, src, file.buf, keep_patch, &sel);
	} else {
		ret = -1;
	}
	free(pushed);
	free(conv);
	strbuf_release(&file);
	strbuf_release(&sel.withheld);
	return ret;
}

/* ---- a control's module, built against the test kernel ---- */

static int build_module(struct qboot *b, struct qdriver *d, struct strbuf *ko)
{
	struct strbuf mdir = STRBUF_INIT, o = STRBUF_INIT, m = STRBUF_INIT, log = STRBUF_INIT;
	const char *cp[] = { "cp", "-r", NULL, NULL, NULL };
	const char *rm[] = { "rm", "-rf", NULL, NULL };
	const char *prep[] = { "make", "-C", b->kb.src.buf, NULL, "modules_prepare", NULL };
	const char *make[] = { "make", "-C", b->kb.src.buf, NULL, NULL, "modules", NULL };
	int ret = -1;

	strbuf_addf(&mdir, "%s/modules-%s", b->kb.dir.buf, d->name);
	strbuf_addf(&log, "%s.log", mdir.buf);
	strbuf_addf(&o, "O=%s", b->kb.obj.buf);
	strbuf_addf(&m, "M=%s", mdir.buf);
	rm[2] = mdir.buf;
	run_command(rm, NULL, NULL);
	unlink(log.buf);
	cp[2] = d->dir;
	cp[3] = mdir.buf;
	prep[3] = make[3] = o.buf;
	make[4] = m.buf;
	if (run_command(cp, NULL, NULL)) {
		error("cannot copy '%s' to '%s'", d->dir, mdir.buf);
		goto out;
	}
	if (qemu_run_logged(prep, NULL, log.buf) || qemu_run_logged(make, NULL, log.buf)) {
		error("building the module '%s' failed; see '%s'", d->module, log.buf);
		goto out;
	}
	strbuf_addf(ko, "%s/%s.ko", mdir.buf, d->module);
	if (!path_exists(ko->buf)) {
		error("no '%s' after building '%s'; see '%s'", ko->buf, d->dir, log.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&mdir);
	strbuf_release(&o);
	strbuf_release(&m);
	strbuf_release(&log);
	return ret;
}

/* The driver's own .ko from the test kernel's build: make modules on demand. */
static int tree_module(struct qboot *b, struct qdriver *d, struct strbuf *ko)
{
	const char *make[] = { "make", "-C", b->kb.src.buf, NULL, "-j2", "modules", NULL };
	struct strbuf o = STRBUF_INIT, log = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(ko, "%s/%s", b->kb.obj.buf, d->kmod);
	strbuf_addf(&o, "O=%s", b->kb.obj.buf);
	strbuf_addf(&log, "%s/modules.log", b->kb.dir.buf);
	make[3] = o.buf;
	/* incremental: seconds once the modules are built */
	if (qemu_run_logged(make, NULL, log.buf))
		ret = error("make modules failed; see '%s'", log.buf);
	else if (!path_exists(ko->buf))
		ret = error("no '%s' after make modules: is it =m in the test kernel?", ko->buf);
	strbuf_release(&o);
	strbuf_release(&log);
	return ret;
}

/* initrd, then a second cpio with /modules/NAME.ko: the kernel unpacks both. */
static int add_module_cpio(const char *initrd, const char *ko, const char *name,
			   struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT, list = STRBUF_INIT, gen = STRBUF_INIT, log = STRBUF_INIT;
	struct strbuf spec = STRBUF_INIT;
	const char *sh[] = { "sh", "-c", "\"$0\" \"$1\" >\"$2.tmp\" && cat \"$3\" \"$2.tmp\" >\"$2\"",
			     NULL, NULL, NULL, NULL, NULL };
	int ret = -1;

	strbuf_add(&dir, initrd, strrchr(initrd, '/') - initrd);
	strbuf_addf(&gen, "%s/gen_init_cpio", dir.buf);
	strbuf_addf(&list, "%s.cpio.list", ko);
	strbuf_addf(&log, "%s.cpio.log", ko);
	strbuf_addf(out, "%s.initrd", ko);
	strbuf_addf(&spec, "dir /modules 0755 0 0\nfile /modules/%s.ko %s 0644 0 0\n", name, ko);
	if (write_file(list.buf, spec.buf))
		goto out;
	sh[3] = gen.buf;
	sh[4] = list.buf;
	sh[5] = out->buf;
	sh[6] = initrd;
	if (qemu_run_logged(sh, NULL, log.buf)) {
		error("cannot add '%s' to the initramfs; see '%s'", ko, log.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&dir);
	strbuf_release(&list);
	strbuf_release(&gen);
	strbuf_release(&log);
	strbuf_release(&spec);
	return ret;
}

/* "bkl_race" for module bkl_race, "ppdev" for kmod drivers/char/ppdev.ko */
static const char *module_name(const struct qdriver *d)
{
	static char name[256];
	const char *base;

	if (d->module)
		return d->module;
	base = strrchr(d->kmod, '/') ? strrchr(d->kmod, '/') + 1 : d->kmod;
	snprintf(name, sizeof(name), "%.*s", (int)strlen(base) - 3, base);
	return name;
}

static int prepare_module(struct qboot *b, struct strbuf *initrd, void *data)
{
	struct qdriver *d = data;
	struct strbuf ko = STRBUF_INIT, out = STRBUF_INIT;
	int ret = -1;

	if ((d->kmod ? tree_module(b, d, &ko) : build_module(b, d, &ko)) ||
	    add_module_cpio(initrd->buf, ko.buf, module_name(d), &out))
		goto out;
	strbuf_reset(initrd);
	strbuf_addstr(initrd, out.buf);
	ret = 0;
out:
	strbuf_release(&ko);
	strbuf_release(&out);
	return ret;
}

void qdriver_params(const struct qdriver *d, struct strbuf *out)
{
	const struct { const char *name; const struct strbuf *list; } lists[] = {
		{ "bkl_nodes", &d->nodes }, { "bkl_read", &d->reads },
		{ "bkl_vclose", &d->vclose }, { "bkl_ioctls", &d->ioctls },
	};
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (lists[i].list->len)
			strbuf_addf(out, " %s=%s", lists[i].name, lists[i].list->buf);
	strbuf_addstr(out, sb_str(&d->append));
}

int qdriver_boot(struct qboot *b, struct qdriver *d, const char *const *frags, int nr_frags)
{
	const char *arg;
	int i;

	for (i = 0; i < nr_frags; i++)
		if (qboot_add_frag(b, frags[i]))
			return -1;
	for (i = 0, arg = d->args.buf; i < d->nr_args; i++, arg += strlen(arg) + 1)
		if (qboot_add_arg(b, arg))
			return -1;
	strbuf_addf(&b->append, "bkl_tests=exercise bkl_seconds=%d", d->seconds);
	qdriver_params(d, &b->append);
	if (d->module || d->kmod) {
		strbuf_addf(&b->append, " bkl_module=/modules/%s.ko", module_name(d));
		b->prepare = prepare_module;
		b->data = d;
	}
	return 0;
}
