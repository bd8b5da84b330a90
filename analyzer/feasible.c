// SPDX-License-Identifier: GPL-2.0
/*
 * Which blocks run when a parameter is 0, and which when it is not:
 * a walk of the function's paths that knows that parameter and what the
 * branches taken so far said of other values (zero or not), so that a
 * test correlated with it through a flag counts too.
 *
 * kvfree_call_rcu(head, func) synchronizes only when `success` is
 * false at its end, and that only happens on the path where `head` was
 * NULL: `success = add_ptr(..., !head); if (!success) { if (!head) goto
 * unlock; ...; success = true; } unlock: if (!success) synchronize_rcu();`.
 * No block dominates the call there, so a guard by dominance misses it;
 * this walk finds that with head != 0 the call's block is never reached.
 * A loop that moves a pointer on under `if (ubuf)` likewise never runs
 * that arm when the caller passes NULL.
 *
 * A (block, predecessor, facts) triple is walked once; a function whose
 * walk exceeds its budget gets no such guard.  Facts are dropped when
 * the block that defines their value runs again (a loop), and when there
 * are too many: forgetting is always safe, it only loses narrowing.
 */
#include <stdint.h>
#include <string.h>
#include "analyzer/internal.h"
#include "flowgraph.h"

#define FEAS_FACTS	16
#define FEAS_DEPTH	8

struct feas_fact {
	pseudo_t p;
	int nz;
};

struct feas_state {
	int nr;
	struct feas_fact f[FEAS_FACTS];
};

struct feas_work {
	struct basic_block *bb, *from;
	struct feas_state st;
};

struct feas_walk {
	int param, nz;			/* the assumption */
	struct feas_work *stack;
	int nr_stack, alloc_stack;
	uint64_t *seen;
	size_t nr_seen, size_seen;
	unsigned char *reach;		/* by postorder number */
};

static int same_value(pseudo_t a, pseudo_t b)
{
	return a == b || (a->type == PSEUDO_ARG && b->type == PSEUDO_ARG && a->nr == b->nr);
}

static int lookup(const struct feas_walk *w, const struct feas_state *st, pseudo_t p)
{
	int i;

	if (p->type == PSEUDO_ARG && p->nr == w->param)
		return w->nz;
	for (i = 0; i < st->nr; i++)
		if (same_value(st->f[i].p, p))
			return st->f[i].nz;
	return -1;
}

/*
 * The address of sym is not 0: an object or a static function (an
 * extern function may be a weak one that is not linked in; sparse does
 * not keep __weak).
 */
int sym_nonzero(struct symbol *sym)
{
	struct symbol *base = sym ? sym->ctype.base_type : NULL;

	return sym && !(base && base->type == SYM_FN && !(sym->ctype.modifiers & MOD_STATIC));
}

/* 1: p is not 0, 0: it is, -1: not known here. */
static int value(const struct feas_walk *w, const struct feas_state *st, pseudo_t p, int depth)
{
	struct instruction *def = p->type == PSEUDO_REG ? p->def : NULL;
	int known = lookup(w, st, p), a, b;

	if (known >= 0)
		return known;
	if (p->type == PSEUDO_VAL)
		return !!p->value;
	if (p->type == PSEUDO_SYM)
		return sym_nonzero(p->sym) ? 1 : -1;
	if (!def || depth > FEAS_DEPTH)
		return -1;
	switch (def->opcode) {
	case OP_SET_EQ:
	case OP_SET_NE:
		if (!is_zero(def->src2) && !is_zero(def->src1))
			return -1;
		a = value(w, st, is_zero(def->src2) ? def->src1 : def->src2, depth + 1);
		return a < 0 ? -1 : def->opcode == OP_SET_EQ ? !a : a;
	case OP_ZEXT: case OP_SEXT: case OP_PTRCAST: case OP_UTPTR: case OP_PTRTU:
		return value(w, st, def->src, depth + 1);
	case OP_AND:
	case OP_OR:
		if (def->size != 1)
			return -1;
		a = value(w, st, def->src1, depth + 1);
		b = value(w, st, def->src2, depth + 1);
		if (def->opcode == OP_AND)
			return !a || !b ? 0 : a == 1 && b == 1 ? 1 : -1;
		return a == 1 || b == 1 ? 1 : !a && !b ? 0 : -1;
	}
	return -1;
}

static void forget(struct feas_state *st, pseudo_t p)
{
	int i;

	for (i = 0; i < st->nr; i++)
		if (same_value(st->f[i].p, p))
			st->f[i--] = st->f[--st->nr];
}

static void learn(struct feas_state *st, pseudo_t p, int nz)
{
	forget(st, p);
	if (st->nr < FEAS_FACTS)
		st->f[st->nr++] = (struct feas_fact){ p, nz };
}

/* A branch on c taken as nz: c, and what c tests (`!x`, `x != 0`, casts). */
static void learn_cond(struct feas_state *st, pseudo_t c, int nz)
{
	int i;

	for (i = 0; i < FEAS_DEPTH && c->type != PSEUDO_VAL; i++) {
		struct instruction *def = c->type == PSEUDO_REG ? c->def : NULL;

		learn(st, c, nz);
		if (!def)
			return;
		if ((def->opcode == OP_SET_EQ || def->opcode == OP_SET_NE) && is_zero(def->src2)) {
			nz ^= def->opcode == OP_SET_EQ;
			c = def->src1;
		} else if (def->opcode == OP_ZEXT || def->opcode == OP_SEXT) {
			c = def->src;
		} else {
			return;
		}
	}
}

