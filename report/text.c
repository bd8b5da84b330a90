// SPDX-License-Identifier: GPL-2.0
/*
 * `bkl report` as text for a terminal and as Markdown for a mail to the
 * maintainers.  References are "file:line:", as compilers print them, so
 * editors jump to them; the Markdown stays readable as plain text.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "report/report.h"

static const char *plural(long n)
{
	return n == 1 ? "" : "s";
}

struct out {
	struct strbuf *sb;
	int md;
	const char *tree;
};

/*
 * A string from the DB, the log or MAINTAINERS, quoted for where the
 * report goes (Markdown, or a terminal and a plain-text mail); valid
 * until eight more calls (lib/quote.c's buffers).
 */
static const char *q(const struct out *o, const char *s)
{
	return o->md ? mdq(s) : tq(s);
}

static void heading(struct out *o, int level, const char *title)
{
	size_t i;

	if (o->md) {
		strbuf_addf(o->sb, "\n%.*s %s\n\n", level, "####", title);
		return;
	}
	strbuf_addf(o->sb, "\n%s\n", title);
	if (level <= 2) {
		for (i = 0; i < strlen(title); i++)
			strbuf_addstr(o->sb, level == 1 ? "=" : "-");
		strbuf_addstr(o->sb, "\n");
	}
}

static void status_counts(struct out *o, const struct report_subsys *s)
{
	int st, first = 1;

	for (st = ST_DONE; st >= 0; st--) {
		if (!s->status[st])
			continue;
		strbuf_addf(o->sb, "%s%s %ld", first ? "" : ", ", report_status_name[st], s->status[st]);
		first = 0;
	}
	if (s->status[ST_BLOCKED])
		strbuf_addf(o->sb, "%sblocked %ld", first ? "" : ", ", s->status[ST_BLOCKED]);
}

static void projection(struct out *o, const struct burndown *bd)
{
	char day[16], pace[64];

	strbuf_addf(o->sb, "%sburn-down:%s ", o->md ? "- **" : "", o->md ? "**" : "");
	if (!bd->nr) {
		strbuf_addstr(o->sb, "no status history yet");
	} else if (!bd->pts[bd->nr - 1].drivers) {
		int i = bd->nr - 1;

		while (i > 0 && !bd->pts[i - 1].drivers)	/* when it reached 0 */
			i--;
		strftime(day, sizeof(day), "%Y-%m-%d", gmtime(&bd->pts[i].t));
		strbuf_addf(o->sb, "0 drivers left; the last one left the BKL on %s", day);
	} else if (bd->zero) {
		strftime(day, sizeof(day), "%Y-%m-%d", gmtime(&bd->zero));
		report_pace(bd->pace, pace, sizeof(pace));
		strbuf_addf(o->sb, "%s; at this pace the last one leaves the BKL on %s", pace, day);
	} else {
		strbuf_addstr(o->sb, "no driver has left the BKL yet, no projection");
	}
	strbuf_addstr(o->sb, " (Molnar, 2008: \"10+ years\")\n");
}

