// SPDX-License-Identifier: GPL-2.0
/*
 * Incremental bkl audit.  A file is analyzed again when its flags, its
 * content or one of the headers sparse read for it changed.  The
 * analyzer records, per file, the hash of every header it read
 * (file_deps); we record the size and mtime at which we last hashed each
 * file (audit_stamps).  A run stat()s every header once, hashes only
 * those whose size or mtime moved, and compares with the recorded hash:
 * touching a header costs one read, editing it re-analyzes its includers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "db/db.h"
#include "kbuild/flags.h"
#include "audit/jobs.h"
#include "audit/state.h"
#include "ktree/series.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

/* A string-keyed hash table, open addressing. */
struct sent {
	char *key;
	void *val;
};

struct smap {
	struct sent *tab;
	size_t size, nr;
};

static struct sent *smap_find(struct smap *m, const char *key)
{
	size_t i;

	if (!m->size)
		return NULL;
	i = (size_t)fnv1a(FNV1A_INIT, key, strlen(key)) & (m->size - 1);
	while (m->tab[i].key && strcmp(m->tab[i].key, key))
		i = (i + 1) & (m->size - 1);
	return &m->tab[i];
}

static void *smap_get(struct smap *m, const char *key)
{
	struct sent *e = smap_find(m, key);

	return e && e->key ? e->val : NULL;
}

static void smap_put(struct smap *m, const char *key, void *val)
{
	struct sent *e;

	if ((m->nr + 1) * 2 > m->size) {
		struct sent *old = m->tab;
		size_t i, n = m->size;

		m->size = n ? n * 2 : 1024;
		m->tab = calloc(m->size, sizeof(*m->tab));
		if (!m->tab)
			abort();
		for (i = 0; i < n; i++)
			if (old[i].key)
				*smap_find(m, old[i].key) = old[i];
		free(old);
	}
	e = smap_find(m, key);
	if (!e->key) {
		e->key = strdup(key);
		m->nr++;
	} else {
		free(e->val);
	}
	e->val = val;
}

static void smap_free(struct smap *m)
{
	size_t i;

	for (i = 0; i < m->size; i++) {
		free(m->tab[i].key);
		free(m->tab[i].val);
	}
	free(m->tab);
}

struct stamp {
	long long mtime, size;
	char hash[17];
	int dirty;		/* hashed this run: to be saved */
};

struct done {
	char flags_hash[17], src_hash[17];
	char status;		/* 'o'k, 'e'rror, 'c'rash */
	char retry;		/* the analyzer never ran or was killed: not the file's fault */
};

struct kstate {
	struct smap stamps;	/* path -> struct stamp */
	struct smap files;	/* path -> struct done */
	struct smap dep_stale;	/* path -> the header that changed */
	struct smap included;	/* .c files other files #include */
	int changed_headers;
};

static void copy_hash(char dst[17], const unsigned char *src)
{
	snprintf(dst, 17, "%s", src ? (const char *)src : "");
}

int kstate_load(sqlite3 *db, struct kstate **out)
{
	struct kstate *ks = calloc(1, sizeof(*ks));
	sqlite3_stmt *st;

	if (!ks)
		abort();
	*out = ks;
	st = db_prepare(db, "SELECT path, mtime, size, hash FROM audit_stamps");
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct stamp *s = calloc(1, sizeof(*s));

		s->mtime = sqlite3_column_int64(st, 1);
		s->size = sqlite3_column_int64(st, 2);
		copy_hash(s->hash, sqlite3_column_text(st, 3));
		smap_put(&ks->stamps, (const char *)sqlite3_column_text(st, 0), s);
	}
	sqlite3_finalize(st);
	st = db_prepare(db, "SELECT path, flags_hash, src_hash, status, "
			"error LIKE 'analyzer exited with %' OR "
			"error LIKE '%analyzer died of signal %' FROM audit_files");
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct done *d = calloc(1, sizeof(*d));

		copy_hash(d->flags_hash, sqlite3_column_text(st, 1));
		copy_hash(d->src_hash, sqlite3_column_text(st, 2));
		d->status = *sqlite3_column_text(st, 3);
		d->retry = sqlite3_column_int(st, 4);
		smap_put(&ks->files, (const char *)sqlite3_column_text(st, 0), d);
	}
	sqlite3_finalize(st);
	return 0;
}

void kstate_free(struct kstate *ks)
{
	if (!ks)
		return;
	smap_free(&ks->stamps);
	smap_free(&ks->files);
	smap_free(&ks->dep_stale);
	smap_free(&ks->included);
	free(ks);
}

static int hash_fd(int fd, char hex[17])
{
	static char buf[1 << 16];
	unsigned long long h = FNV1A_INIT;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		h = fnv1a(h, buf, n);
	}
	snprintf(hex, 17, "%016llx", h);
	return 0;
}

