// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/csrc.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static const char *const punct3[] = { "<<=", ">>=", "...", NULL };
static const char *const punct2[] = {
	"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
	"-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", NULL
};

static void add_tok(struct csrc *c, int kind, int off, int len, int line)
{
	if (c->nr == c->alloc) {
		c->alloc = c->alloc ? c->alloc * 2 : 1024;
		c->t = realloc(c->t, c->alloc * sizeof(*c->t));
	}
	c->t[c->nr++] = (struct ctok){ kind, off, len, line, -1 };
}

static int punct_len(const char *p)
{
	const char *const *q;

	for (q = punct3; *q; q++)
		if (!strncmp(p, *q, 3))
			return 3;
	for (q = punct2; *q; q++)
		if (!strncmp(p, *q, 2))
			return 2;
	return 1;
}

/* Skip a comment at p, counting lines; returns p itself when there is none. */
static const char *skip_comment(const char *p, const char *end, int *line)
{
	if (p + 1 < end && p[0] == '/' && p[1] == '*') {
		for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
			*line += *p == '\n';
		return p + 1 < end ? p + 2 : end;
	}
	if (p + 1 < end && p[0] == '/' && p[1] == '/') {
		while (p < end && *p != '\n')
			p++;
		return p;
	}
	return p;
}

/* A preprocessor line, continuations and comments included. */
static const char *skip_directive(const char *p, const char *end, int *line)
{
	while (p < end && *p != '\n') {
		const char *q = skip_comment(p, end, line);

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\\' && p + 1 < end && p[1] == '\n') {
			(*line)++;
			p += 2;
			continue;
		}
		p++;
	}
	return p;
}

static const char *skip_quoted(const char *p, const char *end, int *line)
{
	char q = *p++;

	while (p < end && *p != q) {
		if (*p == '\\' && p + 1 < end)
			p++;
		*line += *p == '\n';
		p++;
	}
	return p < end ? p + 1 : end;
}

static void match_brackets(struct csrc *c)
{
	int *stack = malloc((c->nr + 1) * sizeof(*stack)), sp = 0, i;

	for (i = 0; i < c->nr; i++) {
		const char *s = c->text + c->t[i].off;

		if (c->t[i].kind != CT_PUNCT || c->t[i].len != 1)
			continue;
		if (strchr("([{", *s)) {
			stack[sp++] = i;
		} else if (strchr(")]}", *s) && sp) {
			c->t[i].match = stack[--sp];
			c->t[stack[sp]].match = i;
		}
	}
	free(stack);
}

int csrc_parse(struct csrc *c, const char *text, int size)
{
	const char *p, *end, *q;
	int line = 1, bol = 1;

	memset(c, 0, sizeof(*c));
	c->text = malloc(size + 1);
	memcpy(c->text, text, size);
	c->text[size] = '\0';
	c->size = size;
	p = c->text;
	end = p + size;
	while (p < end) {
		if (*p == '\n') {
			line++;
			bol = 1;
			p++;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		q = skip_comment(p, end, &line);
		if (q != p) {
			p = q;
			continue;
		}
		if (bol && *p == '#') {
			p = skip_directive(p, end, &line);
			continue;
		}
		bol = 0;
		q = p;
		if (isalpha((unsigned char)*p) || *p == '_') {
			while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
				q++;
			add_tok(c, CT_IDENT, p - c->text, q - p, line);
		} else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
			while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '.' ||
					   ((*q == '+' || *q == '-') && strchr("eEpP", q[-1]))))
				q++;
			add_tok(c, CT_NUMBER, p - c->text, q - p, line);
		} else if (*p == '"' || *p == '\'') {
			int l0 = line;

			q = skip_quoted(p, end, &line);
			add_tok(c, *p == '"' ? CT_STRING : CT_CHAR, p - c->text, q - p, l0);
		} else {
			q = p + punct_len(p);
			add_tok(c, CT_PUNCT, p - c->text, q - p, line);
		}
		p = q;
	}
	match_brackets(c);
	return 0;
}

int csrc_read(struct csrc *c, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&sb, path) < 0)
		return error("cannot read '%s'", path);
	ret = csrc_parse(c, sb_str(&sb), sb.len);
	c->path = strdup(path);
	strbuf_release(&sb);
	return ret;
}

void csrc_release(struct csrc *c)
{
	free(c->path);
	free(c->text);
	free(c->t);
	memset(c, 0, sizeof(*c));
}

