// SPDX-License-Identifier: GPL-2.0
/*
 * Sites: every lock_kernel()/unlock_kernel() call (the lock profile's
 * lock, trylock and unlock rules), at the line the user wrote it: a call behind a macro
 * is at the macro's use (sparse gives expanded tokens that position), a
 * call inside an inline helper at the helper's call (ast.c moves it).
 * An inline function is a site where it is inlined; its own body only
 * when sparse had to emit it out of line (its address is taken) and it is
 * in the file itself, not in a header every file includes.
 * The implicit sites come later, from the global pass (resolve.c).
 */
#include "analyzer/internal.h"

const char *pos_file(struct position pos)
{
	const char *name = stream_name(pos.stream);

	return intern(name, strlen(name));
}

void check_sites(struct tu *tu, struct fn_summary *s)
{
	int i;

	if (s->is_inline && s->sym->pos.stream != tu->main_stream)
		return;
	for (i = 0; i < s->nr_calls; i++) {
		struct call_info *c = &s->calls[i];
		struct fact_row *r;

		if (!c->prim || c->insn->opcode != OP_CALL)
			continue;
		if (c->prim->cls != PRIM_LOCK && c->prim->cls != PRIM_UNLOCK &&
		    c->prim->cls != PRIM_TRYLOCK)
			continue;
		r = ARR_PUSH(tu->sites, tu->nr_sites, tu->alloc_sites);
		r->file = pos_file(c->insn->pos);
		r->line = c->insn->pos.line;
		r->function = s->name;
		r->kind = c->prim->cls == PRIM_UNLOCK ? "unlock" : "lock";
		r->callee = ident_str(c->insn->func->sym->ident);
	}
}
