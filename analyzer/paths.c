// SPDX-License-Identifier: GPL-2.0
/*
 * The path-sensitive walk of one function's linearized IR: where sparse's
 * check_bb_context() keeps one summed counter per basic block, we walk
 * paths with a small state and remember, per call, whether the BKL may be
 * held there, and per exit, how much BKL the path leaves with.
 *
 * The state of a path:
 *  - depth: lock_kernel() minus unlock_kernel() since entry (plus the
 *    context changes of other __acquires/__releases functions called);
 *  - what is known of the count at entry: at least e_lo (annotations, or
 *    a kernel_locked() that returned true), or exactly 0 (one that
 *    returned false);
 *  - whether it was dropped whatever its depth (the series' __bkl_drop(),
 *    until bkl_retake()): not held then;
 *  - the truth of "relevant" branch conditions already taken: those
 *    tested by two or more branches, phi values fed by constants, and the
 *    results of kernel_locked().  A branch whose condition is known takes
 *    one edge, so `bkl = kernel_locked(); if (bkl) unlock_kernel(); ...
 *    if (bkl) lock_kernel();` has two paths, not four.
 * A (block, state) pair is walked once, which bounds loops; depth is
 * clamped to DEPTH_MAX, and a path that went past it is "over": its real
 * depth is then above the one kept, so an unlock there is not called
 * unheld, nor a return with a negative depth balanced or not (exits
 * unknown are not recorded).  A path remembers an unlock that left the
 * lock still held (a partial release, until the depth is back to 0):
 * lock twice, unlock once is a leak, not a lock helper.  A function
 * whose paths exceed a budget is walked again with the conditions
 * forgotten (the summary says so: coarse).
 */
#include <stdint.h>
#include <string.h>
#include "analyzer/internal.h"

#define MAX_REL		64
#define KL_MAX		4
#define DEPTH_MIN	(-2)
#define DEPTH_MAX	3
#define BUDGET		20000

struct pstate {
	signed char depth;
	unsigned char e_lo;		/* the count at entry is at least e_lo */
	unsigned char e_zero;		/* the count at entry is known to be 0 */
	signed char kl_depth[KL_MAX];	/* depth when kernel_locked() #i ran */
	unsigned char dropped;		/* released whatever its depth (__bkl_drop) */
	unsigned char over;		/* went past DEPTH_MAX: deeper than depth says */
	unsigned char partial;		/* an unlock left it held; not back to 0 since */
	uint64_t known, val;		/* relevant conditions: known, value */
};

struct work {
	struct basic_block *bb;
	struct instruction *from;	/* the branch that led here */
	struct pstate st;
};

struct walker {
	struct tu *tu;
	struct ast_info *ai;
	struct fn_summary *s;
	int coarse, steps, expect, e_in;
	pseudo_t rel[MAX_REL];
	int nr_rel;
	pseudo_t kl[KL_MAX];		/* kernel_locked() results */
	int nr_kl;
	pseudo_t tl[KL_MAX];		/* trylock results: nonzero, it took the lock */
	int nr_tl;
	struct work *stack;
	int nr_stack, alloc_stack;
	uint64_t *seen;
	size_t nr_seen, size_seen;
};

static int rel_index(struct walker *w, pseudo_t p)
{
	int i;

	for (i = 0; i < w->nr_rel; i++)
		if (w->rel[i] == p)
			return i;
	return -1;
}

static void add_rel(struct walker *w, pseudo_t p)
{
	if (rel_index(w, p) < 0 && w->nr_rel < MAX_REL)
		w->rel[w->nr_rel++] = p;
}

/* `x != 0`, `!x`, casts of x: the pseudo really tested, and polarity. */
static pseudo_t cond_base(pseudo_t p, int *neg)
{
	struct instruction *def;
	int i;

	for (i = 0; i < 8 && p->type == PSEUDO_REG && (def = p->def); i++) {
		if (def->opcode == OP_SET_NE || def->opcode == OP_SET_EQ) {
			pseudo_t other;

			if (is_zero(def->src2))
				other = def->src1;
			else if (is_zero(def->src1))
				other = def->src2;
			else
				break;
			if (def->opcode == OP_SET_EQ)
				*neg ^= 1;
			p = other;
		} else if (def->opcode == OP_ZEXT || def->opcode == OP_SEXT) {
			p = def->src;
		} else {
			break;
		}
	}
	return p;
}

