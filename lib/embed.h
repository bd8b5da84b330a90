/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_EMBED_H
#define BKL_EMBED_H

#include <stddef.h>

/* A file built into the binary by scripts/embed.sh (NUL-terminated). */
struct embedded_file {
	const char *name;	/* basename */
	const char *data;
	size_t len;
};

#endif
