/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_QUOTE_H
#define BKL_QUOTE_H

#include <stddef.h>

struct strbuf;

/*
 * Every dynamic string reaches its output through one of these, each for
 * where it goes (as git's quote.c): JSON and HTML.
 */

/* A JSON string ("" for NULL). */
void json_str(struct strbuf *sb, const char *s);
/*
 * A JSON string, or null for NULL; DEL and '<' escaped too, so that the
 * text is also safe inside an HTML page (the dashboard's /api).
 */
void json_str_or_null(struct strbuf *sb, const char *s);
/* A "; "-joined list as a JSON array of strings. */
void json_list(struct strbuf *sb, const char *joined);

void html_esc(struct strbuf *sb, const char *s);
/*
 * printf for HTML: %s is escaped, %u is %-encoded for a URL path segment
 * (then escaped), %d %ld %lld numbers, %% a percent.  Anything else is a
 * programming error and is printed as "?".  Literal markup goes in fmt.
 */
void html_addf(struct strbuf *sb, const char *fmt, ...);

/* The length of the UTF-8 sequence at s, 0 when it is not one. */
size_t utf8_seq_len(const unsigned char *s);

/*
 * For a terminal or a plain-text mail, as git quotes paths: control
 * characters (C0, DEL, C1) and bytes that are not UTF-8 as C escapes
 * (\e, \n, \x9b), so a name can neither move the cursor nor forge a line.
 */
void term_str(struct strbuf *sb, const char *s);
/* term_str() of s in one of 8 buffers used in turn: for printf()'s arguments. */
const char *tq(const char *s);
/* For Markdown meant for a mail or a page: HTML's <>& as entities, its own punctuation escaped. */
void md_str(struct strbuf *sb, const char *s);
/* md_str() of s, in the buffers tq() uses. */
const char *mdq(const char *s);

#endif
