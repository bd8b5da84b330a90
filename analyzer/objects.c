// SPDX-License-Identifier: GPL-2.0
/*
 * Object flow through a file's own static pointers.
 *
 * pty.c keeps its drivers in `static struct tty_driver *ptm_driver`,
 * sets their operations once (`tty_set_operations(ptm_driver,
 * &ptm_unix98_ops)`, an inline store into ptm_driver->ops), and calls
 * through them (`ptm_driver->ops->open(tty, filp)` in ptmx_open).  By
 * type, that call reaches every tty_operations.open in the kernel; the
 * object it goes through says it reaches ptm_unix98_ops.open only.
 *
 * A static variable is visible to its file alone, so the stores into
 * the object it points to are the file's to see: when every store into
 * that member, in every function of the file, stores one and the same
 * table, a call through the member goes through that table (calls.tbl,
 * resolved as `a_ops = &udf_aops` is).  Any other store (a parameter, a
 * loaded pointer, a second table) leaves the call to be resolved by
 * type.  What this cannot see: code elsewhere that sets the member
 * through a pointer it was handed; a kernel that does so for a file's
 * private object is rare, and the edge stays `table`, not `direct`.
 */
#include "analyzer/internal.h"

/* A file-scope static pointer variable, as a symbol; NULL if s is not one */
static struct symbol *static_pointer(struct symbol *s)
{
	struct symbol *base;

	if (!s || !s->ident || (s->ctype.modifiers & (MOD_STATIC | MOD_TOPLEVEL)) !=
	    (MOD_STATIC | MOD_TOPLEVEL))
		return NULL;
	base = s->ctype.base_type;
	return base && base->type == SYM_PTR ? s : NULL;
}

/*
 * The static pointer whose pointee p is: p loaded from it (load 0[G]),
 * or p stored into it in this function (`G = alloc(); G->ops = &t;`,
 * where sparse may store through the allocated value itself).
 */
static struct symbol *pointee_of(pseudo_t p)
{
	struct instruction *def;
	struct pseudo_user *pu;

	if (!p || p->type != PSEUDO_REG || !(def = p->def))
		return NULL;
	if (def->opcode == OP_LOAD && !def->offset && def->src && def->src->type == PSEUDO_SYM)
		return static_pointer(def->src->sym);
	FOR_EACH_PTR(p->users, pu) {
		struct instruction *st = pu->insn;

		if (st && st->opcode == OP_STORE && st->target == p && !st->offset &&
		    st->src && st->src->type == PSEUDO_SYM && static_pointer(st->src->sym))
			return st->src->sym;
	} END_FOR_EACH_PTR(pu);
	return NULL;
}

/* The variable a value is the address of (`&foo_fops`), if any. */
struct symbol *arg_variable(pseudo_t p)
{
	struct symbol *s;

	if (!p)
		return NULL;
	if (p->type == PSEUDO_REG && p->def && p->def->opcode == OP_SYMADDR)
		p = p->def->src;
	if (p->type != PSEUDO_SYM || !(s = p->sym) || !s->ident)
		return NULL;
	if (s->ctype.base_type && s->ctype.base_type->type == SYM_FN)
		return NULL;
	return s;
}

/*
 * The object a member call goes through and the offset of the pointer
 * to its table: `G->ops->open()` is load 0[load off[load 0[G]]].
 */
struct symbol *call_object(struct instruction *call, long long *off)
{
	pseudo_t f = call->func, tp;
	struct instruction *ld;
	struct symbol *g;

	if (!f || f->type != PSEUDO_REG || !f->def || f->def->opcode != OP_LOAD)
		return NULL;
	tp = f->def->src;
	if (!tp || tp->type != PSEUDO_REG || !(ld = tp->def) || ld->opcode != OP_LOAD)
		return NULL;
	g = pointee_of(ld->src);
	if (g)
		*off = ld->offset;
	return g;
}

/* Every store into a static pointer's pointee, with the table it stores (or none) */
void objects_function(struct tu *tu, struct entrypoint *ep)
{
	struct basic_block *bb;
	struct instruction *insn;

	FOR_EACH_PTR(ep->bbs, bb) {
		FOR_EACH_PTR(bb->insns, insn) {
			struct fact_obj *o;
			struct symbol *g;

			if (!insn->bb || insn->opcode != OP_STORE || !(g = pointee_of(insn->src)))
				continue;
			o = ARR_PUSH(tu->objs, tu->nr_objs, tu->alloc_objs);
			o->obj = g;
			o->off = insn->offset;
			o->tbl = arg_variable(insn->target);
		} END_FOR_EACH_PTR(insn);
	} END_FOR_EACH_PTR(bb);
}

/* The one table every store into (g, off) stores; NULL if none or not one */
static struct symbol *only_table(const struct tu *tu, struct symbol *g, long long off)
{
	struct symbol *tbl = NULL;
	int i;

	for (i = 0; i < tu->nr_objs; i++) {
		const struct fact_obj *o = &tu->objs[i];

		if (o->obj != g || o->off != off)
			continue;
		if (!o->tbl || (tbl && o->tbl != tbl))
			return NULL;
		tbl = o->tbl;
	}
	return tbl;
}

/* After the file's last function: the member calls whose object names its table */
void objects_resolve(struct tu *tu)
{
	int i;

	for (i = 0; i < tu->nr_calls; i++) {
		struct fact_call *c = &tu->calls[i];
		struct symbol *tbl;

		if (c->kind != CALL_MEMBER || c->tbl || !c->obj ||
		    !(tbl = only_table(tu, c->obj, c->obj_off)))
			continue;
		c->tbl = ident_str(tbl->ident);
		c->tbl_static = !!(tbl->ctype.modifiers & MOD_STATIC);
	}
}