/* Is e the lock profile's sparse context (__acquires(kernel_lock))? */
static int ctx_is_lock(const struct primitives *p, struct expression *e)
{
	struct ident *id = NULL;
	size_t len = strlen(p->context);

	while (e && e->type == EXPR_PREOP && e->op == '&')
		e = e->unop;
	if (!e || e->type != EXPR_SYMBOL)
		return 0;
	id = e->symbol_name ? e->symbol_name : e->symbol ? e->symbol->ident : NULL;
	return id && id->len == len && !memcmp(id->name, p->context, len);
}

static const char *callee_name(struct instruction *insn)
{
	pseudo_t fn = insn->func;

	if (!fn || fn->type != PSEUDO_SYM || !fn->sym)
		return NULL;
	return ident_str(fn->sym->ident);
}

/* A kernel_locked() or trylock result: a condition that tells of the lock. */
static void result_of(struct walker *w, const struct prim_rule *r, pseudo_t target)
{
	if (r->cls == PRIM_LOCKED && w->nr_kl < KL_MAX)
		w->kl[w->nr_kl++] = target;
	else if (r->cls == PRIM_TRYLOCK && w->nr_tl < KL_MAX)
		w->tl[w->nr_tl++] = target;
	else
		return;
	add_rel(w, target);
}

/* Collect the calls, the relevant conditions; number calls per block. */
static void prescan(struct walker *w, struct entrypoint *ep)
{
	const struct primitives *p = w->tu->prims;
	struct basic_block *bb;
	struct instruction *insn;
	unsigned char uses[MAX_REL] = { 0 };
	pseudo_t cand[MAX_REL];
	int nr_cand = 0, i;

	FOR_EACH_PTR(ep->bbs, bb) {
		bb->priv = (void *)(intptr_t)w->s->nr_calls;
		FOR_EACH_PTR(bb->insns, insn) {
			const struct prim_rule *r = NULL;
			const char *name;

			if (!insn->bb)
				continue;
			if (insn->opcode == OP_CBR) {
				int neg = 0;
				pseudo_t b = cond_base(insn->cond, &neg);

				for (i = 0; i < nr_cand && cand[i] != b; i++)
					;
				if (i == nr_cand && nr_cand < MAX_REL)
					cand[nr_cand++] = b;
				if (i < MAX_REL && uses[i] < 2)
					uses[i]++;
				if (b->type == PSEUDO_REG && b->def && b->def->opcode == OP_PHI)
					add_rel(w, b);
				continue;
			}
			if (insn->opcode != OP_CALL && insn->opcode != OP_INLINED_CALL)
				continue;
			name = callee_name(insn);
			if (insn->opcode == OP_CALL) {
				if (!(r = prim_match(p, PRIM_LOCK, name)) &&
				    !(r = prim_match(p, PRIM_UNLOCK, name)) &&
				    !(r = prim_match(p, PRIM_DROP, name)) &&
				    !(r = prim_match(p, PRIM_RETAKE, name)) &&
				    !(r = prim_match(p, PRIM_TRYLOCK, name)))
					r = prim_match(p, PRIM_LOCKED, name);
				if (r && insn->target && insn->target != VOID)
					result_of(w, r, insn->target);
			} else if (!prim_match(p, PRIM_SLEEP, name) && !prim_match(p, PRIM_WAIT, name)) {
				continue;	/* an inlined helper: its body is here */
			}
			ARR_PUSH(w->s->calls, w->s->nr_calls, w->s->alloc_calls)->insn = insn;
			w->s->calls[w->s->nr_calls - 1].prim = r;
			if (!r && insn->opcode == OP_CALL)
				w->s->calls[w->s->nr_calls - 1].helper = tu_helper_delta(w->tu, name);
		} END_FOR_EACH_PTR(insn);
	} END_FOR_EACH_PTR(bb);
	for (i = 0; i < nr_cand; i++)
		if (uses[i] >= 2)
			add_rel(w, cand[i]);
}

static int kl_slot(struct walker *w, int rel)
{
	int i;

	for (i = 0; i < w->nr_kl; i++)
		if (w->kl[i] == w->rel[rel])
			return i;
	return -1;
}

