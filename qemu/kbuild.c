// SPDX-License-Identifier: GPL-2.0
/*
 * The test kernels: `make tinyconfig`, the config fragments merged on top
 * (scripts/kconfig/merge_config.sh), `make olddefconfig`, a check that
 * every option asked for is really there (Kconfig silently drops an
 * option whose dependencies are off), then bzImage.  One directory per
 * configuration (the fragments and the kernel version):
 *   $BKL_CACHE/kbuild/<config>/src    its source tree (qemu/ksrc.c)
 *   $BKL_CACHE/kbuild/<config>/obj    the out-of-tree build
 * so that a new series rebuilds only what it changed.  The kernel's key
 * adds the series: a build whose key matches is reused without make.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "qemu/qemu.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/usage.h"

#define KBUILD_VERSION	"bkl-qemu-kbuild-3"	/* bump when the recipe changes */
#define KBUILD_KEEP	6			/* configurations kept in the cache */

double qemu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

pid_t qemu_spawn_logged(const char *const *argv, const char *dir, const char *log, int truncate)
{
	int fd = open(log, O_WRONLY | O_CREAT | (truncate ? O_TRUNC : O_APPEND), 0644);
	pid_t pid;

	if (fd < 0)
		return error("cannot write '%s': %s", log, strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd);
		return error("cannot run '%s': %s", argv[0], strerror(errno));
	}
	if (!pid) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
		fd = open("/dev/null", O_RDONLY);
		dup2(fd, 0);
		if (dir && chdir(dir) < 0)
			_exit(126);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	return pid;
}

