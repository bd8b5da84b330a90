// SPDX-License-Identifier: GPL-2.0
/*
 * A full disk, for one file: LD_PRELOAD this and set
 * BKL_FAIL_WRITE=NAME[:N]; writes to a file whose path holds NAME
 * stop after N bytes in all (default 0): the write that crosses N is cut
 * short there, and every later one fails with ENOSPC, as on a full disk.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static long long left = -1;

static int targeted(int fd)
{
	const char *spec = getenv("BKL_FAIL_WRITE"), *colon;
	char link[64], path[4096];
	size_t n;
	ssize_t len;

	if (!spec || !*spec)
		return 0;
	colon = strchr(spec, ':');
	n = colon ? (size_t)(colon - spec) : strlen(spec);
	if (left < 0)
		left = colon ? atoll(colon + 1) : 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < (ssize_t)n)
		return 0;
	path[len] = '\0';
	return memmem(path, len, spec, n) != NULL;
}

/* How much of count may go; -1 with ENOSPC when nothing may. */
static ssize_t allowed(int fd, size_t count)
{
	if (!targeted(fd))
		return count;
	if (!left && count) {
		errno = ENOSPC;
		return -1;
	}
	if ((long long)count > left)
		count = left;
	left -= count;
	return count;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);
	ssize_t n = allowed(fd, count);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return n < 0 ? n : real(fd, buf, n);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	ssize_t n = allowed(fd, count);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
	return n < 0 ? n : real(fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
	return pwrite64(fd, buf, count, off);
}
