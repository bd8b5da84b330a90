// SPDX-License-Identifier: GPL-2.0
/*
 * Booting a test kernel: the initramfs (a static /init and the test
 * programs of qemu-tests/init/, packed by the kernel's gen_init_cpio),
 * the choice between KVM and TCG, and QEMU itself under a hard timeout
 * with the serial console going to a log file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ktree/ktree.h"
#include "lib/paths.h"
#include "qemu/qemu.h"
#include "lib/run-command.h"
#include "ktree/series.h"
#include "lib/usage.h"

#define INITRAMFS_VERSION	"bkl-qemu-initramfs-1"
#define KVM_PROBE_SECONDS	15

/*
 * Run argv with stdin from /dev/null and its output into log (truncated
 * first); SIGKILL it after timeout seconds.  Returns the exit status,
 * 128 + signal, or -1 after error().
 */
static int run_timed(const char *const *argv, const char *log, int timeout,
		     int *timed_out, double *seconds)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	double start = qemu_now();
	pid_t pid = qemu_spawn_logged(argv, NULL, log, 1);
	int status;

	*timed_out = 0;
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (qemu_now() - start > timeout) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			*timed_out = 1;
			break;
		}
		nanosleep(&tick, NULL);
	}
	*seconds = qemu_now() - start;
	return *timed_out ? 128 + SIGKILL : qemu_exit_status(status);
}

/* ---- KVM or TCG ---- */

/*
 * Boot the kernel itself under KVM, without an initramfs: a guest that
 * really runs prints its banner and panics (no root) within a second or
 * two, and QEMU (-no-reboot) exits.  /dev/kvm can be there while KVM
 * guests hang (nested virtualization): a boot sector runs there, a
 * kernel does not, so only a kernel is proof.
 */
static const char *probe_kvm(const char *dir, const char *bzimage)
{
	struct strbuf log = STRBUF_INIT, out = STRBUF_INIT;
	const char *argv[] = { "qemu-system-x86_64", "-accel", "kvm", "-kernel", bzimage,
			       "-append", "console=ttyS0 panic=-1", "-nographic",
			       "-no-reboot", "-m", "256", NULL };
	const char *accel = "tcg";
	int fd, timed_out, status;
	double secs;

	fd = open("/dev/kvm", O_RDWR);
	if (fd < 0)
		return accel;
	close(fd);
	strbuf_addf(&log, "%s/kvm-probe.log", dir);
	status = run_timed(argv, log.buf, KVM_PROBE_SECONDS, &timed_out, &secs);
	if (status >= 0 && !timed_out && strbuf_read_file(&out, log.buf) >= 0 &&
	    strstr(out.buf, "Linux version") && strstr(out.buf, "Kernel panic"))
		accel = "kvm";
	strbuf_release(&log);
	strbuf_release(&out);
	return accel;
}

const char *qemu_accel(const char *want, const char *bzimage)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, cached = STRBUF_INIT;
	const char *accel;

	if (want && strcmp(want, "auto"))
		return want;
	strbuf_addf(&dir, "%s/qemu", bkl_cache_dir());
	strbuf_addf(&path, "%s/accel", dir.buf);
	if (strbuf_read_file(&cached, path.buf) >= 0 && !strncmp(cached.buf, "kvm", 3))
		accel = "kvm";
	else if (cached.len && !strncmp(cached.buf, "tcg", 3))
		accel = "tcg";
	else if (mkdir_p(dir.buf))
		accel = "tcg";
	else {
		accel = probe_kvm(dir.buf, bzimage);
		write_file(path.buf, !strcmp(accel, "kvm") ? "kvm\n" : "tcg\n");
	}
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&cached);
	return accel;
}

/* ---- the initramfs ---- */

static int c_source(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 2 && !strcmp(de->d_name + n - 2, ".c") && de->d_name[0] != '.';
}

/* The programs' names (foo.c -> foo) and a hash of their sources. */
static int list_programs(const char *src, struct dirent ***list, uint64_t *hash)
{
	struct strbuf path = STRBUF_INIT, body = STRBUF_INIT;
	int i, n;

	n = scandir(src, list, c_source, alphasort);
	if (n < 0)
		return error("no test programs in '%s'", src);
	*hash = fnv1a(FNV1A_INIT, INITRAMFS_VERSION, sizeof(INITRAMFS_VERSION));
	for (i = 0; i < n; i++) {
		strbuf_reset(&path);
		strbuf_reset(&body);
		strbuf_addf(&path, "%s/%s", src, (*list)[i]->d_name);
		if (strbuf_read_file(&body, path.buf) < 0) {
			n = error("cannot read '%s'", path.buf);
			break;
		}
		*hash = fnv1a(*hash, (*list)[i]->d_name, strlen((*list)[i]->d_name) + 1);
		*hash = fnv1a(*hash, body.buf, body.len + 1);
	}
	strbuf_release(&path);
	strbuf_release(&body);
	return n;
}

static int compile(const char *src, const char *out, const char *log)
{
	const char *argv[] = { "gcc", "-static", "-O2", "-Wall", "-pthread", "-o", out, src, NULL };

	if (qemu_run_logged(argv, NULL, log))
		return error("cannot build '%s' for the initramfs; see '%s'", src, log);
	return 0;
}

