// SPDX-License-Identifier: GPL-2.0
/*
 * tty-carrier: a blocking open of a serial port without carrier must not
 * keep the BKL from everyone else.  tty_open() runs under the BKL (the
 * 2.6.26 site in chrdev_open(), and its own push-down); when the open
 * waits in tty_port_block_til_ready() for a carrier that never comes, the
 * wait must drop the BKL, as the old BKL was dropped by schedule().
 *
 * One thread opens /dev/ttyS1 (CLOCAL off, no O_NONBLOCK; QEMU's COM2 is
 * backed by a file that has no modem lines, so the carrier stays down)
 * and blocks there; once it does, another thread opens /dev/nvram, whose
 * open() takes the BKL.  That open must finish within 10 s: without the
 * drop it waits for the BKL forever (the hung-task detector then reports
 * it too).  The ttyS1 open must still be blocked then, and with
 * CONFIG_BKL_DEBUG tty_open() must be among the BKL's acquirers, or the
 * test proved nothing: each of those is a "FAILED" line too.
 *
 * Prints "tty-carrier: ... ok" or "test_tty_carrier: ...: FAILED" lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define ACQUIRERS "/sys/kernel/debug/bkl/acquirers"

static volatile int tty_returned, nvram_done;
static int nvram_errno;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *open_tty(void *arg)
{
	int fd = open("/dev/ttyS1", O_RDWR | O_NOCTTY);

	tty_returned = fd < 0 ? -errno : 1;
	return NULL;
}

static void *open_nvram(void *arg)
{
	int fd = open("/dev/nvram", O_RDONLY);

	nvram_errno = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	nvram_done = 1;
	return NULL;
}

/* tty_open()'s count among the BKL's acquirers; -1 without the witness. */
static long tty_open_count(void)
{
	char line[256];
	long count = -1;
	FILE *f = fopen(ACQUIRERS, "r");

	if (!f && !mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL))
		f = fopen(ACQUIRERS, "r");
	if (!f)
		return -1;
	count = 0;
	while (fgets(line, sizeof(line), f)) {
		char name[200];
		long n;

		if (sscanf(line, "%ld %199s", &n, name) == 2 && !strcmp(name, "tty_open"))
			count += n;
	}
	fclose(f);
	return count;
}

/* Keep CLOCAL off through an O_NONBLOCK open that stays open. */
static int clear_clocal(void)
{
	struct termios t;
	int fd = open("/dev/ttyS1", O_RDWR | O_NOCTTY | O_NONBLOCK);

	if (fd < 0 || tcgetattr(fd, &t)) {
		printf("test_tty_carrier: /dev/ttyS1: %s: FAILED\n", strerror(errno));
		return -1;
	}
	t.c_cflag &= ~CLOCAL;
	if (tcsetattr(fd, TCSANOW, &t)) {
		printf("test_tty_carrier: clearing CLOCAL on /dev/ttyS1: %s: FAILED\n",
		       strerror(errno));
		return -1;
	}
	return fd;
}

int main(void)
{
	pthread_t tty, nvram;
	long before, after;
	double start;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (clear_clocal() < 0)
		return 1;
	before = tty_open_count();
	pthread_create(&tty, NULL, open_tty, NULL);
	sleep(1);
	after = tty_open_count();
	if (tty_returned) {
		printf("test_tty_carrier: the open of /dev/ttyS1 did not wait for carrier (%s): FAILED\n",
		       tty_returned < 0 ? strerror(-tty_returned) : "opened");
		return 1;
	}
	if (before >= 0 && after <= before) {
		printf("test_tty_carrier: tty_open() did not take the BKL: nothing to test: FAILED\n");
		return 1;
	}
	start = now();
	pthread_create(&nvram, NULL, open_nvram, NULL);
	while (!nvram_done && now() - start < 10)
		usleep(10000);
	if (!nvram_done) {
		/* exit() below ends the ttyS1 open, and the BKL comes free */
		printf("test_tty_carrier: /dev/nvram still not open after 10 s, behind a tty open waiting for carrier: FAILED\n");
		return 1;
	}
	if (nvram_errno) {
		printf("test_tty_carrier: /dev/nvram: %s: FAILED\n", strerror(nvram_errno));
		return 1;
	}
	if (tty_returned) {
		printf("test_tty_carrier: the open of /dev/ttyS1 returned: FAILED\n");
		return 1;
	}
	printf("tty-carrier: /dev/nvram opened in %.0f ms while an open of /dev/ttyS1 waited for carrier%s: ok\n",
	       (now() - start) * 1000,
	       before >= 0 ? ", tty_open() holding the big kernel lock" : " (no witness file in this kernel)");
	/* exiting interrupts the ttyS1 open */
	return 0;
}