const char *kstate_hash(struct kstate *ks, const char *path)
{
	struct stamp *s = smap_get(&ks->stamps, path);
	struct stat st;
	int fd;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	if (s && s->mtime == kflags_mtime_ns(&st) && s->size == st.st_size)
		return s->hash;
	if (!s) {
		s = calloc(1, sizeof(*s));
		smap_put(&ks->stamps, path, s);
	}
	fd = open(path, O_RDONLY);
	if (fd < 0 || hash_fd(fd, s->hash)) {
		if (fd >= 0)
			close(fd);
		s->mtime = -1;
		return NULL;
	}
	close(fd);
	s->mtime = kflags_mtime_ns(&st);
	s->size = st.st_size;
	s->dirty = 1;
	return s->hash;
}

/*
 * A header row (h) some analyzed file depends on: what file_deps says,
 * by file_headers' index on header_id, without reading all its rows
 * (millions on the whole tree: seconds each time).
 */
#define HEADER_USED	"EXISTS (SELECT 1 FROM file_headers fh JOIN files f ON " \
			"f.id = fh.file_id WHERE fh.header_id = h.id)"

/* The (header, hash) pairs that no longer hold, in a temp table. */
static int collect_changed(struct kstate *ks, sqlite3 *db)
{
	sqlite3_stmt *pairs, *ins;
	int n = 0;

	if (db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS bkl_changed (path TEXT, hash TEXT);"
		    "DELETE FROM temp.bkl_changed"))
		return -1;
	/* headers is unique by (path, hash): its rows some file depends on */
	pairs = db_prepare(db, "SELECT path, hash FROM headers h WHERE " HEADER_USED);
	ins = db_prepare(db, "INSERT INTO temp.bkl_changed (path, hash) VALUES (@path, @hash)");
	if (!pairs || !ins) {
		n = -1;
		goto out;
	}
	while (sqlite3_step(pairs) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(pairs, 0);
		const char *was = (const char *)sqlite3_column_text(pairs, 1);
		const char *now = path ? kstate_hash(ks, path) : NULL;
		size_t len = path ? strlen(path) : 0;

		if (len > 2 && !strcmp(path + len - 2, ".c") && !smap_get(&ks->included, path))
			smap_put(&ks->included, path, strdup(""));
		if (now && was && !strcmp(now, was))
			continue;
		if (db_bind_text(ins, "@path", path) || db_bind_text(ins, "@hash", was) ||
		    db_step_done(ins)) {
			n = -1;
			goto out;
		}
		n++;
	}
out:
	sqlite3_finalize(pairs);
	sqlite3_finalize(ins);
	return n;
}

int kstate_scan_deps(struct kstate *ks, sqlite3 *db)
{
	sqlite3_stmt *st;
	int n = collect_changed(ks, db);

	ks->changed_headers = n > 0 ? n : 0;
	if (n <= 0)
		return n;
	st = db_prepare(db, "SELECT d.file, MIN(d.path) FROM file_deps d "
			"JOIN temp.bkl_changed c ON c.path = d.path AND c.hash IS d.hash "
			"GROUP BY d.file");
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW)
		smap_put(&ks->dep_stale, (const char *)sqlite3_column_text(st, 0),
			 strdup((const char *)sqlite3_column_text(st, 1)));
	sqlite3_finalize(st);
	return n;
}

int kstate_scan_included(struct kstate *ks, sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT path FROM headers h "
				      "WHERE path LIKE '%.c' AND " HEADER_USED);

	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW)
		if (!smap_get(&ks->included, (const char *)sqlite3_column_text(st, 0)))
			smap_put(&ks->included, (const char *)sqlite3_column_text(st, 0),
				 strdup(""));
	sqlite3_finalize(st);
	return 0;
}

int kstate_included(struct kstate *ks, const char *path)
{
	return smap_get(&ks->included, path) != NULL;
}

int kstate_changed_headers(struct kstate *ks)
{
	return ks->changed_headers;
}

const char *kstate_stale(struct kstate *ks, const char *path, const char *flags_hash)
{
	struct done *d = smap_get(&ks->files, path);
	const char *now;

	if (!d)
		return "new";
	if (d->retry)
		return "the analyzer did not finish last time";
	if (strcmp(d->flags_hash, flags_hash))
		return "flags changed";
	now = kstate_hash(ks, path);
	if (!now || strcmp(now, d->src_hash))
		return "content changed";
	if (smap_get(&ks->dep_stale, path))
		return "a header changed";
	return NULL;
}