static void summary(struct out *o, const struct report *r)
{
	const struct report_subsys *t = &r->total;
	const char *b = o->md ? "- **" : "", *e = o->md ? "**" : "";
	int i;

	strbuf_addf(o->sb, "%sdrivers:%s %d, %d still under the BKL (", b, e, t->drivers_nr, t->remaining);
	status_counts(o, t);
	strbuf_addf(o->sb, ")\n%sreach:%s %d with an entry point of their own, %d following a parent's",
		    b, e, t->own, t->followers);
	if (t->possibly)
		strbuf_addf(o->sb, "; %d more only possibly covered (through a by-type edge alone), "
			    "not counted", t->possibly);
	strbuf_addf(o->sb, "\n%sbugs found in the tree:%s %d", b, e, r->nr_bugs);
	for (i = 0; i < r->nr_bugs; i++)
		strbuf_addf(o->sb, "%s%s", i ? ", " : " (", q(o, r->bugs[i].driver));
	strbuf_addf(o->sb, "%s\n%ssites:%s", r->nr_bugs ? ")" : "", b, e);
	strbuf_addf(o->sb, " %d explicit lock_kernel()/unlock_kernel() (%d left), "
		    "%d implicit entry point%s", t->sites, t->sites_left, t->implicit, plural(t->implicit));
	if (!r->subsystem && !r->driver)
		strbuf_addf(o->sb, "; %d more explicit in core code", t->core_sites);
	strbuf_addf(o->sb, "\n%sproblems:%s %d chain%s sleeping under the BKL, ", b, e, t->chains,
		    plural(t->chains));
	/* every driver converted: only the 2.6.26 sites the series' end removes hold it */
	if (t->chains && !t->remaining && t->drivers_nr)
		strbuf_addstr(o->sb, "all through the 2.6.26 sites of the tree the campaign "
			      "audits (the series' end removes them), ");
	if (t->deadlocks)
		strbuf_addf(o->sb, "%d of them deadlock%s (a wait for work that takes it), ",
			    t->deadlocks, plural(t->deadlocks));
	strbuf_addf(o->sb, "%d imbalance%s\n", t->imbalances, plural(t->imbalances));
	if (!r->subsystem && !r->driver)
		projection(o, &r->bd);
	if (r->missing)
		strbuf_addf(o->sb, "%snot in the database yet:%s %s\n", b, e, r->missing);
	if (r->audit_note)
		strbuf_addf(o->sb, "%sincomplete:%s %s\n", b, e, r->audit_note);
	if (r->subsystem || r->driver)
		return;
	heading(o, 2, "Subsystems by remaining work");
	if (o->md)
		strbuf_addstr(o->sb, "| # | subsystem | drivers left | sites left | implicit | chains | imbalances |\n"
			      "|--:|---|--:|--:|--:|--:|--:|\n");
	else
		strbuf_addf(o->sb, "%4s  %-11s %10s %8s %6s %5s  %s\n", "#", "left/total",
			    "sites left", "implicit", "chains", "imbal", "subsystem");
	for (i = 0; i < r->nr_subs; i++) {
		const struct report_subsys *s = &r->subs[i];
		char left[32];

		snprintf(left, sizeof(left), "%d/%d", s->remaining, s->drivers_nr);
		if (o->md)
			strbuf_addf(o->sb, "| %d | %s | %s | %d | %d | %d | %d |\n", i + 1, q(o, s->name), left,
				    s->sites_left, s->implicit, s->chains, s->imbalances);
		else
			strbuf_addf(o->sb, "%4d  %-11s %10d %8d %6d %5d  %s\n", i + 1, left,
				    s->sites_left, s->implicit, s->chains, s->imbalances, q(o, s->name));
	}
	if (!r->nr_subs)
		strbuf_addstr(o->sb, "(no drivers in the database yet: see 'bkl help')\n");
}

static void drivers(struct out *o, const struct report *r)
{
	int i;

	heading(o, 2, "Drivers");
	if (o->md)
		strbuf_addstr(o->sb, "| driver | status | reach | claimed by | sites | implicit | chains | imbalances |\n"
			      "|---|---|---|---|--:|--:|--:|--:|\n");
	for (i = 0; i < r->nr_drivers; i++) {
		const struct report_driver *d = &r->drivers[i];
		const char *by = q(o, d->claimed_by ? d->claimed_by : "-");

		const char *cover = d->cover ? d->cover : "-";

		if (o->md)
			strbuf_addf(o->sb, "| %s | %s | %s | %s | %d | %d | %d | %d |\n", q(o, d->name), d->status,
				    cover, by, d->sites, d->implicit, d->chains, d->imbalances);
		else
			strbuf_addf(o->sb, "  %-20s %-12s %-8s %3d sites %3d implicit %3d chains %3d imbalances  %s\n",
				    q(o, d->name), d->status, cover, d->sites, d->implicit, d->chains,
				    d->imbalances, by);
	}
}

