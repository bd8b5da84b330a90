// SPDX-License-Identifier: GPL-2.0
/*
 * Applying patches/series with quilt, so that a contributor can work in
 * the tree with quilt as usual, and saying exactly what did not apply.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ktree.h"
#include "paths.h"
#include "run-command.h"
#include "series.h"
#include "strbuf.h"
#include "usage.h"

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
	if (run_command(argv, dir, &out))
		ret = explain_failure(out.buf, s);
	strbuf_release(&out);
	return ret;
}