int tok_is(const struct csrc *c, int i, const char *s)
{
	size_t n = strlen(s);

	return i >= 0 && i < c->nr && c->t[i].len == (int)n && !memcmp(c->text + c->t[i].off, s, n);
}

char *tok_dup(const struct csrc *c, int i)
{
	return strndup(c->text + c->t[i].off, c->t[i].len);
}

int line_start(const struct csrc *c, int off)
{
	while (off > 0 && c->text[off - 1] != '\n')
		off--;
	return off;
}

/*
 * The indentation of the line holding off, as tabs (then spaces) to the
 * same column: a line we add must not copy the "      \t" some files have
 * (sound/core/control.c), which checkpatch.pl rightly refuses.
 */
char *line_indent(const struct csrc *c, int off)
{
	int s = line_start(c, off), e = s, col = 0, i = 0;
	char *ind;

	for (; c->text[e] == ' ' || c->text[e] == '\t'; e++)
		col = c->text[e] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	ind = malloc(col / 8 + col % 8 + 1);
	while (col >= 8) {
		ind[i++] = '\t';
		col -= 8;
	}
	while (col--)
		ind[i++] = ' ';
	ind[i] = '\0';
	return ind;
}

int tok_starts_line(const struct csrc *c, int i)
{
	int s = line_start(c, c->t[i].off), k;

	for (k = s; k < c->t[i].off; k++)
		if (c->text[k] != ' ' && c->text[k] != '\t')
			return 0;
	return 1;
}

int is_keyword(const struct csrc *c, int i)
{
	static const char *const kw[] = {
		"if", "while", "for", "switch", "return", "sizeof", "typeof", "__typeof__",
		"alignof", "__alignof__", "_Alignof", "__builtin_expect", "likely", "unlikely",
		"do", "else", "case", "goto", "defined", "__attribute__", "asm", "__asm__",
		"volatile", "__volatile__", NULL
	};
	const char *const *k;

	for (k = kw; *k; k++)
		if (tok_is(c, i, *k))
			return 1;
	return 0;
}

/* Skip a bracket group if i opens one. */
static int skip_group(const struct csrc *c, int i)
{
	if (c->t[i].match > i)
		return c->t[i].match;
	return i;
}

int stmt_end(const struct csrc *c, int i, int limit)
{
	if (i >= limit)
		return limit;
	if (tok_is(c, i, "{"))
		return skip_group(c, i);
	if (c->t[i].kind == CT_IDENT && tok_is(c, i + 1, ":") && !tok_is(c, i, "default"))
		return i + 1;	/* a label */
	if (tok_is(c, i, "if") || tok_is(c, i, "while") || tok_is(c, i, "for") ||
	    tok_is(c, i, "switch")) {
		int e = stmt_end(c, skip_group(c, i + 1) + 1, limit);

		if (tok_is(c, i, "if") && tok_is(c, e + 1, "else"))
			e = stmt_end(c, e + 2, limit);
		return e;
	}
	if (tok_is(c, i, "do")) {
		int e = stmt_end(c, i + 1, limit);	/* body, then "while (x);" */

		return stmt_end(c, e + 1, limit);
	}
	if (tok_is(c, i, "else"))
		return stmt_end(c, i + 1, limit);
	for (; i < limit; i++) {
		if (tok_is(c, i, ";"))
			return i;
		i = skip_group(c, i);
	}
	return limit;
}

static int is_type_word(const struct csrc *c, int i)
{
	static const char *const words[] = {
		"int", "char", "short", "long", "unsigned", "signed", "float", "double",
		"void", "bool", "_Bool", "struct", "union", "enum", "const", "volatile",
		"static", "register", "auto", NULL
	};
	const char *const *w;
	const char *s;

	if (c->t[i].kind != CT_IDENT)
		return 0;
	for (w = words; *w; w++)
		if (tok_is(c, i, *w))
			return 1;
	s = c->text + c->t[i].off;
	if (c->t[i].len > 2 && !memcmp(s + c->t[i].len - 2, "_t", 2))
		return 1;	/* size_t, loff_t, spinlock_t, ... */
	if (c->t[i].len <= 5 && (s[0] == 'u' || s[0] == 's') && isdigit((unsigned char)s[1]))
		return 1;	/* u8 ... s64 */
	if (c->t[i].len > 3 && (!memcmp(s, "__u", 3) || !memcmp(s, "__s", 3) ||
				!memcmp(s, "__le", 4) || !memcmp(s, "__be", 4)) &&
	    isdigit((unsigned char)s[c->t[i].len - 1]))
		return 1;
	return 0;
}

