// SPDX-License-Identifier: GPL-2.0
/*
 * Constant arguments, both ends of a call.
 *
 * The callee's side: a call inside one arm of a `switch` on one of the
 * function's parameters runs only for the values that arm takes:
 * `switch (cmd) { case 1: quick(); ...; case 2: msleep(); }` calls
 * msleep() only when cmd is 2.  The arms are those whose case block
 * reaches the call's block (see arm_guard()); the guard is "parameter N
 * in these ranges" (or "not in" them, when the default arm reaches it).
 * An `if` on a parameter is a switch of one value and a default:
 * fasync_helper(fd, filp, on, fapp) allocates only `if (on)`, so its
 * callers that pass on = 0 do not sleep in it; a comparison with a
 * constant, of the values below it and a default (fsleep()'s `usecs <=
 * 10` udelay()s, inlined in a wrapper whose callers pass usecs).  A test of a bit that
 * the parameter keeps (pcpu_alloc()'s `gfp & __GFP_NOFAIL`, after
 * current_gfp_context()) narrows by that bit; one conjunct of `a && b`,
 * narrows one arm only (the "weak" one any value may take is not
 * narrowed).  Where no test dominates the call, feasible.c's walk says
 * whether it runs when a parameter is 0 or when it is not (a flag that
 * correlates with it, a loop's copy of it).
 *
 * The caller's side: the arguments that are constants (the 2.6 compat
 * ioctl handlers call sys_ioctl with one command; many wrappers do), or
 * addresses, which are not 0 (kfree_rcu()'s `&p->rcu`), or the caller's
 * own parameters passed on, with bits added or taken away (a wrapper's
 * `kmalloc(n, gfp | __GFP_ZERO)`): those take the value the caller's
 * caller gives.  The global pass (specialize.c) gives such a call a copy
 * of the callee with only the calls that argument allows, and the
 * parameters it passes on resolved, down to an allocation's gfp flags.
 *
 * Encodings, as calls.guard and calls.args hold them:
 *   guard "2:1-1,3-5"    parameter 2 is 1, or 3 to 5
 *   guard "2:!1-1,3-5"   parameter 2 is none of those (the default arm)
 *   guard "4:&2048"      parameter 4 has a bit of 2048 set
 *   guard "4:!&2048"     parameter 4 has none of them
 *   guard "3:!0-0 2:4-4" under two tests: both hold
 *   args  "2=1;4=0"      argument 2 is 1, argument 4 is 0
 *   args  "1=!0"         argument 1 is not 0 (an address)
 *   args  "2=@3"         argument 2 is the caller's parameter 3
 *   args  "2=@3&A|O"     ... as (parameter 3 & A) | O (both optional, decimal)
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/internal.h"
#include "lib/strbuf.h"
#include "flowgraph.h"

#define VALUE_DEPTH 8

/* The parameter p is (1-based), through a cast; 0 if none. */
static int param_of(pseudo_t p)
{
	if (p && p->type == PSEUDO_REG && p->def &&
	    (p->def->opcode == OP_ZEXT || p->def->opcode == OP_SEXT || p->def->opcode == OP_TRUNC))
		p = p->def->src;
	return p && p->type == PSEUDO_ARG ? p->nr : 0;
}

static unsigned long long low_bits(int bits)
{
	return bits > 0 && bits < 64 ? (1ULL << bits) - 1 : ~0ULL;
}

/*
 * The parameter whose bits p carries, and in *mask the bits it keeps as
 * they are: `flags & ~__GFP_FS` keeps __GFP_NOFAIL, and so does a phi of
 * such values (current_gfp_context(), inlined, gives one).  0 if none.
 */
static int masked_param(pseudo_t p, unsigned long long *mask, int depth)
{
	struct instruction *def;
	pseudo_t phi;
	int param = 0, nr;

	if (p && p->type == PSEUDO_ARG)
		return p->nr;
	if (!p || p->type != PSEUDO_REG || !(def = p->def) || depth > VALUE_DEPTH)
		return 0;
	switch (def->opcode) {
	case OP_ZEXT: case OP_SEXT: case OP_TRUNC:
		*mask &= low_bits(def->size);
		if (def->orig_type)
			*mask &= low_bits(def->orig_type->bit_size);
		return masked_param(def->src, mask, depth + 1);
	case OP_AND:
	case OP_OR:
		if (def->src2->type != PSEUDO_VAL)
			return 0;
		*mask &= def->opcode == OP_AND ? def->src2->value : ~def->src2->value;
		return masked_param(def->src1, mask, depth + 1);
	case OP_PHI:
		FOR_EACH_PTR(def->phi_list, phi) {
			if (phi == VOID || !phi->def)
				continue;
			nr = masked_param(phi->def->phi_src, mask, depth + 1);
			if (!nr || (param && nr != param))
				return 0;
			param = nr;
		} END_FOR_EACH_PTR(phi);
		return param;
	}
	return 0;
}

