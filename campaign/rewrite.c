// SPDX-License-Identifier: GPL-2.0
/*
 * The push-down as the 2008 series did it by hand, done on the source
 * text: the BKL moves from chrdev_open() into the driver's open(), which
 * keeps the driver's behaviour identical until it is audited.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/rewrite.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

/* What we learn about the function before touching it. */
struct fn {
	const struct csrc *c;
	const struct cfunc *f;
	int lb, rb;		/* body braces */
	int first_stmt;		/* first statement after the declarations (rb if none) */
	int last_decl;		/* ';' of the last declaration, -1 if none */
	int last_stmt;		/* start of the last statement at the top level */
	int end_label;		/* "out:" just before a final "return err;", -1 */
	int is_void;
	char *rtype;		/* "int" */
	int *rets, nr_rets;	/* "return" tokens */
	int final_ret;		/* the return that is the last statement, -1 */
	const char *var;	/* the return value's variable */
	char var_buf[64];	/* ... when it is one of the function's own */
	int declare_var;
	const char *label;
	char label_buf[64];
	int reuse_label;	/* the label is the function's own, before its last return */
};

static int ret_end(const struct fn *fn, int k)
{
	return stmt_end(fn->c, k, fn->rb);
}

static int word_used(const struct fn *fn, const char *w)
{
	int i;

	for (i = fn->f->name_tok; i < fn->rb; i++)
		if (tok_is(fn->c, i, w))
			return 1;
	return 0;
}

static int is_param(const struct fn *fn, int i)
{
	int k, rp = fn->c->t[fn->f->lparen].match;

	for (k = fn->f->lparen + 1; k < rp; k++)
		if (fn->c->t[k].kind == CT_IDENT && (tok_is(fn->c, k + 1, ",") || k + 1 == rp) &&
		    fn->c->t[k].len == fn->c->t[i].len &&
		    !memcmp(fn->c->text + fn->c->t[k].off, fn->c->text + fn->c->t[i].off,
			    fn->c->t[k].len))
			return 1;
	return 0;
}

/* The name a declaration statement at s declares first (-1 if unsure). */
static int decl_name(const struct csrc *c, int s, int e)
{
	int i, name = -1;

	for (i = s; i < e; i++) {
		if (tok_is(c, i, "=") || tok_is(c, i, ",") || tok_is(c, i, "["))
			break;
		if (tok_is(c, i, "("))
			return -1;
		if (c->t[i].kind == CT_IDENT)
			name = i;
	}
	return name;
}

/* Is token i's name declared among the function's leading declarations? */
static int is_local(const struct fn *fn, int i)
{
	const struct csrc *c = fn->c;
	int s, e, k, in_init;

	for (s = fn->lb + 1; s < fn->first_stmt; s = e + 1) {
		e = stmt_end(c, s, fn->rb);
		for (k = s, in_init = 0; k < e; k++) {
			if (tok_is(c, k, "="))
				in_init = 1;	/* an initializer: uses, not declarations */
			else if (tok_is(c, k, ","))
				in_init = 0;
			if (c->t[k].match > k) {
				k = c->t[k].match;
				continue;
			}
			if (!in_init && c->t[k].kind == CT_IDENT && c->t[k].len == c->t[i].len &&
			    !memcmp(c->text + c->t[k].off, c->text + c->t[i].off, c->t[k].len) &&
			    (tok_is(c, k + 1, "=") || tok_is(c, k + 1, ";") ||
			     tok_is(c, k + 1, ",") || tok_is(c, k + 1, "[")))
				return 1;
		}
	}
	return 0;
}

static int is_upper(const struct csrc *c, int i)
{
	const char *s = c->text + c->t[i].off;
	int k;

	for (k = 0; k < c->t[i].len; k++)
		if (islower((unsigned char)s[k]))
			return 0;
	return 1;
}

/* A value that reads nothing the lock could protect: -EBUSY, 0, ret. */
static int simple_expr(const struct fn *fn, int from, int to)
{
	const struct csrc *c = fn->c;

	if (tok_is(c, from, "-") || tok_is(c, from, "("))
		from++;
	if (to > from + 1 && tok_is(c, to - 1, ")"))
		to--;
	if (to != from + 1)
		return 0;
	if (c->t[from].kind == CT_NUMBER)
		return 1;
	return c->t[from].kind == CT_IDENT &&
	       (is_upper(c, from) || is_param(fn, from) || is_local(fn, from));
}

