// SPDX-License-Identifier: GPL-2.0
/*
 * exercise: hammer one driver's device nodes from several threads at
 * once (bkl test).  Each thread loops over the nodes: open, poll, read
 * (where the driver's test file allows it), the listed ioctls, close.
 * With a module to load, one more thread loads it while the others
 * already spin on its node: the register-before-init race an audit looks
 * for (the node is there, and opened, before the driver's data is).
 *
 * Environment (from the kernel command line, written by bkl test):
 *   bkl_nodes    /dev/a,/dev/b          the nodes; unset: do nothing
 *   bkl_read     /dev/a,...             nodes that may be read
 *   bkl_vclose   /dev/watchdog0,...     write 'V' before close (watchdogs)
 *   bkl_ioctls   /dev/a:0x80247009,...  read-only ioctls, on a zeroed buffer
 *   bkl_module   /modules/x.ko          load it 50 ms after the start
 *   bkl_seconds  how long (default 3), bkl_threads (default 4)
 *
 * Prints one line per node, then "exercise: done: N opens ...".  A node
 * never opened, or a module that does not load, is a line
 * "test_exercise: ... FAILED", which the host counts as a failed selftest.
 *
 * The witness: with CONFIG_BKL_DEBUG the kernel counts lock_kernel()
 * calls per calling function in /sys/kernel/debug/bkl/acquirers.  The
 * counts are reset before the exercise and printed after it, between
 * "exercise: acquirers: begin" and "exercise: acquirers: end", one
 * "exercise: acquirer: COUNT FUNCTION" line each, so that bkl test sees
 * whether the driver's open() took the BKL.  Without the file:
 * "exercise: acquirers: none: REASON".
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES	16
#define MAX_IOCTLS	32
#define MAX_THREADS	16

struct node {
	char path[128];
	int read, vclose;
	unsigned long opens, reads, polls, ioctls, ioctl_errors;
	int last_errno;
	pthread_mutex_t lock;
};

struct ioctl_req {
	int node;
	unsigned long nr;
};

static struct node nodes[MAX_NODES];
static int nr_nodes;
static struct ioctl_req ioctls[MAX_IOCTLS];
static int nr_ioctls;
static double deadline;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int find_node(const char *path, size_t len)
{
	int i;

	for (i = 0; i < nr_nodes; i++)
		if (strlen(nodes[i].path) == len && !strncmp(nodes[i].path, path, len))
			return i;
	return -1;
}

/* Call fn on each comma-separated item of the variable name. */
static void each_item(const char *name, void (*fn)(const char *item, size_t len))
{
	const char *p = getenv(name), *end;

	for (; p && *p; p = *end ? end + 1 : end) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (end > p)
			fn(p, end - p);
	}
}

static void add_node(const char *item, size_t len)
{
	if (nr_nodes == MAX_NODES || len >= sizeof(nodes[0].path) || find_node(item, len) >= 0)
		return;
	memcpy(nodes[nr_nodes].path, item, len);
	pthread_mutex_init(&nodes[nr_nodes].lock, NULL);
	nr_nodes++;
}

static void set_read(const char *item, size_t len)
{
	int i = find_node(item, len);

	if (i >= 0)
		nodes[i].read = 1;
}

static void set_vclose(const char *item, size_t len)
{
	int i = find_node(item, len);

	if (i >= 0)
		nodes[i].vclose = 1;
}

static void add_ioctl(const char *item, size_t len)
{
	const char *colon = memchr(item, ':', len);
	int i = colon ? find_node(item, colon - item) : -1;

	if (i < 0 || nr_ioctls == MAX_IOCTLS) {
		printf("test_exercise: bad ioctl '%.*s': FAILED\n", (int)len, item);
		return;
	}
	ioctls[nr_ioctls].node = i;
	ioctls[nr_ioctls].nr = strtoul(colon + 1, NULL, 0);
	nr_ioctls++;
}

struct counts {
	unsigned long opens, reads, polls, ioctls, ioctl_errors;
	int last_errno;
};

/*
 * O_ASYNC on, then off: the driver's ->fasync() runs twice, as an fcntl()
 * of a program that wants SIGIO makes it (main() ignores SIGIO).
 */
static void toggle_async(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETOWN, getpid()) < 0)
		return;
	if (fcntl(fd, F_SETFL, fl | O_ASYNC) == 0)
		fcntl(fd, F_SETFL, fl & ~O_ASYNC);
}

static void one_round(int n, struct counts *c, char *buf, size_t size)
{
	struct pollfd pfd;
	int fd, i;

	fd = open(nodes[n].path, O_RDWR | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS || errno == EINVAL))
		fd = open(nodes[n].path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		c->last_errno = errno;
		return;
	}
	c->opens++;
	pfd.fd = fd;
	pfd.events = POLLIN | POLLOUT;
	if (poll(&pfd, 1, 0) >= 0)
		c->polls++;
	if (nodes[n].read && read(fd, buf, 64) >= 0)
		c->reads++;
	toggle_async(fd);
	for (i = 0; i < nr_ioctls; i++) {
		if (ioctls[i].node != n)
			continue;
		memset(buf, 0, size);
		c->ioctls++;
		if (ioctl(fd, ioctls[i].nr, buf) < 0)
			c->ioctl_errors++;
	}
	if (nodes[n].vclose && write(fd, "V", 1) < 0)
		c->last_errno = errno;
	close(fd);
}