static int is_trylock(struct walker *w, int rel)
{
	int i;

	for (i = 0; i < w->nr_tl; i++)
		if (w->tl[i] == w->rel[rel])
			return 1;
	return 0;
}

static int held_now(const struct pstate *st)
{
	if (st->dropped)
		return HELD_NO;
	if (st->depth > 0 || st->e_lo + st->depth >= 1 || (st->over && st->depth >= 0))
		return HELD_YES;
	if (st->depth < 0 || st->e_zero)
		return HELD_NO;
	return HELD_CALLER;
}

static uint64_t state_key(struct basic_block *bb, struct instruction *from,
			  const struct pstate *st)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const unsigned char *p = (const unsigned char *)st;
	size_t i;

	h = (h ^ (uintptr_t)bb) * 0x100000001b3ULL;
	h = (h ^ (uintptr_t)from) * 0x100000001b3ULL;
	for (i = 0; i < sizeof(*st); i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h | 1;
}

/* 1 when the key was new */
static int seen_add(struct walker *w, uint64_t key)
{
	size_t j;

	if (2 * (w->nr_seen + 1) > w->size_seen) {
		uint64_t *old = w->seen;
		size_t n = w->size_seen, i;

		w->size_seen = n ? 2 * n : 256;
		w->seen = xrealloc_arr(NULL, w->size_seen, sizeof(*w->seen));
		memset(w->seen, 0, w->size_seen * sizeof(*w->seen));
		w->nr_seen = 0;
		for (i = 0; i < n; i++)
			if (old[i])
				seen_add(w, old[i]);
		free(old);
	}
	for (j = key & (w->size_seen - 1); w->seen[j]; j = (j + 1) & (w->size_seen - 1))
		if (w->seen[j] == key)
			return 0;
	w->seen[j] = key;
	w->nr_seen++;
	return 1;
}

static int is_ret_block(struct basic_block *bb)
{
	struct instruction *last = last_instruction(bb->insns);

	return last && last->opcode == OP_RET;
}

static void push(struct walker *w, struct basic_block *bb, struct instruction *from,
		 const struct pstate *st)
{
	struct work *wk;

	if (!bb)
		return;
	/* a return block is told apart by where it was entered from */
	if (!seen_add(w, state_key(bb, is_ret_block(bb) ? from : NULL, st)))
		return;
	wk = ARR_PUSH(w->stack, w->nr_stack, w->alloc_stack);
	wk->bb = bb;
	wk->from = from;
	wk->st = *st;
}

/* What a kernel_locked() result being `truth` says; 0: impossible path. */
static int learn_kl(struct pstate *st, int slot, int truth)
{
	int d = st->kl_depth[slot];

	if (truth) {
		int need = 1 - d;

		if (need > 0 && st->e_zero)
			return 0;
		if (need > st->e_lo)
			st->e_lo = need > 3 ? 3 : need;
	} else if (d == 0) {
		if (st->e_lo > 0)
			return 0;
		st->e_zero = 1;
	} else if (d > 0) {
		return 0;	/* we hold it ourselves: cannot be false */
	}
	return 1;
}

static void change_depth(struct walker *w, struct pstate *st, int inc);

static void branch(struct walker *w, struct instruction *insn, const struct pstate *st)
{
	int neg = 0, idx, k;
	pseudo_t b = cond_base(insn->cond, &neg);

	if (b->type == PSEUDO_VAL) {
		push(w, (!!b->value ^ neg) ? insn->bb_true : insn->bb_false, insn, st);
		return;
	}
	idx = w->coarse ? -1 : rel_index(w, b);
	if (idx >= 0 && (st->known >> idx & 1)) {
		push(w, ((st->val >> idx & 1) ^ neg) ? insn->bb_true : insn->bb_false, insn, st);
		return;
	}
	for (k = 1; k >= 0; k--) {
		struct pstate n = *st;
		int truth = k ^ neg, slot;

		if (idx >= 0) {
			n.known |= 1ULL << idx;
			n.val = (n.val & ~(1ULL << idx)) | ((uint64_t)truth << idx);
			slot = kl_slot(w, idx);
			if (slot >= 0 && !learn_kl(&n, slot, truth))
				continue;
			/* the first test of a trylock's result: held where it is true */
			if (truth && is_trylock(w, idx))
				change_depth(w, &n, 1);
		}
		push(w, k ? insn->bb_true : insn->bb_false, insn, &n);
	}
}