static void add_arm(struct guard_test *t, long long begin, long long end, struct basic_block *target)
{
	t->arm = xrealloc_arr(t->arm, t->nr + 1, sizeof(*t->arm));
	t->arm[t->nr].begin = begin;
	t->arm[t->nr].end = end;
	t->arm[t->nr++].target = target;
}

/* A switch on a parameter: its arms as they are */
static int switch_test(struct instruction *sw, struct guard_test *t)
{
	struct multijmp *jmp;

	t->param = param_of(sw->cond);
	if (!t->param)
		return 0;
	FOR_EACH_PTR(sw->multijmp_list, jmp) {
		add_arm(t, jmp->begin, jmp->end, jmp->target);
	} END_FOR_EACH_PTR(jmp);
	return 1;
}

/* `v & K`, K bits the parameter keeps in v: a bit test, bit set in arm 0. */
static int bit_test(pseudo_t v, struct basic_block *set, struct basic_block *clear,
		    struct guard_test *t)
{
	struct instruction *def = v && v->type == PSEUDO_REG ? v->def : NULL;
	unsigned long long mask = ~0ULL;

	if (!def || def->opcode != OP_AND || def->src2->type != PSEUDO_VAL || !def->src2->value)
		return 0;
	t->param = masked_param(def->src1, &mask, 0);
	if (!t->param || (def->src2->value & ~mask))
		return 0;
	t->mask = def->src2->value;
	add_arm(t, 1, 1, set);
	add_arm(t, 1, 0, clear);
	return 1;
}

/* v against k: as a switch with one value (to eq) and a default (to ne). */
static int value_test(pseudo_t v, long long k, struct basic_block *eq, struct basic_block *ne,
		      struct guard_test *t)
{
	t->param = param_of(v);
	if (!t->param)
		return 0;
	add_arm(t, k, k, eq);
	add_arm(t, 1, 0, ne);
	return 1;
}

/*
 * v compared with a constant (`usecs <= 10`, as fsleep() tests it once
 * inlined): a switch of one range, the values up to the constant, and a
 * default.  The range is below the constant, whichever side the
 * comparison sends it: `v > K` is `v <= K` with its arms swapped.
 */
static int range_test(struct instruction *def, struct basic_block *yes, struct basic_block *no,
		      struct guard_test *t)
{
	long long k = def->src2->value, lo = LLONG_MIN;
	int below_yes = 1, strict = 0;

	switch (def->opcode) {
	case OP_SET_B: case OP_SET_BE: case OP_SET_A: case OP_SET_AE:
		lo = 0;
		break;
	}
	switch (def->opcode) {
	case OP_SET_LT: case OP_SET_B:
		strict = 1;
		break;
	case OP_SET_GE: case OP_SET_AE:
		strict = 1;
		/* fall through */
	case OP_SET_GT: case OP_SET_A:
		below_yes = 0;
		break;
	}
	t->param = param_of(def->src1);
	if (!t->param || (strict && k <= lo) || (lo == 0 && k < 0))
		return 0;
	add_arm(t, lo, k - strict, below_yes ? yes : no);
	add_arm(t, 1, 0, below_yes ? no : yes);
	return 1;
}

static int is_compare(int opcode)
{
	switch (opcode) {
	case OP_SET_LT: case OP_SET_LE: case OP_SET_GT: case OP_SET_GE:
	case OP_SET_B: case OP_SET_BE: case OP_SET_A: case OP_SET_AE:
		return 1;
	}
	return 0;
}

/*
 * The condition c of a branch, true to yes, false to no.  `a && b`
 * (sparse's and.1) tests a conjunct: its arm to no is weak, since the
 * other conjunct may send any value there.
 */
static int cond_test(pseudo_t c, struct basic_block *yes, struct basic_block *no,
		     struct guard_test *t, int depth)
{
	struct instruction *def = c && c->type == PSEUDO_REG ? c->def : NULL;
	int j;

