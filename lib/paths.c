// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "paths.h"
#include "strbuf.h"
#include "usage.h"

const char *bkl_cache_dir(void)
{
	static struct strbuf sb = STRBUF_INIT;
	const char *env = getenv("BKL_CACHE"), *home = getenv("HOME");

	if (sb.len)
		return sb.buf;
	if (env && *env)
		strbuf_addstr(&sb, env);
	else
		strbuf_addf(&sb, "%s/.cache/bkl-audit", home ? home : "/tmp");
	return sb.buf;
}

const char *bkl_repo_dir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("BKL_REPO");
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	if (env && *env) {
		strncpy(dir, env, sizeof(dir) - 1);
		return dir;
	}
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0)
		return strcpy(dir, ".");
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return dir;
}

int path_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

int mkdir_p(const char *path)
{
	char buf[PATH_MAX], *p;

	if (strlen(path) >= sizeof(buf))
		return error("path too long: '%s'", path);
	strcpy(buf, path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return error("cannot create '%s': %s", buf, strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return error("cannot create '%s': %s", buf, strerror(errno));
	return 0;
}

long free_mib(const char *path)
{
	struct statvfs st;

	if (statvfs(path, &st))
		return -1;
	return (long)((unsigned long long)st.f_bavail * st.f_frsize >> 20);
}
