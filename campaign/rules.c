// SPDX-License-Identifier: GPL-2.0
/*
 * What an audit's facts decide on their own.  A rule proposes a verdict
 * only where the facts leave nothing to weigh, and says which facts; a
 * person confirms it (bkl audit-record --confirm --by).  Where no rule
 * decides, the proposal says what is left to check by reading the code.
 *
 *   empty-open   every entry point does nothing a lock could protect
 *                (returns, or only calls nonseekable_open() and the
 *                like), and nothing the file operations read is set
 *                after a registration: "none"
 *   protected    the entry points, and the driver's functions they call,
 *                write no state without a protection of its own: each
 *                write is under the driver's lock, atomic, behind the
 *                open's own single-opener claim, or into this open's file
 *                or an object it allocated (campaign/writes.c);
 *                what they read is not set after the registration: "none".
 *                The BKL serialized the entry points against each other
 *                only, so that is all it protected
 *   init-order   the device is registered before something the file
 *                operations read is set: "init-order", to be confirmed
 *                against the code (the race exists without the BKL too)
 */
#include <stdlib.h>
#include <string.h>
#include "campaign/rules.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* A write no second open can race: behind an atomic single-opener claim. */
#define W_GUARDED (W_OWN + 1)

struct wref {
	const struct awrite *w;
	const char *lock;	/* the lock a caller held around the call, or NULL */
	const char *file;
	int kind;		/* the write's protection, with its callers' (W_*) */
};

struct wlist {
	struct wref *v;
	int nr, alloc;
	const char *claim;	/* the bit an entry point claims first, or NULL */
};

/*
 * W_PLAIN writes under a caller's lock are locked writes; behind an entry
 * point's single-opener claim (its first write: test_and_set_bit() of a
 * file-scope bit, watchdog style), no second open runs beside them, and
 * opens racing opens was all the BKL stopped.
 */
static int write_kind(const struct awrite *w, const char *lock, int guarded)
{
	if (w->kind == W_PLAIN && guarded)
		return W_GUARDED;
	return w->kind == W_PLAIN && lock ? W_LOCKED : w->kind;
}

/*
 * The state f and the driver's functions it calls write (into wl) and
 * read (used); lock: held by a caller around the call to f.
 */
static void touched(const struct audit *a, const struct afunc *f, const char *lock, int guarded,
		    char *seen_f, char *used, struct wlist *wl)
{
	int k, j;

	seen_f[f - a->f] = 1;
	for (k = 0; k < f->nr_u; k++)	/* 1: read, 2: written */
		used[f->u[k].g] |= f->u[k].write ? 2 : 1;
	for (k = 0; k < f->nr_w; k++) {
		ALLOC_GROW(wl->v, wl->nr, wl->alloc);
		wl->v[wl->nr++] = (struct wref){ &f->w[k], lock, f->file,
			write_kind(&f->w[k], lock, guarded && (k > 0 || f->w[0].kind != W_ATOMIC)) };
	}
	for (k = 0; k < f->nr_calls; k++) {
		const struct afunc *callee = audit_func(a, f->calls[k]);
		const char *held = lock;

		if (!callee || seen_f[callee - a->f])
			continue;
		for (j = 0; !held && j < f->nr_locked_calls; j++)
			if (!strcmp(f->locked_calls[j], f->calls[k]))
				held = "a lock its caller holds";
		touched(a, callee, held, guarded, seen_f, used, wl);
	}
}

/* f's first write is an atomic claim of a file-scope bit: its name, or NULL. */
static const char *single_open_claim(const struct audit *a, const struct afunc *f)
{
	int k;

	if (!f->nr_w || f->w[0].kind != W_ATOMIC || f->w[0].io)
		return NULL;
	for (k = 0; k < f->nr_u; k++)
		if (!strcmp(a->g[f->u[k].g].name, f->w[0].what))
			return f->w[0].what;
	return NULL;
}

static void entries(struct strbuf *sb, const struct audit *a)
{
	int i, n = 0;

	for (i = 0; i < a->nr_f; i++)
		if (a->f[i].is_entry)
			strbuf_addf(sb, "%s`%s()` (%s:%d)", n++ ? ", " : "", a->f[i].name,
				    a->f[i].file, a->f[i].line);
}

static void registrations(struct strbuf *sb, const struct audit *a)
{
	int i;

	for (i = 0; i < a->nr_regs; i++)
		strbuf_addf(sb, "%s%s", i ? "; " : "", a->regs[i]);
}

static int rule_init_order(const struct audit *a, struct proposal *p)
{
	const struct afinding *r = &a->rbi[0];

	p->rule = "init-order";
	p->verdict = V_INIT_ORDER;
	strbuf_addf(&p->why, "%s() at %s:%d makes the device reachable before `%s` is %s "
		    "(line %d), which the file operations read: an open() in between sees it "
		    "unset, with or without the BKL.", r->reg_call, r->file, r->reg_line, r->var,
		    r->how, r->init_line);
	strbuf_addstr(&p->left, "whether the file operations can run in that window "
		      "(the registration publishes the device node at once), and the fix: "
		      "initialize first, register last");
	return 0;
}

static int rule_empty(const struct cdriver *d, const struct audit *a, struct proposal *p)
{
	p->rule = "empty-open";
	p->verdict = V_NONE;
	entries(&p->why, a);
	strbuf_addstr(&p->why, " do nothing a lock could protect: each only returns, or calls "
		      "nonseekable_open()/stream_open()/simple_open(), which touch only the file.");
	if (a->nr_regs) {
		strbuf_addstr(&p->why, " Nothing the file operations read is set after the "
			      "registration (");
		registrations(&p->why, a);
		strbuf_addstr(&p->why, ").");
	}
	strbuf_addstr(&p->why, " The BKL serialized nothing here.");
	return 0;
}