int is_decl_stmt(const struct csrc *c, int i)
{
	const char *s;

	if (i >= c->nr || c->t[i].kind != CT_IDENT || is_keyword(c, i))
		return 0;
	if (is_type_word(c, i))
		return 1;
	s = c->text + c->t[i].off;
	if ((!strncmp(s, "DECLARE_", 8) || !strncmp(s, "DEFINE_", 7) || !strncmp(s, "LIST_HEAD", 9)) &&
	    tok_is(c, i + 1, "("))
		return 1;
	/* "foo_t x;", "struct_typedef *p = ..." */
	if (c->t[i + 1].kind == CT_IDENT && !tok_is(c, i + 1, ":"))
		return 1;
	if (tok_is(c, i + 1, "*") && c->t[i + 2].kind == CT_IDENT &&
	    (tok_is(c, i + 3, "=") || tok_is(c, i + 3, ";") || tok_is(c, i + 3, ",")))
		return 1;
	return 0;
}

/* After a parameter list: attributes such as __acquires(x), then "{"? */
static int body_after(const struct csrc *c, int rparen)
{
	int i = rparen + 1;

	while (i < c->nr && c->t[i].kind == CT_IDENT) {
		if (tok_is(c, i + 1, "("))
			i = skip_group(c, i + 1);
		i++;
	}
	return tok_is(c, i, "{") ? i : -1;
}

int csrc_functions(const struct csrc *c, struct cfunc **out)
{
	int i, start = 0, nr = 0;
	struct cfunc *f = NULL;

	for (i = 0; i < c->nr; i++) {
		if (tok_is(c, i, ";")) {
			start = i + 1;
			continue;
		}
		if (c->t[i].kind == CT_IDENT && tok_is(c, i + 1, "(") && !is_keyword(c, i)) {
			int rp = skip_group(c, i + 1), body = body_after(c, rp);

			if (body > 0 && (i == start || !tok_is(c, i - 1, "="))) {
				f = realloc(f, (nr + 1) * sizeof(*f));
				f[nr++] = (struct cfunc){ tok_dup(c, i), start, i, i + 1, body,
							  c->t[i].line };
				i = skip_group(c, body);
				start = i + 1;
				continue;
			}
			i = rp;
			continue;
		}
		i = skip_group(c, i);
	}
	*out = f;
	return nr;
}

void cfuncs_release(struct cfunc *f, int nr)
{
	while (nr--)
		free(f[nr].name);
	free(f);
}

int csrc_find_function(const struct csrc *c, const char *name, int line, struct cfunc *out)
{
	struct cfunc *f;
	int nr = csrc_functions(c, &f), i, best = -1;

	for (i = 0; i < nr; i++) {
		if (strcmp(f[i].name, name))
			continue;
		if (best < 0 || (line && abs(f[i].line - line) < abs(f[best].line - line)))
			best = i;
	}
	if (best >= 0) {
		*out = f[best];
		out->name = strdup(name);
	}
	cfuncs_release(f, nr);
	return best >= 0 ? 0 : -1;
}

static void add_global(struct cglobal **g, int *nr, const struct csrc *c, int name,
		       char *type, int is_const)
{
	*g = realloc(*g, (*nr + 1) * sizeof(**g));
	(*g)[(*nr)++] = (struct cglobal){ tok_dup(c, name), type, c->t[name].line, is_const };
}

/* "static struct miscdevice x" -> "struct miscdevice" */
static char *type_text(const struct csrc *c, int from, int to)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = from; i < to; i++) {
		if (tok_is(c, i, "static") || (c->t[i].kind == CT_IDENT &&
		    !strncmp(c->text + c->t[i].off, "__", 2)))
			continue;
		if (sb.len && !(tok_is(c, i, "*") && sb.buf[sb.len - 1] == '*'))
			strbuf_addstr(&sb, " ");
		strbuf_add(&sb, c->text + c->t[i].off, c->t[i].len);
	}
	return sb.buf ? sb.buf : strdup("");
}

