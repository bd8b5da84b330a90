/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_QEMU_DRIVER_H
#define BKL_QEMU_DRIVER_H

#include "qemu/qemu.h"
#include "lib/strbuf.h"

struct series;

/*
 * One driver's test (bkl test): qemu-tests/drivers/<driver>.test, or a
 * negative control's qemu-tests/controls/<name>.test.  Directives, one a
 * line, '#' to the end of the line is a comment:
 *
 *   config CONFIG_X=y        the driver and what it needs (the test kernel
 *                            has every driver's options: one build, many boots)
 *   node /dev/x [read] [vclose]
 *                            a node to exercise; read: read() it too;
 *                            vclose: write 'V' before close (watchdogs)
 *   ioctl /dev/x NUMBER      a read-only ioctl, issued on a zeroed buffer
 *   qemu ARG...              more QEMU arguments (devices, ports)
 *   append PARAM...          more kernel parameters
 *   module NAME              build NAME.ko from the file's directory (a
 *                            Kbuild file there) and load it while opening
 *   kmod PATH.ko             the driver is built =m (say so with config):
 *                            load the tree's PATH.ko while opening
 *   seconds N                how long to exercise (default 3)
 */
struct qdriver {
	char *name;		/* "nvram", "bkl_race" */
	char *path;		/* the .test file */
	char *dir;		/* its directory */
	struct strbuf config;	/* "CONFIG_X=y\n"... */
	struct strbuf nodes, reads, vclose, ioctls;	/* comma-separated, for the exerciser */
	struct strbuf append;	/* the append lines */
	struct strbuf args;	/* the qemu arguments, NUL-separated */
	int nr_args;
	char *module;		/* a control's module, built from dir */
	char *kmod;		/* the driver's own module, from the kernel build */
	int seconds;
};

/* Read the .test file at path; -1 after error("FILE:N: ..."). */
int qdriver_read(struct qdriver *d, const char *name, const char *path);
void qdriver_release(struct qdriver *d);
/*
 * Does bkl test exercise the driver: 1, why = its .test file; 0, why =
 * the reason qemu-tests/unexercised gives (what QEMU lacks); -1, no word.
 */
int qdriver_exercised(const char *name, struct strbuf *why);
/* qemu-tests/drivers/<name>.test, or error() naming what exists. */
int qdriver_find(struct qdriver *d, const char *name);

/*
 * The fragment every driver test kernel shares: the config lines of all
 * of qemu-tests/drivers/NAME.test, written to
 * $BKL_CACHE/qemu/drivers-<hash of the content>/drivers.config.
 * Two files asking one option differently is an error.
 */
int qdriver_union_config(struct strbuf *path);

enum qphase { QPHASE_AFTER, QPHASE_BEFORE };

/*
 * A patch of patches/series named "drivers/<driver>/NNNN-...": 1, with the
 * driver's name and whether it is a conversion (anything but 0001-, the
 * push-down); 0 for the core patches.
 */
int qdriver_patch_of(const char *patch, char *driver, size_t size, int *conversion);

/*
 * The series a test of drivers[] runs on: patches/series up to and
 * including the last patch of any of them; for QPHASE_BEFORE without
 * their conversions (every patch of patches/drivers/<d>/ but the
 * push-down, 0001-*).  A control (no patches) runs on the whole series.
 */
int qdriver_series(struct series *dst, const struct series *src, struct qdriver *const *drivers,
		   int nr, enum qphase phase);

/* Append d's kernel parameters to out: " bkl_nodes=... bkl_ioctls=... PARAM". */
void qdriver_params(const struct qdriver *d, struct strbuf *out);
/* Set up b (fragments, parameters, QEMU arguments, module) for d. */
int qdriver_boot(struct qboot *b, struct qdriver *d, const char *const *frags, int nr_frags);

#endif