/* "`x` under m (f.c:12), `y` atomically (f.c:14)" for the writes of kind. */
static int list_writes(struct strbuf *sb, const struct wlist *wl, int kind, int max)
{
	int i, n = 0;

	for (i = 0; i < wl->nr; i++) {
		const struct awrite *w = wl->v[i].w;

		if (wl->v[i].kind != kind)
			continue;
		if (n++ >= max)
			continue;
		strbuf_addf(sb, "%s`%s` (%s:%d)", n > 1 ? ", " : "", w->what, wl->v[i].file, w->line);
		if (kind == W_LOCKED)
			strbuf_addf(sb, " under `%s`", w->lock ? w->lock : wl->v[i].lock);
	}
	if (n > max)
		strbuf_addf(sb, " and %d more", n - max);
	return n;
}

static void list_reads(struct strbuf *sb, const struct audit *a, const char *used)
{
	int g, n = 0;

	for (g = 0; g < a->nr_g; g++)
		if (used[g] == 1 && !audit_sync_type(a->g[g].type) && n++ < 8)
			strbuf_addf(sb, "%s`%s`", n > 1 ? ", " : "", a->g[g].name);
	if (n > 8)
		strbuf_addf(sb, " and %d more", n - 8);
}

static int rule_protected(const struct audit *a, const struct wlist *wl, const char *used,
			  struct proposal *p)
{
	struct strbuf r = STRBUF_INIT;

	p->rule = "protected";
	p->verdict = V_NONE;
	strbuf_addstr(&p->why, "The BKL serialized ");
	entries(&p->why, a);
	strbuf_addstr(&p->why, " against each other, and nothing else.  What they (and the "
		      "driver's functions they call) write is protected without it:");
	if (list_writes(&r, wl, W_LOCKED, 8))
		strbuf_addf(&p->why, " under the driver's own locks %s;", r.buf);
	strbuf_reset(&r);
	if (list_writes(&r, wl, W_ATOMIC, 8))
		strbuf_addf(&p->why, " atomically %s;", r.buf);
	strbuf_reset(&r);
	if (list_writes(&r, wl, W_GUARDED, 8))
		strbuf_addf(&p->why, " behind the single-opener claim of `%s`, with no second open "
			    "beside them, %s;", wl->claim, r.buf);
	strbuf_reset(&r);
	if (list_writes(&r, wl, W_OWN, 8))
		strbuf_addf(&p->why, " this open's own file or objects it allocated %s;", r.buf);
	if (!wl->nr)
		strbuf_addstr(&p->why, " they write no state;");
	strbuf_reset(&r);
	list_reads(&r, a, used);
	if (r.len) {
		strbuf_addf(&p->why, " they read %s, not set after the registration (", r.buf);
		registrations(&p->why, a);
		strbuf_addstr(&p->why, ");");
	}
	p->why.buf[p->why.len - 1] = '.';	/* the last clause's ';' */
	strbuf_release(&r);
	return 0;
}

/* No rule: the writes with no protection of their own, to read the code for. */
static void undecided(const struct audit *a, const struct wlist *wl, struct proposal *p)
{
	p->rule = NULL;
	p->verdict = -1;
	if (list_writes(&p->left, wl, W_PLAIN, 6))
		strbuf_addstr(&p->left, ", written by the entry points with no lock of the "
			      "driver's held: what protects each besides the BKL (another "
			      "lock, the device's refcount, a single opener)");
	else if (!a->nr_regs)
		strbuf_addstr(&p->left, "where the device is registered (no registration call "
			      "in the driver's files): whether its open can run before the "
			      "driver is initialized");
	else
		strbuf_addstr(&p->left, "the entry points, which no rule reads");
}

int audit_propose(const struct cdriver *d, const struct audit *a, struct proposal *p)
{
	char *seen_f = calloc(a->nr_f + 1, 1), *used = calloc(a->nr_g + 1, 1);
	struct wlist wl = { 0 };
	int i, g, nr_entry = 0, empty = 1, plain = 0, reads = 0;
	const char *claim;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < a->nr_f; i++) {
		if (!a->f[i].is_entry)
			continue;
		nr_entry++;
		empty &= a->f[i].empty;
		claim = single_open_claim(a, &a->f[i]);
		if (claim)
			wl.claim = claim;
		touched(a, &a->f[i], NULL, claim != NULL, seen_f, used, &wl);
	}
	for (i = 0; i < wl.nr; i++)
		plain += wl.v[i].kind == W_PLAIN;
	for (g = 0; g < a->nr_g; g++)
		reads += used[g] == 1 && !audit_sync_type(a->g[g].type);
	if (!nr_entry)
		undecided(a, &wl, p);
	else if (a->nr_rbi)
		rule_init_order(a, p);
	else if (empty)
		rule_empty(d, a, p);
	else if (!plain && (a->nr_regs || !reads))
		rule_protected(a, &wl, used, p);
	else
		undecided(a, &wl, p);
	free(seen_f);
	free(used);
	free(wl.v);
	return p->verdict;
}

void proposal_release(struct proposal *p)
{
	strbuf_release(&p->why);
	strbuf_release(&p->left);
}
