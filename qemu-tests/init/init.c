// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the bkl qemu initramfs: mount /dev, /dev/pts, /proc and /sys, run every
 * program in /tests in name order (each with a time limit), print the end
 * marker and power the machine off.  Built with gcc -static; no libc
 * beyond that, no shell.
 *
 * Run by hand (not as pid 1) it only runs the programs of the directory
 * given as its argument, which is how it is tested on the host.
 *
 * Environment (unknown kernel parameters such as bkl_seconds=3 reach init
 * as variables): bkl_test_timeout, seconds per program (default 120);
 * bkl_tests, the programs to run, comma-separated (default: all of them),
 * so that a driver's boot (bkl test) runs its exerciser alone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define END_MARKER	"bkl-qemu: end of tests"

static void say(const char *fmt, ...)
{
	va_list ap;

	printf("init: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void mount_one(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		say("cannot mount %s on %s: %s", type, dir, strerror(errno));
}

/* A controlling terminal, so that the tests can open /dev/tty. */
static void take_console(void)
{
	setsid();
	if (ioctl(0, TIOCSCTTY, 1))
		say("no controlling terminal: %s", strerror(errno));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run one program; 0 when it exited 0 in time. */
static int run_test(const char *dir, const char *name, int timeout)
{
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	double start = now();
	char path[512];
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	say("running %s", name);
	pid = fork();
	if (pid < 0) {
		say("cannot fork for %s: %s", name, strerror(errno));
		return -1;
	}
	if (!pid) {
		execl(path, name, (char *)NULL);
		say("cannot run %s: %s", path, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now() - start > timeout) {
			kill(pid, SIGKILL);
			/* an uninterruptible task may never go away: do not wait for it */
			say("%s: timed out after %d s", name, timeout);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	if (WIFSIGNALED(status)) {
		say("%s: killed by signal %d", name, WTERMSIG(status));
		return -1;
	}
	say("%s: exit status %d (%.1f s)", name, WEXITSTATUS(status), now() - start);
	return WEXITSTATUS(status) ? -1 : 0;
}

/* In bkl_tests ("a,b,c"), or every program when it is not set. */
static int selected(const char *name)
{
	const char *list = getenv("bkl_tests"), *p;
	size_t n = strlen(name);

	if (!list || !*list)
		return 1;
	for (p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

static int executable(const struct dirent *de)
{
	return de->d_name[0] != '.' && selected(de->d_name);
}

static void run_tests(const char *dir, int timeout)
{
	struct dirent **list;
	int i, n, failed = 0;

	n = scandir(dir, &list, executable, alphasort);
	if (n < 0) {
		say("no test directory %s: %s", dir, strerror(errno));
		n = 0;
	}
	for (i = 0; i < n; i++) {
		failed += run_test(dir, list[i]->d_name, timeout) ? 1 : 0;
		free(list[i]);
	}
	free(list);
	say("%d tests run, %d failed", n, failed);
}

static void power_off(void)
{
	sync();
	/*
	 * Without ACPI the kernel cannot power a PC off and would halt for
	 * ever; a reset ends QEMU just as well (it runs with -no-reboot).
	 */
	if (access("/sys/firmware/acpi", F_OK) == 0)
		reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);
	say("reboot failed: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	const char *env = getenv("bkl_test_timeout");
	int timeout = env ? atoi(env) : 120;
	int pid1 = getpid() == 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (timeout <= 0)
		timeout = 120;
	if (pid1) {
		mount_one("devtmpfs", "/dev", "devtmpfs");
		mount_one("devpts", "/dev/pts", "devpts");	/* /dev/ptmx needs it */
		mount_one("proc", "/proc", "proc");
		mount_one("sysfs", "/sys", "sysfs");
		take_console();
	}
	say("bkl-qemu init, pid %d", getpid());
	run_tests(argc > 1 ? argv[1] : "/tests", timeout);
	puts(END_MARKER);
	fflush(stdout);
	if (pid1) {
		power_off();
		for (;;)
			pause();
	}
	return 0;
}
