// SPDX-License-Identifier: GPL-2.0
/*
 * bkl pushdown --check: walk patches/series against the DB and name every
 * lock_kernel() a driver's push-down adds outside a registered char
 * device's open()/fasync() (coverage.entry), the only place chrdev_open(),
 * misc_open() and fasync held the BKL.  The function an added line lies
 * in is the DB's: its line is carried through the patches that come later
 * in the series (a conversion moves it), then looked up among the
 * functions the analyzer recorded for that file.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/check.h"
#include "campaign/drivers.h"
#include "db/db.h"
#include "kbuild/modules.h"
#include "qemu/driver.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

struct hunk {
	int old_start, old_len, new_start, new_len;
	int *map;		/* old line old_start + i is new line map[i] (deleted: where it was) */
};

/* One file of one patch: its hunks, and the lines it adds lock_kernel() at. */
struct pfile {
	char *path;
	struct hunk *h;
	int nr_h;
	int *locks;		/* new-file line numbers */
	int nr_locks;
};

struct ppatch {
	struct pfile *f;
	int nr_f;
};

static int is_lock_line(const char *l)
{
	l += strspn(l, " \t");
	return !strncmp(l, "lock_kernel();", 14);
}

static struct pfile *pfile_add(struct ppatch *p, const char *path, size_t n)
{
	struct pfile *f;

	p->f = realloc(p->f, (p->nr_f + 1) * sizeof(*p->f));
	f = &p->f[p->nr_f++];
	memset(f, 0, sizeof(*f));
	f->path = strndup(path, n);
	return f;
}

static int parse_patch(const char *text, struct ppatch *p)
{
	const char *l, *nl;
	struct pfile *f = NULL;
	int newline = 0, oldline = 0, left_old = 0, left_new = 0;

	memset(p, 0, sizeof(*p));
	for (l = text; *l; l = nl) {
		nl = strchr(l, '\n');
		nl = nl ? nl + 1 : l + strlen(l);
		if (left_old > 0 || left_new > 0) {
			if (*l == '+' || *l == ' ' || *l == '\n') {
				if (*l == '+' && f && is_lock_line(l + 1)) {
					f->locks = realloc(f->locks, (f->nr_locks + 1) * sizeof(int));
					f->locks[f->nr_locks++] = newline;
				}
				newline++;
				left_new--;
			}
			if (*l == '-' || *l == ' ' || *l == '\n') {
				struct hunk *h = &f->h[f->nr_h - 1];

				if (oldline - h->old_start < h->old_len)
					h->map[oldline - h->old_start] = newline - (*l != '-');
				oldline++;
				left_old--;
			}
			continue;
		}
		if (!strncmp(l, "+++ b/", 6)) {
			f = pfile_add(p, l + 6, strcspn(l + 6, "\t\n"));
		} else if (!strncmp(l, "@@ -", 4) && f) {
			struct hunk h = { 0, 1, 0, 1 };

			if (sscanf(l, "@@ -%d,%d +%d,%d", &h.old_start, &h.old_len, &h.new_start,
				   &h.new_len) != 4 &&
			    sscanf(l, "@@ -%d +%d,%d", &h.old_start, &h.new_start, &h.new_len) != 3 &&
			    sscanf(l, "@@ -%d,%d +%d", &h.old_start, &h.old_len, &h.new_start) != 3)
				return -1;
			h.map = calloc(h.old_len + 1, sizeof(int));
			f->h = realloc(f->h, (f->nr_h + 1) * sizeof(*f->h));
			f->h[f->nr_h++] = h;
			newline = h.new_start;
			oldline = h.old_start;
			left_old = h.old_len;
			left_new = h.new_len;
		}
	}
	return 0;
}

static void ppatch_release(struct ppatch *p)
{
	int i;

	for (i = 0; i < p->nr_f; i++) {
		int k;

		for (k = 0; k < p->f[i].nr_h; k++)
			free(p->f[i].h[k].map);
		free(p->f[i].path);
		free(p->f[i].h);
		free(p->f[i].locks);
	}
	free(p->f);
}