	if (def && def->opcode == OP_AND && def->size == 1 && def->src2->type != PSEUDO_VAL &&
	    depth < VALUE_DEPTH) {
		if (!cond_test(def->src1, yes, no, t, depth + 1)) {
			free(t->arm);
			*t = (struct guard_test){ .bb = t->bb, .weak = -1 };
			if (!cond_test(def->src2, yes, no, t, depth + 1))
				return 0;
		}
		for (j = 0; j < t->nr && t->arm[j].target != no; j++)
			;
		if (t->weak >= 0 && t->weak != j)
			return 0;
		t->weak = j;
		return 1;
	}
	if (def && (def->opcode == OP_SET_EQ || def->opcode == OP_SET_NE) &&
	    def->src2->type == PSEUDO_VAL) {
		struct basic_block *eq = def->opcode == OP_SET_EQ ? yes : no;
		struct basic_block *ne = def->opcode == OP_SET_EQ ? no : yes;

		if (!def->src2->value && bit_test(def->src1, ne, eq, t))
			return 1;
		return value_test(def->src1, def->src2->value, eq, ne, t);
	}
	if (def && is_compare(def->opcode) && def->src2->type == PSEUDO_VAL)
		return range_test(def, yes, no, t);
	return bit_test(c, yes, no, t) || value_test(c, 0, no, yes, t);
}

/* An if on a parameter (its value, a bit of it, or one conjunct of &&). */
static int branch_test(struct instruction *br, struct guard_test *t)
{
	if (!br->bb_true || !br->bb_false || br->bb_true == br->bb_false)
		return 0;
	return cond_test(br->cond, br->bb_true, br->bb_false, t, 0);
}

/* Mark in bits what from reaches without going through stop (postorder numbers). */
static void reach(struct basic_block *from, struct basic_block *stop, unsigned char *bits)
{
	struct basic_block *c;
	int nr = from->postorder_nr;

	if (from == stop || (bits[nr / 8] & (1 << (nr % 8))))
		return;
	bits[nr / 8] |= 1 << (nr % 8);
	FOR_EACH_PTR(from->children, c) {
		reach(c, stop, bits);
	} END_FOR_EACH_PTR(c);
}

static int reaches(const struct guards *gd, int i, int j, struct basic_block *bb)
{
	const unsigned char *bits = gd->reach[i] + (size_t)j * gd->bytes;

	return bits[bb->postorder_nr / 8] & (1 << (bb->postorder_nr % 8));
}

/* A bit test's guard: "2:&32768" (a bit of it set), "2:!&32768" (none). */
static int bit_guard(const struct guards *gd, int i, struct basic_block *bb, struct strbuf *sb)
{
	const struct guard_test *t = gd->test + i;
	int set = !!reaches(gd, i, 0, bb), clear = !!reaches(gd, i, 1, bb);

	if (set == clear)
		return 0;
	strbuf_addf(sb, "%s%d:%s&%llu", sb->len ? " " : "", t->param, set ? "" : "!", t->mask);
	return 1;
}

/*
 * The arm(s) of test i that reach bb, as a guard appended to sb (after
 * a space, if sb holds one already); 0 if none narrows it.  The test
 * must dominate bb, and bb is reached through the arms from which it is
 * reachable without passing the test again (in a loop the test sees the
 * same parameter each time): a fall-through from the arm above is one of
 * them.  A block the weak arm reaches is not narrowed.
 */
static int arm_guard(const struct guards *gd, int i, struct basic_block *bb, struct strbuf *sb)
{
	const struct guard_test *t = gd->test + i;
	int j, dflt = 0, narrowed = 0;
	size_t mark = sb->len;

	if (bb == t->bb || !domtree_dominates(t->bb, bb))
		return 0;
	if (t->weak >= 0 && reaches(gd, i, t->weak, bb))
		return 0;
	if (t->mask)
		return bit_guard(gd, i, bb, sb);
	for (j = 0; j < t->nr; j++)
		if (t->arm[j].begin > t->arm[j].end)
			dflt = !!reaches(gd, i, j, bb);
	strbuf_addf(sb, "%s%d:%s", mark ? " " : "", t->param, dflt ? "!" : "");
	for (j = 0; j < t->nr; j++) {
		const struct guard_arm *a = t->arm + j;

		/* the default arm lists the values that do not reach bb */
		if (a->begin <= a->end && (!reaches(gd, i, j, bb)) == dflt) {
			strbuf_addf(sb, "%s%lld-%lld", narrowed ? "," : "", a->begin, a->end);
			narrowed = 1;
		}
	}
	if (narrowed)
		return 1;
	sb->len = mark;
	sb->buf[mark] = 0;
	return 0;
}

