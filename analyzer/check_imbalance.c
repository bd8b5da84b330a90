// SPDX-License-Identifier: GPL-2.0
/*
 * Imbalances, from the path walk's summary (paths.c):
 *  - return-held: a return on a path that leaves the function holding
 *    more BKL than it entered with (than its annotations say), while
 *    other paths balance: n_tty's opost() of 2008, which plain sparse
 *    reports only as "context imbalance in 'opost' - wrong count at exit".
 *    A function whose every path takes the lock is a lock helper, not a
 *    leak, unless the path also released some of it: taken twice and
 *    released once (the BKL nests), the unlock says the author meant to
 *    balance.
 *  - unlock-unheld: an unlock reached on a path where this function did
 *    not take the BKL and no kernel_locked() test (nor a __releases or
 *    __must_hold annotation) established it: ext3's fill_super, which
 *    released a lock its caller no longer held.
 */
#include "analyzer/internal.h"

static void add(struct tu *tu, struct fn_summary *s, struct position pos, int line,
		const char *kind)
{
	struct fact_row *r;
	int i;

	for (i = 0; i < tu->nr_imbs; i++)
		if (tu->imbs[i].line == line && tu->imbs[i].function == s->name &&
		    tu->imbs[i].kind == kind)
			return;
	r = ARR_PUSH(tu->imbs, tu->nr_imbs, tu->alloc_imbs);
	r->file = pos_file(pos);
	r->line = line;
	r->function = s->name;
	r->kind = kind;
}

void check_imbalance(struct tu *tu, struct fn_summary *s)
{
	int i, balanced = 0;

	if (s->is_inline && s->sym->pos.stream != tu->main_stream)
		return;
	for (i = 0; i < s->nr_calls; i++)
		if (s->calls[i].unheld_unlock)
			add(tu, s, s->calls[i].insn->pos, s->calls[i].insn->pos.line,
			    "unlock-unheld");
	for (i = 0; i < s->nr_exits; i++)
		balanced |= s->exits[i].delta == 0;
	for (i = 0; i < s->nr_exits; i++)
		if (s->exits[i].delta > 0 && (balanced || s->exits[i].partial))
			add(tu, s, s->sym->pos, s->exits[i].line, "return-held");
}
