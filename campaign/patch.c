// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "campaign/patch.h"
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static char *series_path(const struct campaign *c)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/patches/series", c->repo);
	return sb.buf;
}

int series_contains(const struct campaign *c, const char *rel)
{
	char *path = series_path(c), line[4096];
	FILE *f = fopen(path, "r");
	size_t n = strlen(rel);
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, rel, n) && strchr(" \t\r\n", line[n]);
	if (f)
		fclose(f);
	free(path);
	return found;
}

/*
 * Where the series' end starts (patches/end/..., and the comment lines
 * just above it): the length of the text before it.
 */
static size_t end_of_campaign(const char *text)
{
	const char *line, *block = NULL;

	for (line = text; *line; line = strchr(line, '\n') + 1) {
		if (*line == '#') {
			block = block ? block : line;
			continue;
		}
		if (series_is_end(line))
			return (block ? block : line) - text;
		block = NULL;
		if (!strchr(line, '\n'))
			break;
	}
	return strlen(text);
}

int series_append(const struct campaign *c, const char *rel)
{
	char *path = series_path(c);
	struct strbuf old = STRBUF_INIT;
	size_t end;
	FILE *f;
	int ret = 0;

	if (series_contains(c, rel))
		goto out;
	strbuf_read_file(&old, path);
	if (old.len && old.buf[old.len - 1] != '\n')
		strbuf_addch(&old, '\n');
	end = end_of_campaign(sb_str(&old));
	f = fopen(path, "w");
	if (!f) {
		ret = error("cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	/* a driver's patch goes before the series' end, which comes last */
	fprintf(f, "%.*s%s\n%s", (int)end, sb_str(&old), rel, sb_str(&old) + end);
	if (fclose(f))
		ret = error("cannot write '%s'", path);
out:
	strbuf_release(&old);
	free(path);
	return ret;
}

int series_remove(const struct campaign *c, const char *rel)
{
	char *path = series_path(c), *line, *next;
	struct strbuf old = STRBUF_INIT, out = STRBUF_INIT;
	size_t n = strlen(rel);
	FILE *f;
	int ret = 0;

	if (strbuf_read_file(&old, path)) {
		ret = error("cannot read '%s'", path);
		goto out;
	}
	for (line = old.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (!strncmp(line, rel, n) && strchr(" \t\r\n", line[n]))
			continue;
		strbuf_add(&out, line, next - line);
	}
	f = fopen(path, "w");
	if (!f || fwrite(sb_str(&out), 1, out.len, f) != out.len)
		ret = error("cannot write '%s'", path);
	if (f && fclose(f))
		ret = error("cannot write '%s'", path);
out:
	strbuf_release(&old);
	strbuf_release(&out);
	free(path);
	return ret;
}

char *campaign_patch_find_id(const struct campaign *c, const char *id, int n)
{
	struct strbuf dir = STRBUF_INIT;
	char prefix[8], *found = NULL;
	struct dirent *de;
	DIR *dh;

	strbuf_addf(&dir, "%s/patches/drivers/%s", c->repo, id);
	dh = opendir(dir.buf);
	snprintf(prefix, sizeof(prefix), "%04d-", n);
	while (dh && !found && (de = readdir(dh))) {
		size_t len = strlen(de->d_name);

		if (!strncmp(de->d_name, prefix, 5) && len > 6 && !strcmp(de->d_name + len - 6, ".patch")) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "drivers/%s/%s", id, de->d_name);
			found = sb.buf;
		}
	}
	if (dh)
		closedir(dh);
	strbuf_release(&dir);
	return found;
}

char *campaign_patch_find(const struct campaign *c, const struct cdriver *d, int n)
{
	return campaign_patch_find_id(c, d->id, n);
}

