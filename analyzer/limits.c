// SPDX-License-Identifier: GPL-2.0
/*
 * Limits of the child that analyzes one file, so that no file can stop
 * the run: a time limit, a memory limit (RLIMIT_AS), gcc's limit of 200
 * nested #includes (a header that includes itself), and a stack overflow
 * in sparse's recursive descent (an expression of 100,000 terms).  Each
 * ends the child with one "error:" line on its stderr, which the parent
 * records as why the file was not analyzed.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>
#include "analyzer/internal.h"

#define MAX_INCLUDE_DEPTH 200
#define TICK_MS 20
/* sparse's struct position keeps a stream in 14 bits: past it, positions lie */
#define MAX_STREAMS ((1 << 14) - 1)

static const char *limits_file;
static long limits_timeout_ms, limits_elapsed_ms;

/* One line to stderr and out, from a signal handler: write(), _exit(). */
static void fail(const char *what)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "%s: error: %s\n", limits_file, what);

	if (n > 0 && write(2, line, n < (int)sizeof(line) ? n : (int)sizeof(line) - 1) < 0)
		n = 0;
	_exit(EXIT_SPARSE_ERROR);
}

/* How deep the newest stream is included: its #include's stream, and so on up. */
static int include_depth(void)
{
	int s = input_stream_nr - 1, depth = 0;

	while (s >= 0 && s < input_stream_nr && depth <= MAX_INCLUDE_DEPTH) {
		s = input_streams[s].pos.stream;
		depth++;
	}
	return depth - 1;
}

static void on_tick(int sig)
{
	char what[128];

	if (include_depth() > MAX_INCLUDE_DEPTH || input_stream_nr >= MAX_STREAMS) {
		snprintf(what, sizeof(what), "#include nested deeper than %d (a header that includes itself?)",
			 MAX_INCLUDE_DEPTH);
		fail(what);
	}
	limits_elapsed_ms += TICK_MS;
	if (limits_timeout_ms && limits_elapsed_ms >= limits_timeout_ms) {
		snprintf(what, sizeof(what), "analysis took longer than %ld s", limits_timeout_ms / 1000);
		fail(what);
	}
}

static void on_segv(int sig)
{
	if (include_depth() > MAX_INCLUDE_DEPTH)
		on_tick(SIGALRM);
	fail(sig == SIGSEGV ? "sparse ran out of stack (an expression or statement nested too deep)" :
	     "sparse crashed");
}

void limits_child(const char *file, int timeout, long max_mem_mib)
{
	static char altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;

	struct itimerval tick = { { 0, TICK_MS * 1000 }, { 0, TICK_MS * 1000 } };

	limits_file = file;
	limits_timeout_ms = timeout * 1000L;
	if (max_mem_mib > 0) {
		struct rlimit rl = { (rlim_t)max_mem_mib << 20, (rlim_t)max_mem_mib << 20 };

		setrlimit(RLIMIT_AS, &rl);	/* then sparse's die("out of memory") */
	}
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_handler = on_tick;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &tick, NULL);	/* wall time, as bkl audit's alarm */
}
