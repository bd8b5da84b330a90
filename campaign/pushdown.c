// SPDX-License-Identifier: GPL-2.0
/*
 * bkl pushdown: the 2008 push-down as one patch per driver, then the patch
 * that stops chrdev_open() taking the BKL once every driver has its own.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/pushdown.h"
#include "campaign/patch.h"
#include "campaign/rewrite.h"
#include "db/db.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static int implicit_files(const struct cdriver *d, char ***files)
{
	int i, k, nr = 0;

	*files = NULL;
	for (i = 0; i < d->nr_e; i++) {
		if (!centry_is_entry(&d->e[i]))
			continue;
		for (k = 0; k < nr && strcmp((*files)[k], d->e[i].file); k++)
			;
		if (k < nr)
			continue;
		*files = realloc(*files, (nr + 1) * sizeof(**files));
		(*files)[nr++] = d->e[i].file;
	}
	return nr;
}

/* A file of the scratch tree, its directory made first. */
static int write_source(const char *path, const struct strbuf *sb)
{
	return mkdir_parent(path) ? -1 : write_file(path, sb_str(sb));
}

/* Rewrite a/<file> into b/<file>: every implicit entry point in it. */
static int push_file(const struct campaign *cp, const struct cdriver *d, const char *scratch,
		     const char *file, struct strbuf *notes)
{
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT, macros = STRBUF_INIT;
	struct edits ed = { 0 };
	struct csrc c;
	int i, k, ret = -1;

	strbuf_addf(&path, "%s/a/%s", scratch, file);
	if (csrc_read(&c, path.buf))
		goto out;
	free(c.path);		/* errors name the tree's file, not the scratch copy */
	c.path = strdup(file);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%.*s", cp->tree, (int)(strrchr(file, '/') ? strrchr(file, '/') - file : 0),
		    file);
	returning_macros(c.text, path.buf, &macros);
	for (i = 0; i < d->nr_e; i++) {
		struct cfunc f;

		if (!centry_is_entry(&d->e[i]) || strcmp(d->e[i].file, file))
			continue;
		if (csrc_find_function(&c, d->e[i].function, d->e[i].line, &f)) {
			error("no definition of '%s' in '%s'", d->e[i].function, file);
			goto out_src;
		}
		k = hidden_return(&c, &f, &macros);
		if (k >= 0) {
			error("'%s' at %s:%d: the macro '%.*s' returns, which the rewrite cannot "
			      "see: push the BKL down by hand", f.name, file, c.t[k].line,
			      c.t[k].len, c.text + c.t[k].off);
			free(f.name);
			goto out_src;
		}
		ret = rewrite_pushdown(&c, &f, &ed, notes);
		free(f.name);
		if (ret)
			goto out_src;
		ret = -1;
	}
	if (rewrite_add_include(&c, "linux/smp_lock.h", &ed) < 0 ||
	    edits_apply(c.text, c.size, &ed, &out))
		goto out_src;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/b/%s", scratch, file);
	ret = write_source(path.buf, &out);
out_src:
	csrc_release(&c);
out:
	edits_release(&ed);
	strbuf_release(&path);
	strbuf_release(&out);
	strbuf_release(&macros);
	return ret;
}

/* "open()", "fasync()", "open() and fasync()": what the entry points are */
static const char *members(const struct cdriver *d)
{
	static struct strbuf sb = STRBUF_INIT;
	int i, k, pass;

	strbuf_reset(&sb);
	for (pass = 0; pass < 2; pass++)	/* open() first */
		for (i = 0; i < d->nr_e; i++) {
			const char *m = d->e[i].member;

			if (!centry_is_entry(&d->e[i]) || (strcmp(m, "open") != 0) != pass)
				continue;
			for (k = 0; k < i && !(centry_is_entry(&d->e[k]) && !strcmp(d->e[k].member, m)); k++)
				;
			if (k < i)
				continue;
			strbuf_addf(&sb, "%s%s()", sb.len ? ", " : "", m);
		}
	{	/* "a(), b(), c()" -> "a(), b() and c()" */
		char *last = strrchr(sb.buf ? sb.buf : "", ',');

		if (last) {
			char *tail = strdup(last + 2);

			sb.len = last - sb.buf;
			strbuf_addf(&sb, " and %s", tail);
			free(tail);
		}
	}
	return sb.len ? sb.buf : "open()";
}

