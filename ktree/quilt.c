// SPDX-License-Identifier: GPL-2.0
/*
 * Applying patches/series with quilt, so that a contributor can work in
 * the tree with quilt as usual, and saying exactly what did not apply.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static void copy_word(char *dst, size_t size, const char *src)
{
	size_t n = strcspn(src, " \t\n");

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* From quilt's and patch's output: which patch failed, and on which file. */
static int explain_failure(const char *out, const struct series *s)
{
	char patch[1024] = "", file[1024] = "", cur[1024] = "";
	const char *line, *p;

	for (line = out; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (!strncmp(line, "Applying patch ", 15))
			copy_word(patch, sizeof(patch), line + 15);
		else if (!strncmp(line, "patching file ", 14))
			copy_word(cur, sizeof(cur), line + 14);
		else if (!file[0] && !strncmp(line, "|+++ ", 5))
			copy_word(file, sizeof(file), line + 5 + (strncmp(line + 5, "b/", 2) ? 0 : 2));
		else if (!file[0] && (p = strstr(line, "FAILED")) && cur[0])
			strcpy(file, cur);
	}
	if (!patch[0])
		return error("quilt failed in the tree: %.*s", (int)strcspn(out, "\n"), out);
	p = strncmp(patch, s->dir, strlen(s->dir)) ? patch : patch + strlen(s->dir) + 1;
	if (file[0])
		return error("patch '%s' does not apply to '%s'", p, file);
	return error("patch '%s' does not apply", p);
}

/*
 * quilt keeps a file's backup as a hard link to it, and touches it: in a
 * tree hard-linked to the pristine one (bkl tree --check, bkl qemu's
 * kernel source) that changed the pristine files' mtimes.  Each file a
 * patch names gets an inode of its own first, with its mtime.
 */
static int unshare_patched(const char *dir, const struct series *s)
{
	struct strbuf patch = STRBUF_INIT, path = STRBUF_INIT, tmp = STRBUF_INIT;
	char rel[1024];
	const char *line, *slash;
	struct timespec times[2];
	struct stat st;
	int i, ret = 0;

	for (i = 0; i < s->nr && !ret; i++) {
		strbuf_reset(&patch);
		strbuf_addf(&path, "%s/%s", s->dir, s->names[i]);
		if (strbuf_read_file(&patch, path.buf) < 0)
			ret = error("cannot read '%s'", path.buf);
		strbuf_reset(&path);
		for (line = patch.buf; !ret && line && *line;
		     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
			if (strncmp(line, "--- ", 4) && strncmp(line, "+++ ", 4))
				continue;
			copy_word(rel, sizeof(rel), line + 4);
			slash = strchr(rel, '/');	/* -p1 */
			if (!slash)
				continue;
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", dir, slash + 1);
			if (lstat(path.buf, &st) || !S_ISREG(st.st_mode) || st.st_nlink < 2)
				continue;
			strbuf_reset(&tmp);
			strbuf_addf(&tmp, "%s.bkl-unshare", path.buf);
			times[0] = st.st_atim;
			times[1] = st.st_mtim;
			if (copy_file(path.buf, tmp.buf) ||
			    utimensat(AT_FDCWD, tmp.buf, times, 0) || rename(tmp.buf, path.buf))
				ret = error("cannot give '%s' a copy of its own", path.buf);
		}
		strbuf_reset(&path);
	}
	strbuf_release(&patch);
	strbuf_release(&path);
	strbuf_release(&tmp);
	return ret;
}

int ktree_apply(const char *dir, const struct series *s)
{
	const char *argv[] = { "quilt", "push", "-a", NULL };
	struct strbuf out = STRBUF_INIT;
	int ret = 0;

	if (!s->nr)
		return 0;
	setenv("QUILT_PATCHES", s->dir, 1);
	setenv("QUILT_PC", ".pc", 1);
	unsetenv("QUILTRC");
	if (s->file)
		setenv("QUILT_SERIES", s->file, 1);
	else
		unsetenv("QUILT_SERIES");
	if (unshare_patched(dir, s))
		ret = -1;
	else if (run_command(argv, dir, &out))
		ret = explain_failure(out.buf, s);
	strbuf_release(&out);
	return ret;
}
