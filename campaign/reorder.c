// SPDX-License-Identifier: GPL-2.0
/*
 * Verdict init-order: what open() or ioctl() read is initialized after the
 * device is registered.  Where the initialization is a plain statement in
 * the same block as the registration, it moves above it; anything else is
 * a skeleton patch (a changelog and a checklist, no diff) for a person.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/audit.h"
#include "campaign/patch.h"
#include "campaign/pushdown.h"
#include "campaign/rewrite.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static int next_line(const struct csrc *c, int off)
{
	const char *nl = strchr(c->text + off, '\n');

	return nl ? (int)(nl - c->text) + 1 : c->size;
}

/* First token of the statement holding token i (lb: the function's brace). */
static int stmt_start(const struct csrc *c, int i, int lb)
{
	int j;

	for (j = i - 1; j > lb; j--) {
		if (tok_is(c, j, ";") || tok_is(c, j, "}") ||
		    (tok_is(c, j, "{") && c->t[j].match > i))
			return j + 1;
		if ((tok_is(c, j, ")") || tok_is(c, j, "]")) && c->t[j].match >= 0)
			j = c->t[j].match;
	}
	return lb + 1;
}

static int enclosing_brace(const struct csrc *c, int i)
{
	int j;

	for (j = i - 1; j >= 0; j--) {
		if (tok_is(c, j, "{") && c->t[j].match > i)
			return j;
		if ((tok_is(c, j, "}") || tok_is(c, j, ")") || tok_is(c, j, "]")) && c->t[j].match >= 0)
			j = c->t[j].match;
	}
	return -1;
}

static int is_assign(const struct csrc *c, int i)
{
	static const char *const ops[] = { "=", "+=", "-=", "|=", "&=", "++", "--", NULL };
	const char *const *o;

	for (o = ops; *o; o++)
		if (tok_is(c, i, *o))
			return 1;
	return 0;
}

/* Does any identifier of [a0, a1] that is assigned there appear in [b0, b1]? */
static int writes_into(const struct csrc *c, int a0, int a1, int b0, int b1)
{
	int i, k;

	for (i = a0; i <= a1; i++) {
		if (c->t[i].kind != CT_IDENT || !is_assign(c, i + 1))
			continue;
		for (k = b0; k <= b1; k++)
			if (c->t[k].kind == CT_IDENT && c->t[k].len == c->t[i].len &&
			    !memcmp(c->text + c->t[k].off, c->text + c->t[i].off, c->t[k].len))
				return 1;
	}
	return 0;
}

static int plain_stmt(const struct csrc *c, int s, int e)
{
	static const char *const kw[] = {
		"return", "goto", "break", "continue", "if", "for", "while", "switch", "do", "{", NULL
	};
	const char *const *k;
	int i;

	for (i = s; i <= e; i++)
		for (k = kw; *k; k++)
			if (tok_is(c, i, *k))
				return 0;
	return tok_is(c, e, ";");
}