static uint64_t fact_hash(const struct feas_fact *f)
{
	uint64_t h = (uintptr_t)f->p * 0x9e3779b97f4a7c15ULL + f->nz;

	return (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL;
}

/* The facts in any order hash alike; 1 when (bb, from, st) was new. */
static int seen_add(struct feas_walk *w, struct basic_block *bb, struct basic_block *from,
		    const struct feas_state *st)
{
	uint64_t key = (uintptr_t)bb * 0x100000001b3ULL ^ (uintptr_t)from;
	size_t j;
	int i;

	for (i = 0; i < st->nr; i++)
		key += fact_hash(st->f + i);
	key |= 1;
	if (2 * (w->nr_seen + 1) > w->size_seen) {
		uint64_t *old = w->seen;
		size_t n = w->size_seen, k;

		w->size_seen = n ? 2 * n : 1024;
		w->seen = calloc(w->size_seen, sizeof(*w->seen));
		if (!w->seen)
			abort();
		for (k = 0; k < n; k++) {
			if (!old[k])
				continue;
			for (j = old[k] & (w->size_seen - 1); w->seen[j]; j = (j + 1) & (w->size_seen - 1))
				;
			w->seen[j] = old[k];
		}
		free(old);
	}
	for (j = key & (w->size_seen - 1); w->seen[j]; j = (j + 1) & (w->size_seen - 1))
		if (w->seen[j] == key)
			return 0;
	w->seen[j] = key;
	w->nr_seen++;
	return 1;
}

static void push(struct feas_walk *w, struct basic_block *bb, struct basic_block *from,
		 const struct feas_state *st)
{
	struct feas_work *wk;

	if (!bb || !seen_add(w, bb, from, st))
		return;
	wk = ARR_PUSH(w->stack, w->nr_stack, w->alloc_stack);
	wk->bb = bb;
	wk->from = from;
	wk->st = *st;
}

/* Entering bb from `from`: its phis take the values `from` gave them. */
static void enter(const struct feas_walk *w, struct basic_block *bb, struct basic_block *from,
		  struct feas_state *st)
{
	struct feas_fact phis[FEAS_FACTS];
	struct instruction *insn;
	int nr = 0, i;

	FOR_EACH_PTR(bb->insns, insn) {
		pseudo_t phi;

		if (!insn->bb || insn->opcode != OP_PHI || nr == FEAS_FACTS)
			continue;
		FOR_EACH_PTR(insn->phi_list, phi) {
			int v;

			if (phi == VOID || !phi->def || phi->def->bb != from)
				continue;
			v = value(w, st, phi->def->phi_src, 0);
			if (v >= 0)
				phis[nr++] = (struct feas_fact){ insn->target, v };
			break;
		} END_FOR_EACH_PTR(phi);
	} END_FOR_EACH_PTR(insn);
	FOR_EACH_PTR(bb->insns, insn) {
		if (insn->bb && insn->target && insn->target != VOID)
			forget(st, insn->target);
	} END_FOR_EACH_PTR(insn);
	for (i = 0; i < nr; i++)
		learn(st, phis[i].p, phis[i].nz);
}

static void step(struct feas_walk *w, struct feas_work *wk)
{
	struct instruction *last;
	struct basic_block *c;

	enter(w, wk->bb, wk->from, &wk->st);
	w->reach[wk->bb->postorder_nr / 8] |= 1 << (wk->bb->postorder_nr % 8);
	last = last_instruction(wk->bb->insns);
	if (last && last->opcode == OP_CBR && last->bb_true != last->bb_false) {
		int v = value(w, &wk->st, last->cond, 0);
		struct feas_state st = wk->st;

		if (v != 0) {
			learn_cond(&st, last->cond, 1);
			push(w, last->bb_true, wk->bb, &st);
		}
		if (v != 1) {
			st = wk->st;
			learn_cond(&st, last->cond, 0);
			push(w, last->bb_false, wk->bb, &st);
		}
		return;
	}
	FOR_EACH_PTR(wk->bb->children, c) {
		push(w, c, wk->bb, &wk->st);
	} END_FOR_EACH_PTR(c);
}

/*
 * Mark in reach (by postorder number, bytes long) the blocks of ep that
 * run with parameter param zero (nz = 0) or not; 0 if the walk gave up.
 */
int feasible_blocks(struct entrypoint *ep, int param, int nz, int nr_bbs,
		    unsigned char *reach, size_t bytes)
{
	struct feas_walk w = { .param = param, .nz = nz, .reach = reach };
	struct feas_state none = { 0 };
	long budget = 32L * nr_bbs + 1000;
	int ok = 1;

	memset(reach, 0, bytes);
	push(&w, ep->entry->bb, NULL, &none);
	while (w.nr_stack) {
		struct feas_work wk = w.stack[--w.nr_stack];

		if (--budget < 0) {
			ok = 0;
			break;
		}
		step(&w, &wk);
	}
	free(w.stack);
	free(w.seen);
	return ok;
}