/*
 * A path leaves at line with st.  Over the cap, the real depth is above
 * the one kept: a leak when the kept one is balanced or more, unknown
 * (not recorded) below.
 */
static void add_exit(struct walker *w, int line, const struct pstate *st)
{
	struct fn_summary *s = w->s;
	struct exit_info *e;
	int i, delta = st->depth - w->expect;

	if (st->over) {
		if (delta < 0)
			return;
		delta++;
	}
	for (i = 0; i < s->nr_exits; i++)
		if (s->exits[i].line == line && s->exits[i].delta == delta) {
			s->exits[i].partial |= st->partial;
			return;
		}
	e = ARR_PUSH(s->exits, s->nr_exits, s->alloc_exits);
	e->line = line;
	e->delta = delta;
	e->partial = st->partial;
}

static void set_depth(struct pstate *st, int d)
{
	if (d > DEPTH_MAX)
		st->over = 1;
	st->depth = d < DEPTH_MIN ? DEPTH_MIN : d > DEPTH_MAX ? DEPTH_MAX : d;
}

/* Take (inc > 0) or release (inc < 0) the lock: depth, partial release. */
static void change_depth(struct walker *w, struct pstate *st, int inc)
{
	set_depth(st, st->depth + inc);
	if (inc < 0 && st->depth - w->expect >= 1)
		st->partial = 1;
	else if (st->depth - w->expect <= 0)
		st->partial = 0;
}

static void forget(struct walker *w, struct pstate *st, pseudo_t target)
{
	int idx;

	if (!target || target == VOID || w->coarse || (idx = rel_index(w, target)) < 0)
		return;
	st->known &= ~(1ULL << idx);
}

static void phisrc(struct walker *w, struct instruction *insn, struct pstate *st)
{
	struct instruction *phi = insn->phi_node;
	int idx, src;
	pseudo_t v = insn->phi_src;

	if (w->coarse || !phi || !phi->bb || (idx = rel_index(w, phi->target)) < 0)
		return;
	st->known &= ~(1ULL << idx);
	if (v->type == PSEUDO_VAL) {
		st->known |= 1ULL << idx;
		st->val = (st->val & ~(1ULL << idx)) | ((uint64_t)!!v->value << idx);
	} else if ((src = rel_index(w, v)) >= 0 && (st->known >> src & 1)) {
		st->known |= 1ULL << idx;
		st->val = (st->val & ~(1ULL << idx)) | ((st->val >> src & 1) << idx);
	}
}

/*
 * An unlock without the lock: only because nothing says the caller holds
 * it (held if the function is entered with it), or whatever the caller
 * holds (dropped, a kernel_locked() that said no, released below entry).
 */
static int unheld_why(const struct pstate *st)
{
	if (!st->dropped && !st->e_zero && !st->e_lo && !st->depth)
		return UNHELD_ENTRY;
	return UNHELD_SURE;
}

static void call(struct walker *w, struct call_info *ci, struct pstate *st)
{
	struct instruction *insn = ci->insn;
	int i;

	ci->held |= held_now(st);
	if (ci->helper && !st->dropped)
		change_depth(w, st, ci->helper);
	if (!ci->prim)
		goto out;
	switch (ci->prim->cls) {
	case PRIM_LOCK:
		change_depth(w, st, 1);
		break;
	case PRIM_UNLOCK:
		if (st->dropped || (!st->over && st->e_lo + st->depth < 1))
			ci->unheld_unlock |= unheld_why(st);
		change_depth(w, st, -1);
		break;
	case PRIM_DROP:
		st->dropped = 1;
		break;
	case PRIM_RETAKE:
		st->dropped = 0;
		break;
	case PRIM_LOCKED:
		for (i = 0; i < w->nr_kl && !w->coarse; i++)
			if (w->kl[i] == insn->target)
				st->kl_depth[i] = st->depth;
		break;
	default:
		break;
	}
out:
	forget(w, st, insn->target);
}