static int is_legacy_open(const char *via)
{
	return !strcmp(via, "chrdev_open") || !strcmp(via, "chrdev_call_open");
}

/* Who takes the BKL around the entry points, in words. */
static void sites_text(const struct cdriver *d, struct strbuf *sb)
{
	int i, k, open = 0, fasync = 0;

	for (i = 0; i < d->nr_e; i++) {
		const struct centry *e = &d->e[i];

		if (!centry_is_entry(e))
			continue;
		if (is_legacy_open(e->via)) {
			if (!open++)
				strbuf_addf(sb, "%schrdev_open() takes the big kernel lock around "
					    "every character driver's open()", sb->len ? "; " : "");
		} else if (!strcmp(e->via, "vfs_fasync")) {
			if (!fasync++)
				strbuf_addf(sb, "%sfcntl(F_SETFL) and ioctl(FIOASYNC) take it around "
					    "->fasync()", sb->len ? "; " : "");
		} else {
			for (k = 0; k < i && !(centry_is_entry(&d->e[k]) && !strcmp(d->e[k].via, e->via) &&
					       !strcmp(d->e[k].member, e->member)); k++)
				;
			if (k == i)
				strbuf_addf(sb, "%s%s() calls ->%s() with it held", sb->len ? "; " : "",
					    e->via, e->member);
		}
	}
	strbuf_addstr(sb, " (CONFIG_BKL_LEGACY_SITES, as Linux 2.6.26 did)");
}

/*
 * One entry point as the DB shows it: the table, the registration that
 * makes it a char device and the call made with the BKL held, each with
 * its file:line (wrap_text() indents the continuation lines).
 */
static void entry_evidence(const struct centry *e, struct strbuf *body)
{
	strbuf_addf(body, "  %s() in %s: ->%s() of %s%s", e->function, e->file, e->member,
		    e->tbl ? e->tbl : "a table", e->tbl ? "," : "");
	if (e->reg_via)	/* a registration call, or a store that registers (cdev.ops) */
		strbuf_addf(body, " %s %s%s at %s:%d,", strchr(e->reg_via, '.') ? "stored in" :
			    "registered by", e->reg_via, strchr(e->reg_via, '.') ? "" : "()",
			    e->reg_file, e->reg_line);
	strbuf_addf(body, " called by %s() at %s:%d\n", e->via, e->via_file, e->via_line);
}

/* Why a driver has nothing to push down: what keeps its functions under the BKL. */
static void no_entry_error(const struct cdriver *d)
{
	struct strbuf sb = STRBUF_INIT;
	const struct centry *first = NULL;
	int i, n = 0;

	for (i = 0; i < d->nr_e; i++)
		if (d->e[i].implicit && !n++)
			first = &d->e[i];
	if (!first) {
		error("'%s' has no function the BKL covers: nothing to push down", d->id);
		return;
	}
	if (n == 1)
		strbuf_addf(&sb, "%s() is", first->function);
	else
		strbuf_addf(&sb, "%s() and %d more are", first->function, n - 1);
	if (first->edge && !strcmp(first->edge, "by-type") && first->candidates > FEW_CANDIDATES)
		/* one of 41 targets of a call is no caller of this driver's */
		error("'%s' has no registered char device open() or fasync(): %s only reached "
		      "under the BKL by type, as one of %d %s.%s implementations: nothing to "
		      "push down", d->id, sb.buf, first->candidates, first->st, first->member);
	else
		error("'%s' has no registered char device open() or fasync(): %s only reached "
		      "under the BKL, from %s() through %s.%s (%s): nothing to push down", d->id,
		      sb.buf, *first->via ? first->via : "?", first->st ? first->st : "?",
		      first->member, first->edge ? first->edge : "no evidence");
	strbuf_release(&sb);
}

static int own_file(const struct cdriver *d, const char *file)
{
	int k;

	for (k = 0; k < d->nr_files; k++)
		if (!strcmp(d->files[k], file))
			return 1;
	return 0;
}

