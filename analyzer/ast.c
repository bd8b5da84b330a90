// SPDX-License-Identifier: GPL-2.0
/*
 * What the linearized IR no longer says, taken from a function's expanded
 * AST just before sparse linearizes it:
 *  - the call site of inlined code: sparse inlines `inline` helpers, and
 *    their calls keep the helper's position; we move every call inside an
 *    inlined body to the position of the outermost inline call, so a
 *    lock_kernel() in a helper is a site at the line the user wrote;
 *  - which struct and member a call through a member pointer uses (the IR
 *    keeps only offsets): a map from the member's symbol, which the IR call
 *    keeps as its first fntype, to the struct's tag;
 *  - function-pointer stores: `x->ops.open = f;`, `m.fops = &t;`, and
 *    the same inside initializers of tables (designated, nested, arrays);
 *  - the lines of the function's own return statements, and which of
 *    them a path of the IR leaves by (ast_ret_line(), for paths.c).
 */
#include <string.h>
#include "analyzer/internal.h"

/* member symbol -> struct tag, open addressing */
static struct member_slot {
	struct symbol *member;
	const char *st;
} *mmap;
static size_t mmap_nr, mmap_size;

static void mmap_put(struct symbol *member, const char *st);

static void mmap_grow(void)
{
	struct member_slot *old = mmap;
	size_t i, n = mmap_size;

	mmap_size = n ? 2 * n : 1024;
	mmap = xrealloc_arr(NULL, mmap_size, sizeof(*mmap));
	memset(mmap, 0, mmap_size * sizeof(*mmap));
	mmap_nr = 0;
	for (i = 0; i < n; i++)
		if (old[i].member)
			mmap_put(old[i].member, old[i].st);
	free(old);
}

static void mmap_put(struct symbol *member, const char *st)
{
	size_t j;

	if (2 * (mmap_nr + 1) > mmap_size)
		mmap_grow();
	for (j = ptr_hash(member, 0) & (mmap_size - 1); mmap[j].member;
	     j = (j + 1) & (mmap_size - 1))
		if (mmap[j].member == member)
			return;
	mmap[j].member = member;
	mmap[j].st = st;
	mmap_nr++;
}

const char *ast_member_struct(struct symbol *member)
{
	size_t j;

	if (!mmap_size || !member)
		return NULL;
	for (j = ptr_hash(member, 0) & (mmap_size - 1); mmap[j].member;
	     j = (j + 1) & (mmap_size - 1))
		if (mmap[j].member == member)
			return mmap[j].st;
	return NULL;
}

void ast_reset(void)
{
	free(mmap);
	mmap = NULL;
	mmap_nr = mmap_size = 0;
}

/* ---- types ---- */

static struct symbol *strip_node(struct symbol *t)
{
	while (t && t->type == SYM_NODE)
		t = t->ctype.base_type;
	return t;
}

static int is_aggregate(struct symbol *t)
{
	return t && (t->type == SYM_STRUCT || t->type == SYM_UNION);
}

static int has_member(struct symbol *agg, struct ident *id)
{
	struct symbol *m;

	FOR_EACH_PTR(agg->symbol_list, m) {
		if (m->ident == id)
			return 1;
		if (!m->ident && is_aggregate(strip_node(m)) && has_member(strip_node(m), id))
			return 1;
	} END_FOR_EACH_PTR(m);
	return 0;
}

/* The struct or union found at byte offset off of agg (an embedded member). */
static struct symbol *aggregate_at(struct symbol *agg, unsigned long off)
{
	struct symbol *m, *inner = NULL;

	FOR_EACH_PTR(agg->symbol_list, m) {
		struct symbol *mt = strip_node(m);
		unsigned long size = mt ? bits_to_bytes(mt->bit_size) : 0;

		if (off < m->offset || off >= m->offset + (size ? size : 1))
			continue;
		if (mt && mt->type == SYM_ARRAY) {
			struct symbol *et = strip_node(mt->ctype.base_type);
			unsigned long es = et ? bits_to_bytes(et->bit_size) : 0;

			if (!is_aggregate(et) || !es)
				continue;
			inner = et;
			off = (off - m->offset) % es;
			return off ? aggregate_at(et, off) : et;
		}
		if (!is_aggregate(mt))
			continue;
		if (off == m->offset && m->ident)
			return mt;
		inner = aggregate_at(mt, off - m->offset);
		if (inner)
			return inner;
		if (off == m->offset)
			return mt;
	} END_FOR_EACH_PTR(m);
	return inner;
}

/* The struct or union an address expression points into. */
static struct symbol *struct_of_ptr(struct expression *e)
{
	struct symbol *t;