void campaign_patch_files(const char *text, char ***v, int *nr)
{
	const char *p = text;

	while (p && (p = strstr(p, "+++ "))) {
		if (p == text || p[-1] == '\n') {
			const char *f = p + 4;

			if (!strncmp(f, "b/", 2))
				f += 2;
			*v = realloc(*v, (*nr + 1) * sizeof(**v));
			(*v)[(*nr)++] = strndup(f, strcspn(f, "\t\n"));
		}
		p += 4;
	}
}

static int wanted(char **v, int nr, char *const *files, int nf, const char *a)
{
	struct strbuf p = STRBUF_INIT;
	int i, k, yes = 0;

	for (i = 0; i < nr && !yes; i++) {
		for (k = 0; k < nf && !yes; k++)
			yes = !strcmp(v[i], files[k]);
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", a, v[i]);
		yes = yes || path_exists(p.buf);	/* touches a file we hold already */
	}
	strbuf_release(&p);
	return yes;
}

/* Apply one series patch to the subset in a/, copying in what it touches. */
static int apply_one(const struct series *s, int i, char *const *files, int nf, const char *a)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, from = STRBUF_INIT, to = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	char **v = NULL;
	int nr = 0, k, ret = 0;

	strbuf_addf(&path, "%s/%s", s->dir, s->names[i]);
	if (strbuf_read_file(&text, path.buf)) {
		ret = error("cannot read '%s'", path.buf);
		goto out;
	}
	campaign_patch_files(text.buf, &v, &nr);
	if (!wanted(v, nr, files, nf, a))
		goto out;
	for (k = 0; k < nr && !ret; k++) {
		strbuf_reset(&from);
		strbuf_reset(&to);
		strbuf_addf(&from, "%s/%s", ktree_dir("pristine"), v[k]);
		strbuf_addf(&to, "%s/%s", a, v[k]);
		if (!path_exists(to.buf) && path_exists(from.buf))
			ret = copy_file(from.buf, to.buf);
	}
	if (!ret) {
		const char *argv[] = { "patch", "-p1", "-s", "-N", "-d", a, "-i", path.buf, NULL };

		if (run_command(argv, NULL, &out))
			ret = error("series patch '%s' does not apply: run 'bkl tree --check'",
				    s->names[i]);
	}
out:
	for (k = 0; k < nr; k++)
		free(v[k]);
	free(v);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&from);
	strbuf_release(&to);
	strbuf_release(&out);
	return ret;
}

int campaign_base(const struct campaign *c, char *const *files, int nr, const char *skip,
		  struct strbuf *dir)
{
	struct strbuf tmpl = STRBUF_INIT, a = STRBUF_INIT, from = STRBUF_INIT, to = STRBUF_INIT;
	struct strbuf pdir = STRBUF_INIT;
	struct series s;
	int i, ret = -1;

	strbuf_addf(&tmpl, "%s/tmp", bkl_cache_dir());
	if (mkdir_p(tmpl.buf))
		goto out;
	strbuf_addstr(&tmpl, "/campaign-XXXXXX");
	if (!mkdtemp(tmpl.buf)) {
		error("cannot make a scratch directory in '%s': %s", bkl_cache_dir(), strerror(errno));
		goto out;
	}
	strbuf_addstr(dir, tmpl.buf);
	strbuf_addf(&a, "%s/a", tmpl.buf);
	strbuf_addf(&to, "%s/b", tmpl.buf);
	if (mkdir_p(a.buf) || mkdir_p(to.buf))
		goto out;
	for (i = 0; i < nr; i++) {
		strbuf_reset(&from);
		strbuf_reset(&to);
		strbuf_addf(&from, "%s/%s", ktree_dir("pristine"), files[i]);
		strbuf_addf(&to, "%s/%s", a.buf, files[i]);
		if (!path_exists(from.buf)) {
			error("'%s' is not in the pristine tree '%s'", files[i], ktree_dir("pristine"));
			goto out;
		}
		if (copy_file(from.buf, to.buf))
			goto out;
	}
	strbuf_addf(&pdir, "%s/patches", c->repo);
	if (series_read(&s, pdir.buf))
		goto out;
	ret = 0;
	/* the campaign's tree: the series' end comes after every driver's patch */
	for (i = 0; i < s.nr && !ret && !series_is_end(s.names[i]); i++)
		if (!skip || (skip[strlen(skip) - 1] == '/' ? strncmp(s.names[i], skip, strlen(skip))
							   : strcmp(s.names[i], skip)))
			ret = apply_one(&s, i, files, nr, a.buf);
	series_release(&s);
out:
	if (ret && dir->len)
		campaign_scratch_remove(dir->buf);
	strbuf_release(&tmpl);
	strbuf_release(&a);
	strbuf_release(&from);
	strbuf_release(&to);
	strbuf_release(&pdir);
	return ret;
}

