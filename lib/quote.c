// SPDX-License-Identifier: GPL-2.0
/*
 * Quoting for where a string goes: JSON and HTML.  Callers never append
 * a dynamic string by hand.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/quote.h"
#include "lib/strbuf.h"

void json_str(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "\"");
	for (; s && *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			strbuf_addf(sb, "\\%c", ch);
		else if (ch == '\n')
			strbuf_addstr(sb, "\\n");
		else if (ch == '\t')
			strbuf_addstr(sb, "\\t");
		else if (ch < 0x20)
			strbuf_addf(sb, "\\u%04x", ch);
		else
			strbuf_add(sb, s, 1);
	}
	strbuf_addstr(sb, "\"");
}

void json_str_or_null(struct strbuf *sb, const char *s)
{
	const unsigned char *p;

	if (!s) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addstr(sb, "\"");
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addf(sb, "\\%c", *p);
		else if (*p == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*p == '\t')
			strbuf_addstr(sb, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			strbuf_addf(sb, "\\u%04x", *p);
		else if (*p == '<')	/* harmless inside HTML too */
			strbuf_addstr(sb, "\\u003c");
		else
			strbuf_add(sb, p, 1);
	}
	strbuf_addstr(sb, "\"");
}

/* "a; b" -> ["a","b"] */
void json_list(struct strbuf *sb, const char *joined)
{
	const char *p = joined;

	strbuf_addstr(sb, "[");
	while (p && *p) {
		size_t n = strcspn(p, ";");
		char *item = strndup(p, n);

		json_str(sb, item);
		free(item);
		p += n;
		while (*p == ';' || *p == ' ')
			p++;
		if (*p)
			strbuf_addstr(sb, ",");
	}
	strbuf_addstr(sb, "]");
}

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
