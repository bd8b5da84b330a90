// SPDX-License-Identifier: GPL-2.0
/*
 * /api/...: the JSON the CLI prints with --json / --format json, for
 * scripts and for the page's JavaScript.  Read-only; claims go through
 * the form (POST /claim, with its CSRF token).
 */
#include "lib/quote.h"
#include "report/report.h"
#include "web/web.h"

static void json_error(struct web_req *req, int status, const char *msg)
{
	strbuf_reset(&req->out);
	req->status = status;
	req->ctype = "application/json";
	strbuf_addstr(&req->out, "{\"error\": ");
	json_str_or_null(&req->out, msg);
	strbuf_addstr(&req->out, "}\n");
}

static void scoped_report(struct web_req *req, const char *sub, const char *drv)
{
	struct report r;
	int ret = report_load(req->db, sub, drv, req->srv->tree, &r);

	if (ret < 0) {
		json_error(req, 500, "cannot read the campaign from the database");
		return;
	}
	if (ret) {
		json_error(req, 404, sub ? "no such subsystem" : "no such driver");
		return;
	}
	req->ctype = "application/json";
	report_json(&req->out, &r);
	report_release(&r);
}

void api_index(struct web_req *req)
{
	req->ctype = "application/json";
	strbuf_addstr(&req->out,
		"{\"endpoints\": {\n"
		"  \"/api/report\": \"bkl report --format json: totals, burn-down, subsystems ranked\",\n"
		"  \"/api/subsystem/NAME\": \"bkl report --subsystem NAME --format json\",\n"
		"  \"/api/driver/NAME\": \"bkl report --driver NAME --format json\",\n"
		"  \"/api/burndown\": \"the burn-down of bkl report: points and projection\",\n"
		"  \"/api/pick\": \"bkl pick --json -n 0\",\n"
		"  \"/api/drivers\": \"bkl drivers --json\",\n"
		"  \"/api/log\": \"bkl log --json\",\n"
		"  \"/api/log/DRIVER\": \"bkl log --json DRIVER\",\n"
		"  \"/api/sites\": \"bkl sites --json\",\n"
		"  \"/api/imbalances\": \"bkl imbalance --json\",\n"
		"  \"/api/chains\": \"bkl chains --json\"\n"
		"}}\n");
}

void api_report(struct web_req *req)
{
	scoped_report(req, NULL, NULL);
}

void api_subsystem(struct web_req *req)
{
	scoped_report(req, req->arg, NULL);
}

void api_driver(struct web_req *req)
{
	scoped_report(req, NULL, req->arg);
}

void api_burndown(struct web_req *req)
{
	struct report r;

	if (report_load(req->db, NULL, NULL, req->srv->tree, &r)) {
		json_error(req, 500, "cannot read the campaign from the database");
		return;
	}
	req->ctype = "application/json";
	report_json_burndown(&req->out, &r.bd);
	strbuf_addstr(&req->out, "\n");
	report_release(&r);
}
