/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_STRBUF_H
#define BKL_STRBUF_H

#include <stddef.h>

/* A growable NUL-terminated string, as git's. */
struct strbuf {
	size_t len, alloc;
	char *buf;
};

#define STRBUF_INIT { 0, 0, NULL }

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* Append a whole file; -1 (errno kept) when it cannot be read. */
int strbuf_read_file(struct strbuf *sb, const char *path);
const char *sb_str(const struct strbuf *sb);

#endif
