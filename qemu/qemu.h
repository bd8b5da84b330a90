/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_QEMU_H
#define BKL_QEMU_H

#include <regex.h>
#include <sys/types.h>
#include "lib/strbuf.h"

struct series;

/*
 * Booting the patched kernel in QEMU (bkl qemu).  Three parts:
 *   qemu/kbuild.c    config fragments -> .config (checked) -> bzImage,
 *                        out of tree in $BKL_CACHE/kbuild/<key>
 *   qemu/boot.c      the initramfs, the KVM probe, running QEMU
 *   qemu/classify.c  reading the serial console against an .expect file
 */

/* ---- kernel build ---- */

struct qemu_kbuild {
	char config[17];	/* hash of the fragments + kernel version */
	char key[17];		/* config + series: this very kernel */
	char series[17];	/* series_hash_hex() */
	struct strbuf dir;	/* $BKL_CACHE/kbuild/<config> */
	struct strbuf src;	/* dir/src: the tree with the series applied */
	struct strbuf obj;	/* dir/obj: the out-of-tree build */
	struct strbuf bzimage;
	struct strbuf log;	/* dir/build.log */
	int cached;		/* a finished build was reused */
	double seconds;
	int lock_fd;		/* flock on dir/lock while built and booted */
};

/*
 * Fill kb's keys and paths for the fragments (paths, base first), the
 * pristine tree's version and series s.  Nothing is built.
 */
int qemu_kbuild_init(struct qemu_kbuild *kb, const struct series *s, const char *const *frags, int nr);
/*
 * Reuse a finished build of kb->key, or: bring kb->src to series s,
 * configure (tinyconfig + fragments + olddefconfig), check every option
 * the fragments ask for, build bzImage with -j2 (incrementally).  Holds
 * a lock on the configuration until qemu_kbuild_release().  -1 after
 * error() lines.
 */
int qemu_kbuild_make(struct qemu_kbuild *kb, const struct series *s, const char *const *frags, int nr);
void qemu_kbuild_release(struct qemu_kbuild *kb);
/* Remove all but the most recently used configurations' builds. */
void qemu_kbuild_prune(const struct qemu_kbuild *keep);

/*
 * Options the fragments ask for (the last fragment wins) that .config
 * does not have as asked: one line each in bad, e.g.
 * "CONFIG_BKL=y (bkl.config) is not set", with the unmet dependencies
 * when tree is given.  Returns their number, -1 on error.
 */
int qemu_kbuild_check_config(const char *dotconfig, const char *tree, const char *const *frags,
			     int nr, struct strbuf *bad);
/*
 * Why option (CONFIG_X) is not in config (the final .config's text):
 * appends "it depends on (PCI), and CONFIG_PCI is not set" or the like,
 * from the Kconfig files of tree.
 */
void qemu_kconfig_why(const char *tree, const char *config, const char *option,
		      struct strbuf *why);

/*
 * Bring src (a copy of the pristine tree) to series s, touching only the
 * files the old and the new series patch; *fresh when it was (re)made
 * from scratch, so that no object built before can be trusted.
 */
int qemu_ksrc_update(const char *src, const struct series *s, int *fresh);

/* Helpers: a monotonic clock; argv run with its output appended to log. */
double qemu_now(void);
int qemu_run_logged(const char *const *argv, const char *dir, const char *log);
/*
 * Start argv in dir (NULL: here), stdin from /dev/null, stdout and stderr
 * into log (truncated first, or appended): its pid, or -1 after error().
 */
pid_t qemu_spawn_logged(const char *const *argv, const char *dir, const char *log, int truncate);
/* A wait() status as the shell gives it: the exit code, or 128 + signal. */
int qemu_exit_status(int status);

/* ---- booting ---- */

/*
 * "kvm" when a KVM guest really runs here, else "tcg": probed once by
 * booting bzimage under KVM, the answer cached in $BKL_CACHE/qemu/accel.
 */
const char *qemu_accel(const char *want, const char *bzimage);
/* Build (or reuse) the initramfs from repo/qemu-tests/init/ into path. */
int qemu_initramfs(const char *repo, const char *tree, struct strbuf *path);