static void find_shape(struct fn *fn)
{
	const struct csrc *c = fn->c;
	int i, e, in_decls = 1;

	fn->first_stmt = fn->rb;
	fn->last_decl = -1;
	fn->last_stmt = fn->end_label = -1;
	for (i = fn->lb + 1; i < fn->rb; i = e + 1) {
		e = stmt_end(c, i, fn->rb);
		if (in_decls && is_decl_stmt(c, i)) {
			fn->last_decl = e;
			continue;
		}
		if (in_decls)
			fn->first_stmt = i;
		in_decls = 0;
		fn->end_label = fn->last_stmt >= 0 && tok_is(c, fn->last_stmt + 1, ":") &&
				fn->last_stmt + 1 == i - 1 ? fn->last_stmt : -1;
		fn->last_stmt = i;
	}
	fn->final_ret = -1;
	for (i = fn->lb + 1; i < fn->rb; i++) {
		if (!tok_is(c, i, "return"))
			continue;
		fn->rets = realloc(fn->rets, (fn->nr_rets + 1) * sizeof(*fn->rets));
		if (i == fn->last_stmt)
			fn->final_ret = fn->nr_rets;
		fn->rets[fn->nr_rets++] = i;
	}
}

static char *return_type(const struct fn *fn)
{
	static const char *const skip[] = { "static", "inline", "extern", "notrace", NULL };
	const struct csrc *c = fn->c;
	struct strbuf sb = STRBUF_INIT;
	const char *const *s;
	int i;

	for (i = fn->f->start; i < fn->f->name_tok; i++) {
		for (s = skip; *s && !tok_is(c, i, *s); s++)
			;
		if (*s || (c->t[i].kind == CT_IDENT && !strncmp(c->text + c->t[i].off, "__", 2)))
			continue;
		if (sb.len && !(tok_is(c, i, "*") && sb.buf[sb.len - 1] == '*'))
			strbuf_addstr(&sb, " ");
		strbuf_add(&sb, c->text + c->t[i].off, c->t[i].len);
	}
	return sb.buf ? sb.buf : strdup("int");
}

/* Is there "rtype var" among the declarations, to reuse? */
static int declared_as(const struct fn *fn, const char *var)
{
	const struct csrc *c = fn->c;
	int s, e, k;

	for (s = fn->lb + 1; s < fn->first_stmt; s = e + 1) {
		int name = decl_name(c, s, e = stmt_end(c, s, fn->rb));
		struct strbuf type = STRBUF_INIT;
		int same;

		if (name < 0)
			continue;
		for (k = s; k < name; k++) {
			if (type.len && !(tok_is(c, k, "*") && type.buf[type.len - 1] == '*'))
				strbuf_addstr(&type, " ");
			strbuf_add(&type, c->text + c->t[k].off, c->t[k].len);
		}
		same = !strcmp(sb_str(&type), fn->rtype);
		strbuf_release(&type);
		for (k = s; k < e; k++)
			if (tok_is(c, k, var) && (tok_is(c, k + 1, ";") || tok_is(c, k + 1, "=") ||
						  tok_is(c, k + 1, ",")))
				return same ? 1 : -1;
	}
	return 0;
}