/*
 * An entry point that only other drivers' tables hold (nonseekable_open()
 * in fs/open.c, the ->open of ublk's control device and 13 more): a
 * helper the driver lends.  The BKL was held around it for those
 * drivers' devices; it touches the file it is given, nothing of its own,
 * so it needs nothing (as in 2010), and a lock in it would reach every
 * other caller.  The entry, with the file of a table that holds it.
 */
static const struct centry *lent_entry(struct campaign *c, const struct cdriver *d,
					struct strbuf *table_file)
{
	const struct centry *lent = NULL;
	char **files;
	int i, k, n, own;

	for (i = 0; i < d->nr_e && !lent; i++) {
		const struct centry *e = &d->e[i];

		if (!centry_is_entry(e) || (n = facts_table_files(c, e->function, e->file,
								  e->member, &files)) <= 0)
			continue;
		for (k = own = 0; k < n; k++)
			own |= own_file(d, files[k]);
		if (!own) {
			lent = e;
			strbuf_addstr(table_file, files[0]);
		}
		for (k = 0; k < n; k++)
			free(files[k]);
		free(files);
	}
	return lent;
}

static void changelog(const struct cdriver *d, const char *notes, struct strbuf *body)
{
	struct strbuf eps = STRBUF_INIT, sites = STRBUF_INIT;
	int i, k, n = 0;

	for (i = 0; i < d->nr_e; i++)
		n += centry_is_entry(&d->e[i]);
	for (i = 0, k = 0; i < d->nr_e; i++)	/* "a(), b() and c()" */
		if (centry_is_entry(&d->e[i]))
			strbuf_addf(&eps, "%s%s()", !k++ ? "" : k == n ? " and " : ", ",
				    d->e[i].function);
	sites_text(d, &sites);
	strbuf_addf(body,
		"%s, so %s %s always run with it held. Those call sites are going to stop "
		"taking it, so take it in %s itself instead. This keeps the driver's "
		"behaviour identical until it has been audited and the lock is either "
		"dropped or replaced by something that says what it protects.\n\n"
		"This is the push-down Jonathan Corbet and Arnd Bergmann did for the "
		"2.6.27 and 2.6.36 kernels, one driver at a time.\n\n"
		"Entry points:\n",
		sites.buf, eps.buf, n == 1 ? "has" : "have", n == 1 ? eps.buf : "each of them");
	for (i = 0; i < d->nr_e; i++)
		if (centry_is_entry(&d->e[i]))
			entry_evidence(&d->e[i], body);
	if (notes && strstr(notes, "moved the initializer"))
		strbuf_addstr(body, "\nInitializers that read more than the arguments now run "
			      "after lock_kernel(), where they ran under the caller's lock.\n");
	strbuf_release(&eps);
	strbuf_release(&sites);
}

