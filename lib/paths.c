// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

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

const char *bkl_self_exe(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return "bkl";
	path[n] = '\0';
	/* rebuilt while we run: the new binary is at the same path */
	if (n > 10 && !strcmp(path + n - 10, " (deleted)"))
		path[n - 10] = '\0';
	return path;
}

int path_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

int mkdir_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct strbuf dir = STRBUF_INIT;
	int ret;

	if (!slash || slash == path)
		return 0;
	strbuf_add(&dir, path, slash - path);
	ret = mkdir_p(dir.buf);
	strbuf_release(&dir);
	return ret;
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

int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in, out, ret = 0;
	struct stat st;
	ssize_t n;

	if (mkdir_parent(to))
		return -1;
	in = open(from, O_RDONLY);
	if (in < 0 || fstat(in, &st)) {
		if (in >= 0)
			close(in);
		return error("cannot read '%s': %s", from, strerror(errno));
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, st.st_mode & 07777);
	if (out < 0) {
		close(in);
		return error("cannot write '%s': %s", to, strerror(errno));
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	if (n < 0 || close(out))
		ret = error("cannot copy '%s' to '%s'", from, to);
	close(in);
	return ret;
}

int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return error("cannot write '%s': %s", path, strerror(errno));
	ok = fputs(text, f) >= 0;
	if (fclose(f) || !ok)
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

int replace_file(const char *path, const char *data, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	mode_t mask = umask(0);
	struct stat st;
	ssize_t n;
	size_t off = 0;
	int fd, err;

	umask(mask);
	if (!lstat(path, &st) && !S_ISREG(st.st_mode))
		return error("'%s' is not a regular file: not replaced", path);
	if (slash)
		strbuf_add(&tmp, path, slash + 1 - path);
	strbuf_addf(&tmp, ".%s.XXXXXX", slash ? slash + 1 : path);
	fd = mkstemp(tmp.buf);		/* O_EXCL: nothing planted there is followed */
	if (fd < 0) {
		err = errno;
		strbuf_release(&tmp);
		return error("cannot write '%s': %s", path, strerror(err));
	}
	err = 0;
	while (off < len && !err) {
		n = write(fd, data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			err = n ? errno : ENOSPC;
		else
			off += n;
	}
	if (!err && (fchmod(fd, 0666 & ~mask) || fsync(fd)))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp.buf, path))
		err = errno;
	if (err)
		unlink(tmp.buf);
	strbuf_release(&tmp);
	return err ? error("cannot write '%s': %s", path, strerror(err)) : 0;
}
