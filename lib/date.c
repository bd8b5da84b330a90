// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "lib/date.h"

void format_duration(double secs, char *buf, size_t size)
{
	long s = (long)(secs + 0.5);

	if (s >= 3600)
		snprintf(buf, size, "%ldh%02ldm", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, size, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, size, "%lds", s);
}
