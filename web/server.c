// SPDX-License-Identifier: GPL-2.0
/*
 * The HTTP side of `bkl serve`, on libmicrohttpd: a small thread pool,
 * each thread with its own SQLite connection (the DB is read live, WAL
 * lets the CLI write meanwhile), and a route table as cgit's: a path
 * pattern -> a page function.  Everything unknown is a 404.  Requests
 * are bounded: headers by MHD's per-connection memory, bodies by
 * WEB_MAX_BODY, idle connections by a timeout.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include "db/db.h"
#include "lib/usage.h"
#include "web/web.h"

#define WEB_THREADS		4
#define WEB_TIMEOUT_S		15
#define WEB_CONN_LIMIT		4096
#define WEB_CONN_MEMORY		(64 * 1024)	/* request line + headers */
#define WEB_MAX_QUERY_ARGS	16	/* no page takes any: a bound, not a need */

#define CACHE 1		/* the answer depends on the DB (and the URL) only */
#define CSRF 2		/* ... but for WEB_CSRF_MARK: the visitor's token */

static const struct route {
	const char *method;	/* GET also answers HEAD */
	const char *pattern;	/* exact, or "prefix*": * is the rest (non-empty) */
	web_page_fn fn;
	int cache;
} routes[] = {
	{ "GET", "/", page_overview, CACHE },
	{ "GET", "/subsystem/*", page_subsystem, CACHE },
	{ "GET", "/driver/*", page_driver, CACHE },
	{ "GET", "/pick", page_pick, CACHE | CSRF },
	{ "GET", "/locks", page_locks },
	{ "GET", "/lock/*", page_lock },
	{ "POST", "/claim", page_claim },
	{ "GET", "/static/*", page_static },
	{ "GET", "/api", api_index },
	{ "GET", "/api/report", api_report, CACHE },
	{ "GET", "/api/subsystem/*", api_subsystem, CACHE },
	{ "GET", "/api/driver/*", api_driver, CACHE },
	{ "GET", "/api/burndown", api_burndown, CACHE },
	{ "GET", "/api/pick", api_pick, CACHE },
	{ "GET", "/api/drivers", api_drivers, CACHE },
	{ "GET", "/api/log", api_log, CACHE },
	{ "GET", "/api/log/*", api_log, CACHE },
	{ "GET", "/api/sites", api_sites, CACHE },
	{ "GET", "/api/imbalances", api_imbalances, CACHE },
	{ "GET", "/api/chains", api_chains, CACHE },
};

struct conn_state {
	struct strbuf body;
	int too_big;
};

/* One SQLite connection per pool thread, all closed at shutdown. */
static __thread sqlite3 *thread_db;
static pthread_mutex_t dbs_lock = PTHREAD_MUTEX_INITIALIZER;
static sqlite3 *dbs[64];
static int nr_dbs;

static sqlite3 *get_db(struct web_server *srv)
{
	if (thread_db)
		return thread_db;
	if (db_open_existing(srv->db_path, &thread_db))
		return NULL;
	pthread_mutex_lock(&dbs_lock);
	if (nr_dbs < (int)(sizeof(dbs) / sizeof(dbs[0])))
		dbs[nr_dbs++] = thread_db;
	pthread_mutex_unlock(&dbs_lock);
	return thread_db;
}

/* Match url against pattern; the part "*" matched goes to req->arg. */
static int match(const char *pattern, const char *url, struct web_req *req)
{
	size_t plen = strlen(pattern);

	if (pattern[plen - 1] != '*')
		return !strcmp(pattern, url);
	plen--;
	if (strncmp(pattern, url, plen) || !url[plen] || strlen(url + plen) > WEB_MAX_ARG)
		return 0;
	strcpy(req->arg, url + plen);
	return 1;
}

/* The page was made (or kept) with WEB_CSRF_MARK: this visitor's token in. */
static void put_token(struct web_req *req)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = sb_str(&req->out), *m;
	size_t mlen = strlen(WEB_CSRF_MARK);
	char token[65];

	csrf_token(req, token);
	while ((m = strstr(p, WEB_CSRF_MARK))) {
		strbuf_add(&out, p, m - p);
		strbuf_addstr(&out, token);
		p = m + mlen;
	}
	strbuf_addstr(&out, p);
	strbuf_release(&req->out);
	req->out = out;
}

