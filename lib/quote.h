/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_QUOTE_H
#define BKL_QUOTE_H

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

#endif
