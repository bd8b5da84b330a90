// SPDX-License-Identifier: GPL-2.0
/*
 * drivers-audit/campaign.log, the campaign's source of truth, written as
 * a journal: every field of a step checked before anything is written,
 * the whole line (with the header of a new file) in one write() with
 * O_APPEND under an exclusive flock(), then fsync(); on any failure the
 * file is cut back to the size it had.  Readers get every line: a line
 * that is not a step is named by its number, never skipped silently.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "campaign/campaign.h"
#include "lib/paths.h"
#include "lib/quote.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

const char *const cstatus_names[CS_NR] = {
	"unclaimed", "claimed", "pushed-down", "audited", "converted", "tested", "done",
	"blocked"
};

int cstatus_parse(const char *name)
{
	int i;

	for (i = 0; i < CS_NR; i++)
		if (!strcmp(name, cstatus_names[i]))
			return i;
	return -1;
}

static const char *const field_names[CLOG_FIELDS] = {
	"ts", "driver", "action", "status", "holder", "who", "note"
};

static const size_t field_max[CLOG_FIELDS] = {
	20, CLOG_NAME_MAX, CLOG_NAME_MAX, CLOG_NAME_MAX, CLOG_WHO_MAX, CLOG_WHO_MAX, CLOG_NOTE_MAX
};

int clog_check_text(const char *what, const char *s, size_t max, struct strbuf *why)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	if (strlen(s) > max) {
		strbuf_addf(why, "%s is longer than %zu bytes", what, max);
		return -1;
	}
	for (; *p; p += n) {
		if (*p < 0x20 || *p == 0x7f) {
			strbuf_addf(why, "%s holds a control character", what);
			return -1;
		}
		n = utf8_seq_len(p);
		if (!n) {
			strbuf_addf(why, "%s is not UTF-8", what);
			return -1;
		}
	}
	return 0;
}

/* 2024-05-01T12:00:00Z, and not later than the clock says (give or take CLOG_SKEW). */
static int check_ts(const char *ts, struct strbuf *why)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end || strlen(ts) != 20) {
		strbuf_addf(why, "time '%s' is not YYYY-MM-DDTHH:MM:SSZ", ts);
		return -1;
	}
	if (timegm(&tm) > time(NULL) + CLOG_SKEW) {
		strbuf_addf(why, "time '%s' is in the future", ts);
		return -1;
	}
	return 0;
}

int clog_check_step(char *const *f, struct strbuf *why)
{
	int i;

	if (check_ts(f[0], why))
		return -1;
	if (!*f[1]) {
		strbuf_addstr(why, "no driver");
		return -1;
	}
	if (cstatus_parse(f[3]) < 0) {
		strbuf_addf(why, "no status '%.40s'", f[3]);
		return -1;
	}
	for (i = 1; i < CLOG_FIELDS; i++)
		if (clog_check_text(field_names[i], f[i], field_max[i], why))
			return -1;
	return 0;
}

int clog_split(char *line, size_t len, char **f, struct strbuf *why)
{
	int n = 0;
	char *p = line;

	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	if (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (strlen(line) != len) {
		strbuf_addstr(why, "it holds a NUL byte");
		return -1;
	}
	while (n < CLOG_FIELDS) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (p) {
		strbuf_addf(why, "more than %d fields", CLOG_FIELDS);
		return -1;
	}
	while (n < CLOG_FIELDS)		/* trailing empty fields may be cut */
		f[n++] = "";
	return clog_check_step(f, why);
}

int clog_read(const char *path, int strict, int (*fn)(char **f, int nr, void *data), void *data)
{
	FILE *in = fopen(path, "r");
	struct strbuf why = STRBUF_INIT;
	char *line = NULL, *f[CLOG_FIELDS];
	size_t cap = 0;
	ssize_t len;
	int nr = 0, bad = 0, ret = 0;

	if (!in)
		return error("cannot read '%s': %s", path, strerror(errno));
	while (!ret && (len = getline(&line, &cap, in)) >= 0) {
		nr++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		strbuf_reset(&why);
		if (clog_split(line, len, f, &why)) {
			bad++;
			if (strict)
				ret = error("'%s' line %d is not a campaign step: %s", path, nr, why.buf);
			else
				warning("'%s' line %d is not a campaign step (%s): left out", path, nr, why.buf);
			continue;
		}
		if (fn)
			ret = fn(f, nr, data);
	}
	if (!ret && ferror(in))
		ret = error("cannot read '%s': %s", path, strerror(errno));
	fclose(in);
	free(line);
	strbuf_release(&why);
	return ret < 0 ? ret : bad;
}

void clog_format(struct strbuf *sb, char *const *f)
{
	int i;

	for (i = 0; i < CLOG_FIELDS; i++)
		strbuf_addf(sb, "%s%c", f[i], i == CLOG_FIELDS - 1 ? '\n' : '\t');
}

/* Write all of buf at the end of fd; -1 with errno set when it could not. */
static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = ENOSPC;
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/* The last byte of fd is a newline, or fd is empty. */
static int ends_in_newline(int fd, off_t size)
{
	char c = '\n';

	return !size || (pread(fd, &c, 1, size - 1) == 1 && c == '\n');
}

int clog_append(const char *path, const char *text)
{
	struct strbuf buf = STRBUF_INIT;
	struct stat st;
	int fd, err, ret = -1;

	if (mkdir_parent(path))
		return -1;
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return error("cannot append to '%s': %s", path, strerror(errno));
	if (flock(fd, LOCK_EX) || fstat(fd, &st)) {
		error("cannot lock '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		error("'%s' is not a regular file", path);
		goto out;
	}
	if (!st.st_size)
		strbuf_addstr(&buf, CLOG_HEADER);
	else if (!ends_in_newline(fd, st.st_size))
		strbuf_addch(&buf, '\n');	/* a torn line stays one line, named by readers */
	strbuf_addstr(&buf, text);
	if (write_all(fd, buf.buf, buf.len) || fsync(fd)) {
		err = errno;
		if (ftruncate(fd, st.st_size) || fsync(fd))
			error("cannot write '%s': %s; nor cut it back to its %lld bytes: %s",
			      path, strerror(err), (long long)st.st_size, strerror(errno));
		else
			error("cannot write '%s': %s (the log is as it was)", path, strerror(err));
		goto out;
	}
	ret = 0;
out:
	close(fd);		/* drops the lock */
	strbuf_release(&buf);
	return ret;
}