static int choose_names(struct fn *fn, int need_var)
{
	static const char *const vars[] = { "ret", "retval", "rc", NULL };
	static const char *const labels[] = { "out", "out_unlock", "unlock", NULL };
	const char *const *v;
	int i;

	/*
	 * A local the function already returns ("return err;"), the final
	 * return's first: assigning it just before "goto out" is safe, as
	 * nothing runs between there and the return.
	 */
	for (i = -1; need_var && !fn->var && i < fn->nr_rets; i++) {
		int k = fn->rets[i < 0 ? (fn->final_ret >= 0 ? fn->final_ret : 0) : i];

		if (!fn->nr_rets || ret_end(fn, k) != k + 2 || fn->c->t[k + 1].kind != CT_IDENT ||
		    fn->c->t[k + 1].len >= (int)sizeof(fn->var_buf))
			continue;
		snprintf(fn->var_buf, sizeof(fn->var_buf), "%.*s", fn->c->t[k + 1].len,
			 fn->c->text + fn->c->t[k + 1].off);
		if (declared_as(fn, fn->var_buf) == 1)
			fn->var = fn->var_buf;
	}
	for (v = vars; need_var && *v && !fn->var; v++) {
		int d = declared_as(fn, *v);

		if (d == 1)
			fn->var = *v;
		else if (!d && !word_used(fn, *v)) {
			fn->var = *v;
			fn->declare_var = 1;
		}
	}
	if (fn->var && fn->end_label >= 0 && fn->final_ret >= 0 &&
	    ret_end(fn, fn->rets[fn->final_ret]) == fn->rets[fn->final_ret] + 2 &&
	    tok_is(fn->c, fn->rets[fn->final_ret] + 1, fn->var) &&
	    fn->c->t[fn->end_label].len < (int)sizeof(fn->label_buf)) {
		snprintf(fn->label_buf, sizeof(fn->label_buf), "%.*s", fn->c->t[fn->end_label].len,
			 fn->c->text + fn->c->t[fn->end_label].off);
		fn->label = fn->label_buf;	/* "out: return err;": exit there */
		fn->reuse_label = 1;
	}
	for (v = labels; *v && !fn->label; v++)
		if (!word_used(fn, *v))
			fn->label = *v;
	if ((need_var && !fn->var) || !fn->label)
		return error("cannot name a variable or label in '%s'", fn->f->name);
	return 0;
}

static char *span(const struct csrc *c, int from, int to)	/* tokens [from, to) */
{
	if (to <= from)
		return strdup("");
	return strndup(c->text + c->t[from].off, c->t[to - 1].off + c->t[to - 1].len - c->t[from].off);
}

static int only_space(const struct csrc *c, int from, int to)
{
	for (; from < to; from++)
		if (!isspace((unsigned char)c->text[from]))
			return 0;
	return 1;
}

/* Is the return at k the whole body of an if/else/for/while? */
static int needs_braces(const struct csrc *c, int k)
{
	int p = k - 1, m;

	if (tok_is(c, p, "else") || tok_is(c, p, "do"))
		return 1;
	if (!tok_is(c, p, ")") || (m = c->t[p].match) < 1)
		return 0;
	return tok_is(c, m - 1, "if") || tok_is(c, m - 1, "for") || tok_is(c, m - 1, "while");
}

/* Is the returned expression [from, to) the variable itself? */
static int is_var(const struct fn *fn, int from, int to)
{
	return fn->var && to == from + 1 && tok_is(fn->c, from, fn->var);
}

/* "ret = X;\n<ind>goto out;" (or just "goto out;") */
static void exit_stmts(const struct fn *fn, int k, int e, const char *ind, struct strbuf *sb)
{
	char *expr = span(fn->c, k + 1, e);

	if (!fn->is_void && strcmp(expr, fn->var))
		strbuf_addf(sb, "%s = %s;\n%s", fn->var, expr, ind);
	strbuf_addf(sb, "goto %s;", fn->label);
	free(expr);
}