	if (!e)
		return NULL;
	if (e->ctype && e->ctype != &lazy_ptr_ctype) {
		t = strip_node(e->ctype);
		if (t && t->type == SYM_PTR) {
			t = strip_node(t->ctype.base_type);
			return is_aggregate(t) ? t : NULL;
		}
	}
	switch (e->type) {
	case EXPR_SYMBOL:
		t = strip_node(e->symbol);
		return is_aggregate(t) ? t : NULL;
	case EXPR_BINOP:
		if (e->op == '+' && e->right && e->right->type == EXPR_VALUE) {
			t = struct_of_ptr(e->left);
			return t ? aggregate_at(t, e->right->value) : NULL;
		}
		return NULL;
	case EXPR_CAST: case EXPR_FORCE_CAST: case EXPR_IMPLIED_CAST:
		return struct_of_ptr(e->cast_expression);
	default:
		return NULL;
	}
}

/* A global or static variable at the root of an address, if any. */
static struct symbol *root_variable(struct expression *e)
{
	while (e) {
		if (e->type == EXPR_SYMBOL) {
			struct symbol *s = e->symbol;

			if (s && (s->ctype.modifiers & (MOD_TOPLEVEL | MOD_STATIC)))
				return s;
			return NULL;
		}
		if (e->type != EXPR_BINOP || e->op != '+' || !e->right ||
		    e->right->type != EXPR_VALUE)
			return NULL;
		e = e->left;
	}
	return NULL;
}

/*
 * `*(base + off)` where the result is a member: its struct (and records
 * the member symbol in the map for calls).  NULL for anything else.
 */
static struct symbol *member_deref(struct expression *e, struct expression **base)
{
	struct symbol *m = e->ctype, *st;
	struct expression *add = e->unop;

	if (e->type != EXPR_PREOP || e->op != '*' || !m || m->type != SYM_NODE || !m->ident)
		return NULL;
	if (!add || add->type != EXPR_BINOP || add->op != '+' || !add->right ||
	    add->right->type != EXPR_VALUE)
		return NULL;
	st = struct_of_ptr(add->left);
	if (!st || !st->ident || !has_member(st, m->ident))
		return NULL;
	mmap_put(m, ident_str(st->ident));
	*base = add->left;
	return st;
}

/* The function or variable whose address an expression is, if constant. */
static struct symbol *value_symbol(struct expression *e, int *is_fn)
{
	while (e) {
		switch (e->type) {
		case EXPR_CAST: case EXPR_FORCE_CAST: case EXPR_IMPLIED_CAST:
			e = e->cast_expression;
			continue;
		case EXPR_PREOP:
			if (e->op == '&') {
				e = e->unop;
				continue;
			}
			if (e->op == '*' && e->unop && e->unop->type == EXPR_SYMBOL &&
			    strip_node(e->unop->symbol) &&
			    strip_node(e->unop->symbol)->type == SYM_FN) {
				e = e->unop;
				continue;
			}
			return NULL;
		case EXPR_SYMBOL: {
			struct symbol *s = e->symbol, *t = strip_node(s);

			if (!s || !s->ident || !t)
				return NULL;
			*is_fn = t->type == SYM_FN;
			if (!*is_fn && !(s->ctype.modifiers & (MOD_TOPLEVEL | MOD_STATIC)))
				return NULL;
			return s;
		}
		default:
			return NULL;
		}
	}
	return NULL;
}

static int is_static(struct symbol *s)
{
	return !!(s->ctype.modifiers & MOD_STATIC);
}

static void add_store(struct tu *tu, struct symbol *st, struct ident *member,
		      struct expression *value, struct symbol *tbl,
		      const char *function, struct position pos)
{
	struct fact_store *fs;
	struct symbol *v;
	int is_fn = 0;

	v = value_symbol(value, &is_fn);
	if (!v || !st->ident || !member)
		return;
	if (!is_fn && !is_aggregate(strip_node(v)))
		return;
	fs = ARR_PUSH(tu->stores, tu->nr_stores, tu->alloc_stores);
	fs->st = ident_str(st->ident);
	fs->member = ident_str(member);
	fs->value = ident_str(v->ident);
	fs->is_table = !is_fn;
	fs->value_static = is_static(v);
	if (tbl) {
		fs->tbl = ident_str(tbl->ident);
		fs->tbl_static = is_static(tbl);
	}
	fs->function = function;
	fs->file = pos_file(pos);
	fs->line = pos.line;
}

/* ---- initializers ---- */

static void walk_init(struct tu *tu, struct symbol *agg, struct expression *e,
		      struct symbol *tbl, const char *function)
{
	struct expression *x;
	struct symbol *m, *sub;

