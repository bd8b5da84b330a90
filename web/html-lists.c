// SPDX-License-Identifier: GPL-2.0
/*
 * The lists a subsystem and a driver page share with the HTML report:
 * drivers, sites, imbalances, chains with the source of each step, QEMU
 * results.  Every reference is file:line, as a compiler prints it.
 */
#include <stdio.h>
#include <string.h>
#include "report/report.h"
#include "web/web.h"

struct src_ctx {
	struct strbuf *sb;
	int lines;
};

static int src_line(int no, const char *text, int hit, void *data)
{
	struct src_ctx *c = data;

	html_addf(c->sb, hit ? "<span class=\"hit\"><i>%d</i>%s</span>" : "<span><i>%d</i>%s</span>", no, text);
	c->lines++;
	return 0;
}

/* A few lines of tree/file around line; nothing when it cannot be read. */
void html_source(struct strbuf *sb, const char *tree, const char *file, int line, int ctx)
{
	struct src_ctx c = { sb, 0 };
	size_t mark = sb->len;

	if (!tree || !file || line <= 0)
		return;
	strbuf_addstr(sb, "<pre class=\"src\">");
	if (report_source(tree, file, line, ctx, src_line, &c) || !c.lines) {
		sb->len = mark;		/* drop the empty <pre> */
		sb->buf[mark] = '\0';
		return;
	}
	strbuf_addstr(sb, "</pre>");
}

static void where(struct strbuf *sb, const char *file, int line)
{
	html_addf(sb, "<code>%s:%d:</code>", file ? file : "?", line);
}

/* own; follows PARENT (linked); possibly, with the by-type calls as a title */
static void html_reach(struct strbuf *sb, const struct report_driver *d)
{
	const char *p = d->follows;

	if (!d->cover || !strcmp(d->cover, "own")) {
		html_addf(sb, "<td>%s</td>", d->cover ? d->cover : "");
		return;
	}
	if (strcmp(d->cover, "follows") || !p) {
		html_addf(sb, "<td title=\"%s\">possibly</td>", d->via ? d->via : "");
		return;
	}
	strbuf_addstr(sb, "<td>follows ");
	while (*p) {
		size_t n = strcspn(p, ";");
		char *name = strndup(p, n);

		html_addf(sb, "<a href=\"/driver/%u\">%s</a>", name, name);
		free(name);
		p += n;
		while (*p == ';' || *p == ' ')
			p++;
		if (*p)
			strbuf_addstr(sb, ", ");
	}
	strbuf_addstr(sb, "</td>");
}

void html_drivers(struct strbuf *sb, const struct report *r, int with_subsystem)
{
	int i;

	strbuf_addstr(sb, "<input class=\"filter\" data-filter=\"drivers\" placeholder=\"filter drivers\" hidden>"
		      "<table id=\"drivers\" class=\"sortable\"><thead><tr><th>driver</th>");
	if (with_subsystem)
		strbuf_addstr(sb, "<th>subsystem</th>");
	strbuf_addstr(sb, "<th>status</th><th>reach</th><th>claimed by</th><th>since</th><th class=\"num\">sites</th>"
		      "<th class=\"num\">implicit</th><th class=\"num\">chains</th>"
		      "<th class=\"num\">imbalances</th></tr></thead><tbody>");
	for (i = 0; i < r->nr_drivers; i++) {
		const struct report_driver *d = &r->drivers[i];

		html_addf(sb, "<tr><td><a href=\"/driver/%u\">%s</a></td>", d->name, d->name);
		if (with_subsystem)
			html_addf(sb, "<td><a href=\"/subsystem/%u\">%s</a></td>", d->subsystem, d->subsystem);
		html_addf(sb, "<td data-sort=\"%d\"><span class=\"status %s\">%s</span></td>",
			  report_status_parse(d->status), d->status, d->status);
		html_reach(sb, d);
		html_addf(sb, "<td>%s</td><td>%s</td><td class=\"num\">%d</td><td class=\"num\">%d</td>"
			  "<td class=\"num\">%d</td><td class=\"num\">%d</td></tr>",
			  d->claimed_by ? d->claimed_by : "", d->since ? d->since : "",
			  d->sites, d->implicit, d->chains, d->imbalances);
	}
	if (!r->nr_drivers)
		strbuf_addstr(sb, "<tr><td colspan=\"10\" class=\"muted\">none</td></tr>");
	strbuf_addstr(sb, "</tbody></table>");
}

