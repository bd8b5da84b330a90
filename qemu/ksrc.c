// SPDX-License-Identifier: GPL-2.0
/*
 * The source tree of a test kernel build: one per configuration, at a
 * fixed path so that Kbuild can build incrementally when the series
 * moves (a driver patch added rebuilds that driver, not the kernel).
 *
 * Made once as a hard-linked copy of the pristine tree, then the series
 * pushed with quilt (patch writes new files: the pristine tree is never
 * written).  When the series changes, every file the applied patches
 * touched (quilt's .pc lists them) is put back as a fresh copy of the
 * pristine file, then the new series is pushed.  Both steps give the
 * files they write a new mtime, which is what Kbuild looks at: a file
 * restored with its old pristine mtime would leave a stale object.  A
 * file that comes out exactly as before gets its old mtime back, so
 * that the core patches' headers do not rebuild the kernel each time.
 *
 * Not the shared work tree of `bkl tree`: another command may re-make
 * that one under a running build, and it may hold edits no patch has.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "qemu/qemu.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/usage.h"

static int rm_rf(const char *path)
{
	const char *argv[] = { "rm", "-rf", path, NULL };

	return run_command(argv, NULL, NULL) ? error("cannot remove '%s'", path) : 0;
}

/* Put src/rel back as a new copy of the pristine file, or remove it. */
static int restore(const char *src, const char *rel)
{
	struct strbuf path = STRBUF_INIT, orig = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	strbuf_addf(&path, "%s/%s", src, rel);
	strbuf_addf(&orig, "%s/%s", ktree_dir("pristine"), rel);
	if (unlink(path.buf) && errno != ENOENT)
		ret = error("cannot remove '%s': %s", path.buf, strerror(errno));
	else if (!stat(orig.buf, &st) && S_ISREG(st.st_mode))
		ret = copy_file(orig.buf, path.buf);
	strbuf_release(&path);
	strbuf_release(&orig);
	return ret;
}

/* A file the applied series patched, as it was before the series moved. */
struct touched {
	char *rel;
	int present;
	uint64_t hash;
	struct timespec mtime;
};

struct touched_list {
	struct touched *v;
	int nr;
};

static int file_hash(const char *path, uint64_t *hash, struct timespec *mtime)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	if (stat(path, &st) || strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	*hash = fnv1a(FNV1A_INIT, sb.buf ? sb.buf : "", sb.len);
	*mtime = st.st_mtim;
	strbuf_release(&sb);
	return 0;
}

/* Every file under dir (quilt's backups of one patch), relative to top. */
static void collect_backups(const char *src, const char *top, const char *dir,
			    struct touched_list *list)
{
	struct strbuf path = STRBUF_INIT;
	struct touched *t;
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, ".timestamp"))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, de->d_name);
		if (lstat(path.buf, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			collect_backups(src, top, path.buf, list);
			continue;
		}
		list->v = realloc(list->v, (list->nr + 1) * sizeof(*t));
		t = &list->v[list->nr++];
		t->rel = strdup(path.buf + strlen(top) + 1);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", src, t->rel);
		t->present = !file_hash(path.buf, &t->hash, &t->mtime);
	}
	if (d)
		closedir(d);
	strbuf_release(&path);
}

/*
 * Undo the applied series: note and restore every file a patch touched,
 * drop .pc.  The list lets keep_mtimes() find the files that come out
 * of the new series exactly as they were.
 */
static int unapply(const char *src, struct touched_list *list)
{
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT;
	char line[4096];
	int i, ret = 0;
	FILE *f;

	strbuf_addf(&path, "%s/.pc/applied-patches", src);
	f = fopen(path.buf, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/.pc/%s", src, line);
		collect_backups(src, dir.buf, dir.buf, list);
	}
	if (f)
		fclose(f);
	for (i = 0; i < list->nr && !ret; i++)
		ret = restore(src, list->v[i].rel);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/.pc", src);
	if (!ret)
		ret = rm_rf(path.buf);
	strbuf_release(&path);
	strbuf_release(&dir);
	return ret;
}

/*
 * A file both series patch the same way (the core patches, when only a
 * driver patch was added) gets its old mtime back: nothing to rebuild.
 */
static void keep_mtimes(const char *src, struct touched_list *list)
{
	struct strbuf path = STRBUF_INIT;
	struct timespec now, times[2];
	uint64_t hash;
	int i;

	for (i = 0; i < list->nr; i++) {
		if (!list->v[i].present)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", src, list->v[i].rel);
		if (file_hash(path.buf, &hash, &now) || hash != list->v[i].hash)
			continue;
		times[0] = times[1] = list->v[i].mtime;
		utimensat(AT_FDCWD, path.buf, times, 0);
	}
	for (i = 0; i < list->nr; i++)
		free(list->v[i].rel);
	free(list->v);
	strbuf_release(&path);
}

static int read_stamp(const char *stamp, char *hash)
{
	struct strbuf sb = STRBUF_INIT;
	int ok = strbuf_read_file(&sb, stamp) >= 0 && sb.len >= 16;

	if (ok)
		snprintf(hash, 17, "%.16s", sb.buf);
	strbuf_release(&sb);
	return ok ? 0 : -1;
}

int qemu_ksrc_update(const char *src, const struct series *s, int *fresh)
{
	struct strbuf stamp = STRBUF_INIT, made = STRBUF_INIT, from = STRBUF_INIT;
	const char *cp[] = { "cp", "-al", NULL, src, NULL };
	struct touched_list old_files = { NULL, 0 };
	char old[17];
	int ret = -1;

	*fresh = 0;
	strbuf_addf(&stamp, "%s.series", src);	/* the series fully applied */
	strbuf_addf(&made, "%s.made", src);	/* the copy was complete */
	if (path_exists(made.buf)) {
		if (!read_stamp(stamp.buf, old) && !strcmp(old, series_hash_hex(s))) {
			ret = 0;
			goto out;
		}
		unlink(stamp.buf);
		/* quilt's applied-patches is right even after a failed push */
		if (unapply(src, &old_files))
			goto out;
	} else {
		unlink(stamp.buf);
		*fresh = 1;
		if (rm_rf(src))
			goto out;
		if (!path_exists(ktree_dir("pristine"))) {
			error("no pristine tree '%s': run 'bkl tree'", ktree_dir("pristine"));
			goto out;
		}
		/* "/.": a symlinked pristine tree is copied, not the link */
		strbuf_addf(&from, "%s/.", ktree_dir("pristine"));
		cp[2] = from.buf;
		if (run_command(cp, NULL, NULL)) {
			error("cannot copy the pristine tree to '%s'", src);
			goto out;
		}
		if (write_file(made.buf, "1\n"))
			goto out;
	}
	if (ktree_apply(src, s))
		goto out;
	ret = write_file(stamp.buf, series_hash_hex(s));
out:
	keep_mtimes(src, &old_files);	/* also after a failed push: what did apply */
	strbuf_release(&stamp);
	strbuf_release(&made);
	strbuf_release(&from);
	return ret;
}