struct src_ctx {
	struct out *o;
	const char *indent;
};

static int src_line(int no, const char *text, int hit, void *data)
{
	struct src_ctx *c = data;

	strbuf_addf(c->o->sb, "%s%c%5d\t%s\n", c->indent, hit ? '>' : ' ', no, text);
	return 0;
}

static void source(struct out *o, const char *file, int line, int ctx, const char *indent)
{
	struct src_ctx c = { o, indent };

	if (o->md)
		strbuf_addf(o->sb, "%s```\n", indent);
	if (report_source(o->tree, file, line, ctx, src_line, &c))
		strbuf_addf(o->sb, "%s  (source not available)\n", indent);
	if (o->md)
		strbuf_addf(o->sb, "%s```\n", indent);
}

static void sites(struct out *o, const char *title, const struct report_site *s, int n,
		  int show_driver, int excerpt)
{
	char t[128];
	int i;

	snprintf(t, sizeof(t), "%s (%d)", title, n);
	heading(o, 2, t);
	if (!n)
		strbuf_addstr(o->sb, o->md ? "None.\n" : "  none\n");
	for (i = 0; i < n; i++) {
		if (o->md)
			strbuf_addf(o->sb, "- `%s:%d:` `%s` %s", s[i].file, s[i].line, s[i].function, s[i].kind);
		else
			strbuf_addf(o->sb, "  %s:%d: %s: %s", s[i].file, s[i].line, s[i].function, s[i].kind);
		if (s[i].note)
			strbuf_addf(o->sb, " (%s)", q(o, s[i].note));
		if (show_driver && s[i].driver)
			strbuf_addf(o->sb, " [%s]", q(o, s[i].driver));
		strbuf_addstr(o->sb, "\n");
		if (excerpt) {
			if (o->md)
				strbuf_addstr(o->sb, "\n");
			source(o, s[i].file, s[i].line, 2, "    ");
			if (o->md)
				strbuf_addstr(o->sb, "\n");
		}
	}
}

static void chains(struct out *o, const struct report *r, int show_driver)
{
	char t[128];
	int i, j;

	snprintf(t, sizeof(t), "Chains that sleep with the BKL held (%d), wait before sleep, shortest first",
		 r->nr_chains);
	heading(o, 2, t);
	if (!r->nr_chains)
		strbuf_addstr(o->sb, o->md ? "None.\n" : "  none\n");
	for (i = 0; i < r->nr_chains; i++) {
		const struct report_chain *c = &r->chains[i];

		strbuf_addf(o->sb, o->md ? "%d. `%s:%d:` `%s` **%s**" : "  %d. %s:%d: %s: %s",
			    i + 1, c->file, c->line, c->function, c->class);
		if (show_driver && c->driver)
			strbuf_addf(o->sb, " [%s]", q(o, c->driver));
		strbuf_addstr(o->sb, o->md ? "\n\n    " : "\n     ");
		for (j = 0; j < c->nr_steps; j++)
			strbuf_addf(o->sb, o->md ? "%s`%s`" : "%s%s", j ? " -> " : "", c->steps[j].function);
		if (!c->nr_steps && c->path)
			strbuf_addstr(o->sb, c->path);
		strbuf_addstr(o->sb, "\n");
		for (j = 0; j < c->nr_steps; j++) {
			const struct report_step *st = &c->steps[j];

			if (!st->file)
				continue;
			strbuf_addf(o->sb, o->md ? "\n    `%s:%d:` `%s`\n\n" : "     %s:%d: %s\n",
				    st->file, st->line, st->function);
			source(o, st->file, st->line, 1, o->md ? "    " : "     ");
		}
		if (o->md)
			strbuf_addstr(o->sb, "\n");
	}
}