	if (!e)
		return;
	if (e->type == EXPR_INITIALIZER) {
		FOR_EACH_PTR(e->expr_list, x) {
			walk_init(tu, agg, x, tbl, function);
		} END_FOR_EACH_PTR(x);
		return;
	}
	if (e->type != EXPR_POS)
		return;
	m = e->ctype;
	sub = strip_node(m);
	x = e->init_expr;
	if (x && (x->type == EXPR_INITIALIZER || x->type == EXPR_POS)) {
		walk_init(tu, sub, x, tbl, function);
		return;
	}
	if (is_aggregate(agg) && m && m->type == SYM_NODE && m->ident &&
	    sub && sub->type == SYM_PTR)
		add_store(tu, agg, m->ident, x, tbl, function, e->pos);
}

void ast_initializer(struct tu *tu, struct symbol *var, const char *function)
{
	struct symbol *t = strip_node(var);
	struct symbol *tbl = var->ctype.modifiers & (MOD_TOPLEVEL | MOD_STATIC) ? var : NULL;

	if (!var->initializer || !t)
		return;
	work_initializer(tu, var);
	if (t->type != SYM_STRUCT && t->type != SYM_UNION && t->type != SYM_ARRAY)
		return;
	walk_init(tu, t, var->initializer, tbl, function);
}

/* ---- the function body ---- */

struct walk {
	struct tu *tu;
	struct ast_info *ai;
	const char *function;
	struct position *inline_pos;	/* inside an inlined body: its call site */
};

static void walk_stmt(struct walk *w, struct statement *s);
static void walk_inlined(struct walk *w, struct expression *e, struct position orig);

static void walk_expr(struct walk *w, struct expression *e)
{
	struct expression *x;
	struct expression *base;
	struct symbol *st;
	struct position orig;

	if (!e)
		return;
	orig = e->pos;
	if (w->inline_pos && (e->type == EXPR_CALL || e->type == EXPR_STATEMENT)) {
		if (e->type == EXPR_CALL)
			inlined_call(w->ai, e, w->inline_pos->line);
		e->pos = *w->inline_pos;
	}
	switch (e->type) {
	case EXPR_ASSIGNMENT: {
		int mark = work_mark();

		st = NULL;
		if (e->op == '=' && (st = member_deref(e->left, &base)))
			add_store(w->tu, st, e->left->ctype->ident, e->right,
				  root_variable(base), w->function, e->pos);
		walk_expr(w, e->left);
		walk_expr(w, e->right);
		work_assign(w->tu, e, mark, w->function, st && st->ident ? ident_str(st->ident) : NULL,
			    st ? base : NULL);
		break;
	}
	case EXPR_BINOP: case EXPR_LOGICAL: case EXPR_COMMA: case EXPR_COMPARE:
		walk_expr(w, e->left);
		walk_expr(w, e->right);
		break;
	case EXPR_PREOP: case EXPR_POSTOP:
		if (e->op == '*')
			member_deref(e, &base);
		walk_expr(w, e->unop);
		break;
	case EXPR_CAST: case EXPR_FORCE_CAST: case EXPR_IMPLIED_CAST:
	case EXPR_SIZEOF: case EXPR_ALIGNOF: case EXPR_PTRSIZEOF:
		walk_expr(w, e->cast_expression);
		break;
	case EXPR_CONDITIONAL: case EXPR_SELECT:
		walk_expr(w, e->conditional);
		walk_expr(w, e->cond_true);
		walk_expr(w, e->cond_false);
		break;
	case EXPR_STATEMENT:
		if (e->statement && e->statement->type == STMT_COMPOUND &&
		    e->statement->inline_fn)
			walk_inlined(w, e, orig);
		else
			walk_stmt(w, e->statement);
		break;
	case EXPR_CALL:
		work_call(w->tu, e, w->function);
		walk_expr(w, e->fn);
		FOR_EACH_PTR(e->args, x) {
			walk_expr(w, x);
		} END_FOR_EACH_PTR(x);
		break;
	case EXPR_INITIALIZER:
		FOR_EACH_PTR(e->expr_list, x) {
			walk_expr(w, x);
		} END_FOR_EACH_PTR(x);
		break;
	case EXPR_IDENTIFIER:
		walk_expr(w, e->ident_expression);
		break;
	case EXPR_INDEX:
		walk_expr(w, e->idx_expression);
		break;
	case EXPR_POS:
		walk_expr(w, e->init_expr);
		break;
	case EXPR_SLICE:
		walk_expr(w, e->base);
		break;
	case EXPR_DEREF:
		walk_expr(w, e->deref);
		break;
	default:
		break;
	}
}

/*
 * An inlined body, called at orig: its calls are moved to the outermost
 * inline call's position; its arguments are its caller's code, the rest
 * the inline's own (inlined.c records where each call was).
 */