/* The analyzer's verdict on a file it ran on: "error" and its text, if it said so. */
static const char *analyzer_status(sqlite3_stmt *st, const char *path, struct strbuf *err)
{
	const char *status = NULL;

	strbuf_reset(err);
	if (!st || db_bind_text(st, "@path", path))
		return NULL;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		status = strcmp((const char *)sqlite3_column_text(st, 0), "ok") ? "error" : "ok";
		if (sqlite3_column_text(st, 1))
			strbuf_addstr(err, (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_reset(st);
	return status;
}

static void remember(struct kstate *ks, const char *path, const char *flags_hash,
		     const char *src_hash, const char *status)
{
	struct done *d = calloc(1, sizeof(*d));

	if (!d)
		abort();
	snprintf(d->flags_hash, sizeof(d->flags_hash), "%s", flags_hash);
	snprintf(d->src_hash, sizeof(d->src_hash), "%s", src_hash);
	d->status = *status;
	smap_put(&ks->files, path, d);
}

static int record_jobs(struct kstate *ks, sqlite3 *db, const struct kjob *job,
		       char (*flags_hash)[17], const char (*src_hash)[17], int nr)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO audit_files (path, flags_hash, src_hash, status, error, analyzed_at) "
		"VALUES (@path, @flags, @src, @status, @error, @at) "
		"ON CONFLICT (path) DO UPDATE SET flags_hash = excluded.flags_hash, "
		"src_hash = excluded.src_hash, status = excluded.status, "
		"error = excluded.error, analyzed_at = excluded.analyzed_at");
	/* Absent before the analyzer's schema lands: then exit codes alone count. */
	sqlite3_stmt *files = NULL;
	struct strbuf err = STRBUF_INIT;
	int i, ret = 0;

	sqlite3_prepare_v2(db, "SELECT status, error FROM files WHERE path = @path", -1,
			   &files, NULL);
	if (!st)
		return -1;
	for (i = 0; i < nr && !ret; i++) {
		const char *status = job[i].rc ? job[i].rc >= 128 ? "crash" : "error" : "ok";
		const char *said;

		if (job[i].rc < 0)
			continue;
		said = job[i].rc < 128 ? analyzer_status(files, job[i].path, &err) : NULL;
		if (said && !strcmp(said, "error")) {
			status = "error";
		} else if (!said || job[i].rc) {
			strbuf_reset(&err);
			strbuf_addstr(&err, job[i].err ? job[i].err : "");
		}
		ret = db_bind_text(st, "@path", job[i].path) ||
		      db_bind_text(st, "@flags", flags_hash[i]) ||
		      db_bind_text(st, "@src", src_hash[i]) ||
		      db_bind_text(st, "@status", status) ||
		      db_bind_text(st, "@error", strcmp(status, "ok") ? sb_str(&err) : NULL) ||
		      db_bind_int(st, "@at", (sqlite3_int64)time(NULL)) ||
		      db_step_done(st) ? -1 : 0;
		remember(ks, job[i].path, flags_hash[i], src_hash[i], status);
	}
	sqlite3_finalize(files);
	sqlite3_finalize(st);
	strbuf_release(&err);
	return ret;
}

static int record_stamps(struct kstate *ks, sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT OR REPLACE INTO audit_stamps (path, mtime, size, hash) "
		"VALUES (@path, @mtime, @size, @hash)");
	size_t i;
	int ret = 0;

	if (!st)
		return -1;
	for (i = 0; i < ks->stamps.size && !ret; i++) {
		struct stamp *s = ks->stamps.tab[i].val;

		if (!ks->stamps.tab[i].key || !s->dirty || s->mtime < 0)
			continue;
		ret = db_bind_text(st, "@path", ks->stamps.tab[i].key) ||
		      db_bind_int(st, "@mtime", s->mtime) ||
		      db_bind_int(st, "@size", s->size) ||
		      db_bind_text(st, "@hash", s->hash) ||
		      db_step_done(st) ? -1 : 0;
		s->dirty = 0;
	}
	sqlite3_finalize(st);
	return ret;
}

int kstate_record(struct kstate *ks, sqlite3 *db, const struct kjob *job,
		  char (*flags_hash)[17], const char (*src_hash)[17], int nr)
{
	if (db_begin(db))
		return -1;
	if (record_jobs(ks, db, job, flags_hash, src_hash, nr) || record_stamps(ks, db)) {
		db_rollback(db);
		return error("cannot record the audit's state in the database");
	}
	return db_commit(db);
}

char kstate_status(struct kstate *ks, const char *path)
{
	struct done *d = smap_get(&ks->files, path);

	return d ? d->status : 0;
}

static int in_scope(const char *path, const char *const *scope, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		size_t n = strlen(scope[i]);

		if (!strcmp(scope[i], ".") ||
		    (!strncmp(path, scope[i], n) && (!path[n] || path[n] == '/')))
			return 1;
	}
	return 0;
}

/*
 * A source file that is gone: its audit row, and the analyzer's facts
 * (every analyzer table hangs off files.id, ON DELETE CASCADE).
 */
int kstate_forget_missing(struct kstate *ks, sqlite3 *db, const char *const *scope, int nr)
{
	sqlite3_stmt *st = db_prepare(db, "DELETE FROM audit_files WHERE path = @path");
	sqlite3_stmt *facts = db_prepare(db, "DELETE FROM files WHERE path = @path");
	struct stat sb;
	size_t i;
	int n = 0;

	if (!st || !facts) {
		sqlite3_finalize(st);
		sqlite3_finalize(facts);
		return -1;
	}
	for (i = 0; i < ks->files.size && n >= 0; i++) {
		const char *path = ks->files.tab[i].key;

		if (!path || !in_scope(path, scope, nr) || !stat(path, &sb))
			continue;
		if (db_bind_text(st, "@path", path) || db_step_done(st) ||
		    db_bind_text(facts, "@path", path) || db_step_done(facts))
			n = -1;
		else
			n++;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(facts);
	return n;
}
