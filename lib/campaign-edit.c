// SPDX-License-Identifier: GPL-2.0
/*
 * Edits to a source text, applied in one pass; the #include lines the
 * campaign's patches add and drop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign-rewrite.h"
#include "strbuf.h"
#include "usage.h"

void edits_add(struct edits *ed, int off, int len, const char *text)
{
	ed->e = realloc(ed->e, (ed->nr + 1) * sizeof(*ed->e));
	ed->e[ed->nr] = (struct edit){ off, len, ed->nr, strdup(text) };
	ed->nr++;
}

static int cmp_edit(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (!x->len != !y->len)		/* insertions before a replacement there */
		return x->len ? 1 : -1;
	return x->seq - y->seq;
}

int edits_apply(const char *text, int size, struct edits *ed, struct strbuf *out)
{
	int i, pos = 0;

	qsort(ed->e, ed->nr, sizeof(*ed->e), cmp_edit);
	for (i = 0; i < ed->nr; i++) {
		if (ed->e[i].off < pos)
			return error("internal: overlapping edits at offset %d", ed->e[i].off);
		strbuf_add(out, text + pos, ed->e[i].off - pos);
		strbuf_addstr(out, ed->e[i].text);
		pos = ed->e[i].off + ed->e[i].len;
	}
	strbuf_add(out, text + pos, size - pos);
	return 0;
}

void edits_release(struct edits *ed)
{
	int i;

	for (i = 0; i < ed->nr; i++)
		free(ed->e[i].text);
	free(ed->e);
	ed->e = NULL;
	ed->nr = 0;
}

/* The #include lines of the file's leading block: offsets of "#include <linux/" lines. */
static int linux_includes(const struct csrc *c, int *offs, int max, int *last_any)
{
	const char *p = c->text;
	int n = 0, limit = c->nr ? c->t[0].off : c->size;
	struct cfunc *f;
	int nf = csrc_functions(c, &f);

	if (nf)
		limit = f[0].start < c->nr ? c->t[f[0].start].off : limit;
	cfuncs_release(f, nf);
	*last_any = -1;
	for (p = c->text; p && p < c->text + c->size; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (p - c->text > limit && limit > 0)
			break;
		if (strncmp(p, "#include", 8))
			continue;
		*last_any = p - c->text;
		if (strstr(p, "<linux/") && strstr(p, "<linux/") < strchr(p, '\n') && n < max)
			offs[n++] = p - c->text;
	}
	return n;
}

static int find_include(const struct csrc *c, const char *header)
{
	const char *p;
	size_t n = strlen(header);

	for (p = c->text; p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		const char *q = p;

		if (strncmp(q, "#include", 8))
			continue;
		q += 8;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '<' && !strncmp(q + 1, header, n) && q[1 + n] == '>')
			return p - c->text;
	}
	return -1;
}

int rewrite_add_include(const struct csrc *c, const char *header, struct edits *ed)
{
	int offs[256], n, i, last_any, sorted = 1, at = -1;
	struct strbuf line = STRBUF_INIT;

	if (find_include(c, header) >= 0)
		return 1;
	n = linux_includes(c, offs, 256, &last_any);
	strbuf_addf(&line, "#include <%s>\n", header);
	for (i = 1; i < n; i++)
		if (strncmp(c->text + offs[i - 1], c->text + offs[i],
			    strcspn(c->text + offs[i], "\n")) > 0)
			sorted = 0;
	for (i = 0; i < n && sorted && at < 0; i++)
		if (strncmp(c->text + offs[i], line.buf, line.len) > 0)
			at = offs[i];
	if (at < 0 && n) {
		const char *nl = strchr(c->text + offs[n - 1], '\n');

		at = nl ? nl - c->text + 1 : c->size;
	}
	if (at < 0 && last_any >= 0) {
		const char *nl = strchr(c->text + last_any, '\n');

		at = nl ? nl - c->text + 1 : c->size;
	}
	if (at < 0) {
		strbuf_release(&line);
		return error("'%s' has no #include block to add <%s> to", c->path ? c->path : "?",
			     header);
	}
	edits_add(ed, at, 0, line.buf);
	strbuf_release(&line);
	return 0;
}

int rewrite_drop_include(const struct csrc *c, const char *header, struct edits *ed)
{
	int at = find_include(c, header);
	const char *nl;

	if (at < 0)
		return 1;
	nl = strchr(c->text + at, '\n');
	edits_add(ed, at, (nl ? (int)(nl - c->text) + 1 : c->size) - at, "");
	return 0;
}
