// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/run-command.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

static void child(const char *const *argv, const char *dir, int fd)
{
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	if (dir && chdir(dir) < 0)
		_exit(126);
	execvp(argv[0], (char *const *)argv);
	_exit(127);
}

static void drain(int fd, struct strbuf *out)
{
	char buf[8192];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		strbuf_add(out, buf, n);
	}
}

int run_command(const char *const *argv, const char *dir, struct strbuf *out)
{
	int pipefd[2] = { -1, -1 }, status;
	pid_t pid;

	if (out && pipe(pipefd) < 0)
		return error("cannot create a pipe for '%s': %s", argv[0], strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error("cannot run '%s': %s", argv[0], strerror(errno));
	if (!pid) {
		if (out)
			close(pipefd[0]);
		child(argv, dir, pipefd[1]);
	}
	if (out) {
		close(pipefd[1]);
		drain(pipefd[0], out);
		close(pipefd[0]);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("waiting for '%s': %s", argv[0], strerror(errno));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	if (WEXITSTATUS(status) == 127)
		return error("cannot run '%s': not found", argv[0]);
	return WEXITSTATUS(status);
}