static void guards_release(struct guards *gd)
{
	int i;

	for (i = 0; i < gd->nr; i++) {
		free(gd->reach[i]);
		free(gd->test[i].arm);
	}
	gd->nr = 0;
	for (i = 0; i < gd->nr_feas; i++) {
		free(gd->feas[i][0]);
		free(gd->feas[i][1]);
	}
	gd->nr_feas = 0;
}

/*
 * The parameters condition c tests against 0 (`p`, `!p`, `p && q`, a
 * loop's copy of p), into gd.
 */
static void zero_tested(struct guards *gd, pseudo_t c, int depth)
{
	struct instruction *def = c->type == PSEUDO_REG ? c->def : NULL;
	int param = param_of(c), i;
	pseudo_t phi;

	if (param) {
		for (i = 0; i < gd->nr_feas && gd->feas_param[i] != param; i++)
			;
		if (i == gd->nr_feas && i < GUARD_FEAS)
			gd->feas_param[gd->nr_feas++] = param;
		return;
	}
	if (!def || depth > VALUE_DEPTH)
		return;
	if ((def->opcode == OP_SET_EQ || def->opcode == OP_SET_NE) && is_zero(def->src2))
		zero_tested(gd, def->src1, depth + 1);
	else if ((def->opcode == OP_AND || def->opcode == OP_OR) && def->size == 1) {
		zero_tested(gd, def->src1, depth + 1);
		zero_tested(gd, def->src2, depth + 1);
	} else if (def->opcode == OP_PHI && depth < 3) {
		FOR_EACH_PTR(def->phi_list, phi) {
			if (phi != VOID && phi->def)
				zero_tested(gd, phi->def->phi_src, depth + 1);
		} END_FOR_EACH_PTR(phi);
	}
}

/* For each parameter tested against 0: the blocks that run when it is, and when not. */
static void feasible_prepare(struct guards *gd, struct entrypoint *ep, int nr_bbs)
{
	struct basic_block *b;
	int i, k;

	FOR_EACH_PTR(ep->bbs, b) {
		struct instruction *last = last_instruction(b->insns);

		if (last && last->opcode == OP_CBR)
			zero_tested(gd, last->cond, 0);
	} END_FOR_EACH_PTR(b);
	for (i = 0; i < gd->nr_feas; i++) {
		for (k = 0; k < 2; k++) {
			gd->feas[i][k] = xrealloc_arr(NULL, gd->bytes, 1);
			if (!feasible_blocks(ep, gd->feas_param[i], k, nr_bbs, gd->feas[i][k], gd->bytes))
				memset(gd->feas[i][k], 0xff, gd->bytes);
		}
	}
}

/* "P:0-0" when bb runs only if parameter P is 0, "P:!0-0" only if it is not. */
static void feasible_guard(const struct guards *gd, int i, struct basic_block *bb,
			   struct strbuf *sb)
{
	int nr = bb->postorder_nr, zero, nonzero;
	char test[32];

	zero = !!(gd->feas[i][0][nr / 8] & (1 << (nr % 8)));
	nonzero = !!(gd->feas[i][1][nr / 8] & (1 << (nr % 8)));
	if (zero == nonzero)
		return;
	snprintf(test, sizeof(test), "%d:%s0-0", gd->feas_param[i], zero ? "" : "!");
	if (sb->len && (strstr(sb->buf, test) == sb->buf ||
			(strstr(sb->buf, test) && strstr(sb->buf, test)[-1] == ' ')))
		return;
	strbuf_addf(sb, "%s%s", sb->len ? " " : "", test);
}

