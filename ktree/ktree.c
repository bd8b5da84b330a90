// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char *ktree_dir(const char *which)
{
	static struct strbuf ring[4] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	static int next;
	struct strbuf *sb = &ring[next++ % 4];	/* a few may be live at once */

	strbuf_reset(sb);
	strbuf_addf(sb, "%s/linux/%s", bkl_cache_dir(), which);
	return sb->buf;
}

static int makefile_var(const char *text, const char *var, struct strbuf *out)
{
	const char *p = text;
	size_t n = strlen(var);

	while ((p = strstr(p, var))) {
		if ((p == text || p[-1] == '\n') && !strncmp(p + n, " = ", 3)) {
			p += n + 3;
			strbuf_add(out, p, strcspn(p, "\n"));
			return 0;
		}
		p += n;
	}
	return -1;
}

int ktree_version(const char *dir, struct strbuf *ver)
{
	struct strbuf path = STRBUF_INIT, mk = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&path, "%s/Makefile", dir);
	if (strbuf_read_file(&mk, path.buf) < 0) {
		error("no kernel Makefile at '%s'", path.buf);
		goto out;
	}
	if (makefile_var(mk.buf, "VERSION", ver) || (strbuf_addstr(ver, "."), 0) ||
	    makefile_var(mk.buf, "PATCHLEVEL", ver) || (strbuf_addstr(ver, "."), 0) ||
	    makefile_var(mk.buf, "SUBLEVEL", ver)) {
		error("'%s' has no VERSION/PATCHLEVEL/SUBLEVEL: not a kernel tree", path.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&mk);
	return ret;
}

/* Whole tarball size times ten: a kernel .tar.xz unpacks to about 9x. */
static int check_space(const char *tarball, const char *where, int copies)
{
	struct stat st;
	long need, avail = free_mib(where);
	const char *reserve = getenv("BKL_TREE_RESERVE_MIB");

	if (stat(tarball, &st))
		return error("no kernel tarball at '%s': run 'make setup'", tarball);
	need = (long)(st.st_size >> 20) * 10 * copies + (reserve ? atol(reserve) : 512);
	if (avail >= 0 && avail < need)
		return error("not enough disk space in '%s': %ld MiB free, %ld MiB needed",
			     where, avail, need);
	return 0;
}

static int rm_rf(const char *dir)
{
	const char *argv[] = { "rm", "-rf", dir, NULL };

	return run_command(argv, NULL, NULL) ? error("cannot remove '%s'", dir) : 0;
}

/* The single top-level directory tar made under tmp. */
static int find_top(const char *tmp, struct strbuf *top)
{
	const char *argv[] = { "sh", "-c", "set -- */Makefile; [ $# = 1 ] && [ -f \"$1\" ] && printf %s \"${1%/Makefile}\"", NULL };

	if (run_command(argv, tmp, top) || !top->len)
		return error("the tarball holds no single kernel directory");
	return 0;
}

static int unpack_checked(const char *tarball, const char *tmp, const char *pristine)
{
	const char *tar[] = { "tar", "-xf", tarball, "-C", tmp, NULL };
	struct strbuf top = STRBUF_INIT, ver = STRBUF_INIT, src = STRBUF_INIT;
	int ret = -1;

	if (run_command(tar, NULL, NULL)) {
		error("cannot unpack '%s'", tarball);
		goto out;
	}
	if (find_top(tmp, &top))
		goto out;
	strbuf_addf(&src, "%s/%s", tmp, top.buf);
	if (ktree_version(src.buf, &ver))
		goto out;
	if (strncmp(ver.buf, "6.1.", 4)) {
		error("'%s' is Linux %s, not 6.1.x", tarball, ver.buf);
		goto out;
	}
	if (rename(src.buf, pristine)) {
		error("cannot move the tree to '%s'", pristine);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&top);
	strbuf_release(&ver);
	strbuf_release(&src);
	return ret;
}

int ktree_unpack(const char *tarball)
{
	struct strbuf pristine = STRBUF_INIT, tmp = STRBUF_INIT;
	int ret = 0;

	strbuf_addstr(&pristine, ktree_dir("pristine"));
	if (path_exists(pristine.buf))
		goto out;
	strbuf_addstr(&tmp, ktree_dir("unpack.tmp"));
	ret = rm_rf(tmp.buf) || mkdir_p(tmp.buf) ? -1 : 0;
	if (!ret)
		ret = check_space(tarball, tmp.buf, 2);
	if (!ret) {
		if (isatty(2))
			fprintf(stderr, "unpacking %s into %s\n", tarball, pristine.buf);
		ret = unpack_checked(tarball, tmp.buf, pristine.buf);
	}
	rm_rf(tmp.buf);
out:
	strbuf_release(&pristine);
	strbuf_release(&tmp);
	return ret;
}

/* Files changed in the work tree after the series was applied: edits a reset would lose. */
static int find_edits(const char *work, const char *stamp, struct strbuf *edits)
{
	const char *argv[] = { "find", ".", "-path", "./.pc", "-prune", "-o", "-type", "f",
			       "-newer", stamp, "-print", "-quit", NULL };

	return run_command(argv, work, edits);
}

static int sync_from_pristine(const char *work)
{
	struct strbuf src = STRBUF_INIT;
	const char *argv[] = { "rsync", "-a", "--delete", NULL, work, NULL };
	int ret;

	strbuf_addf(&src, "%s/", ktree_dir("pristine"));
	argv[3] = src.buf;
	ret = run_command(argv, NULL, NULL) ? error("cannot copy the pristine tree to '%s'", work) : 0;
	strbuf_release(&src);
	return ret;
}

static int write_stamp(const char *stamp, const char *hash)
{
	FILE *f = fopen(stamp, "w");

	if (!f)
		return error("cannot write '%s'", stamp);
	fprintf(f, "%s\n", hash);
	return fclose(f) ? error("cannot write '%s'", stamp) : 0;
}

int ktree_prepare_work(const struct series *s, int force)
{
	struct strbuf work = STRBUF_INIT, stamp = STRBUF_INIT, old = STRBUF_INIT;
	struct strbuf edits = STRBUF_INIT;
	int ret = -1;

	strbuf_addstr(&work, ktree_dir("work"));
	strbuf_addf(&stamp, "%s.series", work.buf);
	if (path_exists(work.buf) && !strbuf_read_file(&old, stamp.buf)) {
		if (!strncmp(old.buf, series_hash_hex(s), 16)) {
			ret = 0;
			goto out;
		}
		find_edits(work.buf, stamp.buf, &edits);
		if (edits.len && !force) {
			error("'%s/%.*s' was edited after the series was applied: "
			      "quilt refresh it into a patch, or pass --force",
			      work.buf, (int)strcspn(edits.buf + 2, "\n"), edits.buf + 2);
			goto out;
		}
	}
	unlink(stamp.buf);
	if (mkdir_p(work.buf) || sync_from_pristine(work.buf) || ktree_apply(work.buf, s))
		goto out;
	ret = write_stamp(stamp.buf, series_hash_hex(s));
out:
	strbuf_release(&work);
	strbuf_release(&stamp);
	strbuf_release(&old);
	strbuf_release(&edits);
	return ret;
}

int ktree_campaign_series(struct series *s, const char *patches_dir)
{
	struct series full;
	int ret;

	if (series_read(&full, patches_dir))
		return -1;
	ret = mkdir_p(ktree_dir("")) ? -1 :
	      series_campaign(s, &full, ktree_dir("series.campaign"));
	series_release(&full);
	return ret;
}
