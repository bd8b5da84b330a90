// SPDX-License-Identifier: GPL-2.0
/*
 * /pick: the drivers nobody has claimed, ranked as `bkl pick` ranks them,
 * each with a claim form; POST /claim does what `bkl claim` does.  The
 * form carries a CSRF token (web/csrf.c); the answer to a good claim is a
 * redirect to the driver's page (post/redirect/get).
 */
#include <stdio.h>
#include <string.h>
#include "campaign/campaign.h"
#include "report/report.h"
#include "web/web.h"
#include "web/pick.h"

static void claim_form(struct web_req *req, const char *driver, const char *token)
{
	html_addf(&req->out, "<form class=\"claim\" method=\"post\" action=\"/claim\">"
		  "<input type=\"hidden\" name=\"csrf\" value=\"%s\">"
		  "<input type=\"hidden\" name=\"driver\" value=\"%s\">"
		  "<input type=\"text\" name=\"by\" required maxlength=\"200\" "
		  "placeholder=\"Name &lt;email&gt;\" aria-label=\"claim %s as\">"
		  "<button type=\"submit\">claim</button></form>", token, driver, driver);
}

void page_pick(struct web_req *req)
{
	struct pick_list pl;
	char token[65];
	int i;

	if (pick_load(req->db, req->srv, &pl)) {
		web_error(req, 500, "cannot rank the drivers");
		return;
	}
	strcpy(token, WEB_CSRF_MARK);	/* the server puts the visitor's in */
	page_begin(req, "pick a driver", "pick a driver");
	html_addf(&req->out, "<h1>Pick a driver</h1><p class=\"lead\">The %d drivers nobody holds, "
		  "%s. Claiming one puts your name on it for everyone (the same as "
		  "<code>bkl claim DRIVER --by \"Name &lt;email&gt;\"</code>); then push the lock down, "
		  "audit, convert and test it, and record each step.</p>", pl.nr, pl.order);
	if (pl.audit_note)
		html_addf(&req->out, "<p class=\"note audit\">Incomplete: %s. Drivers in files "
			  "not analyzed yet are not listed.</p>", pl.audit_note);
	strbuf_addstr(&req->out, "<div class=\"who\" id=\"who\" hidden><label for=\"claimer\">You:</label>"
		      "<input id=\"claimer\" type=\"text\" maxlength=\"200\" placeholder=\"Name &lt;email&gt;\">"
		      "<span class=\"muted\">fills every form below</span></div>"
		      "<input class=\"filter\" data-filter=\"picks\" placeholder=\"filter drivers\" hidden>"
		      "<table id=\"picks\" class=\"sortable\"><thead><tr><th class=\"num\">rank</th>"
		      "<th>driver</th><th>subsystem</th><th>status</th><th class=\"num\">sites</th>"
		      "<th class=\"num\">implicit</th><th class=\"num\">chains</th>"
		      "<th class=\"num\">imbalances</th><th>why this rank</th><th>claim</th></tr></thead><tbody>");
	for (i = 0; i < pl.nr; i++) {
		const struct pick *p = &pl.p[i];

		html_addf(&req->out, "<tr id=\"%s\"><td class=\"num\">%d</td>"
			  "<td><a href=\"/driver/%u\">%s</a></td><td><a href=\"/subsystem/%u\">%s</a></td>"
			  "<td><span class=\"status %s\">%s</span></td>"
			  "<td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td>"
			  "<td class=\"num\">%d</td><td class=\"muted why\">%s</td><td>",
			  p->driver, i + 1, p->driver, p->driver, p->subsystem, p->subsystem,
			  p->status, p->status, p->sites, p->implicit, p->chains, p->imbalances, p->why);
		claim_form(req, p->driver, token);
		strbuf_addstr(&req->out, "</td></tr>");
	}
	if (!pl.nr)
		strbuf_addstr(&req->out, "<tr><td colspan=\"10\" class=\"muted\">no driver is waiting for someone</td></tr>");
	strbuf_addstr(&req->out, "</tbody></table>");
	page_end(req);
	pick_release(&pl);
}

/* "Name <email>", as `bkl claim --by` checks it (campaign/campaign.c). */
static int valid_claimer(const char *who)
{
	return strlen(who) <= 200 && campaign_valid_who(who);
}

/* Same origin only, when the browser says where the form came from. */
static int same_origin(struct web_req *req)
{
	const char *origin = web_header(req, "Origin"), *host = web_header(req, "Host");
	char want[300];

	if (!origin || !strcmp(origin, "null"))
		return !origin;
	if (!host)
		return 0;
	snprintf(want, sizeof(want), "http://%s", host);
	return !strcmp(origin, want);
}

void page_claim(struct web_req *req)
{
	char token[80], driver[WEB_MAX_ARG + 1], by[256], msg[512];
	struct strbuf loc = STRBUF_INIT;
	int ret;

	if (!same_origin(req) || !form_get(req->body, "csrf", token, sizeof(token)) ||
	    !csrf_check(req, token)) {
		web_error(req, 403, "the form is stale or did not come from this dashboard: reload the page and try again");
		return;
	}
	if (!form_get(req->body, "driver", driver, sizeof(driver)) || !*driver) {
		web_error(req, 400, "which driver? the form has no driver");
		return;
	}
	if (!form_get(req->body, "by", by, sizeof(by)) || !valid_claimer(by)) {
		web_error(req, 400, "say who claims it as \"Name <email>\"");
		return;
	}
	ret = pick_claim(req->db, driver, by, msg, sizeof(msg));
	if (ret) {
		web_error(req, ret, msg);
		return;
	}
	req->status = 303;
	html_addf(&loc, "/driver/%u", driver);	/* %-encoded: nothing to inject */
	snprintf(req->location, sizeof(req->location), "%s", loc.buf);
	strbuf_release(&loc);
	page_begin(req, "claimed", NULL);
	html_addf(&req->out, "<p>%s is yours: <a href=\"/driver/%u\">continue</a>.</p>", driver, driver);
	page_end(req);
}