static void walk_inlined(struct walk *w, struct expression *e, struct position orig)
{
	struct statement *s = e->statement, *x;
	struct position *saved = w->inline_pos;

	if (!saved)
		w->inline_pos = &e->pos;
	s->pos = *w->inline_pos;
	walk_stmt(w, s->args);
	inlined_push(w->ai, s->inline_fn, orig);
	FOR_EACH_PTR(s->stmts, x) {
		walk_stmt(w, x);
	} END_FOR_EACH_PTR(x);
	inlined_pop(w->ai);
	w->inline_pos = saved;
}

static void walk_decl(struct walk *w, struct symbol_list *list)
{
	struct symbol *sym;

	FOR_EACH_PTR(list, sym) {
		int mark = work_mark();

		if (!sym->initializer)
			continue;
		walk_expr(w, sym->initializer);
		work_decl(sym, mark);
		if (!w->inline_pos)
			ast_initializer(w->tu, sym, w->function);
	} END_FOR_EACH_PTR(sym);
}

static void walk_stmt(struct walk *w, struct statement *s)
{
	struct statement *x;

	if (!s)
		return;
	if (w->inline_pos)
		s->pos = *w->inline_pos;
	switch (s->type) {
	case STMT_DECLARATION:
		walk_decl(w, s->declaration);
		break;
	case STMT_EXPRESSION:
		walk_expr(w, s->expression);
		break;
	case STMT_COMPOUND:
		walk_stmt(w, s->args);
		FOR_EACH_PTR(s->stmts, x) {
			walk_stmt(w, x);
		} END_FOR_EACH_PTR(x);
		break;
	case STMT_IF:
		walk_expr(w, s->if_conditional);
		walk_stmt(w, s->if_true);
		walk_stmt(w, s->if_false);
		break;
	case STMT_RETURN:
		if (!w->inline_pos)
			*ARR_PUSH(w->ai->ret_lines, w->ai->nr_ret, w->ai->alloc_ret) = s->pos.line;
		walk_expr(w, s->ret_value);
		break;
	case STMT_CASE:
		walk_stmt(w, s->case_statement);
		break;
	case STMT_SWITCH:
		walk_expr(w, s->switch_expression);
		walk_stmt(w, s->switch_statement);
		break;
	case STMT_ITERATOR:
		walk_stmt(w, s->iterator_pre_statement);
		walk_expr(w, s->iterator_pre_condition);
		walk_stmt(w, s->iterator_statement);
		walk_stmt(w, s->iterator_post_statement);
		walk_expr(w, s->iterator_post_condition);
		break;
	case STMT_LABEL:
		walk_stmt(w, s->label_statement);
		break;
	case STMT_GOTO:
		walk_expr(w, s->goto_expression);
		break;
	case STMT_CONTEXT:
		walk_expr(w, s->expression);
		break;
	case STMT_RANGE:
		walk_expr(w, s->range_expression);
		break;
	default:
		break;
	}
}

void ast_prepare(struct tu *tu, struct symbol *fn, struct ast_info *ai)
{
	struct symbol *type = fn->ctype.base_type;
	struct walk w = { .tu = tu, .ai = ai, .function = ident_str(fn->ident) };

	ai->nr_ret = 0;
	inlined_reset(ai);
	work_function();
	if (type && type->type == SYM_FN)
		walk_stmt(&w, type->stmt);
}

static int in_ret_lines(struct ast_info *ai, int line)
{
	int i;

	for (i = 0; i < ai->nr_ret; i++)
		if (ai->ret_lines[i] == line)
			return 1;
	return 0;
}

static int block_has_code(struct basic_block *bb)
{
	struct instruction *insn;

	FOR_EACH_PTR(bb->insns, insn) {
		if (insn->bb && insn->opcode != OP_PHI && insn->opcode != OP_RET)
			return 1;
	} END_FOR_EACH_PTR(insn);
	return 0;
}

/*
 * The line of the return statement a path leaves by (see README): the
 * IR's return block is shared; the branch that led to it, or the first
 * return statement after it, tells which one it was.
 */
int ast_ret_line(struct ast_info *ai, struct basic_block *bb, struct instruction *from,
		 struct instruction *ret)
{
	int i, best = 0;

	if (from && from->opcode == OP_BR && in_ret_lines(ai, from->pos.line))
		return from->pos.line;
	if (from && from->opcode != OP_BR && !block_has_code(bb)) {
		for (i = 0; i < ai->nr_ret; i++)
			if (ai->ret_lines[i] >= (int)from->pos.line &&
			    (!best || ai->ret_lines[i] < best))
				best = ai->ret_lines[i];
		if (best)
			return best;
	}
	if (in_ret_lines(ai, ret->pos.line) || !from)
		return ret->pos.line;
	return from->pos.line;
}