static void route(struct web_req *req)
{
	const struct route *r;
	int path_known = 0;
	int is_get = !strcmp(req->method, "GET") || !strcmp(req->method, "HEAD");

	for (r = routes; r < routes + sizeof(routes) / sizeof(routes[0]); r++) {
		if (!match(r->pattern, req->url, req))
			continue;
		path_known = 1;
		if (!strcmp(r->method, req->method) || (is_get && !strcmp(r->method, "GET"))) {
			char key[128];

			if (!(r->cache & CACHE)) {
				r->fn(req);
			} else if (!web_cache_get(req)) {
				/* one thread makes it; the others wait for it, then read it */
				web_cache_fill_begin(req);
				if (!web_cache_get(req)) {
					web_db_state(req->srv, key, sizeof(key));
					r->fn(req);
					web_cache_put(req, key);
				}
				web_cache_fill_end(req);
			}
			if (r->cache & CSRF)
				put_token(req);
			return;
		}
	}
	if (path_known)
		web_error(req, 405, "this page does not take that method");
	else
		web_error(req, 404, "no such page");
}

static void add_headers(struct MHD_Response *resp, struct web_req *req)
{
	MHD_add_response_header(resp, "Content-Type", req->ctype ? req->ctype : "text/plain");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "X-Frame-Options", "DENY");
	MHD_add_response_header(resp, "Referrer-Policy", "same-origin");
	MHD_add_response_header(resp, "Content-Security-Policy",
				"default-src 'none'; style-src 'self'; script-src 'self'; "
				"img-src 'self' data:; connect-src 'self'; form-action 'self'; "
				"frame-ancestors 'none'; base-uri 'none'");
	MHD_add_response_header(resp, "Cache-Control",
				req->cache ? "public, max-age=3600" : "no-store");
	if (req->set_cookie[0])
		MHD_add_response_header(resp, "Set-Cookie", req->set_cookie);
	if (req->location[0])
		MHD_add_response_header(resp, "Location", req->location);
	if (req->status == 405)
		MHD_add_response_header(resp, "Allow", "GET, HEAD, POST");
}

static enum MHD_Result reply(struct MHD_Connection *conn, struct web_req *req)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;

	if (req->out.buf) {
		resp = MHD_create_response_from_buffer(req->out.len, req->out.buf,
						       MHD_RESPMEM_MUST_FREE);
		if (resp)
			req->out.buf = NULL;	/* MHD frees it */
	} else {
		resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	}
	strbuf_release(&req->out);
	if (!resp)
		return MHD_NO;
	add_headers(resp, req);
	ret = MHD_queue_response(conn, req->status ? req->status : 200, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result reply_error(struct MHD_Connection *conn, struct web_server *srv,
				   int status, const char *msg)
{
	struct web_req req = { .srv = srv, .conn = conn };

	web_error(&req, status, msg);
	return reply(conn, &req);
}

/* MHD's own messages: quiet while starting (bkl says it in one line), then warnings. */
static int mhd_started;

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[256];
	size_t n;

	if (!mhd_started)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == '.'))
		msg[--n] = '\0';
	warning("http: %s", msg);
}

/*
 * On loopback, only the names of loopback and the address bound are
 * accepted as Host: a web page elsewhere cannot rebind its own name to
 * 127.0.0.1 (DNS rebinding) and read the dashboard, or its CSRF tokens,
 * as same-origin.
 */
static int host_is(const char *host, const char *name, const char *port)
{
	size_t len = strlen(name);

	return !strncmp(host, name, len) && (!host[len] || !strcmp(host + len, port));
}

static int host_ok(struct web_server *srv, const char *host)
{
	static const char *const names[] = { "127.0.0.1", "localhost", "[::1]", NULL };
	const char *const *n;
	char port[16], bound[64];

	if (!srv->loopback)
		return 1;
	if (!host)
		return 0;
	snprintf(port, sizeof(port), ":%u", srv->port);
	snprintf(bound, sizeof(bound), strchr(srv->bind, ':') ? "[%s]" : "%s", srv->bind);
	for (n = names; *n; n++)
		if (host_is(host, *n, port))
			return 1;
	return host_is(host, bound, port);
}

