/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_ALLOC_H
#define BKL_ALLOC_H

#include <stdlib.h>
#include <string.h>

/* Grow arr (nr used, alloc allocated) to hold one more; aborts on ENOMEM. */
#define ALLOC_GROW(arr, nr, alloc)					\
	do {								\
		if ((nr) >= (alloc)) {					\
			(alloc) = (alloc) ? (alloc) * 2 : 16;		\
			(arr) = realloc((arr), (alloc) * sizeof(*(arr)));	\
			if (!(arr))					\
				abort();				\
		}							\
	} while (0)

/* strdup() that keeps NULL and aborts on ENOMEM. */
static inline char *xstrdup_or_null(const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		abort();
	return d;
}

#endif
