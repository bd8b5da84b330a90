// SPDX-License-Identifier: GPL-2.0
/*
 * The page frame.  Pages never append a dynamic string to req->out by
 * hand: html_addf() (lib/quote.c, the one HTML escaper) escapes every %s.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "web/web.h"

static const char *const nav_items[][2] = {
	{ "overview", "/" },
	{ "pick a driver", "/pick" },
	{ "other locks", "/locks" },
	{ "API", "/api" },
};

void page_begin(struct web_req *req, const char *title, const char *nav)
{
	size_t i;

	req->ctype = "text/html; charset=utf-8";
	html_addf(&req->out,
		  "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
		  "<title>%s \xe2\x80\x94 bkl-audit</title>"
		  "<link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/static/style.css\">"
		  "<script src=\"/static/app.js\" defer></script></head>\n<body>"
		  "<header class=\"top\"><a class=\"brand\" href=\"/\">bkl-audit</a>"
		  "<span class=\"tag\">Big Kernel Lock removal campaign</span><nav>", title);
	for (i = 0; i < sizeof(nav_items) / sizeof(nav_items[0]); i++)
		html_addf(&req->out, nav && !strcmp(nav, nav_items[i][0]) ?
			  "<a href=\"%s\" class=\"here\">%s</a>" : "<a href=\"%s\">%s</a>",
			  nav_items[i][1], nav_items[i][0]);
	strbuf_addstr(&req->out, "</nav></header>\n<main>\n");
}

void page_end(struct web_req *req)
{
	strbuf_addstr(&req->out,
		      "</main>\n<footer>bkl-audit \xe2\x80\x94 read live from the campaign database. "
		      "<a href=\"/api\">The same data as JSON</a>."
		      "</footer>\n</body></html>\n");
}

void web_error(struct web_req *req, int status, const char *msg)
{
	char title[32];

	strbuf_reset(&req->out);
	req->status = status;
	snprintf(title, sizeof(title), "%d", status);
	page_begin(req, title, NULL);
	html_addf(&req->out, "<h1>%d</h1><p class=\"error\">%s</p>"
		  "<p><a href=\"/\">back to the overview</a></p>", status, msg);
	page_end(req);
}
