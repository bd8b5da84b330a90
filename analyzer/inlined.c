// SPDX-License-Identifier: GPL-2.0
/*
 * Calls inside inlined bodies.  sparse inlines a static inline into its
 * caller while it expands it: the body is linearized in the caller, its
 * constant arguments folded (fsleep(5) keeps only its udelay() branch),
 * and the OP_INLINED_CALL that names the inline comes after the body,
 * which the IR does not delimit.  ast.c moves the body's calls to the
 * line of the caller's call (a lock_kernel() in a helper is a site
 * there); just before, it tells us here which inlines each call is in
 * and where it was in their source, so that facts.c can record a call
 * of the caller's IR as made in fsleep at delay.h:60 (calls.inline_path)
 * and a chain can name fsleep as a step.
 *
 * The IR call and the AST call are matched by the caller's line and the
 * call's first fntype, the symbol linearize_call_expression() puts there
 * from the same expression (the function, or the struct member called
 * through): exact unless one line makes two calls of the same function
 * from different inlines, where the first recorded wins.
 */
#include "analyzer/internal.h"
#include "lib/strbuf.h"

void inlined_reset(struct ast_info *ai)
{
	ai->nr_frames = 0;
	ai->nr_inl = 0;
}

/* Entering the body of fn, called at at (before ast.c moved it). */
void inlined_push(struct ast_info *ai, struct symbol *fn, struct position at)
{
	if (ai->nr_frames < INLINE_DEPTH)
		ai->frames[ai->nr_frames] = (struct inl_frame){ fn, at };
	ai->nr_frames++;
}

void inlined_pop(struct ast_info *ai)
{
	ai->nr_frames--;
}

static void add_frame(struct strbuf *sb, struct symbol *fn, struct position at)
{
	if (sb->len)
		strbuf_addch(sb, ';');
	strbuf_addf(sb, "%s %s:%d", ident_str(fn->ident), pos_file(at), at.line);
}

/*
 * A call at its own position in the innermost inline's body, inside an
 * inline called at line site of the function analyzed: record its
 * inline path, each inline with the line it calls the next one at.
 */
void inlined_call(struct ast_info *ai, struct expression *call, int site)
{
	struct strbuf sb = STRBUF_INIT;
	struct inl_call *c;
	int i, n = ai->nr_frames < INLINE_DEPTH ? ai->nr_frames : INLINE_DEPTH;

	if (!n || !call->fn || !call->fn->ctype)
		return;
	for (i = 0; i < n; i++)
		add_frame(&sb, ai->frames[i].fn, i + 1 < n ? ai->frames[i + 1].at : call->pos);
	c = ARR_PUSH(ai->inl, ai->nr_inl, ai->alloc_inl);
	c->line = site;
	c->fntype = call->fn->ctype;
	c->path = intern(sb.buf, sb.len);
	strbuf_release(&sb);
}

/* The inline path of an IR call (OP_CALL) of the function, or NULL. */
const char *inlined_path(struct ast_info *ai, struct instruction *insn)
{
	struct symbol *fntype = first_ptr_list((struct ptr_list *)insn->fntypes);
	int i;

	for (i = 0; i < ai->nr_inl; i++) {
		struct inl_call *c = &ai->inl[i];

		if (!c->used && c->line == (int)insn->pos.line && c->fntype == fntype) {
			c->used = 1;
			return c->path;
		}
	}
	return NULL;
}