int qemu_exit_status(int status)
{
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

int qemu_run_logged(const char *const *argv, const char *dir, const char *log)
{
	pid_t pid = qemu_spawn_logged(argv, dir, log, 0);
	int status;

	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("waiting for '%s': %s", argv[0], strerror(errno));
	return qemu_exit_status(status);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int qemu_kbuild_init(struct qemu_kbuild *kb, const struct series *s, const char *const *frags, int nr)
{
	struct strbuf ver = STRBUF_INIT, body = STRBUF_INIT;
	uint64_t h = FNV1A_INIT;
	int i, ret = -1;

	memset(kb, 0, sizeof(*kb));
	kb->lock_fd = -1;
	snprintf(kb->series, sizeof(kb->series), "%s", series_hash_hex(s));
	if (ktree_version(ktree_dir("pristine"), &ver))
		goto out;
	h = fnv1a(h, KBUILD_VERSION, sizeof(KBUILD_VERSION));
	h = fnv1a(h, ver.buf, ver.len + 1);
	for (i = 0; i < nr; i++) {
		strbuf_reset(&body);
		if (strbuf_read_file(&body, frags[i]) < 0) {
			error("cannot read the config fragment '%s'", frags[i]);
			goto out;
		}
		h = fnv1a(h, base_name(frags[i]), strlen(base_name(frags[i])) + 1);
		h = fnv1a(h, body.buf, body.len + 1);
	}
	snprintf(kb->config, sizeof(kb->config), "%016llx", (unsigned long long)h);
	h = fnv1a(h, kb->series, strlen(kb->series) + 1);
	snprintf(kb->key, sizeof(kb->key), "%016llx", (unsigned long long)h);
	strbuf_addf(&kb->dir, "%s/kbuild/%s", bkl_cache_dir(), kb->config);
	strbuf_addf(&kb->src, "%s/src", kb->dir.buf);
	strbuf_addf(&kb->obj, "%s/obj", kb->dir.buf);
	strbuf_addf(&kb->bzimage, "%s/arch/x86/boot/bzImage", kb->obj.buf);
	strbuf_addf(&kb->log, "%s/build.log", kb->dir.buf);
	ret = 0;
out:
	strbuf_release(&ver);
	strbuf_release(&body);
	return ret;
}

void qemu_kbuild_release(struct qemu_kbuild *kb)
{
	if (kb->lock_fd >= 0)
		close(kb->lock_fd);
	kb->lock_fd = -1;
	strbuf_release(&kb->src);
	strbuf_release(&kb->obj);
	strbuf_release(&kb->dir);
	strbuf_release(&kb->bzimage);
	strbuf_release(&kb->log);
}

/* ---- checking the final .config ---- */

struct option_req {
	char name[128];
	char value[256];	/* "" = "is not set" */
	const char *from;
};

/* "CONFIG_X=v" or "# CONFIG_X is not set" into r; 0 when the line is neither. */
static int parse_config_line(const char *line, struct option_req *r)
{
	size_t n;

	if (!strncmp(line, "CONFIG_", 7)) {
		n = strcspn(line, "=");
		if (!line[n] || n >= sizeof(r->name))
			return 0;
		snprintf(r->name, sizeof(r->name), "%.*s", (int)n, line);
		snprintf(r->value, sizeof(r->value), "%.*s", (int)strcspn(line + n + 1, "\r\n"),
			 line + n + 1);
		if (!strcmp(r->value, "n"))
			r->value[0] = '\0';
		return 1;
	}
	if (!strncmp(line, "# CONFIG_", 9) && strstr(line, " is not set")) {
		n = strcspn(line + 2, " ");
		if (n >= sizeof(r->name))
			return 0;
		snprintf(r->name, sizeof(r->name), "%.*s", (int)n, line + 2);
		r->value[0] = '\0';
		return 1;
	}
	return 0;
}

static int read_requests(const char *const *frags, int nr, struct option_req **reqs)
{
	struct option_req r;
	char line[1024];
	int i, k, n = 0;
	FILE *f;

	*reqs = NULL;
	for (i = 0; i < nr; i++) {
		f = fopen(frags[i], "r");
		if (!f)
			return error("cannot read the config fragment '%s'", frags[i]);
		while (fgets(line, sizeof(line), f)) {
			if (!parse_config_line(line, &r))
				continue;
			r.from = base_name(frags[i]);
			for (k = 0; k < n && strcmp((*reqs)[k].name, r.name); k++)
				;
			if (k == n)
				*reqs = realloc(*reqs, ++n * sizeof(r));
			(*reqs)[k] = r;	/* a later fragment overrides */
		}
		fclose(f);
	}
	return n;
}

/* The value .config gives name ("" when not set). */
static void final_value(const char *config, const char *name, char *value, size_t size)
{
	struct option_req r;
	const char *line;

	value[0] = '\0';
	for (line = config; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (parse_config_line(line, &r) && !strcmp(r.name, name)) {
			snprintf(value, size, "%s", r.value);
			return;
		}
}

int qemu_kbuild_check_config(const char *dotconfig, const char *tree, const char *const *frags,
			     int nr, struct strbuf *bad)
{
	struct strbuf config = STRBUF_INIT;
	struct option_req *reqs;
	char got[256];
	int i, n, nr_bad = 0;

	if (strbuf_read_file(&config, dotconfig) < 0)
		return error("cannot read '%s'", dotconfig);
	n = read_requests(frags, nr, &reqs);
	for (i = 0; i < n; i++) {
		final_value(config.buf, reqs[i].name, got, sizeof(got));
		if (!strcmp(got, reqs[i].value))
			continue;
		nr_bad++;
		if (!reqs[i].value[0])
			strbuf_addf(bad, "%s is not set in %s but the final .config has =%s\n",
				    reqs[i].name, reqs[i].from, got);
		else if (!got[0]) {
			strbuf_addf(bad, "%s=%s (%s) is not set in the final .config: ",
				    reqs[i].name, reqs[i].value, reqs[i].from);
			if (tree)
				qemu_kconfig_why(tree, config.buf, reqs[i].name, bad);
			else
				strbuf_addstr(bad, "it does not exist or its dependencies are off");
			strbuf_addch(bad, '\n');
		}
		else
			strbuf_addf(bad, "%s=%s (%s) became =%s in the final .config\n",
				    reqs[i].name, reqs[i].value, reqs[i].from, got);
	}
	free(reqs);
	strbuf_release(&config);
	return n < 0 ? -1 : nr_bad;
}

/* ---- building ---- */

static int stamp_matches(const char *stamp, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	int ok = strbuf_read_file(&sb, stamp) >= 0 && !strncmp(sb.buf, key, 16);

	strbuf_release(&sb);
	return ok;
}

/* The first compiler/make error in the log, for the one-line message. */
static void first_error(const char *log, char *out, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	out[0] = '\0';
	if (strbuf_read_file(&sb, log) >= 0 &&
	    ((p = strstr(sb.buf, " error: ")) || (p = strstr(sb.buf, "*** ")))) {
		while (p > sb.buf && p[-1] != '\n')
			p--;
		snprintf(out, size, ": %.*s", (int)strcspn(p, "\n"), p);
	}
	strbuf_release(&sb);
}

static int configure(struct qemu_kbuild *kb, const char *tree, const char *const *frags, int nr)
{
	const char *make_cfg[] = { "make", "-C", tree, NULL, NULL, NULL };
	const char *merge[64] = { NULL };
	struct strbuf o = STRBUF_INIT, script = STRBUF_INIT, cfg = STRBUF_INIT, bad = STRBUF_INIT;
	int i, ret = -1;

	if (nr > 58)
		return error("too many config fragments");
	strbuf_addf(&o, "O=%s", kb->obj.buf);
	strbuf_addf(&script, "%s/scripts/kconfig/merge_config.sh", tree);
	strbuf_addf(&cfg, "%s/.config", kb->obj.buf);
	make_cfg[3] = o.buf;
	make_cfg[4] = "tinyconfig";
	merge[0] = script.buf;
	merge[1] = "-m";
	merge[2] = "-O";
	merge[3] = kb->obj.buf;
	merge[4] = cfg.buf;
	for (i = 0; i < nr; i++)
		merge[5 + i] = frags[i];
	if (qemu_run_logged(make_cfg, NULL, kb->log.buf) ||
	    qemu_run_logged(merge, kb->obj.buf, kb->log.buf) ||
	    (make_cfg[4] = "olddefconfig", qemu_run_logged(make_cfg, NULL, kb->log.buf))) {
		error("configuring the kernel failed; see '%s'", kb->log.buf);
		goto out;
	}
	i = qemu_kbuild_check_config(cfg.buf, tree, frags, nr, &bad);
	if (i > 0) {
		/* one line per option, the first carries error()'s prefix */
		bad.buf[bad.len - 1] = '\0';
		error("kernel config: %s", bad.buf);
	}
	ret = i ? -1 : 0;
out:
	strbuf_release(&o);
	strbuf_release(&script);
	strbuf_release(&cfg);
	strbuf_release(&bad);
	return ret;
}

static int build(struct qemu_kbuild *kb, const char *tree)
{
	const char *argv[] = { "make", "-C", tree, NULL, "-j2", "bzImage", NULL };
	struct strbuf o = STRBUF_INIT;
	char why[512];
	int ret;

	strbuf_addf(&o, "O=%s", kb->obj.buf);
	argv[3] = o.buf;
	ret = qemu_run_logged(argv, NULL, kb->log.buf);
	if (ret > 0) {
		first_error(kb->log.buf, why, sizeof(why));
		ret = error("kernel build failed%s; see '%s'", why, kb->log.buf);
	}
	strbuf_release(&o);
	return ret;
}

static int lock_build(const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	strbuf_addf(&path, "%s/lock", dir);
	fd = open(path.buf, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		error("cannot open '%s': %s", path.buf, strerror(errno));
	else if (flock(fd, LOCK_EX | LOCK_NB)) {
		fprintf(stderr, "waiting for another build in '%s'\n", dir);
		flock(fd, LOCK_EX);
	}
	strbuf_release(&path);
	return fd;
}

struct build_dir {
	char name[17];
	time_t mtime;
};

static int newest_first(const void *a, const void *b)
{
	const struct build_dir *x = a, *y = b;

	return (y->mtime > x->mtime) - (y->mtime < x->mtime);
}

/*
 * Keep the keep most recently used directories of top (names of len
 * characters); never keep_name, nor one whose lock (dir + lock_suffix)
 * is held: it is being built or booted right now.
 */
static void prune_dir(const char *top, size_t len, const char *keep_name, int keep,
		      const char *lock_suffix)
{
	struct strbuf path = STRBUF_INIT;
	struct build_dir dirs[256];
	struct dirent *de;
	struct stat st;
	int n = 0, i, fd;
	DIR *d = opendir(top);

	while (d && n < 256 && (de = readdir(d))) {
		if (strlen(de->d_name) != len || !strcmp(de->d_name, keep_name))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", top, de->d_name);
		if (stat(path.buf, &st) || !S_ISDIR(st.st_mode))
			continue;
		memcpy(dirs[n].name, de->d_name, len + 1);
		dirs[n++].mtime = st.st_mtime;
	}
	if (d)
		closedir(d);
	qsort(dirs, n, sizeof(dirs[0]), newest_first);
	for (i = keep - 1; i < n; i++) {
		const char *rm[] = { "rm", "-rf", NULL, NULL };

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s%s", top, dirs[i].name, lock_suffix);
		fd = open(path.buf, O_RDWR);
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB)) {
			close(fd);
			continue;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", top, dirs[i].name);
		rm[2] = path.buf;
		run_command(rm, NULL, NULL);
		if (fd >= 0)
			close(fd);
	}
	strbuf_release(&path);
}

void qemu_kbuild_prune(const struct qemu_kbuild *keep)
{
	struct strbuf top = STRBUF_INIT;

	strbuf_addf(&top, "%s/kbuild", bkl_cache_dir());
	prune_dir(top.buf, 16, keep->config, KBUILD_KEEP, "/lock");
	strbuf_release(&top);
}

int qemu_kbuild_make(struct qemu_kbuild *kb, const struct series *s, const char *const *frags, int nr)
{
	struct strbuf stamp = STRBUF_INIT;
	double start = qemu_now();
	int ret = -1, fresh;

	if (mkdir_p(kb->dir.buf))
		goto out;
	kb->lock_fd = lock_build(kb->dir.buf);
	if (kb->lock_fd < 0)
		goto out;
	strbuf_addf(&stamp, "%s/bzImage.ok", kb->dir.buf);
	if (stamp_matches(stamp.buf, kb->key) && path_exists(kb->bzimage.buf)) {
		kb->cached = 1;
		utimensat(AT_FDCWD, kb->dir.buf, NULL, 0);	/* recently used: not pruned */
		ret = 0;
		goto out;
	}
	unlink(stamp.buf);
	unlink(kb->log.buf);
	if (qemu_ksrc_update(kb->src.buf, s, &fresh))
		goto out;
	/* objects of a tree copied afresh (pristine mtimes) cannot be trusted */
	if (fresh) {
		const char *rm[] = { "rm", "-rf", kb->obj.buf, NULL };

		run_command(rm, NULL, NULL);
	}
	if (mkdir_p(kb->obj.buf) || configure(kb, kb->src.buf, frags, nr) ||
	    build(kb, kb->src.buf))
		goto out;
	ret = write_file(stamp.buf, kb->key);
	utimensat(AT_FDCWD, kb->dir.buf, NULL, 0);
out:
	kb->seconds = qemu_now() - start;
	strbuf_release(&stamp);
	return ret;
}