static int pack(const char *tmp, const char *tree, struct dirent **list, int n)
{
	struct strbuf log = STRBUF_INIT, spec = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf gen = STRBUF_INIT, out = STRBUF_INIT, gen_src = STRBUF_INIT;
	const char *sh[] = { "sh", "-c", "exec \"$0\" \"$1\" >\"$2\"", NULL, NULL, NULL, NULL };
	int i, ret = -1;

	strbuf_addf(&log, "%s/build.log", tmp);
	strbuf_addf(&gen_src, "%s/usr/gen_init_cpio.c", tree);
	strbuf_addf(&gen, "%s/gen_init_cpio", tmp);
	if (compile(gen_src.buf, gen.buf, log.buf))
		goto out;
	strbuf_addstr(&spec, "dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n"
		      "dir /proc 0755 0 0\ndir /sys 0755 0 0\ndir /tests 0755 0 0\n");
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		int len = strlen(name) - 2;

		strbuf_addf(&spec, "file %s%.*s %s/%.*s 0755 0 0\n",
			    strcmp(name, "init.c") ? "/tests/" : "/", len, name, tmp, len, name);
	}
	strbuf_addf(&path, "%s/initramfs.list", tmp);
	strbuf_addf(&out, "%s/initramfs.cpio", tmp);
	if (write_file(path.buf, spec.buf))
		goto out;
	sh[3] = gen.buf;
	sh[4] = path.buf;
	sh[5] = out.buf;
	if (qemu_run_logged(sh, NULL, log.buf)) {
		error("gen_init_cpio failed; see '%s'", log.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&log);
	strbuf_release(&spec);
	strbuf_release(&path);
	strbuf_release(&gen);
	strbuf_release(&out);
	strbuf_release(&gen_src);
	return ret;
}

static int build_initramfs(const char *src, const char *tree, const char *tmp,
			   struct dirent **list, int n)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT, log = STRBUF_INIT;
	const char *rm[] = { "rm", "-rf", tmp, NULL };
	int i, ret = -1, have_init = 0;

	run_command(rm, NULL, NULL);
	if (mkdir_p(tmp))
		goto out;
	strbuf_addf(&log, "%s/build.log", tmp);
	for (i = 0; i < n; i++) {
		strbuf_reset(&in);
		strbuf_reset(&out);
		strbuf_addf(&in, "%s/%s", src, list[i]->d_name);
		strbuf_addf(&out, "%s/%.*s", tmp, (int)strlen(list[i]->d_name) - 2, list[i]->d_name);
		have_init |= !strcmp(list[i]->d_name, "init.c");
		if (compile(in.buf, out.buf, log.buf))
			goto out;
	}
	if (!have_init) {
		error("no '%s/init.c'", src);
		goto out;
	}
	ret = pack(tmp, tree, list, n);
out:
	strbuf_release(&in);
	strbuf_release(&out);
	strbuf_release(&log);
	return ret;
}

int qemu_initramfs(const char *repo, const char *tree, struct strbuf *path)
{
	struct strbuf src = STRBUF_INIT, dir = STRBUF_INIT, tmp = STRBUF_INIT;
	struct dirent **list = NULL;
	uint64_t hash = 0;
	int i, n, ret = -1;

	strbuf_addf(&src, "%s/qemu-tests/init", repo);
	n = list_programs(src.buf, &list, &hash);
	if (n < 0)
		goto out;
	strbuf_addf(&dir, "%s/qemu/initramfs-%016llx", bkl_cache_dir(), (unsigned long long)hash);
	strbuf_addf(path, "%s/initramfs.cpio", dir.buf);
	if (path_exists(path->buf)) {
		ret = 0;
		goto out;
	}
	strbuf_addf(&tmp, "%s.tmp.%d", dir.buf, (int)getpid());
	ret = build_initramfs(src.buf, tree, tmp.buf, list, n);
	if (!ret && rename(tmp.buf, dir.buf) && !path_exists(path->buf))
		ret = error("cannot move '%s' to '%s': %s", tmp.buf, dir.buf, strerror(errno));
	if (!ret) {
		const char *rm[] = { "rm", "-rf", tmp.buf, NULL };

		run_command(rm, NULL, NULL);	/* lost a race with another run */
	}
out:
	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
	strbuf_release(&src);
	strbuf_release(&dir);
	strbuf_release(&tmp);
	return ret;
}

/* ---- QEMU ---- */

int qemu_boot(const char *bzimage, const char *initrd, const char *accel,
	      const char *append, const char *const *args, int nr_args,
	      int timeout, const char *log, struct qemu_run *run)
{
	const char *argv[16 + QBOOT_MAX_ARGS] = {
		"qemu-system-x86_64", "-accel", accel, "-kernel", bzimage,
		"-initrd", initrd, "-append", append, "-nographic",
		"-no-reboot", "-smp", "2", "-m", "512", NULL };
	int i;

	if (nr_args > QBOOT_MAX_ARGS)
		return error("too many QEMU arguments");
	for (i = 0; i < nr_args; i++)
		argv[15 + i] = args[i];
	memset(run, 0, sizeof(*run));
	run->status = run_timed(argv, log, timeout, &run->timed_out, &run->seconds);
	return run->status < 0 ? -1 : 0;
}
