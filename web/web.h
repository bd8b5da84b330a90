/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_WEB_H
#define BKL_WEB_H

/*
 * The dashboard served by `bkl serve`, built as cgit and fossil are: a
 * table of routes (path pattern -> page function, web/server.c), one file
 * per page, every dynamic string through html_addf()'s escaper, CSS and
 * JS from web/static/ built into the binary (web/assets.c).
 */
#include <sqlite3.h>
#include <stddef.h>
#include "lib/quote.h"
#include "lib/strbuf.h"
#include "report/report.h"

#define WEB_MAX_BODY	(16 * 1024)	/* a claim form is < 1 KiB */
/*
 * A longer body up to this is read and dropped before the 413: a server
 * that closes with the body unread resets the connection, and the client
 * may lose the answer to the reset.  Beyond it, answer at once.
 */
#define WEB_DRAIN_MAX	(8 * 1024 * 1024)
#define WEB_MAX_ARG	200		/* a driver or subsystem name */

struct web_server {
	const char *db_path;
	const char *tree;		/* --tree, else meta */
	unsigned char secret[32];	/* per-process: the CSRF key */
	const char *bind;		/* the address listened on */
	int loopback;			/* bound to 127.x or ::1 */
	unsigned port;
};

struct web_req {
	struct web_server *srv;
	void *conn;			/* struct MHD_Connection */
	sqlite3 *db;			/* this thread's connection */
	const char *method, *url;
	char arg[WEB_MAX_ARG + 1];	/* what "*" matched, %-decoded */
	const char *body;		/* POST body (NUL-terminated) */
	size_t body_len;

	/* the response */
	int status;
	const char *ctype;
	struct strbuf out;
	char set_cookie[160];
	char location[WEB_MAX_ARG * 3 + 32];
	int cache;			/* static asset: may be cached */
};

/* web/cache.c: answers kept while the DB's state is the same */
void web_db_state(struct web_server *srv, char *key, size_t n);
int web_cache_get(struct web_req *req);
void web_cache_put(struct web_req *req, const char *key);
/* Around making a cached answer: one thread per URL makes it, the others wait. */
void web_cache_fill_begin(struct web_req *req);
void web_cache_fill_end(struct web_req *req);

/* Serve until SIGINT/SIGTERM; prints the URL it listens on. */
int web_serve(const char *db_path, const char *tree, const char *bind, int port);

/* A page: fills req->out and req->status (200 when left 0). */
typedef void (*web_page_fn)(struct web_req *req);

void page_begin(struct web_req *req, const char *title, const char *nav);
void page_end(struct web_req *req);
/* A whole error page: 404, 403, 405, 409, 413, 500. */
void web_error(struct web_req *req, int status, const char *msg);
/* web/request.c: value of a form field in an x-www-form-urlencoded body; 0 if absent. */
int form_get(const char *body, const char *name, char *out, size_t outsz);
int url_decode(const char *in, size_t len, char *out, size_t outsz);
/* The value of a hex digit, -1 when c is none. */
int web_hexval(int c);
const char *web_header(struct web_req *req, const char *name);
const char *web_cookie(struct web_req *req, const char *name);
const char *web_query(struct web_req *req, const char *name);

/* web/csrf.c; a page made for anyone has WEB_CSRF_MARK where the token goes */
#define WEB_CSRF_MARK "\x01csrf\x01"
void csrf_token(struct web_req *req, char hex[65]);	/* sets the cookie */
int csrf_check(struct web_req *req, const char *form_token);
void hmac_sha256(const unsigned char *key, size_t klen, const void *msg,
		 size_t mlen, unsigned char out[32]);

/* web/svg.c: charts drawn by the server */
struct burndown;
struct report;
void svg_status_bar(struct strbuf *sb, const long *counts, int width);
void svg_legend(struct strbuf *sb);
void svg_burndown(struct strbuf *sb, const struct burndown *bd);

/* web/html-lists.c and the page bodies, shared with `bkl report --format html` */
void html_source(struct strbuf *sb, const char *tree, const char *file, int line, int ctx);
void html_drivers(struct strbuf *sb, const struct report *r, int with_subsystem);
void html_sites(struct strbuf *sb, const char *title, const struct report_site *s, int n,
		const char *tree, int show_driver, int excerpt);
void html_chains(struct strbuf *sb, const struct report *r, int show_driver, int open);
void html_qemu(struct strbuf *sb, const struct report *r, int show_driver);
void html_projection(struct strbuf *sb, const struct burndown *bd);
void html_overview_body(struct strbuf *sb, const struct report *r);
void html_subsystem_body(struct strbuf *sb, const struct report *r);
void html_driver_body(struct strbuf *sb, const struct report *r, int with_repo);

/* web/static.c: the files of web/static/, built in */
struct embedded_file;
const struct embedded_file *web_asset(const char *name);

/* pages */
void page_overview(struct web_req *req);
void page_subsystem(struct web_req *req);
void page_driver(struct web_req *req);
void page_pick(struct web_req *req);
void page_locks(struct web_req *req);
void page_lock(struct web_req *req);
void page_claim(struct web_req *req);
void page_static(struct web_req *req);
void api_index(struct web_req *req);
void api_report(struct web_req *req);
void api_subsystem(struct web_req *req);
void api_driver(struct web_req *req);
void api_burndown(struct web_req *req);
/*
 * web/api-cli.c: run this bkl (argv after "bkl"), its stdout into out;
 * the exit status, -1 if it could not run.  web_bkl_json() runs
 * "VERB --db DB [--tree DIR] --json EXTRA..." on the server's DB.
 */
int web_run_bkl(const char *const *args, struct strbuf *out);
int web_bkl_json(struct web_server *srv, const char *verb, int tree, const char *const *extra,
		 struct strbuf *out);
/* bkl pick --json -n 0, kept while the DB does not change */
int web_pick_json(struct web_server *srv, struct strbuf *out);
/* a command's --json, run on the server's DB */
void api_pick(struct web_req *req);
void api_drivers(struct web_req *req);
void api_log(struct web_req *req);
void api_sites(struct web_req *req);
void api_imbalances(struct web_req *req);
void api_chains(struct web_req *req);

#endif
