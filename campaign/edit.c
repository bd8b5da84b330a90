// SPDX-License-Identifier: GPL-2.0
/*
 * Edits to a source text, applied in one pass; the #include lines the
 * campaign's patches add and drop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/rewrite.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

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

/* "#  ifdef" -> "ifdef": the directive of a preprocessor line, else NULL. */
const char *cpp_directive(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return NULL;
	for (p++; *p == ' ' || *p == '\t'; p++)
		;
	return p;
}

static int is_word(const char *p, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(p, w, n) && (p[n] == ' ' || p[n] == '\t' || p[n] == '\n' ||
				     p[n] == '(' || p[n] == '<' || p[n] == '"' || !p[n]);
}

/*
 * Where a new #include goes: after the last #include of the file's leading
 * block (before its first function) that no #if/#ifdef/#ifndef encloses,
 * and, as the kernel orders them, among the <...> ones: after the last of
 * those that comes before the first local "..." header and before a
 * #define CREATE_TRACE_POINTS (whose trace header must be the first to
 * see it).  Only when no <...> include is there, after the last one.
 * Sorted among the <linux/...> ones it could land under an #ifdef
 * (atyfb's CONFIG_ADB_PMU block) and not be seen.  -1 when there is none.
 */
static int include_slot(const struct csrc *c)
{
	const char *p, *d, *nl, *q;
	int limit = c->size, depth = 0, at = -1, angle = -1, past = 0;
	struct cfunc *f;
	int nf = csrc_functions(c, &f);

	if (nf && f[0].start < c->nr)
		limit = c->t[f[0].start].off;
	cfuncs_release(f, nf);
	for (p = c->text; p && p < c->text + limit; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		d = cpp_directive(p);
		if (!d)
			continue;
		if (is_word(d, "if") || is_word(d, "ifdef") || is_word(d, "ifndef"))
			depth++;
		else if (is_word(d, "endif") && depth > 0)
			depth--;
		else if (is_word(d, "define") && !strncmp(d + 7 + strspn(d + 7, " \t"),
							 "CREATE_TRACE_POINTS", 19))
			past = 1;
		else if (is_word(d, "include") && !depth) {
			at = nl ? nl - c->text + 1 : c->size;
			q = d + 7 + strspn(d + 7, " \t");
			if (*q == '"')
				past = 1;
			else if (*q == '<' && !past)
				angle = at;
		}
	}
	return angle >= 0 ? angle : at;
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
	struct strbuf line = STRBUF_INIT;
	int at;

	if (find_include(c, header) >= 0)
		return 1;
	at = include_slot(c);
	if (at < 0)
		return error("'%s' has no #include outside #if/#ifdef before its first "
			     "function to add <%s> after", c->path ? c->path : "?", header);
	strbuf_addf(&line, "#include <%s>\n", header);
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