void campaign_scratch_remove(const char *dir)
{
	const char *argv[] = { "rm", "-rf", dir, NULL };

	if (dir && *dir && !getenv("BKL_KEEP_SCRATCH"))
		run_command(argv, NULL, NULL);
}

/* One line of text at most width wide; continuation lines indented by cont. */
static void wrap_line(struct strbuf *sb, const char *p, size_t len, int width, const char *cont)
{
	const char *end = p + len;
	int col = 0, lead = strspn(p, " ");

	strbuf_add(sb, p, lead);	/* a list item keeps its indentation */
	col = lead;
	p += lead;
	while (p < end) {
		size_t n = strcspn(p, " ");

		if (p + n > end)
			n = end - p;
		if (col > lead && col + 1 + (int)n > width) {
			strbuf_addf(sb, "\n%s", cont);
			col = strlen(cont);
		} else if (col > lead) {
			strbuf_addstr(sb, " ");
			col++;
		}
		strbuf_add(sb, p, n);
		col += n;
		p += n;
		while (p < end && *p == ' ')
			p++;
	}
}

void wrap_text(struct strbuf *sb, const char *text, int width)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");
		int lead = strspn(p, " ");
		char cont[16];

		snprintf(cont, sizeof(cont), "%*s", lead ? lead + 4 : 0, "");
		wrap_line(sb, p, n, width, cont);
		p += n;
		if (*p == '\n') {
			strbuf_addstr(sb, "\n");
			p++;
		}
	}
}

/* " drivers/char/nvram.c | 12 ++++++++--" and the totals line */
static void diffstat(const char *diff, struct strbuf *out)
{
	const char *line;
	char name[512] = "";
	int add = 0, del = 0, files = 0, tadd = 0, tdel = 0;
	struct strbuf rows = STRBUF_INIT;

	for (line = diff; ; line = strchr(line, '\n') + 1) {
		int end = !*line;

		if (end || !strncmp(line, "--- ", 4)) {
			if (name[0]) {
				strbuf_addf(&rows, " %s | %d %.*s%.*s\n", name, add + del,
					    add > 40 ? 40 : add, "++++++++++++++++++++++++++++++++++++++++",
					    del > 40 ? 40 : del, "----------------------------------------");
				files++;
				tadd += add;
				tdel += del;
			}
			name[0] = '\0';
			add = del = 0;
			if (end)
				break;
		} else if (!strncmp(line, "+++ b/", 6)) {
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(line + 6, "\t\n"), line + 6);
		} else if (line[0] == '+') {
			add++;
		} else if (line[0] == '-') {
			del++;
		}
		if (!strchr(line, '\n'))
			break;
	}
	strbuf_addstr(out, rows.buf ? rows.buf : "");
	strbuf_addf(out, " %d file%s changed, %d insertion%s(+), %d deletion%s(-)\n", files,
		    files == 1 ? "" : "s", tadd, tadd == 1 ? "" : "s", tdel, tdel == 1 ? "" : "s");
	strbuf_release(&rows);
}

