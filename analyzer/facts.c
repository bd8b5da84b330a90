// SPDX-License-Identifier: GPL-2.0
/*
 * The facts the global pass (resolve.c) needs from a function: the
 * function itself, its call edges (direct, through a struct member,
 * through another pointer) with whether the BKL may be held at each,
 * the constant gfp argument of allocation primitives and the inlines
 * the call was made in (inlined.c), and the tables handed to
 * registration functions (cdev_init, register_chrdev, misc_register,
 * ...).  Function-pointer stores come from ast.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include "analyzer/internal.h"

static pseudo_t nth_arg(struct instruction *insn, int n)
{
	pseudo_t p;
	int i = 0;

	FOR_EACH_PTR(insn->arguments, p) {
		if (++i == n)
			return p;
	} END_FOR_EACH_PTR(p);
	return NULL;
}

static void registration(struct tu *tu, struct fn_summary *s, struct instruction *insn,
			 const struct prim_rule *r)
{
	struct symbol *v = arg_variable(nth_arg(insn, r->arg));
	struct fact_reg *reg = ARR_PUSH(tu->regs, tu->nr_regs, tu->alloc_regs);

	reg->kind = r->kind;
	reg->via = r->name;
	reg->st = r->st;
	reg->member = r->member;
	if (v) {
		reg->tbl = ident_str(v->ident);
		reg->tbl_static = !!(v->ctype.modifiers & MOD_STATIC);
	}
	reg->function = s->name;
	reg->file = pos_file(insn->pos);
	reg->line = insn->pos.line;
}

/*
 * The table a member call goes through, when sparse knows the object:
 * `a_ops = &udf_aops; a_ops->writepage()` and `inode->a_ops = &udf_aops;
 * inode->a_ops->writepage()` both load the pointer from udf_aops itself
 * once linearized and simplified.  NULL when the object is not a
 * variable (a pointer loaded from memory, a select, a phi).
 */
static struct symbol *call_table(struct instruction *insn)
{
	pseudo_t f = insn->func, src;

	if (!f || f->type != PSEUDO_REG || !f->def || f->def->opcode != OP_LOAD)
		return NULL;
	src = f->def->src;
	if (!src || src->type != PSEUDO_SYM)
		return NULL;
	return arg_variable(src);
}

static void add_call(struct tu *tu, struct fn_summary *s, int fn, struct call_info *ci,
		     const struct guards *gd, struct ast_info *ai)
{
	const struct primitives *p = tu->prims;
	struct instruction *insn = ci->insn;
	struct fact_call *c = ARR_PUSH(tu->calls, tu->nr_calls, tu->alloc_calls);
	const struct prim_rule *r;

	c->fn = fn;
	c->line = insn->pos.line;
	c->held = ci->held;
	c->inlined = insn->opcode == OP_INLINED_CALL;
	if (!c->inlined)
		c->inline_path = inlined_path(ai, insn);
	c->seq = tu->nr_calls;
	c->guard = guard_of(gd, insn->bb);
	if (insn->func && insn->func->type == PSEUDO_SYM && insn->func->sym) {
		struct symbol *sym = insn->func->sym;

		c->kind = CALL_DIRECT;
		c->callee = ident_str(sym->ident);
		c->callee_static = insn->opcode == OP_CALL && (sym->ctype.modifiers & MOD_STATIC);
		r = prim_match(p, PRIM_SLEEP, c->callee);
		/*
		 * An inlined call's body is the caller's already; but an
		 * allocation's flags may be the caller's parameter.
		 */
		if (insn->opcode == OP_CALL || (r && r->arg))
			c->args = const_args(insn);
		if (r && r->arg) {
			pseudo_t g = nth_arg(insn, r->arg);

			if (g && g->type == PSEUDO_VAL) {
				c->has_gfp = 1;
				c->gfp = g->value;
			}
		}
		if (insn->opcode == OP_CALL && (r = prim_match(p, PRIM_REGISTER, c->callee)))
			registration(tu, s, insn, r);
		return;
	}
	c->st = ast_member_struct(first_ptr_list((struct ptr_list *)insn->fntypes));
	if (c->st) {
		struct symbol *m = first_ptr_list((struct ptr_list *)insn->fntypes);
		struct symbol *tbl = call_table(insn);

		c->kind = CALL_MEMBER;
		c->member = ident_str(m->ident);
		if (tbl) {
			c->tbl = ident_str(tbl->ident);
			c->tbl_static = !!(tbl->ctype.modifiers & MOD_STATIC);
			/* the table's function gets a copy for them (specialize.c) */
			c->args = const_args(insn);
		} else {
			c->obj = call_object(insn, &c->obj_off);
		}
	} else {
		c->kind = CALL_POINTER;
		tu->unresolved++;
	}
}

/* by line, and on one line the call the user wrote (an inline one) first */
static int by_line(const void *a, const void *b)
{
	const struct fact_call *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->inlined != y->inlined)
		return x->inlined ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

void facts_function(struct tu *tu, struct fn_summary *s, struct entrypoint *ep,
		    struct ast_info *ai)
{
	static struct guards gd;

	struct fact_fn *f = ARR_PUSH(tu->fns, tu->nr_fns, tu->alloc_fns);
	int fn = tu->nr_fns - 1, i, first = tu->nr_calls;

	f->name = s->name;
	f->file = s->file;
	f->line = s->line;
	f->is_static = !!(s->sym->ctype.modifiers & MOD_STATIC);
	f->is_inline = s->is_inline;
	f->coarse = s->coarse;
	f->ctx_in = s->ctx_in;
	f->ctx_out = s->ctx_out;
	guards_prepare(&gd, ep);
	objects_function(tu, ep);
	for (i = 0; i < s->nr_calls; i++)
		add_call(tu, s, fn, &s->calls[i], &gd, ai);
	qsort(tu->calls + first, tu->nr_calls - first, sizeof(*tu->calls), by_line);
}

static const char *via_name(const char *st, const char *member)
{
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "%s.%s", st, member);

	return intern(buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
}

/* Stores into a register-store member (cdev.ops = &fops) register the table. */
void facts_store_registrations(struct tu *tu)
{
	const struct primitives *p = tu->prims;
	int i, j;

	for (i = 0; i < tu->nr_stores; i++) {
		struct fact_store *st = &tu->stores[i];

		if (!st->is_table)
			continue;
		for (j = 0; j < p->nr; j++) {
			const struct prim_rule *r = &p->rules[j];
			struct fact_reg *reg;

			if (r->cls != PRIM_REGISTER_STORE || r->st != st->st || r->member != st->member)
				continue;
			reg = ARR_PUSH(tu->regs, tu->nr_regs, tu->alloc_regs);
			reg->kind = r->kind;
			reg->via = via_name(st->st, st->member);
			reg->tbl = st->value;
			reg->tbl_static = st->value_static;
			reg->function = st->function;
			reg->file = st->file;
			reg->line = st->line;
			break;
		}
	}
}