/* The function's switches and ifs on a parameter, what each arm reaches, and its dominator tree. */
void guards_prepare(struct guards *gd, struct entrypoint *ep)
{
	struct basic_block *b;
	int i, nr_bbs;

	guards_release(gd);
	nr_bbs = cfg_postorder(ep);
	domtree_build(ep);
	gd->bytes = (nr_bbs + 8) / 8;
	FOR_EACH_PTR(ep->bbs, b) {
		struct instruction *last = last_instruction(b->insns);
		struct guard_test t = { .bb = b, .weak = -1 };

		if (!last || !((last->opcode == OP_SWITCH && switch_test(last, &t)) ||
			       (last->opcode == OP_CBR && branch_test(last, &t)))) {
			free(t.arm);
			continue;
		}
		*ARR_PUSH(gd->test, gd->nr, gd->alloc) = t;
	} END_FOR_EACH_PTR(b);
	feasible_prepare(gd, ep, nr_bbs);
	if (!gd->nr)
		return;
	if (gd->nr > gd->alloc_reach) {
		gd->reach = xrealloc_arr(gd->reach, gd->nr, sizeof(*gd->reach));
		gd->alloc_reach = gd->nr;
	}
	for (i = 0; i < gd->nr; i++) {
		const struct guard_test *t = gd->test + i;
		int j;

		gd->reach[i] = calloc(t->nr ? t->nr : 1, gd->bytes);
		if (!gd->reach[i])
			abort();
		for (j = 0; j < t->nr; j++)
			reach(t->arm[j].target, t->bb, gd->reach[i] + (size_t)j * gd->bytes);
	}
}

const char *guard_of(const struct guards *gd, struct basic_block *bb)
{
	struct strbuf sb = STRBUF_INIT;
	const char *ret = NULL;
	int i;

	for (i = 0; i < gd->nr && bb; i++)
		arm_guard(gd, i, bb, &sb);
	for (i = 0; i < gd->nr_feas && bb; i++)
		feasible_guard(gd, i, bb, &sb);
	if (sb.len)
		ret = intern(sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

/*
 * An argument that cannot be 0: a symbol's address, or a pointer plus a
 * constant offset (`&p->rcu`, which kfree_rcu() hands kvfree_call_rcu()).
 */
static int nonzero_arg(pseudo_t p)
{
	struct instruction *def = p->type == PSEUDO_REG ? p->def : NULL;

	if (p->type == PSEUDO_SYM)
		return sym_nonzero(p->sym);
	return def && def->opcode == OP_ADD && def->src2->type == PSEUDO_VAL &&
	       def->src2->value > 0 && def->type && is_ptr_type(def->type);
}

/*
 * The caller's parameter whose value p is, as it is or with constant
 * bits set or cleared: the value as (parameter & *and) | *or.  0 if p is
 * no such value.
 */
static int param_flow(pseudo_t p, unsigned long long *and, unsigned long long *or, int depth)
{
	struct instruction *def = p && p->type == PSEUDO_REG ? p->def : NULL;
	unsigned long long k;
	int param;

	if (p && p->type == PSEUDO_ARG)
		return p->nr;
	if (!def || depth > VALUE_DEPTH)
		return 0;
	switch (def->opcode) {
	case OP_ZEXT: case OP_SEXT: case OP_TRUNC:
		param = param_flow(def->src, and, or, depth + 1);
		k = def->opcode == OP_TRUNC ? low_bits(def->size) : ~0ULL;
		*and &= k;
		*or &= k;
		return param;
	case OP_AND:
	case OP_OR:
		if (def->src2->type != PSEUDO_VAL)
			return 0;
		param = param_flow(def->src1, and, or, depth + 1);
		k = def->src2->value;
		if (def->opcode == OP_AND) {
			*and &= k;
			*or &= k;
		} else {
			*or |= k;
		}
		return param;
	}
	return 0;
}

/* "N=@P&A|O" for argument i, when it is parameter P passed on. */
static void add_param_arg(struct strbuf *sb, int i, pseudo_t p)
{
	unsigned long long and = ~0ULL, or = 0;
	int param = param_flow(p, &and, &or, 0);

	if (!param)
		return;
	strbuf_addf(sb, "%s%d=@%d", sb->len ? ";" : "", i, param);
	if (and != ~0ULL)
		strbuf_addf(sb, "&%llu", and);
	if (or)
		strbuf_addf(sb, "|%llu", or);
}

const char *const_args(struct instruction *call)
{
	struct strbuf sb = STRBUF_INIT;
	const char *ret = NULL;
	pseudo_t p;
	int i = 0;

	FOR_EACH_PTR(call->arguments, p) {
		i++;
		if (p->type == PSEUDO_VAL)
			strbuf_addf(&sb, "%s%d=%lld", sb.len ? ";" : "", i, p->value);
		else if (nonzero_arg(p))
			strbuf_addf(&sb, "%s%d=!0", sb.len ? ";" : "", i);
		else
			add_param_arg(&sb, i, p);
	} END_FOR_EACH_PTR(p);
	if (sb.len)
		ret = intern(sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
