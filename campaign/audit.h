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

/* A write of state (campaign/writes.c), and what protects it. */
enum { W_PLAIN, W_LOCKED, W_ATOMIC, W_OWN };
struct awrite {
	char *what;		/* "dev->users", "foo_count" */
	char *lock;		/* W_LOCKED: the innermost lock held */
	int line, kind;
	int io;			/* a write to the hardware: outb(), writel(), ... */
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
	struct awrite *w;	/* the state it writes */
	int nr_w;
	char **locked_calls;	/* functions it calls with a lock held */
	int nr_locked_calls;
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

/* Record f's writes (campaign/writes.c); is_global: a state variable's index, or -1. */
void audit_scan_writes(struct afunc *f, const struct csrc *c, const struct cfunc *fn,
		       int (*is_global)(void *, const struct csrc *, int), void *data);
/* A file-scope variable of this type is a lock or atomic: no state to protect. */
int audit_sync_type(const char *type);

/* pick's ranking: the lower the easier; why says it in one line. */
int audit_effort(const struct cdriver *d, const struct audit *a, struct strbuf *why);

#endif
