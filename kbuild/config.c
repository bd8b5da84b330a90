// SPDX-License-Identifier: GPL-2.0
/*
 * A configured out-of-tree build of a kernel tree for bkl audit: the
 * generated headers sparse needs (autoconf.h, asm-offsets.h, the uapi
 * ones) without building the kernel.  The source tree is never written.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kbuild/config.h"
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

int kbuild_check_tree(const char *dir)
{
	struct strbuf ver = STRBUF_INIT, p = STRBUF_INIT;
	struct stat st;
	int ret = -1;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		error("no kernel tree at '%s'", dir);
		goto out;
	}
	if (ktree_version(dir, &ver))
		goto out;
	strbuf_addf(&p, "%s/scripts/Makefile.build", dir);
	if (!path_exists(p.buf)) {
		error("'%s' has no scripts/Makefile.build: not a Kbuild kernel tree", dir);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&ver);
	strbuf_release(&p);
	return ret;
}

static void first_error_line(const char *log, struct strbuf *line)
{
	const char *p = strstr(log, "rror");

	if (!p)
		p = strstr(log, "***");
	if (!p) {		/* the last line */
		p = log + strlen(log);
		while (p > log && p[-1] == '\n')
			p--;
		while (p > log && p[-1] != '\n')
			p--;
	}
	while (p > log && p[-1] != '\n')
		p--;
	strbuf_add(line, p, strcspn(p, "\n"));
}

/* Run a step, its output appended to log; one error line naming it on failure. */
static int run_logged(const char *const *argv, const char *log, const char *what,
		      const char *objtree)
{
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	FILE *f;
	int rc = run_command(argv, NULL, &out);

	f = fopen(log, "a");
	if (f) {
		fputs(sb_str(&out), f);
		fclose(f);
	}
	if (rc) {
		first_error_line(sb_str(&out), &line);
		error("%s failed in '%s': %s (see %s)", what, objtree,
		      line.len ? line.buf : "no output", log);
	}
	strbuf_release(&out);
	strbuf_release(&line);
	return rc ? -1 : 0;
}

static int make_in(const char *srctree, const char *objtree, const char *target,
		   int jobs, const char *log)
{
	struct strbuf o = STRBUF_INIT, j = STRBUF_INIT, what = STRBUF_INIT;
	const char *argv[] = { "make", "-s", NULL, "-C", srctree, NULL, target, NULL };
	int ret;

	strbuf_addf(&j, "-j%d", jobs > 0 ? jobs : 1);
	strbuf_addf(&o, "O=%s", objtree);
	strbuf_addf(&what, "make %s", target);
	argv[2] = j.buf;
	argv[5] = o.buf;
	ret = run_logged(argv, log, what.buf, objtree);
	strbuf_release(&o);
	strbuf_release(&j);
	strbuf_release(&what);
	return ret;
}

