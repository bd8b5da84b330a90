/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_CSRC_H
#define BKL_CAMPAIGN_CSRC_H

/*
 * Just enough of C to rewrite a driver's open() and to read its file-scope
 * state: a tokenizer that keeps byte offsets and lines (comments and
 * preprocessor lines are skipped, so code under #ifdef is all seen), the
 * brackets matched, function definitions and file-scope variables found.
 * This is text surgery on kernel-style code, not a compiler: callers check
 * the shapes they rely on and refuse the rest by name.
 */
enum ctok_kind { CT_IDENT, CT_NUMBER, CT_STRING, CT_CHAR, CT_PUNCT };

struct ctok {
	int kind;
	int off, len;		/* in csrc.text */
	int line;		/* 1-based */
	int match;		/* for ( [ { ) ] }: the other bracket's index, else -1 */
};

struct csrc {
	char *path;
	char *text;
	int size;
	struct ctok *t;
	int nr, alloc;
};

struct cfunc {
	char *name;
	int start;		/* first token of the definition (storage class, type) */
	int name_tok;		/* the function's name */
	int lparen, lbrace;	/* parameter list, body: t[x].match closes them */
	int line;		/* line of the name */
};

struct cglobal {
	char *name;
	char *type;		/* "int", "struct miscdevice", "DEFINE_MUTEX" */
	int line;
	int is_const;
};

int csrc_read(struct csrc *c, const char *path);	/* -1 after error() */
int csrc_parse(struct csrc *c, const char *text, int size);	/* text is copied */
void csrc_release(struct csrc *c);

int tok_is(const struct csrc *c, int i, const char *s);
char *tok_dup(const struct csrc *c, int i);
/* Offset of the first character of line that holds byte off. */
int line_start(const struct csrc *c, int off);
/* Leading whitespace of that line, as a new string. */
char *line_indent(const struct csrc *c, int off);
/* Is token i the first thing on its line? */
int tok_starts_line(const struct csrc *c, int i);

/* All function definitions at file scope; *out is malloc'ed. */
int csrc_functions(const struct csrc *c, struct cfunc **out);
void cfuncs_release(struct cfunc *f, int nr);
/* The definition of name nearest to line (0: the first); -1 when none. */
int csrc_find_function(const struct csrc *c, const char *name, int line, struct cfunc *f);
/* File-scope variables, DEFINE_MUTEX(x) and the like included. */
int csrc_globals(const struct csrc *c, struct cglobal **out);
void cglobals_release(struct cglobal *g, int nr);

/* Index of the token that ends the statement starting at i (its ';' or '}'). */
int stmt_end(const struct csrc *c, int i, int limit);
/* Does the statement at [i, limit) look like a declaration? */
int is_decl_stmt(const struct csrc *c, int i);
/* C keywords that look like calls: if (, while (, sizeof ( ... */
int is_keyword(const struct csrc *c, int i);
/* An assignment operator (=, +=, ...) or ++/-- at token i. */
int tok_is_assign(const struct csrc *c, int i);
/* The token past the member chain rooted at i: a.b->c[x]. */
int tok_chain_end(const struct csrc *c, int i);
/* The name token of the call whose arguments hold token i (after lb), or -1. */
int tok_enclosing_call(const struct csrc *c, int i, int lb);

#endif