/* Walk one block from a work item; push its successors. */
static void walk_block(struct walker *w, struct work *wk)
{
	struct pstate st = wk->st;
	struct instruction *insn;
	struct multijmp *jmp;
	struct basic_block *child;
	int ci = (int)(intptr_t)wk->bb->priv;
	struct instruction *prim_call = NULL;

	FOR_EACH_PTR(wk->bb->insns, insn) {
		if (!insn->bb)
			continue;
		switch (insn->opcode) {
		case OP_CALL:
		case OP_INLINED_CALL:
			prim_call = NULL;
			if (ci < w->s->nr_calls && w->s->calls[ci].insn == insn) {
				struct call_info *c = &w->s->calls[ci++];

				call(w, c, &st);
				if (c->prim && (c->prim->cls == PRIM_LOCK || c->prim->cls == PRIM_UNLOCK))
					prim_call = insn;
			} else {
				forget(w, &st, insn->target);
			}
			break;
		case OP_CONTEXT:
			/*
			 * The context change sparse adds after a call to an
			 * annotated function: counted already for lock_kernel()
			 * and unlock_kernel() themselves (same position), not for
			 * others (__acquires helpers), nor for __acquire(x).
			 */
			if (prim_call && !memcmp(&insn->pos, &prim_call->pos, sizeof(insn->pos)))
				break;
			if (!insn->check && ctx_is_lock(w->tu->prims, insn->context_expr))
				change_depth(w, &st, insn->increment);
			break;
		case OP_PHISOURCE:
			phisrc(w, insn, &st);
			break;
		case OP_PHI:
			break;
		case OP_CBR:
			branch(w, insn, &st);
			return;
		case OP_BR:
			push(w, insn->bb_true, insn, &st);
			return;
		case OP_SWITCH:
			FOR_EACH_PTR(insn->multijmp_list, jmp) {
				push(w, jmp->target, insn, &st);
			} END_FOR_EACH_PTR(jmp);
			return;
		case OP_COMPUTEDGOTO:
			FOR_EACH_PTR(wk->bb->children, child) {
				push(w, child, insn, &st);
			} END_FOR_EACH_PTR(child);
			return;
		case OP_RET:
			add_exit(w, ast_ret_line(w->ai, wk->bb, wk->from, insn), &st);
			return;
		case OP_UNREACH:
			return;
		default:
			forget(w, &st, insn->target);
			break;
		}
	} END_FOR_EACH_PTR(insn);
}

static int run(struct walker *w, struct entrypoint *ep)
{
	struct pstate st;
	int i;

	memset(&st, 0, sizeof(st));
	st.e_lo = w->e_in;
	w->nr_stack = 0;
	w->nr_seen = 0;
	if (w->seen)
		memset(w->seen, 0, w->size_seen * sizeof(*w->seen));
	w->steps = 0;
	for (i = 0; i < w->s->nr_calls; i++) {
		w->s->calls[i].held = 0;
		w->s->calls[i].unheld_unlock = 0;
	}
	w->s->nr_exits = 0;
	push(w, ep->entry->bb, NULL, &st);
	while (w->nr_stack) {
		struct work wk = w->stack[--w->nr_stack];

		if (++w->steps > BUDGET && !w->coarse)
			return -1;
		walk_block(w, &wk);
	}
	return 0;
}

int paths_walk(struct tu *tu, struct entrypoint *ep, struct ast_info *ai,
	       struct fn_summary *s)
{
	struct walker w = { .tu = tu, .ai = ai, .s = s };
	struct context *ctx;
	int in = 0, out = 0, annotated = 0;

	FOR_EACH_PTR(s->sym->ctype.contexts, ctx) {
		if (ctx_is_lock(tu->prims, ctx->context)) {
			in += ctx->in;
			out += ctx->out;
			annotated = 1;
		}
	} END_FOR_EACH_PTR(ctx);
	/* the global pass reads it as evidence of how it is entered */
	s->ctx_in = annotated ? in : -1;
	s->ctx_out = annotated ? out : -1;
	w.e_in = in > 3 ? 3 : in;
	w.expect = out - in;
	prescan(&w, ep);
	if (run(&w, ep)) {
		w.coarse = 1;
		s->coarse = 1;
		run(&w, ep);
	}
	free(w.stack);
	free(w.seen);
	return 0;
}

void fn_summary_release(struct fn_summary *s)
{
	free(s->calls);
	free(s->exits);
	memset(s, 0, sizeof(*s));
}