/* One top-level statement [s, e): its declarators, if it declares variables. */
static void scan_decl(const struct csrc *c, int s, int e, struct cglobal **g, int *nr)
{
	int i, name = -1, type_end = -1, is_const = 0;

	if (tok_is(c, s, "typedef") || tok_is(c, s, "extern"))
		return;
	if (tok_is(c, s, "static") && tok_is(c, s + 2, "("))
		s++;		/* static DEFINE_MUTEX(x); */
	if (c->t[s].kind == CT_IDENT && tok_is(c, s + 1, "(")) {
		const char *w = c->text + c->t[s].off;

		if ((!strncmp(w, "DEFINE_", 7) || !strncmp(w, "DECLARE_", 8) ||
		     tok_is(c, s, "LIST_HEAD") || tok_is(c, s, "HLIST_HEAD")) &&
		    c->t[s + 2].kind == CT_IDENT)
			add_global(g, nr, c, s + 2, tok_dup(c, s), 0);
		return;		/* other macro calls: module_param(...) */
	}
	for (i = s; i <= e; i++) {
		int end_decl = i == e || tok_is(c, i, ",") || tok_is(c, i, "=") ||
			       tok_is(c, i, "[") || tok_is(c, i, ":");

		if (tok_is(c, i, "("))
			return;		/* a prototype, or too clever for us */
		if (tok_is(c, i, "const"))
			is_const = 1;
		if (c->t[i].kind == CT_IDENT && strncmp(c->text + c->t[i].off, "__", 2) &&
		    !is_type_word(c, i) && !tok_is(c, i - 1, "struct") &&
		    !tok_is(c, i - 1, "union") && !tok_is(c, i - 1, "enum"))
			name = i;
		if (tok_is(c, i, "{") && name < 0)
			return;		/* struct x { ... }; */
		if (!end_decl)
			continue;
		if (name >= 0) {
			if (type_end < 0)
				type_end = name;
			add_global(g, nr, c, name, type_text(c, s, type_end), is_const);
		}
		name = -1;
		while (i < e && !tok_is(c, i, ",")) {	/* skip the initializer */
			i = skip_group(c, i);
			i++;
		}
	}
}

int csrc_globals(const struct csrc *c, struct cglobal **out)
{
	int i, start = 0, nr = 0;
	struct cglobal *g = NULL;

	for (i = 0; i < c->nr; i++) {
		if (tok_is(c, i, ";")) {
			if (i > start)
				scan_decl(c, start, i, &g, &nr);
			start = i + 1;
			continue;
		}
		if (c->t[i].kind == CT_IDENT && tok_is(c, i + 1, "(") && !is_keyword(c, i)) {
			int rp = skip_group(c, i + 1), body = body_after(c, rp);

			if (body > 0 && !tok_is(c, i - 1, "=")) {
				i = skip_group(c, body);	/* a function */
				start = i + 1;
				continue;
			}
			i = rp;
			continue;
		}
		i = skip_group(c, i);
	}
	*out = g;
	return nr;
}

void cglobals_release(struct cglobal *g, int nr)
{
	while (nr--) {
		free(g[nr].name);
		free(g[nr].type);
	}
	free(g);
}

int tok_is_assign(const struct csrc *c, int i)
{
	static const char *const ops[] = {
		"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--", NULL
	};
	const char *const *o;

	for (o = ops; *o; o++)
		if (tok_is(c, i, *o))
			return 1;
	return 0;
}

int tok_chain_end(const struct csrc *c, int i)
{
	int j = i + 1;

	for (;;) {
		if ((tok_is(c, j, ".") || tok_is(c, j, "->")) && c->t[j + 1].kind == CT_IDENT)
			j += 2;
		else if (tok_is(c, j, "[") && c->t[j].match > j)
			j = c->t[j].match + 1;
		else
			return j;
	}
}

int tok_enclosing_call(const struct csrc *c, int i, int lb)
{
	int k;

	for (k = i - 1; k > lb; k--) {
		if (tok_is(c, k, "(") && c->t[k].match > i)
			return c->t[k - 1].kind == CT_IDENT && !is_keyword(c, k - 1) ? k - 1 : -1;
		if ((tok_is(c, k, ")") || tok_is(c, k, "]") || tok_is(c, k, "}")) && c->t[k].match >= 0)
			k = c->t[k].match;
		if (tok_is(c, k, ";") || tok_is(c, k, "{"))
			return -1;
	}
	return -1;
}
