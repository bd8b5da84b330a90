// SPDX-License-Identifier: GPL-2.0
/*
 * The analyzer's worker pool for bkl audit.  One process per file (each
 * file has its own -D KBUILD_MODNAME and sparse cannot be re-initialized
 * in one process), each writing the shard of its worker slot; the
 * parent only schedules, so a file that crashes sparse or loops costs
 * that file alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "audit/jobs.h"
#include "lib/date.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	stop_requested = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void kjobs_shard_path(const struct kjobs *k, int slot, char *buf, size_t size)
{
	snprintf(buf, size, "%s/shard-%d.db", k->shard_dir, slot);
}

static void err_path(const struct kjobs *k, int slot, char *buf, size_t size)
{
	snprintf(buf, size, "%s/slot-%d.err", k->shard_dir, slot);
}

/*
 * The ETA is the whole run's rate so far (batches, merges and all) times
 * what is left: it does not swing with one slow file or directory.
 */
static void progress(struct kjobs *k, int nr, double start, int last)
{
	static double shown;
	double t = now(), el, eta;
	char e1[32], e2[32], bar[21];
	int i, tty = isatty(2), done = k->base + k->done, all = k->total ? k->total : nr;

	if (k->t0 > 0 && k->t0 < start)
		start = k->t0;
	el = t - start;
	if (k->quiet || (!last && t - shown < (tty ? 0.2 : 30)))
		return;
	if (!shown && !last && !tty && el < 30)
		return;
	shown = t;
	eta = done ? el / done * (all - done) : 0;
	format_duration(el, e1, sizeof(e1));
	format_duration(eta, e2, sizeof(e2));
	if (!tty) {
		fprintf(stderr, "bkl audit: %d/%d files, %d failed, %.1f files/s, %s elapsed, ETA %s\n",
			done, all, k->base_failed + k->failed, el > 0 ? done / el : 0.0, e1, e2);
		return;
	}
	for (i = 0; i < 20; i++)
		bar[i] = all && i < 20L * done / all ? '#' : '.';
	bar[20] = '\0';
	fprintf(stderr, "\r[%s] %d/%d files, %d failed, %.1f files/s, %s elapsed, ETA %s\033[K%s",
		bar, done, all, k->base_failed + k->failed, el > 0 ? done / el : 0.0, e1,
		last && done >= all ? "-" : e2, last ? "\n" : "");
}

static void child(const struct kjobs *k, int slot, const struct kjob *j)
{
	char shard[4096], errf[4096], *flags = strdup(j->flags ? j->flags : ""), *p;
	const char **argv = calloc(strlen(flags) + 16, sizeof(*argv));
	int nr = 0, fd;

	if (!argv || !flags)
		_exit(125);
	kjobs_shard_path(k, slot, shard, sizeof(shard));
	err_path(k, slot, errf, sizeof(errf));
	argv[nr++] = k->self;
	argv[nr++] = "analyze";
	argv[nr++] = "--no-resolve";
	/* the profile line and its warnings are the parent's to say, once */
	argv[nr++] = "--quiet-profiles";
	/* in this process: the worker's time is bounded by the alarm below */
	argv[nr++] = "--timeout=0";
	argv[nr++] = "--max-mem=0";
	if (k->lock_profile) {
		argv[nr++] = "--lock-profile";
		argv[nr++] = k->lock_profile;
	}
	if (k->kernel_profile) {
		argv[nr++] = "--kernel-profile";
		argv[nr++] = k->kernel_profile;
	}
	argv[nr++] = "--db";
	argv[nr++] = shard;
	for (p = flags; *p; ) {
		argv[nr++] = p;
		p += strcspn(p, "\n");
		if (*p)
			*p++ = '\0';
	}
	argv[nr++] = j->path;
	fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, 1);
		close(fd);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (k->timeout > 0)
		alarm(k->timeout);
	execv(k->self, (char *const *)argv);
	_exit(127);
}

/* The analyzer's own error line, else its first line, else what killed it. */
static char *failure_text(const struct kjobs *k, int slot, int status)
{
	struct strbuf text = STRBUF_INIT, line = STRBUF_INIT;
	char errf[4096];
	const char *p;

	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		strbuf_addf(&line, "analyzer timed out after %d s", k->timeout);
		goto out;
	}
	err_path(k, slot, errf, sizeof(errf));
	strbuf_read_file(&text, errf);
	p = strstr(sb_str(&text), "error");
	if (!p)		/* the first line that says something */
		for (p = sb_str(&text); *p && strchr(" \t\n", *p); p++)
			;
	while (p > text.buf && p[-1] != '\n')
		p--;
	strbuf_add(&line, p, strcspn(p, "\n"));
	if (WIFSIGNALED(status))
		strbuf_addf(&line, "%sanalyzer died of signal %d", line.len ? ": " : "",
			    WTERMSIG(status));
	else if (!line.len)
		strbuf_addf(&line, "analyzer exited with %d", WEXITSTATUS(status));
out:
	strbuf_release(&text);
	return line.buf ? line.buf : strdup("");	/* the caller frees it */
}

struct slot {
	pid_t pid;
	int job;
};

static int launch(struct kjobs *k, struct slot *s, int slot, struct kjob *j, int idx)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error("cannot start the analyzer: %s", strerror(errno));
	if (!pid)
		child(k, slot, &j[idx]);
	s->pid = pid;
	s->job = idx;
	return 0;
}

static void finish(struct kjobs *k, struct slot *s, int slot, struct kjob *job, int status)
{
	struct kjob *j = &job[s->job];

	s->pid = 0;
	if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM)) {
		stop_requested = stop_requested ? stop_requested : WTERMSIG(status);
		return;		/* interrupted: not a result */
	}
	j->rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	k->done++;
	if (j->rc) {
		k->failed++;
		j->err = failure_text(k, slot, status);
	}
}

int kjobs_run(struct kjobs *k, struct kjob *job, int nr)
{
	struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term;
	struct slot *slots = calloc(k->jobs > 0 ? k->jobs : 1, sizeof(*slots));
	int i, next = 0, running = 0, ret = 0, status;
	double start = now();
	pid_t pid;

	if (!slots)
		abort();
	if (k->jobs < 1)
		k->jobs = 1;
	k->done = k->failed = k->interrupted = 0;
	for (i = 0; i < nr; i++)
		job[i].rc = -1;
	stop_requested = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (;;) {
		for (i = 0; i < k->jobs && !stop_requested && next < nr && !ret; i++)
			if (!slots[i].pid) {
				ret = launch(k, &slots[i], i, job, next++);
				running += !ret;
			}
		if (!running)
			break;
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			ret = error("waiting for the analyzer: %s", strerror(errno));
			break;
		}
		for (i = 0; i < k->jobs; i++)
			if (slots[i].pid == pid)
				break;
		if (i == k->jobs)
			continue;
		running--;
		finish(k, &slots[i], i, job, status);
		progress(k, nr, start, 0);
	}
	k->interrupted = stop_requested != 0;
	k->elapsed = now() - start;
	progress(k, nr, start, 1);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(slots);
	return ret;
}
