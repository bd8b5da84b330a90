// SPDX-License-Identifier: GPL-2.0
/*
 * Function-like macros that return.  The push-down rewrites a function's
 * return statements; a macro such as dib3000mb's
 *
 *	#define wr(reg,val) if (dib3000_write_reg(state,reg,val)) \
 *		{ pr_err(...); return -EREMOTEIO; }
 *
 * is a call to the tokenizer and a return to the compiler, so the BKL
 * would leak on its error path (the analyzer found exactly that after the
 * first whole-tree push-down).  The macros looked at are the .c file's own
 * and those of the headers it includes with "" from its directory.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "campaign/csrc.h"
#include "campaign/pushdown.h"
#include "lib/strbuf.h"

static int is_ident(int ch)
{
	return isalnum(ch) || ch == '_';
}

static int has_return(const char *p, const char *end)
{
	for (; (p = strstr(p, "return")) && p < end; p += 6)
		if (!is_ident((unsigned char)p[-1]) && !is_ident((unsigned char)p[6]))
			return 1;
	return 0;
}

/* Add " NAME " to names for each function-like macro of text that returns. */
static void scan_defines(const char *text, struct strbuf *names)
{
	const char *p = text, *name, *end, *eol;

	while ((p = strstr(p, "#define"))) {
		name = p + 7;
		name += strspn(name, " \t");
		for (end = name; is_ident((unsigned char)*end); end++)
			;
		for (eol = end; (eol = strchr(eol, '\n')) && eol[-1] == '\\'; eol++)
			;
		if (!eol)
			eol = end + strlen(end);
		if (*end == '(' && end > name && has_return(end, eol))
			strbuf_addf(names, " %.*s ", (int)(end - name), name);
		p = eol;
	}
}

void returning_macros(const char *text, const char *dir, struct strbuf *names)
{
	struct strbuf path = STRBUF_INIT, header = STRBUF_INIT;
	const char *p = text;

	scan_defines(text, names);
	while ((p = strstr(p, "#include \""))) {
		const char *name = p + 10, *q = strchr(name, '"');

		if (!q)
			break;
		strbuf_reset(&path);
		strbuf_reset(&header);
		strbuf_addf(&path, "%s/%.*s", dir, (int)(q - name), name);
		if (strbuf_read_file(&header, path.buf) == 0)
			scan_defines(sb_str(&header), names);
		p = q;
	}
	strbuf_release(&path);
	strbuf_release(&header);
}

int hidden_return(const struct csrc *c, const struct cfunc *f, const struct strbuf *names)
{
	char key[130];
	int i;

	for (i = f->lbrace; names->len && i < c->t[f->lbrace].match; i++) {
		if (c->t[i].kind != CT_IDENT || c->t[i].len > 120 || !tok_is(c, i + 1, "("))
			continue;
		snprintf(key, sizeof(key), " %.*s ", c->t[i].len, c->text + c->t[i].off);
		if (strstr(names->buf, key))
			return i;
	}
	return -1;
}
