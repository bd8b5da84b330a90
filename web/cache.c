// SPDX-License-Identifier: GPL-2.0
/*
 * Pages are made from the DB alone (and a few repository files), so an
 * answer stays good while the DB does not change: it is kept, keyed by
 * the URL and the DB's state (the size and mtime of the DB and its WAL,
 * which every commit moves), for at most WEB_CACHE_TTL seconds (audit
 * records and patches are files).  A fixed table, one entry per slot.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "web/web.h"

#define WEB_CACHE_SLOTS	256
#define WEB_CACHE_TTL	10

struct entry {
	char *url;
	char key[128];
	time_t at;
	const char *ctype;	/* static strings only */
	struct strbuf body;
};

static struct entry slots[WEB_CACHE_SLOTS];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
/* held while a slot's answer is made: 100 requests, one bkl drivers */
static pthread_mutex_t fill_locks[WEB_CACHE_SLOTS];
static pthread_once_t fill_once = PTHREAD_ONCE_INIT;

static void fill_init(void)
{
	int i;

	for (i = 0; i < WEB_CACHE_SLOTS; i++)
		pthread_mutex_init(&fill_locks[i], NULL);
}

void web_db_state(struct web_server *srv, char *key, size_t n)
{
	struct stat db = { 0 }, wal = { 0 };
	char path[4096];

	stat(srv->db_path, &db);
	snprintf(path, sizeof(path), "%s-wal", srv->db_path);
	stat(path, &wal);
	snprintf(key, n, "%lld.%ld:%lld:%lld.%ld:%lld", (long long)db.st_mtim.tv_sec,
		 db.st_mtim.tv_nsec, (long long)db.st_size, (long long)wal.st_mtim.tv_sec,
		 wal.st_mtim.tv_nsec, (long long)wal.st_size);
}

static struct entry *slot(const char *url)
{
	unsigned long h = 5381;
	const unsigned char *p;

	for (p = (const unsigned char *)url; *p; p++)
		h = h * 33 + *p;
	return &slots[h % WEB_CACHE_SLOTS];
}

static pthread_mutex_t *fill_lock(struct web_req *req)
{
	pthread_once(&fill_once, fill_init);
	return &fill_locks[slot(req->url) - slots];
}

void web_cache_fill_begin(struct web_req *req)
{
	pthread_mutex_lock(fill_lock(req));
}

void web_cache_fill_end(struct web_req *req)
{
	pthread_mutex_unlock(fill_lock(req));
}

int web_cache_get(struct web_req *req)
{
	struct entry *e = slot(req->url);
	char key[128];
	int hit = 0;

	web_db_state(req->srv, key, sizeof(key));
	pthread_mutex_lock(&cache_lock);
	if (e->url && !strcmp(e->url, req->url) && !strcmp(e->key, key) &&
	    time(NULL) - e->at <= WEB_CACHE_TTL) {
		strbuf_add(&req->out, e->body.buf, e->body.len);
		req->ctype = e->ctype;
		hit = 1;
	}
	pthread_mutex_unlock(&cache_lock);
	return hit;
}

/* key: the DB's state from before the page was made */
void web_cache_put(struct web_req *req, const char *key)
{
	struct entry *e = slot(req->url);

	if (req->status && req->status != 200)
		return;
	pthread_mutex_lock(&cache_lock);
	free(e->url);
	e->url = strdup(req->url);
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->at = time(NULL);
	e->ctype = req->ctype;
	strbuf_reset(&e->body);
	strbuf_add(&e->body, sb_str(&req->out), req->out.len);
	pthread_mutex_unlock(&cache_lock);
}
