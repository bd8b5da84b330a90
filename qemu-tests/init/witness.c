// SPDX-License-Identifier: GPL-2.0
/*
 * witness: the last test of a boot (programs run in name order).  With
 * CONFIG_BKL_DEBUG the kernel counts who took the BKL since boot in
 * /sys/kernel/debug/bkl/acquirers ("COUNT FUNCTION" lines); print each
 * function outside the selftest (lib/test_bkl.c: test_bkl_*), then
 *
 *	bkl-acquirers: N functions took the BKL, M outside the selftest
 *
 * After the series' end no driver the campaign converted takes it: the
 * "end" boot expects M to be the drivers still holding it (bkl report
 * lists them).  Without the witness file it says so and nothing else.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#define DEBUGFS		"/sys/kernel/debug"
#define ACQUIRERS	DEBUGFS "/bkl/acquirers"

int main(void)
{
	char line[256], name[200];
	int all = 0, outside = 0;
	long n;
	FILE *f;

	mount("debugfs", DEBUGFS, "debugfs", 0, NULL);	/* EBUSY when mounted */
	f = fopen(ACQUIRERS, "r");
	if (!f) {
		printf("bkl-acquirers: no %s in this kernel\n", ACQUIRERS);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%ld %199s", &n, name) != 2)
			continue;
		all++;
		if (!strncmp(name, "test_bkl", 8))
			continue;
		outside++;
		printf("bkl-acquirers: %s took it %ld times\n", name, n);
	}
	fclose(f);
	printf("bkl-acquirers: %d functions took the BKL, %d outside the selftest\n", all, outside);
	return 0;
}