static int rewrite_return(const struct fn *fn, int k, struct edits *ed)
{
	const struct csrc *c = fn->c;
	int e = ret_end(fn, k), p = k - 1, end;
	struct strbuf sb = STRBUF_INIT;
	char *ind, *ind2;

	if (needs_braces(c, k) && (fn->is_void || is_var(fn, k + 1, e))) {
		ind = strdup("");	/* "return err;" -> "goto out;": one statement still */
		ind2 = strdup("");
		exit_stmts(fn, k, e, ind, &sb);
		edits_add(ed, c->t[k].off, c->t[e].off + 1 - c->t[k].off, sb.buf);
	} else if (needs_braces(c, k)) {
		if (!only_space(c, c->t[p].off + c->t[p].len, c->t[k].off))
			return error("'%s' line %d: a comment before return; do it by hand",
				     fn->f->name, c->t[k].line);
		ind = line_indent(c, c->t[p].off);
		ind2 = malloc(strlen(ind) + 2);
		sprintf(ind2, "%s\t", ind);
		strbuf_addf(&sb, " {\n%s", ind2);
		exit_stmts(fn, k, e, ind2, &sb);
		strbuf_addf(&sb, "\n%s}", ind);
		/* "} else", as coding-style.rst wants it, when an else follows */
		end = c->t[e].off + 1;
		if (e + 1 < c->nr && tok_is(c, e + 1, "else") &&
		    only_space(c, end, c->t[e + 1].off)) {
			strbuf_addstr(&sb, " ");
			end = c->t[e + 1].off;
		}
		edits_add(ed, c->t[p].off + c->t[p].len, end - (c->t[p].off + c->t[p].len), sb.buf);
	} else if (tok_starts_line(c, k)) {
		ind = line_indent(c, c->t[k].off);
		ind2 = strdup(ind);
		exit_stmts(fn, k, e, ind, &sb);
		edits_add(ed, c->t[k].off, c->t[e].off + 1 - c->t[k].off, sb.buf);
	} else if (tok_is(c, p, ":")) {		/* case X: return Y; */
		ind = line_indent(c, c->t[k].off);
		ind2 = malloc(strlen(ind) + 2);
		sprintf(ind2, "%s\t", ind);
		strbuf_addf(&sb, "\n%s", ind2);
		exit_stmts(fn, k, e, ind2, &sb);
		edits_add(ed, c->t[p].off + 1, c->t[e].off + 1 - (c->t[p].off + 1), sb.buf);
	} else {
		return error("'%s' line %d: a return shaped beyond this tool; do it by hand",
			     fn->f->name, c->t[k].line);
	}
	free(ind);
	free(ind2);
	strbuf_release(&sb);
	return 0;
}

/* The final "return X;": the single exit. */
static int rewrite_final(const struct fn *fn, int k, int has_label, struct edits *ed)
{
	const struct csrc *c = fn->c;
	int e = ret_end(fn, k), ls = line_start(c, c->t[k].off);
	struct strbuf sb = STRBUF_INIT;
	char *ind = line_indent(c, c->t[k].off), *expr = span(c, k + 1, e);

	if (!tok_starts_line(c, k)) {
		free(ind);
		free(expr);
		return error("'%s' line %d: its last return shares a line; do it by hand",
			     fn->f->name, c->t[k].line);
	}
	if (!fn->var) {		/* one simple return: unlock just before it */
		strbuf_addf(&sb, "%sunlock_kernel();\n", ind);
		edits_add(ed, ls, 0, sb.buf);
	} else {
		if (strcmp(expr, fn->var))
			strbuf_addf(&sb, "%s%s = %s;\n", ind, fn->var, expr);
		if (has_label && !fn->reuse_label)
			strbuf_addf(&sb, "%s:\n", fn->label);
		strbuf_addf(&sb, "%sunlock_kernel();\n%sreturn %s;", ind, ind, fn->var);
		edits_add(ed, ls, c->t[e].off + 1 - ls, sb.buf);
	}
	strbuf_release(&sb);
	free(ind);
	free(expr);
	return 0;
}

/* Arguments, constants, iminor(), container_of(): fine before the lock. */
static int reads_only_args(const struct fn *fn, int from, int to, char **moved, int nr_moved)
{
	static const char *const ok[] = {
		"iminor", "imajor", "MINOR", "MAJOR", "container_of", "file_inode", "sizeof",
		"offsetof", "struct", "union", "enum", "NULL", "typeof", NULL
	};
	const struct csrc *c = fn->c;
	const char *const *o;
	int i, m;

	for (i = from; i < to; i++) {
		if (c->t[i].kind != CT_IDENT || is_upper(c, i))
			continue;
		if (tok_is(c, i - 1, ".") || tok_is(c, i - 1, "->") || tok_is(c, i - 1, "struct") ||
		    tok_is(c, i - 1, "union") || tok_is(c, i - 1, "enum"))
			continue;
		for (o = ok; *o && !tok_is(c, i, *o); o++)
			;
		if (*o || is_param(fn, i))
			continue;
		if (!is_local(fn, i))
			return 0;
		for (m = 0; m < nr_moved; m++)
			if (tok_is(c, i, moved[m]))
				return 0;
	}
	return 1;
}

/*
 * Is the variable declared by [s, name] itself const ("const int n",
 * "struct foo *const p"), so that it cannot be assigned?  A const before
 * the last '*' is the pointee's: "const struct foo *p" can be.
 */
