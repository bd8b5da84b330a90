// SPDX-License-Identifier: GPL-2.0
/* /subsystem/NAME: its maintainers, its drivers, their status and claims. */
#include "report/report.h"
#include "web/web.h"

void html_subsystem_body(struct strbuf *sb, const struct report *r)
{
	const struct report_subsys *t = &r->total;
	int i;

	html_addf(sb, "<p class=\"muted\"><a href=\"/\">overview</a> / subsystem</p><h1>%s</h1>",
		  r->subsystem);
	strbuf_addstr(sb, "<div class=\"row2\"><div class=\"panel\"><dl class=\"facts\"><dt>maintainers</dt><dd>");
	for (i = 0; i < t->nr_maintainers; i++)
		html_addf(sb, i ? "<br>%s" : "%s", t->maintainers[i]);
	if (!t->nr_maintainers)
		strbuf_addstr(sb, "<span class=\"muted\">none listed</span>");
	html_addf(sb, "</dd><dt>list</dt><dd>%s</dd>", t->list && *t->list ? t->list : "none listed");
	html_addf(sb, "<dt>drivers</dt><dd>%d, %d still under the BKL</dd>"
		  "<dt>reach</dt><dd>%d own entry points, %d following a parent, "
		  "%d only possibly covered (not counted)</dd>"
		  "<dt>sites</dt><dd>%d explicit (%d left), %d implicit entry points</dd>"
		  "<dt>problems</dt><dd>%d chains, %d imbalances</dd></dl></div>",
		  t->drivers_nr, t->remaining, t->own, t->followers, t->possibly, t->sites,
		  t->sites_left, t->implicit, t->chains, t->imbalances);
	strbuf_addstr(sb, "<div class=\"panel\"><h3>Progress</h3>");
	svg_status_bar(sb, t->status, 300);
	svg_legend(sb);
	html_addf(sb, "<p class=\"muted\">The same as JSON: <a href=\"/api/subsystem/%u\">/api/subsystem/%s</a>; "
		  "as a mail to the maintainers: <code>bkl report --subsystem '%s' --format md</code></p></div></div>",
		  r->subsystem, r->subsystem, r->subsystem);
	html_addf(sb, "<h2>Drivers (%d)</h2>", r->nr_drivers);
	html_drivers(sb, r, 0);
	html_chains(sb, r, 1, 3);
	html_sites(sb, "Imbalances", r->imbalances, r->nr_imbalances, r->tree, 1, 1);
	html_sites(sb, "Explicit lock_kernel() sites", r->sites, r->nr_sites, r->tree, 1, 0);
	html_sites(sb, "Implicitly covered entry points", r->implicit, r->nr_implicit, r->tree, 1, 0);
	html_qemu(sb, r, 1);
}

void page_subsystem(struct web_req *req)
{
	struct report r;
	int ret = report_load(req->db, req->arg, NULL, req->srv->tree, &r);

	if (ret < 0) {
		web_error(req, 500, "cannot read the campaign from the database");
		return;
	}
	if (ret) {
		web_error(req, 404, "no such subsystem");
		return;
	}
	page_begin(req, r.subsystem, NULL);
	html_subsystem_body(&req->out, &r);
	page_end(req);
	report_release(&r);
}
