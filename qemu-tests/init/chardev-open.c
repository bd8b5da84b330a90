// SPDX-License-Identifier: GPL-2.0
/*
 * chardev-open: open, read and close character devices from several
 * threads at once for a few seconds.  Every open goes through
 * chrdev_open(), which with CONFIG_BKL_LEGACY_SITES takes the BKL around
 * the driver's ->open(): this is the load that shows lock-order and
 * sleeping-under-the-lock problems there.
 *
 * Prints one line per device ("missing" for a node that is not there,
 * counts and errors otherwise) and a closing "chardev-open: done" line.
 * Exit status 1 when a device is missing or never opened.
 *
 * Environment: bkl_seconds (default 3), bkl_threads (default 4).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS	16
#define MAX_ERRNO	8	/* distinct errors counted per device */

static const char *const devices[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/kmsg", "/dev/ptmx", "/dev/nvram", "/dev/rtc0", "/dev/tty",
	"/dev/console",
};
#define NR_DEV	(sizeof(devices) / sizeof(devices[0]))

struct count {
	unsigned long opens, reads;
	int err[MAX_ERRNO];
	unsigned long nr_err[MAX_ERRNO];
};

struct worker {
	pthread_t thread;
	int id;
	struct count c[NR_DEV];
};

static int present[NR_DEV];
static double deadline;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void count_errors(struct count *c, int err, unsigned long nr)
{
	int i;

	for (i = 0; i < MAX_ERRNO && c->err[i] && c->err[i] != err; i++)
		;
	if (i == MAX_ERRNO)
		i--;	/* the rest share the last slot */
	c->err[i] = err;
	c->nr_err[i] += nr;
}

static void count_error(struct count *c, int err)
{
	count_errors(c, err, 1);
}

static void exercise(struct count *c, const char *path)
{
	char buf[8192];	/* /dev/kmsg wants room for a whole record */
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		count_error(c, errno);
		return;
	}
	c->opens++;
	n = read(fd, buf, sizeof(buf));
	if (n >= 0 || errno == EAGAIN || errno == EINTR)
		c->reads++;
	else
		count_error(c, errno);
	close(fd);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned int i = w->id;	/* each thread starts on another device */

	while (now() < deadline) {
		if (present[i % NR_DEV])
			exercise(&w->c[i % NR_DEV], devices[i % NR_DEV]);
		i++;
	}
	return NULL;
}

static int report(struct worker *w, int threads, unsigned long *total)
{
	unsigned int d;
	int t, i, bad = 0;

	for (d = 0; d < NR_DEV; d++) {
		struct count sum = { 0 };
		char errs[256] = "";

		if (!present[d]) {
			printf("chardev-open: %s: missing: no such device node\n", devices[d]);
			bad++;
			continue;
		}
		for (t = 0; t < threads; t++) {
			sum.opens += w[t].c[d].opens;
			sum.reads += w[t].c[d].reads;
			for (i = 0; i < MAX_ERRNO && w[t].c[d].err[i]; i++)
				count_errors(&sum, w[t].c[d].err[i], w[t].c[d].nr_err[i]);
		}
		for (i = 0; i < MAX_ERRNO && sum.err[i]; i++)
			snprintf(errs + strlen(errs), sizeof(errs) - strlen(errs), "%s%s %lu",
				 i ? ", " : " (", strerror(sum.err[i]), sum.nr_err[i]);
		printf("chardev-open: %s: %lu opens, %lu reads, %s%s%s\n", devices[d],
		       sum.opens, sum.reads, sum.err[0] ? "errors" : "no errors", errs,
		       sum.err[0] ? ")" : "");
		*total += sum.opens;
		bad += !sum.opens;
	}
	return bad;
}

int main(void)
{
	const char *s = getenv("bkl_seconds"), *t = getenv("bkl_threads");
	int seconds = s ? atoi(s) : 3, threads = t ? atoi(t) : 4;
	struct worker w[MAX_THREADS];
	unsigned long total = 0;
	struct stat st;
	unsigned int d;
	int i, bad;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (seconds <= 0)
		seconds = 3;
	if (threads <= 0 || threads > MAX_THREADS)
		threads = 4;
	for (d = 0; d < NR_DEV; d++)
		present[d] = !stat(devices[d], &st) && S_ISCHR(st.st_mode);
	printf("chardev-open: %d threads, %d s, %zu devices\n", threads, seconds, NR_DEV);
	memset(w, 0, sizeof(w));
	deadline = now() + seconds;
	for (i = 0; i < threads; i++) {
		w[i].id = i;
		if (pthread_create(&w[i].thread, NULL, work, &w[i])) {
			printf("chardev-open: cannot start thread %d\n", i);
			threads = i;
			break;
		}
	}
	for (i = 0; i < threads; i++)
		pthread_join(w[i].thread, NULL);
	bad = report(w, threads, &total);
	printf("chardev-open: done: %lu opens, %d devices missing or never opened\n", total, bad);
	return bad ? 1 : 0;
}