static int const_object(const struct csrc *c, int s, int name)
{
	int k, star = -1, cst = -1;

	for (k = s; k < name; k++) {
		if (tok_is(c, k, "*"))
			star = k;
		else if (tok_is(c, k, "const"))
			cst = k;
		k = c->t[k].match > k ? c->t[k].match : k;
	}
	return cst > star;
}

/*
 * Initializers ran under the BKL when chrdev_open() took it: one that
 * reads more than the arguments becomes an assignment after lock_kernel().
 */
static int move_initializers(const struct fn *fn, struct edits *ed, struct strbuf *after,
			     const char *ind, struct strbuf *notes)
{
	const struct csrc *c = fn->c;
	char *moved[64];
	int nr_moved = 0, s, e, k, ret = 0;

	for (s = fn->lb + 1; s < fn->first_stmt && !ret; s = e + 1) {
		int eq = -1, commas = 0, name;

		e = stmt_end(c, s, fn->rb);
		for (k = s; k < e; k++) {
			if (tok_is(c, k, "=") && eq < 0)
				eq = k;
			if (tok_is(c, k, ","))
				commas++;
			k = c->t[k].match > k ? c->t[k].match : k;
		}
		if (eq < 0 || reads_only_args(fn, eq + 1, e, moved, nr_moved))
			continue;
		name = eq - 1;
		if (commas || c->t[name].kind != CT_IDENT || tok_is(c, eq + 1, "{") ||
		    nr_moved == 64) {
			ret = error("'%s' line %d: an initializer to move below lock_kernel() "
				    "in a declaration too complex for this tool", fn->f->name,
				    c->t[s].line);
			break;
		}
		if (const_object(c, s, name)) {
			ret = error("%s:%d: '%.*s' in '%s' is const: its initializer cannot become "
				    "an assignment below lock_kernel(); push the BKL down by hand",
				    c->path ? c->path : "?", c->t[s].line, c->t[name].len,
				    c->text + c->t[name].off, fn->f->name);
			break;
		}
		moved[nr_moved] = tok_dup(c, name);
		{
			char *val = span(c, eq + 1, e);

			strbuf_addf(after, "%s%s = %s;\n", ind, moved[nr_moved], val);
			strbuf_addf(notes, "moved the initializer of '%s' below lock_kernel()\n",
				    moved[nr_moved]);
			free(val);
		}
		nr_moved++;
		edits_add(ed, c->t[name].off + c->t[name].len,
			  c->t[e].off - (c->t[name].off + c->t[name].len), "");
	}
	while (nr_moved--)
		free(moved[nr_moved]);
	return ret;
}

static int check_shape(struct fn *fn)
{
	const struct csrc *c = fn->c;
	int i;

	for (i = fn->lb; i < fn->rb; i++)
		if (tok_is(c, i, "lock_kernel") || tok_is(c, i, "unlock_kernel"))
			return error("'%s' already takes the BKL itself", fn->f->name);
	if (fn->first_stmt < fn->rb && !tok_starts_line(c, fn->first_stmt))
		return error("'%s': its first statement shares a line; do it by hand", fn->f->name);
	if (!tok_starts_line(c, fn->rb))
		return error("'%s': its closing brace shares a line; do it by hand", fn->f->name);
	if (!fn->is_void && !fn->nr_rets)
		return error("'%s' returns a value but has no return", fn->f->name);
	return 0;
}

static int next_line(const struct csrc *c, int off)
{
	const char *nl = strchr(c->text + off, '\n');

	return nl ? (int)(nl - c->text) + 1 : c->size;
}

static int line_is(const struct csrc *c, int off, const char *what)
{
	while (c->text[off] == ' ' || c->text[off] == '\t')
		off++;
	return what ? !strncmp(c->text + off, what, strlen(what)) : c->text[off] == '\n';
}

/* The line after the declarations (after the '{' line when there are none). */
static int after_decls(const struct fn *fn)
{
	const struct csrc *c = fn->c;
	int at = next_line(c, c->t[fn->last_decl >= 0 ? fn->last_decl : fn->lb].off);

	while (fn->last_decl >= 0 && at < c->size && line_is(c, at, "#endif"))
		at = next_line(c, at);
	return at;
}

