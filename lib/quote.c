// SPDX-License-Identifier: GPL-2.0
/*
 * Quoting for where a string goes: JSON, HTML, a terminal or a plain-text
 * mail, Markdown.  Callers never append a dynamic string by hand.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/quote.h"
#include "lib/strbuf.h"

/* html_safe: DEL and '<' as \u escapes too, for JSON inside a page */
static void json_quote(struct strbuf *sb, const char *s, int html_safe)
{
	const unsigned char *p;

	strbuf_addstr(sb, "\"");
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addf(sb, "\\%c", *p);
		else if (*p == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*p == '\t')
			strbuf_addstr(sb, "\\t");
		else if (*p < 0x20 || (html_safe && (*p == 0x7f || *p == '<')))
			strbuf_addf(sb, "\\u%04x", *p);
		else
			strbuf_add(sb, p, 1);
	}
	strbuf_addstr(sb, "\"");
}

void json_str(struct strbuf *sb, const char *s)
{
	json_quote(sb, s ? s : "", 0);
}

void json_str_or_null(struct strbuf *sb, const char *s)
{
	if (s)
		json_quote(sb, s, 1);
	else
		strbuf_addstr(sb, "null");
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

/* Length of the UTF-8 sequence at s, 0 when it is not one. */
size_t utf8_seq_len(const unsigned char *s)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are not UTF-8 */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* One byte or sequence as the terminal should see it; returns its length. */
static size_t term_char(struct strbuf *sb, const unsigned char *p)
{
	size_t n = utf8_seq_len(p);

	if (*p >= 7 && *p <= 13) {
		strbuf_addf(sb, "\\%c", "abtnvfr"[*p - 7]);
	} else if (*p == 27) {
		strbuf_addstr(sb, "\\e");
	} else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) {	/* C1: U+0080 to U+009F */
		strbuf_addf(sb, "\\x%02x\\x%02x", p[0], p[1]);
		return 2;
	} else if (*p < 0x20 || *p == 0x7f || !n) {	/* C0, DEL, not UTF-8 */
		strbuf_addf(sb, "\\x%02x", *p);
	} else {
		strbuf_add(sb, p, n);
		return n;
	}
	return 1;
}

void term_str(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p)
		p += term_char(sb, p);
}

void md_str(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		if (*p == '<')
			strbuf_addstr(sb, "&lt;");
		else if (*p == '>')
			strbuf_addstr(sb, "&gt;");
		else if (*p == '&')
			strbuf_addstr(sb, "&amp;");
		else if (strchr("\\`*_[]#|!", *p))
			strbuf_addf(sb, "\\%c", *p);
		else {
			p += term_char(sb, p);
			continue;
		}
		p++;
	}
}

/* One of 8 buffers used in turn: what tq() and mdq() return. */
static struct strbuf *ring_next(void)
{
	static struct strbuf ring[8];
	static int next;
	struct strbuf *sb = &ring[next++ % 8];

	strbuf_reset(sb);
	return sb;
}

const char *tq(const char *s)
{
	struct strbuf *sb = ring_next();

	term_str(sb, s);
	return sb_str(sb);
}

const char *mdq(const char *s)
{
	struct strbuf *sb = ring_next();

	md_str(sb, s);
	return sb_str(sb);
}