static void *worker(void *arg)
{
	static char bufs[MAX_THREADS][4096];
	long id = (long)arg;
	struct counts c[MAX_NODES];
	int n;

	memset(c, 0, sizeof(c));
	while (now() < deadline)
		for (n = 0; n < nr_nodes; n++)
			one_round(n, &c[n], bufs[id], sizeof(bufs[id]));
	for (n = 0; n < nr_nodes; n++) {
		pthread_mutex_lock(&nodes[n].lock);
		nodes[n].opens += c[n].opens;
		nodes[n].reads += c[n].reads;
		nodes[n].polls += c[n].polls;
		nodes[n].ioctls += c[n].ioctls;
		nodes[n].ioctl_errors += c[n].ioctl_errors;
		if (c[n].last_errno)
			nodes[n].last_errno = c[n].last_errno;
		pthread_mutex_unlock(&nodes[n].lock);
	}
	return NULL;
}

/* The load-while-opening race: the openers are already spinning. */
static void *loader(void *arg)
{
	const char *path = arg;
	struct timespec delay = { 0, 50 * 1000 * 1000 };
	int fd;

	nanosleep(&delay, NULL);
	fd = open(path, O_RDONLY);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
		printf("test_exercise: loading %s: FAILED: %s\n", path, strerror(errno));
	} else {
		printf("exercise: loaded %s while opening\n", path);
	}
	if (fd >= 0)
		close(fd);
	fflush(stdout);
	return NULL;
}

#define ACQUIRERS "/sys/kernel/debug/bkl/acquirers"

/* The witness file; debugfs is mounted on demand (init does not). */
static int open_acquirers(int flags)
{
	int fd = open(ACQUIRERS, flags);

	if (fd < 0 && errno == ENOENT &&
	    !mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL))
		fd = open(ACQUIRERS, flags);
	return fd;
}

static void reset_acquirers(void)
{
	int fd = open_acquirers(O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, "0\n", 2) != 2)
		printf("exercise: acquirers: cannot reset: %s\n", strerror(errno));
	close(fd);
}

static void print_acquirers(void)
{
	FILE *f;
	char line[256];
	int fd = open_acquirers(O_RDONLY);

	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		printf("exercise: acquirers: none: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	puts("exercise: acquirers: begin");
	while (fgets(line, sizeof(line), f))
		printf("exercise: acquirer: %.*s\n", (int)strcspn(line, "\n"), line);
	puts("exercise: acquirers: end");
	fclose(f);
}

static int report(void)
{
	unsigned long total = 0;
	int n, failed = 0;

	for (n = 0; n < nr_nodes; n++) {
		struct node *d = &nodes[n];

		total += d->opens;
		if (!d->opens) {
			printf("test_exercise: %s: never opened: FAILED: %s\n", d->path,
			       strerror(d->last_errno));
			failed = 1;
			continue;
		}
		printf("exercise: %s: %lu opens, %lu polls, %lu reads, %lu ioctls (%lu refused)%s%s\n",
		       d->path, d->opens, d->polls, d->reads, d->ioctls, d->ioctl_errors,
		       d->last_errno ? ", last error " : "",
		       d->last_errno ? strerror(d->last_errno) : "");
	}
	return failed ? -(int)total - 1 : (int)total;
}

int main(void)
{
	pthread_t threads[MAX_THREADS], load;
	const char *env = getenv("bkl_seconds"), *module = getenv("bkl_module");
	double seconds = env ? atof(env) : 3;
	long i, nr_threads = getenv("bkl_threads") ? atol(getenv("bkl_threads")) : 4;
	int total;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGIO, SIG_IGN);		/* toggle_async(): no SIGIO ends us */
	each_item("bkl_nodes", add_node);
	if (!nr_nodes) {
		puts("exercise: no nodes to exercise (bkl_nodes unset)");
		return 0;
	}
	each_item("bkl_read", set_read);
	each_item("bkl_vclose", set_vclose);
	each_item("bkl_ioctls", add_ioctl);
	if (nr_threads < 1 || nr_threads > MAX_THREADS)
		nr_threads = 4;
	if (seconds <= 0)
		seconds = 3;
	reset_acquirers();
	deadline = now() + seconds;
	for (i = 0; i < nr_threads; i++)
		pthread_create(&threads[i], NULL, worker, (void *)i);
	if (module && *module)
		pthread_create(&load, NULL, loader, (void *)module);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	if (module && *module)
		pthread_join(load, NULL);
	total = report();
	print_acquirers();
	printf("exercise: done: %d opens of %d nodes by %ld threads in %.0f s\n",
	       total < 0 ? -total - 1 : total, nr_nodes, nr_threads, seconds);
	return total < 0;
}
