// SPDX-License-Identifier: GPL-2.0
/*
 * /api/... endpoints that are exactly a command's --json: the command is
 * run (this same bkl binary, a fixed argv, no shell) on the server's DB
 * and its standard output is the answer, so the API cannot drift from
 * the CLI.  Bounded: the child is killed after WEB_CLI_TIMEOUT seconds
 * and its output cut at WEB_CLI_MAX bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "lib/paths.h"
#include "lib/quote.h"
#include "report/report.h"
#include "web/web.h"

#define WEB_CLI_TIMEOUT	60
#define WEB_CLI_MAX	(64 << 20)

static void api_fail(struct web_req *req, int status, const char *msg)
{
	strbuf_reset(&req->out);
	req->status = status;
	req->ctype = "application/json";
	strbuf_addstr(&req->out, "{\"error\": ");
	json_str_or_null(&req->out, msg);
	strbuf_addstr(&req->out, "}\n");
}

/* Only async-signal-safe calls here: the server has threads. */
static void child(const char *exe, char *const *argv, int out)
{
	sigset_t none;
	int null = open("/dev/null", O_RDWR);

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	dup2(out, 1);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 2);	/* its warnings would not be JSON */
	}
	alarm(WEB_CLI_TIMEOUT);
	execv(exe, argv);
	_exit(127);
}

int web_run_bkl(const char *const *args, struct strbuf *out)
{
	const char *exe = bkl_self_exe();
	char *argv[16], buf[65536];
	int fd[2], status, i, n;
	pid_t pid;

	argv[0] = "bkl";
	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	if (pipe2(fd, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid)
		child(exe, argv, fd[1]);
	close(fd[1]);
	while ((n = read(fd[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (out->len + n <= WEB_CLI_MAX)
			strbuf_add(out, buf, n);
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* args = { VERB, "--db", DB, ["--tree", DIR,] "--json", extra..., NULL } */
int web_bkl_json(struct web_server *srv, const char *verb, int tree, const char *const *extra,
		 struct strbuf *out)
{
	const char *args[16];
	int n = 0;

	args[n++] = verb;
	args[n++] = "--db";
	args[n++] = srv->db_path;
	if (tree && srv->tree) {
		args[n++] = "--tree";
		args[n++] = srv->tree;
	}
	args[n++] = "--json";
	while (extra && *extra && n < 14)
		args[n++] = *extra++;
	args[n] = NULL;
	return web_run_bkl(args, out);
}

/* bkl VERB --db DB [--tree DIR] --json [extra...] */
static void cli(struct web_req *req, const char *verb, int tree, const char *const *extra)
{
	int rc = web_bkl_json(req->srv, verb, tree, extra, &req->out);

	if (rc) {
		api_fail(req, 500, "the command failed: see the server's log, or run it by hand");
		return;
	}
	req->ctype = "application/json";
}

/*
 * `bkl pick` reads every candidate's source: its answer is kept while the
 * DB (and its WAL) is unchanged, for at most WEB_PICK_TTL seconds.
 */
#define WEB_PICK_TTL 60
static pthread_mutex_t pick_lock = PTHREAD_MUTEX_INITIALIZER;
static struct strbuf pick_cache = STRBUF_INIT;
static char pick_key[256];
static time_t pick_time;

int web_pick_json(struct web_server *srv, struct strbuf *out)
{
	static const char *const all[] = { "-n", "0", NULL };
	char key[256];
	int ret = 0;

	pthread_mutex_lock(&pick_lock);
	web_db_state(srv, key, sizeof(key));
	if (!pick_cache.len || strcmp(key, pick_key) || time(NULL) - pick_time > WEB_PICK_TTL) {
		strbuf_reset(&pick_cache);
		ret = web_bkl_json(srv, "pick", 1, all, &pick_cache);
		/* the key from before the run: a change during it is seen next time */
		strcpy(pick_key, ret ? "" : key);
		pick_time = time(NULL);
	}
	if (!ret)
		strbuf_add(out, pick_cache.buf, pick_cache.len);
	pthread_mutex_unlock(&pick_lock);
	return ret;
}

void api_pick(struct web_req *req)
{
	if (web_pick_json(req->srv, &req->out)) {
		api_fail(req, 500, "the command failed: see the server's log, or run it by hand");
		return;
	}
	req->ctype = "application/json";
}

void api_drivers(struct web_req *req)
{
	cli(req, "drivers", 1, NULL);
}

void api_log(struct web_req *req)
{
	const char *one[] = { "--", req->arg, NULL };
	struct report r;
	int ret;

	if (req->arg[0]) {
		ret = report_load(req->db, NULL, req->arg, req->srv->tree, &r);
		if (ret) {
			api_fail(req, ret < 0 ? 500 : 404, ret < 0 ? "cannot read the database" : "no such driver");
			return;
		}
		report_release(&r);
	}
	cli(req, "log", 1, req->arg[0] ? one : NULL);
}

void api_sites(struct web_req *req)
{
	cli(req, "sites", 0, NULL);
}

void api_imbalances(struct web_req *req)
{
	cli(req, "imbalance", 0, NULL);
}

void api_chains(struct web_req *req)
{
	cli(req, "chains", 0, NULL);
}
