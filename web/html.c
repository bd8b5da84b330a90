// SPDX-License-Identifier: GPL-2.0
/*
 * The one HTML escaper, and the page frame.  Pages never append a
 * dynamic string to req->out by hand: html_addf() escapes every %s.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "web/web.h"

void html_esc(struct strbuf *sb, const char *s)
{
	const char *p;

	if (!s)
		return;
	for (p = s; *p; p++) {
		switch (*p) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default: strbuf_add(sb, p, 1);
		}
	}
}

/* %-encode for one URL path segment or query value, then HTML-escape. */
static void url_esc(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;

	for (p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-_.~", *p)) {
			strbuf_add(sb, p, 1);
		} else {
			char e[3] = { '%', hex[*p >> 4], hex[*p & 15] };

			strbuf_add(sb, e, 3);
		}
	}
}

void html_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	const char *p, *lit = fmt;

	va_start(ap, fmt);
	for (p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		strbuf_add(sb, lit, p - lit);
		p++;
		if (*p == 's') {
			html_esc(sb, va_arg(ap, const char *));
		} else if (*p == 'u') {
			url_esc(sb, va_arg(ap, const char *));
		} else if (*p == 'd') {
			strbuf_addf(sb, "%d", va_arg(ap, int));
		} else if (p[0] == 'l' && p[1] == 'd') {
			strbuf_addf(sb, "%ld", va_arg(ap, long));
			p++;
		} else if (p[0] == 'l' && p[1] == 'l' && p[2] == 'd') {
			strbuf_addf(sb, "%lld", va_arg(ap, long long));
			p += 2;
		} else if (*p == '%') {
			strbuf_addstr(sb, "%");
		} else {
			strbuf_addstr(sb, "?");
			if (!*p)
				break;
		}
		lit = p + 1;
	}
	if (!*p)
		strbuf_add(sb, lit, p - lit);
	va_end(ap);
}

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

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Decode %XX and '+' into out; -1 when it does not fit, holds a NUL or a
 * bad escape (a name with those is not one we have anyway).
 */
int url_decode(const char *in, size_t len, char *out, size_t outsz)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		int c = (unsigned char)in[i];

		if (c == '%') {
			int h, l;

			if (i + 2 >= len)
				return -1;
			h = hexval(in[i + 1]);
			l = hexval(in[i + 2]);
			if (h < 0 || l < 0)
				return -1;
			c = h * 16 + l;
			i += 2;
		} else if (c == '+') {
			c = ' ';
		}
		if (!c || o + 1 >= outsz)
			return -1;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

int form_get(const char *body, const char *name, char *out, size_t outsz)
{
	size_t nlen = strlen(name);
	const char *p = body;

	while (p && *p) {
		const char *end = strchr(p, '&');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > nlen && !strncmp(p, name, nlen) && p[nlen] == '=')
			return url_decode(p + nlen + 1, len - nlen - 1, out, outsz) ? 0 : 1;
		if (len == nlen && !strncmp(p, name, nlen)) {
			out[0] = '\0';
			return 1;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}
