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
 *
 * The caller's side: the arguments that are constants (the 2.6 compat
 * ioctl handlers call sys_ioctl with one command; many wrappers do).
 * The global pass (resolve.c) gives such a call a copy of the callee
 * with only the calls that argument allows.
 *
 * Encodings, as calls.guard and calls.args hold them:
 *   guard "2:1-1,3-5"    parameter 2 is 1, or 3 to 5
 *   guard "2:!1-1,3-5"   parameter 2 is none of those (the default arm)
 *   args  "2=1;4=0"      argument 2 is 1, argument 4 is 0
 */
#include <stdio.h>
#include <stdlib.h>
#include "analyzer/internal.h"
#include "lib/strbuf.h"
#include "flowgraph.h"

/* The parameter a switch is on (1-based), through a cast; 0 if none. */
static int switch_param(struct instruction *sw)
{
	pseudo_t p = sw->cond;

	if (p && p->type == PSEUDO_REG && p->def &&
	    (p->def->opcode == OP_ZEXT || p->def->opcode == OP_SEXT || p->def->opcode == OP_TRUNC))
		p = p->def->src;
	return p && p->type == PSEUDO_ARG ? p->nr : 0;
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
 * The arm(s) of switch i that reach bb, as a guard into sb; 0 if none
 * narrows it.  The switch must dominate bb, and bb is reached through
 * the arms from which it is reachable without passing the switch again
 * (in a loop the switch sees the same parameter each time): a
 * fall-through from the arm above is one of them.
 */
static int arm_guard(const struct guards *gd, int i, struct basic_block *bb, struct strbuf *sb)
{
	struct instruction *sw = gd->sw[i];
	struct multijmp *jmp;
	int j = 0, dflt = 0, narrowed = 0;
	size_t mark = sb->len;

	if (bb == sw->bb || !domtree_dominates(sw->bb, bb))
		return 0;
	FOR_EACH_PTR(sw->multijmp_list, jmp) {
		if (jmp->begin > jmp->end)
			dflt = !!reaches(gd, i, j, bb);
		j++;
	} END_FOR_EACH_PTR(jmp);
	strbuf_addf(sb, "%d:%s", switch_param(sw), dflt ? "!" : "");
	j = 0;
	FOR_EACH_PTR(sw->multijmp_list, jmp) {
		/* the default arm lists the values that do not reach bb */
		if (jmp->begin <= jmp->end && (!reaches(gd, i, j, bb)) == dflt) {
			strbuf_addf(sb, "%s%lld-%lld", narrowed ? "," : "", jmp->begin, jmp->end);
			narrowed = 1;
		}
		j++;
	} END_FOR_EACH_PTR(jmp);
	if (narrowed)
		return 1;
	sb->len = mark;
	sb->buf[mark] = 0;
	return 0;
}

static void guards_release(struct guards *gd)
{
	int i;

	for (i = 0; i < gd->nr; i++)
		free(gd->reach[i]);
	gd->nr = 0;
}

/* The function's switches on a parameter, what each arm reaches, and its dominator tree. */
void guards_prepare(struct guards *gd, struct entrypoint *ep)
{
	struct basic_block *b;
	int i, nr_bbs;

	guards_release(gd);
	FOR_EACH_PTR(ep->bbs, b) {
		struct instruction *last = last_instruction(b->insns);

		if (last && last->opcode == OP_SWITCH && switch_param(last))
			*ARR_PUSH(gd->sw, gd->nr, gd->alloc) = last;
	} END_FOR_EACH_PTR(b);
	if (!gd->nr)
		return;
	nr_bbs = cfg_postorder(ep);
	domtree_build(ep);
	gd->bytes = (nr_bbs + 8) / 8;
	gd->reach = xrealloc_arr(gd->reach, gd->nr, sizeof(*gd->reach));
	for (i = 0; i < gd->nr; i++) {
		struct multijmp *jmp;
		int j = 0, n = ptr_list_size((struct ptr_list *)gd->sw[i]->multijmp_list);

		gd->reach[i] = calloc(n ? n : 1, gd->bytes);
		if (!gd->reach[i])
			abort();
		FOR_EACH_PTR(gd->sw[i]->multijmp_list, jmp) {
			reach(jmp->target, gd->sw[i]->bb, gd->reach[i] + (size_t)j++ * gd->bytes);
		} END_FOR_EACH_PTR(jmp);
	}
}

const char *guard_of(const struct guards *gd, struct basic_block *bb)
{
	struct strbuf sb = STRBUF_INIT;
	const char *ret = NULL;
	int i;

	for (i = 0; i < gd->nr && !ret; i++)
		if (bb && arm_guard(gd, i, bb, &sb))
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
