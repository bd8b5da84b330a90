/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_DATE_H
#define BKL_DATE_H

#include <stddef.h>

/* A duration as people read it: "42s", "3m07s", "1h05m". */
void format_duration(double secs, char *buf, size_t size);

#endif