static int is_target_name(const char *s)
{
	size_t n = strlen(s);

	if (n < 7 || strcmp(s + n - 6, "config") || strchr(s, '/'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return 0;
	return 1;
}

/* What identifies the configuration asked for: its name, and a file's content. */
int kbuild_config_check(const char *config)
{
	if ((is_target_name(config) && !path_exists(config)) || !access(config, R_OK))
		return 0;
	return error("'%s' is neither a config target (defconfig, allmodconfig...) "
		     "nor a readable file", config);
}

static int config_key(const char *config, const char *series, struct strbuf *key)
{
	struct strbuf text = STRBUF_INIT;

	if (series && *series)
		strbuf_addf(key, "series %s\n", series);
	if (is_target_name(config) && !path_exists(config)) {
		strbuf_addf(key, "config %s\n", config);
		return 0;
	}
	if (strbuf_read_file(&text, config) < 0)
		return error("'%s' is neither a config target (defconfig, allmodconfig...) "
			     "nor a readable file", config);
	strbuf_addf(key, "file %s %016llx\n", config,
		    (unsigned long long)fnv1a(FNV1A_INIT, text.buf, text.len));
	strbuf_release(&text);
	return 0;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return error("cannot write '%s': %s", path, strerror(errno));
	fputs(text, f);
	return fclose(f) ? error("cannot write '%s': %s", path, strerror(errno)) : 0;
}

/*
 * scripts/config -e BKL -e BKL_LEGACY_SITES (-d BKL when off), then
 * olddefconfig keeps what exists.
 */
static int enable_bkl(const char *srctree, const char *objtree, int on, int jobs,
		      const char *log)
{
	struct strbuf dotconfig = STRBUF_INIT, script = STRBUF_INIT;
	const char *set[] = { NULL, "--file", NULL, "-e", "BKL", "-e", "BKL_LEGACY_SITES", NULL };
	const char *unset[] = { NULL, "--file", NULL, "-d", "BKL", "-d", "BKL_LEGACY_SITES", NULL };
	int ret;

	strbuf_addf(&dotconfig, "%s/.config", objtree);
	strbuf_addf(&script, "%s/scripts/config", srctree);
	set[0] = unset[0] = script.buf;
	set[2] = unset[2] = dotconfig.buf;
	ret = run_logged(on ? set : unset, log, "scripts/config", objtree) ||
	      make_in(srctree, objtree, "olddefconfig", jobs, log) ? -1 : 0;
	strbuf_release(&dotconfig);
	strbuf_release(&script);
	return ret;
}

static int configure(const char *srctree, const char *objtree, const char *config,
		     int bkl, int jobs, const char *log)
{
	struct strbuf dotconfig = STRBUF_INIT, text = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&dotconfig, "%s/.config", objtree);
	if (is_target_name(config) && !path_exists(config)) {
		if (make_in(srctree, objtree, config, jobs, log))
			goto out;
	} else {
		if (strbuf_read_file(&text, config) < 0) {
			error("cannot read '%s'", config);
			goto out;
		}
		if (write_text(dotconfig.buf, text.buf) ||
		    make_in(srctree, objtree, "olddefconfig", jobs, log))
			goto out;
	}
	ret = enable_bkl(srctree, objtree, bkl, jobs, log);
out:
	strbuf_release(&dotconfig);
	strbuf_release(&text);
	return ret;
}

static char config_value(const char *text, const char *sym)
{
	struct strbuf want = STRBUF_INIT;
	const char *p = text;
	char v = 'n';

	strbuf_addf(&want, "%s=", sym);
	while ((p = strstr(p, want.buf))) {
		if (p == text || p[-1] == '\n') {
			v = p[want.len];
			break;
		}
		p += want.len;
	}
	strbuf_release(&want);
	return v == 'y' || v == 'm' ? v : 'n';
}

static int read_config(const char *path, struct kbuild_config *out)
{
	struct strbuf text = STRBUF_INIT;

	if (strbuf_read_file(&text, path) < 0)
		return error("cannot read '%s'", path);
	snprintf(out->hash, sizeof(out->hash), "%016llx",
		 (unsigned long long)fnv1a(FNV1A_INIT, text.buf, text.len));
	out->bkl = config_value(text.buf, "CONFIG_BKL");
	out->legacy = config_value(text.buf, "CONFIG_BKL_LEGACY_SITES");
	strbuf_release(&text);
	return 0;
}

int kbuild_configure_bkl(const char *srctree, const char *objtree, const char *config,
			 const char *series, int bkl, int jobs, struct kbuild_config *out)
{
	struct strbuf key = STRBUF_INIT, old = STRBUF_INIT, stamp = STRBUF_INIT;
	struct strbuf log = STRBUF_INIT, dotconfig = STRBUF_INIT;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (config_key(config, series, &key) || mkdir_p(objtree))
		goto out;
	if (!bkl)
		strbuf_addstr(&key, "bkl off\n");
	strbuf_addf(&stamp, "%s/bkl-config.stamp", objtree);
	strbuf_addf(&dotconfig, "%s/.config", objtree);
	strbuf_addf(&log, "%s/bkl-config.log", objtree);
	if (strbuf_read_file(&old, stamp.buf) < 0 || strcmp(old.buf, key.buf) ||
	    !path_exists(dotconfig.buf)) {
		unlink(stamp.buf);
		unlink(log.buf);
		if (isatty(2))
			fprintf(stderr, "configuring %s in %s\n", config, objtree);
		if (configure(srctree, objtree, config, bkl, jobs, log.buf) ||
		    write_text(stamp.buf, key.buf))
			goto out;
	}
	if (make_in(srctree, objtree, "prepare", jobs, log.buf) ||
	    read_config(dotconfig.buf, out))
		goto out;
	/*
	 * CONFIG_BKL off: maybe the tree's Kconfig gained the symbol since we
	 * configured (prepare's syncconfig then changed .config).  Try once
	 * per .config.
	 */
	strbuf_reset(&stamp);
	strbuf_addf(&stamp, "%s/bkl-enable.stamp", objtree);
	strbuf_reset(&old);
	if (bkl && out->bkl != 'y' && (strbuf_read_file(&old, stamp.buf) < 0 ||
				strcmp(old.buf, out->hash))) {
		if (enable_bkl(srctree, objtree, 1, jobs, log.buf) ||
		    make_in(srctree, objtree, "prepare", jobs, log.buf) ||
		    read_config(dotconfig.buf, out) || write_text(stamp.buf, out->hash))
			goto out;
	}
	out->name = strdup(config);
	ret = 0;
out:
	strbuf_release(&key);
	strbuf_release(&old);
	strbuf_release(&stamp);
	strbuf_release(&log);
	strbuf_release(&dotconfig);
	return ret;
}

int kbuild_configure(const char *srctree, const char *objtree, const char *config,
		     const char *series, int jobs, struct kbuild_config *out)
{
	return kbuild_configure_bkl(srctree, objtree, config, series, 1, jobs, out);
}

void kbuild_config_release(struct kbuild_config *c)
{
	free(c->name);
	c->name = NULL;
}

/* The probe's body as preprocessed, blanks squeezed: "{ _lock_kernel(...); ... }". */
static void probe_body(const char *i, struct strbuf *body)
{
	const char *p = strstr(i, "bkl_probe");
	int depth = 0, blank = 0;

	p = p ? strchr(p, '{') : NULL;
	for (; p && *p; p++) {
		if (isspace((unsigned char)*p)) {
			blank = 1;
			continue;
		}
		if (blank && body->len)
			strbuf_addstr(body, " ");
		blank = 0;
		strbuf_add(body, p, 1);
		if (*p == '{')
			depth++;
		else if (*p == '}' && !--depth)
			break;
	}
}

/* A call of a function whose name holds "lock_kernel": lock_kernel(, _lock_kernel( */
static int has_lock_call(const char *body)
{
	const char *p = body;

	while ((p = strstr(p, "lock_kernel"))) {
		const char *q = p + strlen("lock_kernel");

		if (p > body && p[-1] == 'n') {		/* unlock_kernel */
			p = q;
			continue;
		}
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		while (*q == ' ')
			q++;
		if (*q == '(')
			return 1;
		p = q;
	}
	return 0;
}

int kbuild_probe_lock_kernel(const char *objtree, const char *cc_flags,
			     const struct kbuild_config *c, struct strbuf *reason)
{
	struct strbuf src = STRBUF_INIT, out = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf flags = STRBUF_INIT, body = STRBUF_INIT;
	const char **argv = NULL;
	char *p;
	int nr = 0, rc, ret = -1;

	strbuf_addf(&src, "%s/bkl-probe.c", objtree);
	strbuf_addf(&out, "%s/bkl-probe.i", objtree);
	if (write_text(src.buf, "#include <linux/smp_lock.h>\n"
		       "void bkl_probe(void)\n{\n\tlock_kernel();\n\tunlock_kernel();\n}\n"))
		goto out;
	strbuf_addstr(&flags, cc_flags);
	argv = calloc(flags.len + 8, sizeof(*argv));
	if (!argv)
		abort();
	argv[nr++] = "gcc";
	argv[nr++] = "-E";
	argv[nr++] = "-P";
	for (p = flags.buf; p && *p; ) {
		argv[nr++] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
	argv[nr++] = "-o";
	argv[nr++] = out.buf;
	argv[nr++] = src.buf;
	rc = run_command(argv, NULL, &text);
	if (rc && strstr(sb_str(&text), "smp_lock.h")) {
		strbuf_addstr(reason, "the tree has no include/linux/smp_lock.h (is the BKL series applied?)");
		ret = 0;
		goto out;
	}
	if (rc) {
		error("cannot preprocess the lock_kernel() probe '%s'", src.buf);
		goto out;
	}
	strbuf_reset(&text);
	if (strbuf_read_file(&text, out.buf) < 0) {
		error("cannot read '%s'", out.buf);
		goto out;
	}
	probe_body(text.buf, &body);
	ret = has_lock_call(body.buf);
	if (!ret && c->bkl != 'y')
		strbuf_addf(reason, "CONFIG_BKL is not set in %s", c->name);
	else if (!ret)
		strbuf_addf(reason, "it expands to '%.60s'", body.buf);
out:
	free(argv);
	strbuf_release(&src);
	strbuf_release(&out);
	strbuf_release(&text);
	strbuf_release(&flags);
	strbuf_release(&body);
	return ret;
}