/*
 * %XX decoded in place, as MHD does, but a %00 becomes \x01: a path or
 * an argument with a NUL in it is refused whole (400), never cut at it.
 */
static size_t unescape(void *cls, struct MHD_Connection *conn, char *s)
{
	char *out = s, *start = s;
	int hi, lo;

	for (; *s; s++) {
		if (*s == '%' && (hi = web_hexval(s[1])) >= 0 && (lo = web_hexval(s[2])) >= 0) {
			*out++ = (hi || lo) ? (char)(hi << 4 | lo) : '\x01';
			s += 2;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
	return out - start;
}

/*
 * MHD parses every query argument into the connection's memory before a
 * handler runs; from about a thousand of them it runs out of it and
 * answers nothing until the timeout.  So the raw request line is counted
 * first (MHD's URI log hook): past the bound, the answer is a 414 on the
 * socket, and the connection is shut.
 */
static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
	static const char resp[] = "HTTP/1.1 414 URI Too Long\r\n"
		"Content-Type: text/plain\r\nContent-Length: 25\r\nConnection: close\r\n\r\n"
		"too many query arguments\n";
	const union MHD_ConnectionInfo *ci;
	const char *q = strchr(uri, '?');
	int n = 0;

	for (; q && *q; q++)
		n += *q == '&' || *q == '?';
	if (n <= WEB_MAX_QUERY_ARGS * 4)
		return NULL;
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (ci && send(ci->connect_fd, resp, sizeof(resp) - 1, MSG_NOSIGNAL) >= 0)
		shutdown(ci->connect_fd, SHUT_RDWR);
	return NULL;
}

/* A control character in the path, or more arguments than any page takes. */
static const char *bad_url(struct MHD_Connection *conn, const char *url, int *status)
{
	const unsigned char *p;

	for (p = (const unsigned char *)url; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			*status = 400;
			return "a control character (or a NUL) in the path";
		}
	if (MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, NULL, NULL) > WEB_MAX_QUERY_ARGS) {
		*status = 414;
		return "too many query arguments";
	}
	return NULL;
}

/*
 * Every WEB_SYNC_S, a thread of its own brings the campaign up to date
 * as its commands do when they open it (the repository's log merged,
 * the drivers re-derived when the analyzer's facts changed), by running
 * `bkl drivers`; the pages read the DB live in between.
 */
#define WEB_SYNC_S 10		/* $BKL_WEB_SYNC_SECONDS for tests */
static pthread_mutex_t sync_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sync_cv = PTHREAD_COND_INITIALIZER;
static int sync_stop;