void html_sites(struct strbuf *sb, const char *title, const struct report_site *s, int n,
		const char *tree, int show_driver, int excerpt)
{
	int i;

	html_addf(sb, "<h2>%s (%d)</h2>", title, n);
	if (!n) {
		strbuf_addstr(sb, "<p class=\"muted\">none</p>");
		return;
	}
	strbuf_addstr(sb, "<table><thead><tr><th>where</th><th>function</th><th>kind</th>");
	if (show_driver)
		strbuf_addstr(sb, "<th>driver</th>");
	strbuf_addstr(sb, "</tr></thead><tbody>");
	for (i = 0; i < n; i++) {
		strbuf_addstr(sb, "<tr><td>");
		where(sb, s[i].file, s[i].line);
		if (excerpt) {
			strbuf_addstr(sb, "<details><summary class=\"muted\">source</summary>");
			html_source(sb, tree, s[i].file, s[i].line, 2);
			strbuf_addstr(sb, "</details>");
		}
		html_addf(sb, "</td><td><code>%s</code></td><td><span class=\"kind %s\">%s</span>%s%s</td>",
			  s[i].function, s[i].kind, s[i].kind, s[i].note ? " " : "",
			  s[i].note ? s[i].note : "");
		if (show_driver)
			html_addf(sb, "<td><a href=\"/driver/%u\">%s</a></td>", s[i].driver, s[i].driver);
		strbuf_addstr(sb, "</tr>");
	}
	strbuf_addstr(sb, "</tbody></table>");
}

/* The first `open` chains (the ones to look at first) show their source; the others fold. */
void html_chains(struct strbuf *sb, const struct report *r, int show_driver, int open)
{
	int i, j;

	html_addf(sb, "<h2>Chains that sleep with the BKL held (%d)</h2>", r->nr_chains);
	if (!r->nr_chains) {
		strbuf_addstr(sb, "<p class=\"muted\">none</p>");
		return;
	}
	strbuf_addstr(sb, "<p class=\"muted\"><span class=\"kind deadlock\">deadlock</span> chains "
		      "wait, with the BKL held, for work whose handler takes it; "
		      "<span class=\"kind wait\">wait</span> chains rely on "
		      "schedule() dropping the BKL (they deadlock once it is a mutex); "
		      "<span class=\"kind sleep\">sleep</span> chains only hold it longer. Shortest first.</p>");
	for (i = 0; i < r->nr_chains; i++) {
		const struct report_chain *c = &r->chains[i];

		strbuf_addstr(sb, i < open ? "<details class=\"chain\" open><summary>" :
			      "<details class=\"chain\"><summary>");
		where(sb, c->file, c->line);
		html_addf(sb, " <code>%s</code> <span class=\"kind %s\">%s</span>", c->function,
			  c->class, c->class);
		if (show_driver && c->driver)
			html_addf(sb, " in <a href=\"/driver/%u\">%s</a>", c->driver, c->driver);
		strbuf_addstr(sb, "<span class=\"path\">");
		for (j = 0; j < c->nr_steps; j++)
			html_addf(sb, j ? "<span class=\"arrow\">\xe2\x86\x92</span><code>%s</code>" : "<code>%s</code>",
				  c->steps[j].function);
		if (!c->nr_steps)
			html_addf(sb, "<code>%s</code>", c->path);
		strbuf_addstr(sb, "</span></summary>");
		for (j = 0; j < c->nr_steps; j++) {
			const struct report_step *st = &c->steps[j];

			if (!st->file)
				continue;
			strbuf_addstr(sb, "<div class=\"step\"><div class=\"where\">");
			where(sb, st->file, st->line);
			html_addf(sb, " <code>%s</code></div>", st->function);
			html_source(sb, r->tree, st->file, st->line, 1);
			strbuf_addstr(sb, "</div>");
		}
		strbuf_addstr(sb, "</details>");
	}
}

void html_qemu(struct strbuf *sb, const struct report *r, int show_driver)
{
	int i;

	html_addf(sb, "<h2>QEMU results (%d)</h2>", r->nr_qemu);
	if (!r->nr_qemu) {
		int tested = 0;

		/* until bkl qemu records per driver: the campaign's "tested" steps */
		for (i = 0; i < r->nr_log; i++) {
			const struct report_event *e = &r->log[i];

			if (!r->driver || !e->status || strcmp(e->status, "tested"))
				continue;
			html_addf(sb, "<p>Recorded as tested on %s by %s%s%s</p>", e->ts, e->who,
				  e->note && *e->note ? ": " : "", e->note);
			tested++;
		}
		if (!tested)
			strbuf_addstr(sb, "<p class=\"muted\">not booted yet</p>");
		return;
	}
	strbuf_addstr(sb, "<table><thead><tr>");
	if (show_driver)
		strbuf_addstr(sb, "<th>driver</th>");
	strbuf_addstr(sb, "<th>when</th><th>phase</th><th>result</th><th>log</th></tr></thead><tbody>");
	for (i = 0; i < r->nr_qemu; i++) {
		const struct report_qemu *q = &r->qemu[i];
		int pass = q->result && !strcmp(q->result, "pass");

		strbuf_addstr(sb, "<tr>");
		if (show_driver)
			html_addf(sb, "<td><a href=\"/driver/%u\">%s</a></td>", q->driver, q->driver);
		html_addf(sb, "<td>%s</td><td>%s</td><td><span class=\"%s\">%s</span></td><td>",
			  q->at, q->phase ? q->phase : "", pass ? "ok" : "error", q->result);
		if (q->log)
			html_addf(sb, "<code>%s</code>", q->log);
		if (q->detail && *q->detail)
			html_addf(sb, "<details><summary class=\"muted\">console</summary>"
				  "<pre class=\"doc\">%s</pre></details>", q->detail);
		strbuf_addstr(sb, "</td></tr>");
	}
	strbuf_addstr(sb, "</tbody></table>");
}
