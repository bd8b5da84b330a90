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
 *    released a lock its caller no longer held.  When only the caller
 *    could have held it, the row depends on the callers (entry "unheld"):
 *    a static helper that every caller calls with the lock held may drop
 *    it (resolve.c decides, over the whole call graph).
 *  - return-released: entered with the lock held, a return on a path that
 *    released it while other paths balance: an error path that forgets to
 *    take it back.  Only known once the callers are (entry "held").
 *  - return-held at every return of a function that takes the lock on
 *    every path: an acquire helper when its callers release after the
 *    call, but a leak on every call when it is reached through a table
 *    whose caller never releases (an ->unlocked_ioctl that forgets its
 *    unlock_kernel()).  Only known once the stores are (entry "stored":
 *    the global pass keeps it when a table holds the function and no
 *    function of that table releases: seq_operations' ->start and ->stop
 *    pair up).  An __acquires annotation says it is meant: balanced.
 */
#include <string.h>
#include "analyzer/internal.h"

static void add(struct tu *tu, struct fn_summary *s, struct position pos, int line,
		const char *kind, const char *entry)
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
	r->entry = entry;
}

static void check_unlocks(struct tu *tu, struct fn_summary *s)
{
	int i;

	for (i = 0; i < s->nr_calls; i++) {
		int why = s->calls[i].unheld_unlock;

		if (why)
			add(tu, s, s->calls[i].insn->pos, s->calls[i].insn->pos.line,
			    "unlock-unheld", why & UNHELD_SURE ? NULL : "unheld");
	}
}

int tu_helper_delta(const struct tu *tu, const char *name)
{
	int i;

	for (i = 0; name && i < tu->nr_helpers; i++)
		if (!strcmp(tu->helpers[i].name, name))
			return tu->helpers[i].delta;
	return 0;
}

int fn_lock_effect(const struct fn_summary *s)
{
	int i, takes = 1, releases = 1;

	for (i = 0; i < s->nr_exits; i++) {
		takes &= s->exits[i].delta > 0 && !s->exits[i].partial;
		releases &= s->exits[i].delta < 0;
	}
	return !s->nr_exits || s->coarse ? 0 : takes ? 1 : releases ? -1 : 0;
}

void check_imbalance(struct tu *tu, struct fn_summary *s)
{
	int i, balanced = 0;

	if (s->is_inline && s->sym->pos.stream != tu->main_stream)
		return;
	check_unlocks(tu, s);
	if (s->effect > 0) {
		for (i = 0; i < s->nr_exits; i++)
			add(tu, s, s->sym->pos, s->exits[i].line, "return-held", "stored");
		return;
	}
	for (i = 0; i < s->nr_exits; i++)
		balanced |= s->exits[i].delta == 0;
	for (i = 0; i < s->nr_exits; i++) {
		const struct exit_info *e = &s->exits[i];

		if (e->delta > 0 && (balanced || e->partial))
			add(tu, s, s->sym->pos, e->line, "return-held", NULL);
		else if (e->delta < 0 && balanced)
			add(tu, s, s->sym->pos, e->line, "return-released", "held");
	}
}