static const char *checkpatch_path(const struct campaign *c)
{
	static struct strbuf sb = STRBUF_INIT;
	const char *env = getenv("BKL_CHECKPATCH");

	if (env)
		return *env ? env : NULL;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/scripts/checkpatch.pl", c->tree);
	if (path_exists(sb.buf))
		return sb.buf;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/scripts/checkpatch.pl", ktree_dir("pristine"));
	return path_exists(sb.buf) ? sb.buf : NULL;
}

static int checkpatch(const struct campaign *c, const char *patch)
{
	const char *cp = checkpatch_path(c);
	const char *argv[] = { "perl", cp, "--no-tree", "-q", "--no-summary", patch, NULL };
	struct strbuf out = STRBUF_INIT;
	int rc;

	if (!cp) {
		warning("no scripts/checkpatch.pl in the tree: '%s' is not checked", patch);
		return 0;
	}
	rc = run_command(argv, NULL, &out);
	if (rc) {
		fputs(sb_str(&out), stderr);
		error("checkpatch.pl finds fault with '%s'", patch);
	}
	strbuf_release(&out);
	return rc ? -1 : 0;
}

int campaign_write_patch(const struct campaign *c, const struct cpatch *p)
{
	struct strbuf diff = STRBUF_INIT, text = STRBUF_INIT, path = STRBUF_INIT, tmp = STRBUF_INIT;
	struct strbuf la = STRBUF_INIT, lb = STRBUF_INIT, fa = STRBUF_INIT, fb = STRBUF_INIT;
	int i, rc, ret = -1;
	FILE *f;

	for (i = 0; i < p->nr; i++) {
		const char *argv[] = { "diff", "-u", "--label", NULL, "--label", NULL, NULL, NULL, NULL };

		strbuf_reset(&la);
		strbuf_reset(&lb);
		strbuf_reset(&fa);
		strbuf_reset(&fb);
		strbuf_addf(&la, "a/%s", p->files[i]);
		strbuf_addf(&lb, "b/%s", p->files[i]);
		strbuf_addf(&fa, "%s/a/%s", p->scratch, p->files[i]);
		strbuf_addf(&fb, "%s/b/%s", p->scratch, p->files[i]);
		argv[3] = la.buf;
		argv[5] = lb.buf;
		argv[6] = fa.buf;
		argv[7] = fb.buf;
		rc = run_command(argv, NULL, &diff);
		if (rc > 1 || rc < 0) {
			error("diff failed on '%s'", p->files[i]);
			goto out;
		}
	}
	if (!diff.len) {
		error("nothing changed: no patch written");
		goto out;
	}
	strbuf_addf(&text, "From: %s\nSubject: [PATCH] %s\n\n", p->author, p->subject);
	wrap_text(&text, p->body, 72);
	strbuf_addf(&text, "\nSigned-off-by: %s\n---\n", p->author);
	diffstat(diff.buf, &text);
	strbuf_addf(&text, "\n%s", diff.buf);
	strbuf_addf(&path, "%s/patches/%s", c->repo, p->rel);
	if (mkdir_parent(path.buf))
		goto out;
	/* checked beside it first: a patch made again that fails keeps the old one */
	strbuf_addf(&tmp, "%s.new", path.buf);
	f = fopen(tmp.buf, "w");
	if (!f || fwrite(text.buf, 1, text.len, f) != text.len || fclose(f)) {
		error("cannot write '%s'", tmp.buf);
		goto out_tmp;
	}
	if (checkpatch(c, tmp.buf))
		goto out_tmp;
	if (rename(tmp.buf, path.buf)) {
		error("cannot write '%s': %s", path.buf, strerror(errno));
		goto out_tmp;
	}
	ret = 0;
	goto out;
out_tmp:
	unlink(tmp.buf);
out:
	strbuf_release(&diff);
	strbuf_release(&text);
	strbuf_release(&path);
	strbuf_release(&tmp);
	strbuf_release(&la);
	strbuf_release(&lb);
	strbuf_release(&fa);
	strbuf_release(&fb);
	return ret;
}