static void *sync_main(void *arg)
{
	struct web_server *srv = arg;
	const char *env = getenv("BKL_WEB_SYNC_SECONDS");
	int every = env && atoi(env) > 0 ? atoi(env) : WEB_SYNC_S;
	struct timespec ts;
	int failed = 0, rc;

	pthread_mutex_lock(&sync_mu);
	while (!sync_stop) {
		struct strbuf out = STRBUF_INIT;

		pthread_mutex_unlock(&sync_mu);
		rc = web_bkl_json(srv, "drivers", 1, NULL, &out);
		strbuf_release(&out);
		if (rc && !failed)
			warning("'bkl drivers' failed: the campaign is shown as the database has it");
		failed = !!rc;
		pthread_mutex_lock(&sync_mu);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += every;
		while (!sync_stop && pthread_cond_timedwait(&sync_cv, &sync_mu, &ts) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&sync_mu);
	return NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct web_server *srv = cls;
	struct conn_state *cs = *con_cls;
	struct web_req req = { .srv = srv, .conn = conn, .method = method, .url = url };
	const char *len, *why;
	int status;

	if (!cs) {
		/* headers are in: refuse what we will not read */
		cs = calloc(1, sizeof(*cs));
		if (!cs)
			return MHD_NO;
		*con_cls = cs;
		if (strcmp(method, "GET") && strcmp(method, "HEAD") && strcmp(method, "POST"))
			return reply_error(conn, srv, 405, "this server takes GET, HEAD and POST only");
		if (!host_ok(srv, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host")))
			return reply_error(conn, srv, 400, "unknown Host: this dashboard answers to its loopback address only");
		if ((why = bad_url(conn, url, &status)))
			return reply_error(conn, srv, status, why);
		len = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
		if (len && strtoull(len, NULL, 10) > WEB_MAX_BODY) {
			cs->too_big = 1;
			if (strtoull(len, NULL, 10) > WEB_DRAIN_MAX)
				return reply_error(conn, srv, 413, "request body too large");
		}
		return MHD_YES;
	}
	if (*upload_size) {
		if (cs->body.len + *upload_size > WEB_MAX_BODY)
			cs->too_big = 1;
		else if (!cs->too_big)
			strbuf_add(&cs->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	if (cs->too_big)
		return reply_error(conn, srv, 413, "request body too large");
	req.body = sb_str(&cs->body);
	req.body_len = cs->body.len;
	req.db = get_db(srv);
	if (!req.db) {
		web_error(&req, 500, "cannot open the database");
	} else {
		route(&req);
	}
	return reply(conn, &req);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode why)
{
	struct conn_state *cs = *con_cls;

	if (!cs)
		return;
	strbuf_release(&cs->body);
	free(cs);
	*con_cls = NULL;
}

static int parse_addr(const char *bind, int port, struct sockaddr_storage *ss, int *v6)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	*v6 = 0;
	if (inet_pton(AF_INET, bind, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons(port);
		return 0;
	}
	if (inet_pton(AF_INET6, bind, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		*v6 = 1;
		return 0;
	}
	return error("'%s' is not an IPv4 or IPv6 address", bind);
}

int web_serve(const char *db_path, const char *tree, const char *bind, int port)
{
	static struct web_server srv;
	struct sockaddr_storage ss;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	pthread_t sync_thread;
	sigset_t set;
	int v6, sig, i, have_sync;

	if (port < 0 || port > 65535)
		return error("port %d is out of range", port);
	if (parse_addr(bind, port, &ss, &v6))
		return -1;
	srv.db_path = db_path;
	srv.loopback = v6 ? !strcmp(bind, "::1") : !strncmp(bind, "127.", 4);
	srv.bind = bind;
	srv.tree = tree;
	if (getrandom(srv.secret, sizeof(srv.secret), 0) != sizeof(srv.secret))
		return error("cannot get random bytes for the CSRF key");
	/* the pool threads inherit this mask: signals come to sigwait() */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG |
			     (v6 ? MHD_USE_IPv6 : 0),
			     port, NULL, NULL, on_request, &srv,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)WEB_THREADS,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)WEB_TIMEOUT_S,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)WEB_CONN_LIMIT,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)WEB_CONN_MEMORY,
			     MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)1024,
			     MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
			     MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
			     MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
			     MHD_OPTION_URI_LOG_CALLBACK, uri_seen, NULL,
			     MHD_OPTION_END);
	if (!d)
		return error("cannot listen on %s port %d: %s", bind, port, strerror(errno));
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	srv.port = info ? info->port : (unsigned)port;
	if (!srv.loopback)
		warning("listening on %s: there is no authentication, anyone who reaches it can claim drivers",
			bind);
	mhd_started = 1;
	sync_stop = 0;
	have_sync = !pthread_create(&sync_thread, NULL, sync_main, &srv);
	printf("bkl serve: listening on http://%s%s%s:%u/ (database '%s')\n",
	       v6 ? "[" : "", bind, v6 ? "]" : "", info ? info->port : (unsigned)port, db_path);
	fflush(stdout);
	sigwait(&set, &sig);
	MHD_stop_daemon(d);
	if (have_sync) {
		pthread_mutex_lock(&sync_mu);
		sync_stop = 1;
		pthread_cond_signal(&sync_cv);
		pthread_mutex_unlock(&sync_mu);
		pthread_join(sync_thread, NULL);
	}
	for (i = 0; i < nr_dbs; i++)
		db_close(dbs[i]);
	nr_dbs = 0;
	return 0;
}
