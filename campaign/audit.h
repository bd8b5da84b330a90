/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_CAMPAIGN_AUDIT_H
#define BKL_CAMPAIGN_AUDIT_H

#include "campaign/drivers.h"
#include "campaign/csrc.h"

struct strbuf;

/*
 * What a reviewer looks at first, read from the driver's source: which
 * file-scope variables its entry points touch and who else touches them,
 * and Alan Cox's question: does it register its device (misc_register,
 * cdev_add, register_chrdev, ...) before it initializes what open(),
 * ioctl() or the other file operations read?  Heuristics over tokens, to be confirmed by a person.
 */
struct ause {
	int g;			/* index in audit.g */
	int write;		/* assigned, incremented, or its address passed */
	int line;		/* first such use */
	int init;		/* assigned, or passed to an *init*() or memset() */
};

struct afunc {
	char *name, *file;
	int line, lines;
	struct ause *u;
	int nr_u;
	char **calls;		/* direct calls, in order, with duplicates removed */
	int nr_calls;
	int is_entry, is_fop;	/* an entry point; read(), ioctl() and the like */
	int empty;		/* open() that does nothing a lock could protect */
};

struct afinding {		/* registered before initialized */
	char *function, *file, *reg_call, *var, *how;
	int reg_line, init_line;
};

struct audit {
	struct cglobal *g;
	char **g_file;
	int nr_g;
	struct afunc *f;
	int nr_f;
	char **regs;		/* "misc_register() in nvram_init() at drivers/char/nvram.c:520" */
	int nr_regs;
	struct afinding *rbi;
	int nr_rbi;
};

/* The driver's files under root (NULL: the campaign's tree). */
int audit_analyze(struct campaign *c, const struct cdriver *d, const char *root, struct audit *a);
void audit_release(struct audit *a);
const struct afunc *audit_func(const struct audit *a, const char *name);

/* pick's ranking: the lower the easier; why says it in one line. */
int audit_effort(const struct cdriver *d, const struct audit *a, struct strbuf *why);

#endif