/*
 * Line l of path as a later patch leaves it: inside a hunk, where that
 * line went, or where it was if the patch deletes it (a conversion takes
 * the push-down's lock_kernel() out: its place is still in the function).
 */
static int carry_line(const struct ppatch *p, const char *path, int l)
{
	int i, k, shift = 0;

	for (i = 0; i < p->nr_f; i++) {
		if (strcmp(p->f[i].path, path))
			continue;
		for (k = 0; k < p->f[i].nr_h; k++) {
			const struct hunk *h = &p->f[i].h[k];

			if (h->old_start + h->old_len <= l)
				shift = h->new_start + h->new_len - (h->old_start + h->old_len);
			else if (h->old_start <= l)
				return h->map[l - h->old_start];
		}
	}
	return l + shift;
}

/* Is this series entry a driver's push-down: drivers/<d>/0001-...? */
static int is_pushdown(const char *name)
{
	char driver[256];
	int conversion;

	return qdriver_patch_of(name, driver, sizeof(driver), &conversion) && !conversion;
}

struct check {
	sqlite3_stmt *fn, *cov;
	const char *tree;
	struct kbuild_cache *kc;
	sqlite3 *db;
	int pushdowns, locks, bad, unknown;
};

/* The function of the DB that file:line lies in; NULL if the file is not in it. */
static char *function_at(struct check *k, const char *file, int line, int *def)
{
	struct strbuf abs = STRBUF_INIT;
	char *name = NULL;

	strbuf_addf(&abs, "%s/%s", k->tree, file);
	if (!db_bind_text(k->fn, "@rel", file) && !db_bind_text(k->fn, "@abs", abs.buf) &&
	    !db_bind_int(k->fn, "@line", line) && sqlite3_step(k->fn) == SQLITE_ROW) {
		name = strdup((const char *)sqlite3_column_text(k->fn, 0));
		*def = sqlite3_column_int(k->fn, 1);
	}
	sqlite3_reset(k->fn);
	strbuf_release(&abs);
	return name;
}

static int same_module(struct check *k, const char *a, const char *b)
{
	struct kbuild_module ma, mb;
	int same;

	if (!strcmp(a, b))
		return 1;
	if (kbuild_module_of(k->kc, a, &ma))
		return 0;
	if (kbuild_module_of(k->kc, b, &mb)) {
		kbuild_module_release(&ma);
		return 0;
	}
	same = !strcmp(ma.name, mb.name) && !strcmp(ma.dir, mb.dir);
	kbuild_module_release(&ma);
	kbuild_module_release(&mb);
	return same;
}

/*
 * An entry point only other modules' tables hold (nonseekable_open() in
 * fs/open.c, ublk's control device's ->open): a helper lent to other
 * drivers, which needs no BKL of theirs.  1 with a table's file in
 * table, else 0.
 */
static int lent_helper(struct check *k, const char *fn, const char *file, const char *member,
		       struct strbuf *table)
{
	struct campaign c = { .db = k->db, .tree = (char *)k->tree };
	char **files;
	int i, n = facts_table_files(&c, fn, file, member, &files), own = 0;

	for (i = 0; i < n; i++)
		own |= same_module(k, file, files[i]);
	if (n > 0 && !own)
		strbuf_addstr(table, files[0]);
	for (i = 0; i < n; i++)
		free(files[i]);
	if (n > 0)
		free(files);
	return n > 0 && !own;
}