int campaign_pushdown(struct campaign *c, const struct cdriver *d, const char *author, int force)
{
	struct strbuf scratch = STRBUF_INIT, rel = STRBUF_INIT, subject = STRBUF_INIT;
	struct strbuf body = STRBUF_INIT, notes = STRBUF_INIT, skip = STRBUF_INIT;
	char **files, *old = campaign_patch_find(c, d, 1);
	char *prefix = cdriver_prefix(d, 0), *file_prefix = cdriver_prefix(d, 1);
	int i, nr = implicit_files(d, &files), ret = -1;
	const struct centry *lent;
	struct strbuf table = STRBUF_INIT;

	if (!nr) {
		no_entry_error(d);
		goto out;
	}
	if ((lent = lent_entry(c, d, &table))) {
		error("'%s': %s() in %s is the ->%s of file_operations in %s, none of its own: "
		      "a shared helper gets no push-down", d->id, lent->function, lent->file,
		      lent->member, table.buf);
		goto out;
	}
	if (old && series_contains(c, old) && !force) {
		error("'%s' is pushed down already (patches/%s); --force makes it again", d->id, old);
		goto out;
	}
	strbuf_addf(&rel, "drivers/%s/0001-%s-push-down-the-BKL-into-open.patch", d->id, file_prefix);
	strbuf_addf(&subject, "%s: push down the BKL into %s", prefix, members(d));
	/* made again: against the series without any of the driver's patches */
	strbuf_addf(&skip, "drivers/%s/", d->id);
	if (campaign_base(c, files, nr, old ? skip.buf : NULL, &scratch))
		goto out;
	for (i = 0; i < nr; i++)
		if (push_file(c, d, scratch.buf, files[i], &notes))
			goto out_scratch;
	changelog(d, notes.buf, &body);
	{
		struct cpatch p = { rel.buf, author, subject.buf, body.buf, scratch.buf, files, nr };

		if (old && strcmp(old, rel.buf))
			series_remove(c, old);
		if (campaign_write_patch(c, &p) || series_append(c, rel.buf))
			goto out_scratch;
	}
	ret = campaign_advance(c, d->id, "pushdown", CS_PUSHED_DOWN, author, rel.buf);
	if (!ret)
		printf("%s: patches/%s\n", d->id, rel.buf);
out_scratch:
	campaign_scratch_remove(scratch.buf);
out:
	free(files);
	free(prefix);
	free(file_prefix);
	free(old);
	strbuf_release(&scratch);
	strbuf_release(&rel);
	strbuf_release(&subject);
	strbuf_release(&body);
	strbuf_release(&notes);
	strbuf_release(&skip);
	strbuf_release(&table);
	return ret;
}

/* "#ifdef CONFIG_BKL_LEGACY_SITES" and its spellings: 1 (if), 0 (ifndef), -1 (other) */
static int legacy_if(const char *d)
{
	static const char *const yes[] = {
		"ifdef CONFIG_BKL_LEGACY_SITES", "if defined(CONFIG_BKL_LEGACY_SITES)",
		"if IS_ENABLED(CONFIG_BKL_LEGACY_SITES)", "if CONFIG_BKL_LEGACY_SITES", NULL
	};
	const char *const *y;

	for (y = yes; *y; y++)
		if (!strncmp(d, *y, strlen(*y)))
			return 1;
	return strncmp(d, "ifndef CONFIG_BKL_LEGACY_SITES", 30) ? -1 : 0;
}

/*
 * fs/char_dev.c as if CONFIG_BKL_LEGACY_SITES were off, for the
 * conditionals on that symbol only (unifdef -U): whether the series takes
 * the lock inline or through a helper with a plain #else variant, what is
 * left is chrdev_open() without the BKL.  Returns the blocks resolved.
 */
static int unifdef_legacy(const char *text, struct strbuf *out)
{
	int keep[64], target[64], depth = 0, blocks = 0, i, on;
	const char *p, *nl, *d;

	for (p = text; *p; p = nl) {
		nl = strchr(p, '\n');
		nl = nl ? nl + 1 : p + strlen(p);
		for (on = 1, i = 0; i < depth; i++)
			on &= keep[i];
		d = cpp_directive(p);
		if (d && !strncmp(d, "if", 2) && depth < 64) {
			int l = legacy_if(d);

			target[depth] = l >= 0;
			keep[depth++] = l >= 0 ? l == 0 : 1;
			blocks += l >= 0;
			if (l >= 0)
				continue;
		} else if (d && depth && !strncmp(d, "el", 2) && target[depth - 1]) {
			if (strncmp(d, "else", 4))
				return error("fs/char_dev.c: #elif on CONFIG_BKL_LEGACY_SITES: do it by hand");
			keep[depth - 1] = !keep[depth - 1];
			continue;
		} else if (d && depth && !strncmp(d, "endif", 5)) {
			if (target[--depth])
				continue;
		}
		if (on)
			strbuf_add(out, p, nl - p);
	}
	return blocks;
}

static int is_bkl_line(const char *line, size_t n)
{
	while (n && (*line == ' ' || *line == '\t')) {
		line++;
		n--;
	}
	return (n == 14 && !strncmp(line, "lock_kernel();", 14)) ||
	       (n == 16 && !strncmp(line, "unlock_kernel();", 16));
}

