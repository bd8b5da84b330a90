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
 * callers that pass on = 0 do not sleep in it.
 *
 * The caller's side: the arguments that are constants (the 2.6 compat
 * ioctl handlers call sys_ioctl with one command; many wrappers do).
 * The global pass (resolve.c) gives such a call a copy of the callee
 * with only the calls that argument allows.
 *
 * Encodings, as calls.guard and calls.args hold them:
 *   guard "2:1-1,3-5"    parameter 2 is 1, or 3 to 5
 *   guard "2:!1-1,3-5"   parameter 2 is none of those (the default arm)
 *   guard "3:!0-0 2:4-4" under two tests: both hold
 *   args  "2=1;4=0"      argument 2 is 1, argument 4 is 0
 */
#include <stdio.h>
#include <stdlib.h>
#include "analyzer/internal.h"
#include "lib/strbuf.h"
#include "flowgraph.h"

/* The parameter p is (1-based), through a cast; 0 if none. */
static int param_of(pseudo_t p)
{
	if (p && p->type == PSEUDO_REG && p->def &&
	    (p->def->opcode == OP_ZEXT || p->def->opcode == OP_SEXT || p->def->opcode == OP_TRUNC))
		p = p->def->src;
	return p && p->type == PSEUDO_ARG ? p->nr : 0;
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

/*
 * An if on a parameter, as a switch with one value and a default:
 * `if (on)` and `if (!on)` test it against 0 (cbr on the parameter
 * itself), `if (cmd == 7)` and `if (cmd != 7)` against 7 (seteq, setne).
 */
static int branch_test(struct instruction *br, struct guard_test *t)
{
	struct instruction *set = br->cond && br->cond->type == PSEUDO_REG ? br->cond->def : NULL;
	struct basic_block *yes = br->bb_true, *no = br->bb_false;
	long long k = 0;

	if (!yes || !no || yes == no)
		return 0;
	t->param = param_of(br->cond);
	if (!t->param && set && (set->opcode == OP_SET_EQ || set->opcode == OP_SET_NE) &&
	    set->src2->type == PSEUDO_VAL) {
		t->param = param_of(set->src1);
		k = set->src2->value;
		if (set->opcode == OP_SET_EQ) {
			yes = br->bb_false;
			no = br->bb_true;
		}
	}
	if (!t->param)
		return 0;
	/* "no": the arm where the parameter is k; "yes": every other value */
	add_arm(t, k, k, no);
	add_arm(t, 1, 0, yes);
	return 1;
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

/*
 * The arm(s) of test i that reach bb, as a guard appended to sb (after
 * a space, if sb holds one already); 0 if none narrows it.  The test must dominate bb, and bb is reached through
 * the arms from which it is reachable without passing the test again
 * (in a loop the test sees the same parameter each time): a
 * fall-through from the arm above is one of them.
 */
static int arm_guard(const struct guards *gd, int i, struct basic_block *bb, struct strbuf *sb)
{
	const struct guard_test *t = gd->test + i;
	int j, dflt = 0, narrowed = 0;
	size_t mark = sb->len;

	if (bb == t->bb || !domtree_dominates(t->bb, bb))
		return 0;
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
}

/* The function's switches and ifs on a parameter, what each arm reaches, and its dominator tree. */
void guards_prepare(struct guards *gd, struct entrypoint *ep)
{
	struct basic_block *b;
	int i, nr_bbs;

	guards_release(gd);
	FOR_EACH_PTR(ep->bbs, b) {
		struct instruction *last = last_instruction(b->insns);
		struct guard_test t = { .bb = b };

		if (!last || !((last->opcode == OP_SWITCH && switch_test(last, &t)) ||
			       (last->opcode == OP_CBR && branch_test(last, &t)))) {
			free(t.arm);
			continue;
		}
		*ARR_PUSH(gd->test, gd->nr, gd->alloc) = t;
	} END_FOR_EACH_PTR(b);
	if (!gd->nr)
		return;
	nr_bbs = cfg_postorder(ep);
	domtree_build(ep);
	gd->bytes = (nr_bbs + 8) / 8;
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
	if (sb.len)
		ret = intern(sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
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
	} END_FOR_EACH_PTR(p);
	if (sb.len)
		ret = intern(sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
