// SPDX-License-Identifier: GPL-2.0
/*
 * misc-autoload: opening a misc minor that no driver has registered makes
 * misc_open() call request_module("char-major-10-N").  misc_open() runs
 * under the BKL in the bkl boot (the 2.6.26 site in chrdev_open(), and its
 * own push-down), and must drop it quietly for the load: request_module()
 * would otherwise report "WARNING: BKL: request_module() called with the
 * BKL held", a once-per-site report that a real bug then no longer gets.
 *
 * The selftest has already used that once-flag, so it is re-armed first
 * (/sys/kernel/debug/clear_warn_once).  Then a node for a free fixed minor
 * is made and opened (ENODEV: the initramfs has no modprobe), and the
 * kernel log written meanwhile (/dev/kmsg) must not hold the report.
 * With CONFIG_BKL_DEBUG misc_open() must be among the BKL's acquirers, or
 * the open ran without the BKL and proved nothing: a "FAILED" line too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DEBUGFS		"/sys/kernel/debug"
#define ACQUIRERS	DEBUGFS "/bkl/acquirers"
#define NODE		"/dev/bkl-misc-autoload"
#define REPORT		"BKL: request_module"

/* A fixed minor (below MISC_DYNAMIC_MINOR) that /proc/misc does not list. */
static int free_minor(void)
{
	static const int minors[] = { 130, 231, 240, 241, 242 };	/* watchdog, then unused */
	char line[128];
	size_t i;

	for (i = 0; i < sizeof(minors) / sizeof(minors[0]); i++) {
		FILE *f = fopen("/proc/misc", "r");
		int minor, used = 0;

		while (f && fgets(line, sizeof(line), f))
			used |= sscanf(line, "%d", &minor) == 1 && minor == minors[i];
		if (f)
			fclose(f);
		if (!used)
			return minors[i];
	}
	return -1;
}

/* misc_open()'s count among the BKL's acquirers; -1 without the witness. */
static long misc_open_count(void)
{
	char line[256], name[200];
	long n, count = 0;
	FILE *f = fopen(ACQUIRERS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%ld %199s", &n, name) == 2 && !strcmp(name, "misc_open"))
			count += n;
	fclose(f);
	return count;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	int ret = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;

	if (fd >= 0)
		close(fd);
	return ret;
}

/* Did the kernel log anything matching REPORT since kmsg's position? */
static int reported(int kmsg)
{
	char rec[2048];
	ssize_t n;
	int found = 0;

	while ((n = read(kmsg, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;	/* EPIPE: records overwritten, read on */
		rec[n] = '\0';
		found |= strstr(rec, REPORT) != NULL;
	}
	return found;
}

int main(void)
{
	int minor = free_minor(), kmsg, fd, err;
	long before, after;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access(DEBUGFS "/clear_warn_once", F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	if (minor < 0 || mknod(NODE, S_IFCHR | 0600, makedev(10, minor))) {
		printf("test_misc_autoload: no node for a free misc minor: %s: FAILED\n",
		       strerror(errno));
		return 1;
	}
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0) {
		printf("test_misc_autoload: /dev/kmsg: %s: FAILED\n", strerror(errno));
		return 1;
	}
	/* the selftest's request_module() case used the report's once-flag */
	if (write_file(DEBUGFS "/clear_warn_once", "1\n"))
		printf("misc-autoload: cannot re-arm the once-flags: %s\n", strerror(errno));
	before = misc_open_count();
	fd = open(NODE, O_RDONLY);
	err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	after = misc_open_count();
	unlink(NODE);
	if (!err) {
		printf("test_misc_autoload: misc minor %d opened: it was not free: FAILED\n", minor);
		return 1;
	}
	if (before >= 0 && after <= before) {
		printf("test_misc_autoload: misc_open() did not take the BKL: nothing to test: FAILED\n");
		return 1;
	}
	if (reported(kmsg)) {
		printf("test_misc_autoload: misc_open() of minor %d: request_module() reported the BKL: FAILED\n",
		       minor);
		return 1;
	}
	printf("misc-autoload: misc minor %d: %s, request_module() quiet%s: ok\n", minor,
	       strerror(err), before >= 0 ? ", misc_open() holding the big kernel lock" : " (no witness file in this kernel)");
	return 0;
}