/*
 * chrdev_open() without its BKL: the CONFIG_BKL_LEGACY_SITES conditionals
 * resolved as off; failing those, the lock_kernel()/unlock_kernel() lines
 * in chrdev_open() itself dropped.
 */
static int strip_chrdev_open(const char *text, size_t size, struct strbuf *out)
{
	struct csrc c;
	struct cfunc f;
	const char *p, *end, *from, *to;
	int removed = 0;

	removed = unifdef_legacy(text, out);
	if (removed)
		return removed < 0 ? -1 : 0;
	strbuf_reset(out);
	csrc_parse(&c, text, size);
	if (csrc_find_function(&c, "chrdev_open", 0, &f)) {
		csrc_release(&c);
		return error("no chrdev_open() in fs/char_dev.c");
	}
	from = text + c.t[f.lbrace].off;
	to = text + c.t[c.t[f.lbrace].match].off;
	free(f.name);
	csrc_release(&c);
	strbuf_add(out, text, from - text);
	for (p = from; p < to; p = end) {
		const char *nl = memchr(p, '\n', to - p);

		end = nl ? nl + 1 : to;
		if (is_bkl_line(p, (nl ? nl : to) - p))
			removed++;
		else
			strbuf_add(out, p, end - p);
	}
	strbuf_add(out, to, text + size - to);
	return removed ? 0 : error("chrdev_open() takes no BKL: is the core series applied?");
}

int campaign_pushdown_core(struct campaign *c, const struct cdriver *all, int nr,
			   const char *author, int partial)
{
	struct strbuf left = STRBUF_INIT, scratch = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	char *file = "fs/char_dev.c";
	int i, k, missing = 0, ret = -1;

	for (i = 0; i < nr; i++) {
		char *p = campaign_patch_find(c, &all[i], 1);
		int covered = 0;

		for (k = 0; k < all[i].nr_e; k++)	/* what chrdev_open() calls: ->open() */
			covered |= centry_is_entry(&all[i].e[k]) && !strcmp(all[i].e[k].member, "open");
		if (covered && !(p && series_contains(c, p)) && missing++ < 12)
			strbuf_addf(&left, "%s%s", missing > 1 ? ", " : "", all[i].id);
		free(p);
	}
	if (missing) {
		error("%d covered driver%s still rely on chrdev_open()'s BKL: %s%s", missing,
		      missing == 1 ? "" : "s", left.buf, missing > 12 ? ", ..." : "");
		goto out;
	}
	if (!partial && (k = facts_analyzed_files(c)) < WHOLE_TREE_FILES) {
		error("the DB holds %d analyzed files, not the whole tree: drivers outside them "
		      "would lose the BKL unseen (run 'bkl audit', or --partial)", k);
		goto out;
	}
	if (series_contains(c, CORE_PATCH)) {
		error("chrdev_open() stops taking the BKL already (patches/%s)", CORE_PATCH);
		goto out;
	}
	if (campaign_base(c, &file, 1, NULL, &scratch))
		goto out;
	strbuf_addf(&path, "%s/a/%s", scratch.buf, file);
	if (strbuf_read_file(&text, path.buf) || strip_chrdev_open(text.buf, text.len, &out))
		goto out_scratch;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/b/%s", scratch.buf, file);
	if (write_source(path.buf, &out))
		goto out_scratch;
	{
		struct cpatch p = { CORE_PATCH, author, "chrdev: stop taking the BKL in chrdev_open()",
			"Every character driver whose open() ran under the big kernel lock taken "
			"by chrdev_open() now takes it itself (the push-down patches before this "
			"one), so chrdev_open() has nothing left to take it for. Stop taking it: "
			"from here on a driver holds the BKL only where its own code says so, "
			"and the audits can remove it driver by driver.\n",
			scratch.buf, &file, 1 };

		if (campaign_write_patch(c, &p) || series_append(c, CORE_PATCH))
			goto out_scratch;
	}
	printf("chrdev_open(): patches/%s\n", CORE_PATCH);
	ret = 0;
out_scratch:
	campaign_scratch_remove(scratch.buf);
out:
	strbuf_release(&left);
	strbuf_release(&scratch);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&out);
	return ret;
}