static void check_lock(struct check *k, const char *patch, const char *file, int line)
{
	struct strbuf abs = STRBUF_INIT;
	int def = 0;
	char *fn = function_at(k, file, line, &def);
	struct strbuf table = STRBUF_INIT;

	k->locks++;
	if (!fn) {
		k->unknown++;
		printf("patches/%s: %s:%d: not in the DB (run 'bkl audit %s')\n", patch, file,
		       line, file);
		goto out;
	}
	strbuf_addf(&abs, "%s/%s", k->tree, file);
	if (db_bind_text(k->cov, "@rel", file) || db_bind_text(k->cov, "@abs", abs.buf) ||
	    db_bind_text(k->cov, "@fn", fn) || sqlite3_step(k->cov) != SQLITE_ROW) {
		k->bad++;
		printf("patches/%s: %s() (%s:%d) is not covered by the BKL at all\n", patch, fn,
		       file, def);
	} else if (!sqlite3_column_int(k->cov, 0)) {
		k->bad++;
		printf("patches/%s: %s() (%s:%d) is no registered char device open()/fasync(): "
		       "reached through %s.%s from %s() (%s, one of %d)\n", patch, fn, file, def,
		       sqlite3_column_text(k->cov, 1), sqlite3_column_text(k->cov, 2),
		       sqlite3_column_text(k->cov, 3), sqlite3_column_text(k->cov, 4),
		       sqlite3_column_int(k->cov, 5));
	} else if (lent_helper(k, fn, file, (const char *)sqlite3_column_text(k->cov, 2), &table)) {
		k->bad++;
		printf("patches/%s: %s() (%s:%d) is the ->%s of file_operations in %s, none in "
		       "its own module: a shared helper gets no push-down\n", patch, fn, file, def,
		       sqlite3_column_text(k->cov, 2), table.buf);
	}
	sqlite3_reset(k->cov);
out:
	free(fn);
	strbuf_release(&abs);
	strbuf_release(&table);
}

static int check_patch(struct check *k, const struct series *s, int idx, struct ppatch *all)
{
	const struct ppatch *p = &all[idx];
	int i, j, n, l;

	k->pushdowns++;
	for (i = 0; i < p->nr_f; i++)
		for (j = 0; j < p->f[i].nr_locks; j++) {
			l = p->f[i].locks[j];
			/* to the campaign's tree, the DB's: the series' end is not in it */
			for (n = idx + 1; n < s->nr && !series_is_end(s->names[n]); n++)
				l = carry_line(&all[n], p->f[i].path, l);
			check_lock(k, s->names[idx], p->f[i].path, l);
		}
	return 0;
}

int campaign_check_series(sqlite3 *db, const char *patches_dir, const char *tree)
{
	struct check k = { .tree = tree, .db = db };
	struct series s;
	struct ppatch *all;
	int i, ret = -1;

	if (series_read(&s, patches_dir))
		return -1;
	all = calloc(s.nr + 1, sizeof(*all));
	for (i = 0; i < s.nr; i++) {
		struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
		int bad;

		strbuf_addf(&path, "%s/%s", patches_dir, s.names[i]);
		bad = strbuf_read_file(&text, path.buf) || parse_patch(sb_str(&text), &all[i]);
		if (bad)
			error("cannot parse 'patches/%s'", s.names[i]);
		strbuf_release(&path);
		strbuf_release(&text);
		if (bad)
			goto out;
	}
	k.fn = db_prepare(db, "SELECT name, line FROM functions WHERE (file = @rel OR file = @abs) "
			  "AND line <= @line ORDER BY line DESC LIMIT 1");
	k.cov = db_prepare(db, "SELECT c.entry, c.struct, c.member, c.via_function, c.edge, "
			   "c.candidates FROM coverage c JOIN files f ON f.id = c.file_id "
			   "WHERE c.function = @fn AND (f.path = @rel OR f.path = @abs) "
			   "ORDER BY c.entry DESC LIMIT 1");
	k.kc = kbuild_cache_new(tree);
	if (!k.fn || !k.cov || !k.kc)
		goto out_stmt;
	for (i = 0; i < s.nr; i++)
		if (is_pushdown(s.names[i]))
			check_patch(&k, &s, i, all);
	printf("series: %d push-downs, %d lock_kernel() added, %d outside a registered char "
	       "device open()/fasync(), %d not in the DB\n", k.pushdowns, k.locks, k.bad, k.unknown);
	ret = k.bad || k.unknown ? 1 : 0;
out_stmt:
	if (k.kc)
		kbuild_cache_free(k.kc);
	sqlite3_finalize(k.fn);
	sqlite3_finalize(k.cov);
out:
	for (i = 0; i < s.nr; i++)
		ppatch_release(&all[i]);
	free(all);
	series_release(&s);
	return ret;
}
