// SPDX-License-Identifier: GPL-2.0
/*
 * The overview: where the campaign stands, for someone who has never
 * seen it.  Totals first, then the burn-down with its projection, then
 * every subsystem ranked by the work left in it.
 */
#include <stdio.h>
#include <time.h>
#include "report/report.h"
#include "web/web.h"

static void card(struct strbuf *sb, const char *cls, long n, const char *label, const char *href)
{
	html_addf(sb, "<div class=\"card %s\"><div class=\"n\">", cls);
	if (href)
		html_addf(sb, "<a href=\"%s\">%ld</a>", href, n);
	else
		html_addf(sb, "%ld", n);
	html_addf(sb, "</div><div class=\"l\">%s</div></div>", label);
}

static void fmt_date(time_t t, char *buf, size_t n)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%d", &tm);
}

void html_projection(struct strbuf *sb, const struct burndown *bd)
{
	char day[16], pace[64], years[32];
	long left = bd->nr ? bd->pts[bd->nr - 1].drivers : 0;

	strbuf_addstr(sb, "<p class=\"projection\">");
	if (bd->nr && !left) {
		strbuf_addstr(sb, "<b class=\"ok\">No driver is left under the BKL.</b>");
	} else if (bd->zero) {
		fmt_date(bd->zero, day, sizeof(day));
		report_pace(bd->pace, pace, sizeof(pace));
		snprintf(years, sizeof(years), "%.1f", (double)(bd->zero - time(NULL)) / (365.25 * 86400));
		html_addf(sb, "At the current pace (%s), the last driver leaves "
			  "the BKL on <b>%s</b>, in %s years.", pace, day, years);
	} else {
		strbuf_addstr(sb, "No driver has left the BKL yet: no projection.");
	}
	strbuf_addstr(sb, " <span class=\"muted\">Ingo Molnar, May 2008: \xe2\x80\x9c" "10+ years\xe2\x80\x9d "
		      "at the pace of the time.</span></p>");
}

/* The last steps anyone took: the campaign is alive, and who works on what. */
static void recent(struct strbuf *sb, const struct report *r)
{
	int i;

	strbuf_addstr(sb, "<h3>Latest steps</h3>");
	if (!r->nr_log) {
		strbuf_addstr(sb, "<p class=\"muted\">nobody has started yet: <a href=\"/pick\">be the first</a></p>");
		return;
	}
	strbuf_addstr(sb, "<table class=\"compact\"><tbody>");
	for (i = 0; i < r->nr_log; i++) {
		const struct report_event *e = &r->log[i];

		html_addf(sb, "<tr><td class=\"muted\">%s</td><td><a href=\"/driver/%u\">%s</a></td>"
			  "<td><span class=\"status %s\">%s</span></td><td>%s</td></tr>",
			  e->ts, e->driver, e->driver, e->status, e->status, e->who);
	}
	strbuf_addstr(sb, "</tbody></table>");
}

static void subsystems_table(struct strbuf *sb, const struct report *r)
{
	int i;

	strbuf_addstr(sb, "<h2>Subsystems, most work left first</h2>");
	svg_legend(sb);
	strbuf_addstr(sb, "<input class=\"filter\" data-filter=\"subs\" placeholder=\"filter subsystems\" hidden>"
		      "<table id=\"subs\" class=\"sortable\"><thead><tr><th class=\"num\">#</th>"
		      "<th>subsystem</th><th>progress</th><th class=\"num\">drivers left</th>"
		      "<th class=\"num\">sites left</th><th class=\"num\">implicit</th>"
		      "<th class=\"num\">chains</th><th class=\"num\">imbalances</th></tr></thead><tbody>");
	for (i = 0; i < r->nr_subs; i++) {
		const struct report_subsys *s = &r->subs[i];

		html_addf(sb, "<tr><td class=\"num\">%d</td><td><a href=\"/subsystem/%u\">%s</a></td>"
			  "<td class=\"bar\" data-sort=\"%ld\">", i + 1, s->name, s->name,
			  s->status[ST_DONE]);
		svg_status_bar(sb, s->status, 250);
		html_addf(sb, "</td><td class=\"num\" data-sort=\"%d\">%d / %d</td>"
			  "<td class=\"num\">%d</td><td class=\"num\">%d</td>"
			  "<td class=\"num\">%d</td><td class=\"num\">%d</td></tr>",
			  s->remaining, s->remaining, s->drivers_nr, s->sites_left,
			  s->implicit, s->chains, s->imbalances);
	}
	if (!r->nr_subs)
		strbuf_addstr(sb, "<tr><td colspan=\"8\" class=\"muted\">no drivers in the database yet</td></tr>");
	strbuf_addstr(sb, "</tbody></table>");
}

