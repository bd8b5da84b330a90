// SPDX-License-Identifier: GPL-2.0
/*
 * witness: the last test of a boot (programs run in name order).  With
 * CONFIG_BKL_DEBUG the kernel counts who took the BKL since boot in
 * /sys/kernel/debug/bkl/acquirers ("COUNT FUNCTION" lines); print each
 * function outside the selftest (lib/test_bkl.c, whose functions that
 * take it are listed below: keep them in step with patches/0010, 0012),
 * then
 *
 *	bkl-acquirers: N functions, M outside the selftest
 *
 * (no "BKL" on these lines: the console classifier takes a line naming
 * the BKL for one of its reports).
 * After the series' end no driver the campaign converted takes it: the
 * "end" boot expects M to be the drivers still holding it (bkl report
 * lists them).  Without the witness file it says so and nothing else.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#define DEBUGFS		"/sys/kernel/debug"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ACQUIRERS	DEBUGFS "/bkl/acquirers"

/* lib/test_bkl.c's functions that take the BKL (its threads and works too) */
static const char *const selftest[] = {
	"bkl_fork_parent", "bkl_sleeper_fn", "bkl_taker_fn", "bkl_work_fn",
	"test_abba", "test_exclusion", "test_flush_workqueue",
	"test_keep_under_inner_lock", "test_nesting", "test_proc_create",
	"test_request_module", "test_unbalanced_unlock", "test_usermodehelper",
	"umh_init_takes_bkl",
};

static int in_selftest(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(selftest); i++)
		if (!strcmp(name, selftest[i]))
			return 1;
	return 0;
}

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
		if (in_selftest(name))
			continue;
		outside++;
		printf("bkl-acquirers: %s took it %ld times\n", name, n);
	}
	fclose(f);
	printf("bkl-acquirers: %d functions, %d outside the selftest\n", all, outside);
	return 0;
}