/* Blank lines are skipped: lock_kernel() goes before a comment on the first statement. */
static int skip_blank(const struct csrc *c, int at)
{
	while (at < c->size && line_is(c, at, NULL))
		at = next_line(c, at);
	return at;
}

int rewrite_pushdown(const struct csrc *c, const struct cfunc *f, struct edits *ed,
		     struct strbuf *notes)
{
	struct fn fn = { .c = c, .f = f, .lb = f->lbrace, .rb = c->t[f->lbrace].match };
	struct strbuf lock = STRBUF_INIT, end = STRBUF_INIT;
	int i, ret = -1, nonfinal, at, decl_at;
	char *ind;

	if (fn.rb < 0)
		return error("'%s' has no closing brace", f->name);
	find_shape(&fn);
	fn.rtype = return_type(&fn);
	fn.is_void = !strcmp(fn.rtype, "void");
	if (check_shape(&fn))
		goto out;
	nonfinal = fn.nr_rets - (fn.final_ret >= 0);
	if (nonfinal || (!fn.is_void && fn.final_ret < 0) ||
	    (fn.final_ret >= 0 && !fn.is_void &&
	     !simple_expr(&fn, fn.rets[fn.final_ret] + 1, ret_end(&fn, fn.rets[fn.final_ret])))) {
		if (choose_names(&fn, !fn.is_void))
			goto out;
	}
	ind = fn.first_stmt < fn.rb ? line_indent(c, c->t[fn.first_stmt].off) : strdup("");
	if (!*ind) {		/* a label at column 0, or an empty body */
		free(ind);
		ind = strdup("\t");
	}
	decl_at = after_decls(&fn);
	at = skip_blank(c, decl_at);
	if (fn.declare_var && !fn.is_void) {
		struct strbuf d = STRBUF_INIT;

		strbuf_addf(&d, "%s%s%s%s;\n%s", ind, fn.rtype,
			    fn.rtype[strlen(fn.rtype) - 1] == '*' ? "" : " ", fn.var,
			    fn.last_decl < 0 ? "\n" : "");
		edits_add(ed, fn.last_decl < 0 ? at : decl_at, 0, d.buf);
		strbuf_release(&d);
	}
	/* declarations, then a blank line: checkpatch wants one before lock_kernel() */
	strbuf_addf(&lock, "%s%slock_kernel();\n", fn.last_decl >= 0 && at == decl_at ? "\n" : "",
		    ind);
	if (move_initializers(&fn, ed, &lock, ind, notes)) {
		free(ind);
		goto out;
	}
	edits_add(ed, at, 0, lock.buf);
	for (i = 0; i < fn.nr_rets; i++) {
		if (i == fn.final_ret)
			continue;
		if (rewrite_return(&fn, fn.rets[i], ed))
			goto out_ind;
	}
	if (fn.final_ret >= 0 && !fn.is_void) {
		if (rewrite_final(&fn, fn.rets[fn.final_ret], nonfinal > 0, ed))
			goto out_ind;
	} else {
		if (fn.final_ret >= 0) {	/* a void function's last "return;" goes */
			int k = fn.rets[fn.final_ret], ls = line_start(c, c->t[k].off);
			const char *nl = strchr(c->text + c->t[k].off, '\n');

			edits_add(ed, ls, (nl ? (int)(nl - c->text) + 1 : c->size) - ls, "");
		}
		if (nonfinal)
			strbuf_addf(&end, "%s:\n", fn.label);
		strbuf_addf(&end, "%sunlock_kernel();\n", ind);
		if (!fn.is_void)
			strbuf_addf(&end, "%sreturn %s;\n", ind, fn.var);
		edits_add(ed, line_start(c, c->t[fn.rb].off), 0, end.buf);
	}
	strbuf_addf(notes, "%s(): %d return%s, %s\n", f->name, fn.nr_rets, fn.nr_rets == 1 ? "" : "s",
		    nonfinal ? "single exit through the new label" : "unlocked before its return");
	ret = 0;
out_ind:
	free(ind);
out:
	free(fn.rets);
	free(fn.rtype);
	strbuf_release(&lock);
	strbuf_release(&end);
	return ret;
}