void html_overview_body(struct strbuf *sb, const struct report *r)
{
	const struct report_subsys *t = &r->total;
	long active = t->status[ST_CLAIMED] + t->status[ST_PUSHED_DOWN] + t->status[ST_AUDITED] +
		      t->status[ST_CONVERTED] + t->status[ST_TESTED];

	strbuf_addstr(sb, "<h1>Big Kernel Lock removal: where the campaign stands</h1>");
	html_addf(sb, "<p class=\"lead\">Linux %s%s%s. Every driver that still takes the BKL, "
		  "explicitly with <code>lock_kernel()</code> or implicitly through an entry point "
		  "the core calls with it held, is a row here until it is converted, tested and done.</p>",
		  r->version ? r->version : "tree", r->tree ? " at " : "", r->tree ? r->tree : "");
	if (r->missing)
		html_addf(sb, "<p class=\"note\">Not in the database yet: %s.</p>", r->missing);
	if (r->audit_note)
		html_addf(sb, "<p class=\"note audit\">Incomplete: %s.</p>", r->audit_note);
	strbuf_addstr(sb, "<div class=\"cards\">");
	card(sb, "big alert", t->remaining, "drivers still under the BKL", "/pick");
	card(sb, "good", t->status[ST_DONE], "drivers done", NULL);
	card(sb, r->nr_bugs ? "alert" : "", r->nr_bugs, "bugs found in 6.1's own code", NULL);
	card(sb, "", active, "in progress (claimed \xe2\x80\xa6 tested)", NULL);
	card(sb, "", t->status[ST_UNCLAIMED], "unclaimed", "/pick");
	card(sb, t->status[ST_BLOCKED] ? "alert" : "", t->status[ST_BLOCKED], "blocked", NULL);
	card(sb, "", t->sites_left, "lock_kernel() sites left", NULL);
	card(sb, "", t->implicit, "implicit entry points", NULL);
	/* every driver converted: the chains are the 2.6.26 sites', which the series' end removes */
	if (t->remaining || !t->drivers_nr)
		card(sb, t->chains ? "alert" : "", t->chains, "chains sleeping under the BKL", NULL);
	else
		card(sb, "", t->chains, "chains through the 2.6.26 sites (the series' end removes them)",
		     NULL);
	card(sb, t->imbalances ? "alert" : "", t->imbalances, "imbalances", NULL);
	strbuf_addstr(sb, "</div>");
	html_addf(sb, "<p class=\"reach\">How the BKL reaches them: <b>%d</b> with an entry point "
		  "of their own, <b>%d</b> following a parent's (a V4L2 driver's open through "
		  "<code>v4l2_open()</code>: it leaves with its parent); <b>%d</b> more only possibly "
		  "covered, through a call resolved by type alone, not counted.</p>",
		  t->own, t->followers, t->possibly);
	if (r->nr_bugs)
		strbuf_addstr(sb, "<h3>Bugs the audit found in 6.1's own code</h3><ul class=\"bugs\">");
	for (int i = 0; i < r->nr_bugs; i++)
		html_addf(sb, "<li><a href=\"/driver/%u\">%s</a>: %s</li>", r->bugs[i].driver,
			  r->bugs[i].driver, r->bugs[i].note);
	if (r->nr_bugs)
		strbuf_addstr(sb, "</ul>");

	strbuf_addstr(sb, "<div class=\"row2\"><div class=\"panel\"><h3>Burn-down</h3>");
	svg_burndown(sb, &r->bd);
	html_projection(sb, &r->bd);
	recent(sb, r);
	strbuf_addstr(sb, "</div><div class=\"panel\"><h3>All drivers</h3>");
	svg_status_bar(sb, t->status, 300);
	svg_legend(sb);
	strbuf_addstr(sb, "<table class=\"compact\"><tbody>");
	for (int st = 0; st < NR_STATUS; st++)
		html_addf(sb, "<tr><td><span class=\"status %s\">%s</span></td><td class=\"num\">%ld</td></tr>",
			  report_status_name[st], report_status_name[st], t->status[st]);
	html_addf(sb, "<tr><td><b>total</b></td><td class=\"num\"><b>%d</b></td></tr></tbody></table>"
		  "<p><a href=\"/pick\">Pick a driver to convert \xe2\x86\x92</a></p></div></div>",
		  t->drivers_nr);
	subsystems_table(sb, r);
}

void page_overview(struct web_req *req)
{
	struct report r;
	int ret = report_load(req->db, NULL, NULL, req->srv->tree, &r);

	if (ret) {
		web_error(req, 500, "cannot read the campaign from the database");
		return;
	}
	page_begin(req, "overview", "overview");
	html_overview_body(&req->out, &r);
	page_end(req);
	report_release(&r);
}