/* Move one finding's statement above the registration; why says it when we cannot. */
static int move_one(const struct csrc *c, const struct afinding *f, struct edits *ed,
		    int *moved, int nr_moved, struct strbuf *why)
{
	struct cfunc fn;
	int lb, rb, k, gs, ge, i, ss = -1, se, m;

	if (strcmp(f->how, "set here"))
		return strbuf_addf(why, "`%s` is %s", f->var, f->how), -1;
	if (csrc_find_function(c, f->function, 0, &fn))
		return strbuf_addf(why, "no %s() in %s", f->function, f->file), -1;
	free(fn.name);
	lb = fn.lbrace;
	rb = c->t[lb].match;
	for (k = lb + 1; k < rb && !(tok_is(c, k, f->reg_call) && c->t[k].line == f->reg_line); k++)
		;
	for (i = k; i < rb && !(tok_is(c, i, f->var) && c->t[i].line == f->init_line); i++)
		;
	if (k >= rb || i >= rb)
		return strbuf_addf(why, "lost %s() or `%s` in %s()", f->reg_call, f->var, f->function), -1;
	gs = stmt_start(c, k, lb);
	ge = stmt_end(c, gs, rb);
	if (c->t[gs].kind == CT_IDENT && tok_is(c, gs + 1, "="))	/* err = reg(); if (err) ... */
		while (tok_is(c, ge + 1, "if") && c->t[ge + 2].match > 0 &&
		       writes_into(c, gs, gs + 1, ge + 2, c->t[ge + 2].match))
			ge = stmt_end(c, ge + 1, rb);
	ss = stmt_start(c, i, lb);
	se = stmt_end(c, ss, rb);
	if (enclosing_brace(c, ss) != enclosing_brace(c, gs) || !plain_stmt(c, ss, se))
		return strbuf_addf(why, "`%s` (line %d) is not a plain statement in the block of %s()",
				   f->var, f->init_line, f->reg_call), -1;
	if (writes_into(c, ge + 1, ss - 1, ss, se) || writes_into(c, ss, se, gs, ss - 1))
		return strbuf_addf(why, "`%s` (line %d) depends on what runs after %s()", f->var,
				   f->init_line, f->reg_call), -1;
	if (!tok_starts_line(c, gs) || !tok_starts_line(c, ss))
		return strbuf_addf(why, "the statements share lines"), -1;
	for (m = 0; m < nr_moved; m++)
		if (moved[m] == ss)
			return 0;
	moved[nr_moved] = ss;
	{
		int from = line_start(c, c->t[ss].off), to = next_line(c, c->t[se].off);
		char *text = strndup(c->text + from, to - from);
		edits_add(ed, from, to - from, "");
		edits_add(ed, line_start(c, c->t[gs].off), 0, text);
		free(text);
	}
	return 1;
}

static int write_skeleton(struct campaign *c, const struct cdriver *d, const struct audit *a,
			  const char *why, const char *author)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	char *prefix = cdriver_prefix(d, 0), *file_prefix = cdriver_prefix(d, 1);
	char *dir = cdriver_patch_dir(c, d);
	int i, ret;
	FILE *f;

	strbuf_addf(&path, "%s/0002-%s-register-the-device-once-it-is-initialized.patch.draft",
		    dir, file_prefix);
	strbuf_addf(&sb, "From: %s\nSubject: [PATCH] %s: register the device once it is "
		    "initialized\n\n", author, prefix);
	strbuf_addstr(&sb, "The device is registered before the data open() or ioctl() read is\n"
		      "initialized; the BKL pushed down from chrdev_open() hid the race.\n\n");
	for (i = 0; i < a->nr_rbi; i++)
		strbuf_addf(&sb, "  %s() at %s:%d, then `%s` %s (line %d)\n", a->rbi[i].reg_call,
			    a->rbi[i].file, a->rbi[i].reg_line, a->rbi[i].var, a->rbi[i].how,
			    a->rbi[i].init_line);
	strbuf_addf(&sb, "\nSigned-off-by: %s\n---\n"
		    "TODO by hand (bkl convert could not: %s):\n"
		    "- [ ] move the initialization above the registration, keeping the error\n"
		    "      unwinding in reverse order\n"
		    "- [ ] drop the lock_kernel()/unlock_kernel() the push-down added\n"
		    "- [ ] quilt refresh this into patches/drivers/%s/, add it to the series\n"
		    "- [ ] bkl tree --check, bkl qemu, bkl status %s --set converted\n",
		    author, why, d->id, d->id);
	ret = mkdir_p(dir);
	f = ret ? NULL : fopen(path.buf, "w");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len || fclose(f))
		ret = error("cannot write '%s'", path.buf);
	else
		printf("%s: a skeleton, not in the series: %s\n  (%s)\n", d->id,
		       path.buf + strlen(c->repo) + 1, why);
	strbuf_release(&path);
	strbuf_release(&sb);
	free(prefix);
	free(file_prefix);
	free(dir);
	return ret;
}