static void qemu(struct out *o, const struct report *r)
{
	char t[64];
	int i;

	snprintf(t, sizeof(t), "QEMU results (%d)", r->nr_qemu);
	heading(o, 2, t);
	if (!r->nr_qemu)
		strbuf_addstr(o->sb, o->md ? "Not booted yet.\n" : "  not booted yet\n");
	for (i = 0; i < r->nr_qemu; i++) {
		const struct report_qemu *res = &r->qemu[i];

		strbuf_addf(o->sb, "%s%s (%s): %s at %s%s%s\n", o->md ? "- " : "  ", q(o, res->driver),
			    res->phase ? res->phase : "?", res->result ? res->result : "?",
			    res->at ? res->at : "?", res->log ? ", log " : "", res->log ? q(o, res->log) : "");
	}
}

/* "reach: follows videodev (v4l2_open -> v4l2_file_operations.open (by-type))" */
static void reach(struct out *o, const struct report_driver *d)
{
	const char *b = o->md ? "- **" : "", *e = o->md ? "**" : "";

	if (!d->cover)
		return;
	strbuf_addf(o->sb, "%sreach:%s %s", b, e, !strcmp(d->cover, "own") ?
		    "an entry point of its own" : d->cover);
	if (d->follows && *d->follows)
		strbuf_addf(o->sb, " %s", q(o, d->follows));
	if (d->via && *d->via)
		strbuf_addf(o->sb, " (%s)", q(o, d->via));
	strbuf_addstr(o->sb, "\n");
}

static void scope_header(struct out *o, const struct report *r)
{
	const struct report_subsys *t = &r->total;
	const char *b = o->md ? "- **" : "", *e = o->md ? "**" : "";
	int i;

	if (r->driver && r->nr_drivers) {
		const struct report_driver *d = &r->drivers[0];

		strbuf_addf(o->sb, "%ssubsystem:%s %s\n%sstatus:%s %s%s%s\n%smodule:%s %s (%s)\n%sfiles:%s",
			    b, e, q(o, d->subsystem), b, e, d->status, d->claimed_by ? ", claimed by " : "",
			    d->claimed_by ? q(o, d->claimed_by) : "", b, e, d->module ? d->module : "?",
			    d->config ? d->config : "?", b, e);
		for (i = 0; i < d->nr_files; i++)
			strbuf_addf(o->sb, " %s", d->files[i]);
		strbuf_addstr(o->sb, "\n");
		reach(o, d);
		return;
	}
	strbuf_addf(o->sb, "%smaintainers:%s ", b, e);
	for (i = 0; i < t->nr_maintainers; i++)
		strbuf_addf(o->sb, "%s%s", i ? ", " : "", q(o, t->maintainers[i]));
	strbuf_addf(o->sb, "%s\n%slist:%s %s\n", t->nr_maintainers ? "" : "none listed",
		    b, e, t->list && *t->list ? q(o, t->list) : "none listed");
}

void report_text(struct strbuf *sb, const struct report *r, int md)
{
	struct out o = { sb, md, r->tree };
	const char *scope = r->driver ? r->driver : r->subsystem;
	char title[512];

	if (scope)
		snprintf(title, sizeof(title), "BKL report: %s", q(&o, scope));
	else
		snprintf(title, sizeof(title), "BKL report: Linux %s", r->version ? r->version : "tree");
	if (md)
		strbuf_addf(sb, "# %s\n\n", title);
	else
		strbuf_addf(sb, "%s\n", title);
	strbuf_addf(sb, "Generated by bkl-audit on %s", r->generated);
	if (r->tree)
		strbuf_addf(sb, md ? " from the tree at `%s`" : " from the tree at %s", r->tree);
	strbuf_addstr(sb, ".\n\n");
	if (scope)
		scope_header(&o, r);
	summary(&o, r);
	if (!scope)
		return;
	if (r->subsystem)
		drivers(&o, r);
	chains(&o, r, !r->driver);
	sites(&o, "Imbalances", r->imbalances, r->nr_imbalances, !r->driver, 1);
	sites(&o, "Explicit lock_kernel() sites", r->sites, r->nr_sites, !r->driver, !!r->driver);
	sites(&o, "Implicitly covered entry points", r->implicit, r->nr_implicit, !r->driver, 0);
	qemu(&o, r);
}