struct qemu_run {
	int timed_out;		/* killed after the timeout */
	int status;		/* QEMU's exit status (128 + signal) */
	double seconds;
};

/* args: nr_args more QEMU arguments (devices, serial ports), or NULL. */
int qemu_boot(const char *bzimage, const char *initrd, const char *accel,
	      const char *append, const char *const *args, int nr_args,
	      int timeout, const char *log, struct qemu_run *run);

/* ---- classifying the console ---- */

enum expect_type { EXPECT_LINE, EXPECT_REPORT };

struct expect_rule {
	enum expect_type type;
	char *pattern;
	regex_t re;
	int lineno;
	int hits;
};

struct qemu_expect {
	char *path;
	struct expect_rule *rules;
	int nr;
};

/* Parse an .expect file; -1 after error("FILE:N: ...") on a bad line. */
int qemu_expect_read(struct qemu_expect *e, const char *path);
void qemu_expect_release(struct qemu_expect *e);

struct qemu_report {
	const char *kind;	/* lockdep, warning, bug, oops, hung-task, ... */
	int expected;
	int first, last;	/* console lines, 1-based */
	char *excerpt;		/* a few lines, '\n'-separated */
};

enum qemu_verdict { V_PASS, V_FAIL, V_TIMEOUT, V_BUILD_FAILED };

struct qemu_result {
	enum qemu_verdict verdict;
	struct qemu_report *reports;
	int nr_reports;
	char **missing;		/* directives no line/report satisfied */
	int nr_missing;
	int finished;		/* the console reached power-off or a panic */
};

/*
 * Classify the console text against e.  run is NULL for a recorded log
 * (--classify): a console that never finished then counts as a timeout.
 */
int qemu_classify(const char *console, struct qemu_expect *e,
		  const struct qemu_run *run, struct qemu_result *res);
void qemu_result_release(struct qemu_result *res);
const char *qemu_verdict_name(enum qemu_verdict v);

/* The console line with its printk timestamp and '\r' stripped (in place). */
char *qemu_strip_line(char *line);

/* ---- one boot, built, booted and judged (qemu/run.c) ---- */

#define QBOOT_MAX_FRAGS	18
#define QBOOT_MAX_ARGS	32

struct qboot_opts {
	const char *accel;	/* auto, tcg, kvm */
	int timeout, keep;
};

struct qboot {
	char name[256];		/* "nobkl", "bkl", "nvram after" */
	const char *frags[QBOOT_MAX_FRAGS];	/* base first */
	int nr_frags;
	struct strbuf frag_paths[QBOOT_MAX_FRAGS];
	const char *expect;	/* the .expect file */
	const char *log_name;	/* the console is <kbuild dir>/console-<log_name>.log */
	struct strbuf append;	/* more kernel parameters */
	const char *args[QBOOT_MAX_ARGS];	/* more QEMU arguments */
	int nr_args;
	/* After the kernel is built, before the boot: may replace the initrd. */
	int (*prepare)(struct qboot *b, struct strbuf *initrd, void *data);
	void *data;
	struct qemu_kbuild kb;
	int built;		/* kb was initialized */
	struct qemu_run run;
	int booted;
	const char *accel;
	struct strbuf log;	/* the console log (the build log when it failed) */
	struct qemu_result res;
};

/* --timeout and --accel as given: -1 after error() when they make no sense. */
int qboot_opts_check(const struct qboot_opts *o);
void qboot_init(struct qboot *b, const char *name);
int qboot_add_frag(struct qboot *b, const char *path);
int qboot_add_arg(struct qboot *b, const char *arg);
void qboot_release(struct qboot *b);
/* Build, boot, judge: the verdict lands in b->res; -1 after error(). */
int qboot_run(struct qboot *b, const struct qboot_opts *o, const struct series *s);
/* Judge b->log (a recorded console when run is NULL) against expect_path. */
int qboot_judge(struct qboot *b, const char *expect_path, const struct qemu_run *run);

/* "verdict", "kernel", ..., "log": the members of every boot's JSON object. */
void qboot_json_members(struct strbuf *sb, const struct qboot *b);
/* The verdict, times, reports and log; extra (or NULL): one more line. */
void qboot_print_text(const struct qboot *b, const char *extra);

#endif