/* Moving statements out of a paragraph can leave two blank lines: one will do. */
static void squeeze_blank_lines(struct strbuf *sb, int from, int to)
{
	int i, j;

	for (i = j = 0; i < (int)sb->len; i++) {
		if (i >= from && i < to && i >= 2 && sb->buf[i] == '\n' && sb->buf[i - 1] == '\n' &&
		    sb->buf[i - 2] == '\n')
			continue;
		sb->buf[j++] = sb->buf[i];
	}
	sb->len = j;
	sb->buf[j] = '\0';
}

static int rewrite_file(const char *path, const struct csrc *c, struct edits *ed)
{
	struct strbuf out = STRBUF_INIT;
	FILE *f;
	int i, lo = c->size, hi = 0, ret;

	for (i = 0; i < ed->nr; i++) {
		lo = ed->e[i].off < lo ? ed->e[i].off : lo;
		hi = ed->e[i].off + ed->e[i].len > hi ? ed->e[i].off + ed->e[i].len : hi;
	}
	ret = edits_apply(c->text, c->size, ed, &out);
	if (!ret)
		squeeze_blank_lines(&out, lo, hi + (int)out.len - c->size + 1);

	if (!ret) {
		f = fopen(path, "w");
		if (!f || fwrite(out.buf, 1, out.len, f) != out.len || fclose(f))
			ret = error("cannot write '%s'", path);
	}
	strbuf_release(&out);
	return ret;
}

/* 0: b/ reordered, how filled; 1: a skeleton written instead; -1: error. */
int reorder_init(struct campaign *camp, const struct cdriver *d, const char *scratch,
		 const char *author, struct strbuf *how)
{
	struct strbuf root = STRBUF_INIT, path = STRBUF_INIT, why = STRBUF_INIT;
	struct audit a;
	int i, s, ret = -1, ok = 1;

	strbuf_addf(&root, "%s/b", scratch);
	if (audit_analyze(camp, d, root.buf, &a))
		goto out;
	if (!a.nr_rbi) {
		error("the audit finds no registration before initialization in '%s': "
		      "is init-order the verdict?", d->id);
		goto out_audit;
	}
	for (s = 0; s < d->nr_files && ok; s++) {
		struct edits ed = { 0 };
		int moved[64], nr_moved = 0, r;
		struct csrc c;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", root.buf, d->files[s]);
		if (csrc_read(&c, path.buf))
			goto out_audit;
		for (i = 0; i < a.nr_rbi && ok; i++) {
			if (strcmp(a.rbi[i].file, d->files[s]) || nr_moved == 64)
				continue;
			r = move_one(&c, &a.rbi[i], &ed, moved, nr_moved, &why);
			ok = r >= 0;
			if (r > 0) {
				nr_moved++;
				strbuf_addf(how, "%s%s", how->len ? ", " : "", a.rbi[i].var);
			}
		}
		if (ok && ed.nr && rewrite_file(path.buf, &c, &ed))
			ok = -1;
		edits_release(&ed);
		csrc_release(&c);
	}
	if (ok < 0)
		goto out_audit;
	if (ok && how->len) {	/* "a, b, c" -> "a, b and c are now set before x()" */
		char *last = strrchr(how->buf, ','), *tail;
		int several = last != NULL;

		if (last) {
			tail = strdup(last + 2);
			how->len = last - how->buf;
			how->buf[how->len] = '\0';
			strbuf_addf(how, " and %s", tail);
			free(tail);
		}
		strbuf_addf(how, " %s now set before %s()", several ? "are" : "is",
			    a.rbi[0].reg_call);
	}
	ret = ok ? 0 : (write_skeleton(camp, d, &a, why.buf, author) ? -1 : 1);
out_audit:
	audit_release(&a);
out:
	strbuf_release(&root);
	strbuf_release(&path);
	strbuf_release(&why);
	return ret;
}
