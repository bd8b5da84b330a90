// SPDX-License-Identifier: GPL-2.0
/*
 * What a driver's function writes, and what protects each write: the
 * question an audit of a BKL-covered open() asks.  The BKL serialized the
 * entry points (open, fasync) against each other, so what matters is the
 * state they write: a file-scope variable, or an object reached through a
 * pointer (dev->users++).  A write is
 *   locked   between the driver's own lock call and its unlock, in token
 *            order; an unlock followed by return or goto is an error
 *            path's and does not end the region, and a label (where a
 *            goto lands) ends every region: a write is never called
 *            locked when a path reaches it unlocked, short of a lock
 *            taken in a branch;
 *   atomic   through test_and_set_bit(), atomic_inc() and the like;
 *   own      into the struct file of this open (filp->private_data) or an
 *            object this function allocated: nobody else sees it yet;
 *   plain    none of these: what a person reads the code for.
 * A write to the hardware (outb(), writel(), regmap_write()) is one too
 * (io): two opens interleaving an index and a data port was what the BKL
 * stopped, unless the open lets only one in (test_and_set_bit()).
 * Writes to the function's locals are no state; lock objects are not
 * state either.  Token-level, as the rest of campaign/.
 */
#include <stdlib.h>
#include <string.h>
#include "campaign/audit.h"
#include "lib/strbuf.h"

static const char *const lock_calls[] = {
	"mutex_lock", "mutex_lock_interruptible", "mutex_lock_killable", "mutex_trylock",
	"mutex_lock_nested", "spin_lock", "spin_lock_irq", "spin_lock_irqsave", "spin_lock_bh",
	"raw_spin_lock", "raw_spin_lock_irq", "raw_spin_lock_irqsave", "spin_trylock", "down",
	"down_interruptible", "down_killable", "down_trylock", "down_read", "down_write",
	"read_lock", "write_lock", "read_lock_irqsave", "write_lock_irqsave", "write_lock_irq",
	"read_lock_irq", "write_lock_bh", "read_lock_bh", NULL
};

static const char *const unlock_calls[] = {
	"mutex_unlock", "spin_unlock", "spin_unlock_irq", "spin_unlock_irqrestore",
	"spin_unlock_bh", "raw_spin_unlock", "raw_spin_unlock_irq", "raw_spin_unlock_irqrestore",
	"up", "up_read", "up_write", "read_unlock", "write_unlock", "read_unlock_irqrestore",
	"write_unlock_irqrestore", "write_unlock_irq", "read_unlock_irq", "write_unlock_bh",
	"read_unlock_bh", NULL
};

/* Calls that change their argument atomically, or are a lock's own. */
static const char *const atomic_prefixes[] = {
	"atomic_", "atomic64_", "test_and_", "set_bit", "clear_bit", "change_bit", "__set_bit",
	"__clear_bit", "refcount_", "kref_", "mutex_", "spin_", "raw_spin_", "init_waitqueue",
	"wake_up", "complete", "init_completion", "reinit_completion", "sema_init", "down",
	"up", "ida_", "kfifo_", "wait_event", "local_", "this_cpu_", "cmpxchg", "xchg",
	"fasync_helper", "kill_fasync", NULL	/* fasync_lock is theirs */
};

/* Calls that only look up what their argument names: &g is read, not written. */
static const char *const lookups[] = {
	"usb_find_interface", "bus_find_device", "bus_find_device_by_devt", "driver_find_device",
	"class_find_device", "class_find_device_by_devt", "idr_find", "xa_load",
	"radix_tree_lookup", "list_empty", "hlist_empty", "dev_name", "dev_get_drvdata", NULL
};

/* Writes to the hardware: two opens interleaving them was what the BKL stopped. */
static const char *const io_writes[] = {
	"outb", "outw", "outl", "outb_p", "outw_p", "outl_p", "outsb", "outsw", "outsl",
	"iowrite8", "iowrite16", "iowrite32", "iowrite64", "writeb", "writew", "writel", "writeq",
	"writeb_relaxed", "writew_relaxed", "writel_relaxed", "__raw_writel", "__raw_writeb",
	"regmap_write", "regmap_update_bits", "pci_write_config_byte", "pci_write_config_word",
	"pci_write_config_dword", NULL
};

/* File-scope variables of these types are locks or atomic already. */
static const char *const sync_types[] = {
	"DEFINE_MUTEX", "DEFINE_SPINLOCK", "DEFINE_RAW_SPINLOCK", "DEFINE_RWLOCK",
	"DEFINE_SEMAPHORE", "DECLARE_RWSEM", "DECLARE_WAIT_QUEUE_HEAD", "DECLARE_COMPLETION",
	"DEFINE_IDA", "struct mutex", "spinlock_t", "raw_spinlock_t", "rwlock_t", "atomic_t",
	"atomic64_t", "atomic_long_t", "refcount_t", "struct kref", "struct semaphore",
	"struct rw_semaphore", "wait_queue_head_t", "struct completion", "struct ida", NULL
};

static int in(const char *const *l, const char *s, int prefix)
{
	for (; *l; l++)
		if (prefix ? !strncmp(s, *l, strlen(*l)) : !strcmp(s, *l))
			return 1;
	return 0;
}

int audit_sync_type(const char *type)
{
	return type && in(sync_types, type, 0);
}

/*
 * Is the identifier at i a parameter or a local of fn?  *param: the
 * parameter's token; *decl: the declaring token (i itself at a declaration).
 */
static int declared_in(const struct csrc *c, const struct cfunc *fn, int i, int *param, int *decl)
{
	int k, rb = c->t[fn->lbrace].match;

	for (k = fn->lparen + 1; k < rb; k++) {
		if (c->t[k].kind != CT_IDENT || c->t[k].len != c->t[i].len ||
		    memcmp(c->text + c->t[k].off, c->text + c->t[i].off, c->t[k].len))
			continue;
		if (k < fn->lbrace && (tok_is(c, k + 1, ",") || tok_is(c, k + 1, ")"))) {
			*param = *decl = k;
			return 1;
		}
		if (k > fn->lbrace && (c->t[k - 1].kind == CT_IDENT || tok_is(c, k - 1, "*")) &&
		    !is_keyword(c, k - 1) && !tok_is(c, k - 1, "return") &&
		    (tok_is(c, k + 1, ";") || tok_is(c, k + 1, "=") || tok_is(c, k + 1, ",") ||
		     tok_is(c, k + 1, "["))) {
			*decl = k;
			return 1;
		}
	}
	return 0;
}

/* A parameter declared "struct file *name": this open's own file. */
static int is_file_param(const struct csrc *c, const struct cfunc *fn, int p)
{
	int k;

	for (k = p - 1; k > fn->lparen && !tok_is(c, k, ","); k--)
		if (tok_is(c, k, "file"))
			return tok_is(c, k - 1, "struct");
	return 0;
}

/* Was name assigned the result of an allocation in fn (p = kzalloc(...))? */
static int allocated_in(const struct csrc *c, const struct cfunc *fn, int i)
{
	int k, rb = c->t[fn->lbrace].match;

	for (k = fn->lbrace + 1; k + 2 < rb; k++) {
		char *callee;
		int yes;

		if (c->t[k].kind != CT_IDENT || c->t[k].len != c->t[i].len ||
		    memcmp(c->text + c->t[k].off, c->text + c->t[i].off, c->t[k].len) ||
		    !tok_is(c, k + 1, "=") || c->t[k + 2].kind != CT_IDENT)
			continue;
		callee = tok_dup(c, k + 2);
		yes = strstr(callee, "alloc") != NULL && tok_is(c, k + 3, "(");
		free(callee);
		if (yes)
			return 1;
	}
	return 0;
}

static struct awrite *add_write(struct afunc *f, const struct csrc *c, int from, int to, int kind,
				 const char *lock)
{
	struct awrite *w;
	struct strbuf sb = STRBUF_INIT;
	int k;

	for (k = from; k < to; k++)
		strbuf_add(&sb, c->text + c->t[k].off, c->t[k].len);
	if (tok_is(c, to, "("))
		strbuf_addstr(&sb, "()");
	f->w = realloc(f->w, (f->nr_w + 1) * sizeof(*f->w));
	w = &f->w[f->nr_w++];
	w->what = sb.buf;
	w->line = c->t[from].line;
	w->kind = kind;
	w->lock = lock ? strdup(lock) : NULL;
	w->io = 0;
	return w;
}

/* The lock a lock call takes: its argument's text without '&'. */
static char *lock_arg(const struct csrc *c, int name)
{
	struct strbuf sb = STRBUF_INIT;
	int k, rp = c->t[name + 1].match;

	for (k = name + 2; k < rp && !tok_is(c, k, ","); k++)
		if (!tok_is(c, k, "&"))
			strbuf_add(&sb, c->text + c->t[k].off, c->t[k].len);
	return sb.buf ? sb.buf : strdup("?");
}

struct held {
	char *v[8];
	int n;
};

/*
 * An unlock whose statement is followed by return or goto leaves the
 * function (an error path): the code after its block still holds the
 * lock.  A label is where such a goto lands: nothing is held there.
 */
static int early_exit(const struct csrc *c, int i, int lb)
{
	int rp = c->t[i + 1].match, k, depth = 0, end;

	if (rp > 0 && tok_is(c, rp + 1, ";") && (tok_is(c, rp + 2, "return") ||
						tok_is(c, rp + 2, "goto")))
		return 1;
	/* in a branch's block (not the body) whose last statement leaves */
	for (k = i - 1; k > lb; k--) {
		if (tok_is(c, k, "}"))
			depth++;
		else if (tok_is(c, k, "{") && depth-- == 0)
			break;
	}
	if (k <= lb || (end = c->t[k].match) <= k || !tok_is(c, end - 1, ";"))
		return 0;
	for (k = end - 2; k > i && !tok_is(c, k, ";") && !tok_is(c, k, "{") &&
	     !tok_is(c, k, "}"); k--)
		;
	return k >= i && (tok_is(c, k + 1, "return") || tok_is(c, k + 1, "goto"));
}

static int is_label(const struct csrc *c, int i)
{
	return c->t[i].kind == CT_IDENT && tok_is(c, i + 1, ":") && !tok_is(c, i, "default") &&
	       (tok_is(c, i - 1, ";") || tok_is(c, i - 1, "{") || tok_is(c, i - 1, "}"));
}

static void track_lock(const struct csrc *c, int i, int lb, struct held *h)
{
	char *name = tok_dup(c, i), *arg;
	int k;

	if (in(lock_calls, name, 0) && h->n < 8) {
		h->v[h->n++] = lock_arg(c, i);
	} else if (in(unlock_calls, name, 0) && !early_exit(c, i, lb)) {
		arg = lock_arg(c, i);
		for (k = h->n - 1; k >= 0 && strcmp(h->v[k], arg); k--)
			;
		if (k >= 0) {
			free(h->v[k]);
			memmove(&h->v[k], &h->v[k + 1], (h->n - k - 1) * sizeof(char *));
			h->n--;
		}
		free(arg);
	}
	free(name);
}

/*
 * Record fn's writes into f->w (globals: is_global(tok) >= 0, their sync
 * types skipped) and the calls it makes with a lock held.
 */
void audit_scan_writes(struct afunc *f, const struct csrc *c, const struct cfunc *fn,
		       int (*is_global)(void *, const struct csrc *, int), void *data)
{
	int i, rb = c->t[fn->lbrace].match;
	struct held h = { { 0 }, 0 };

	for (i = fn->lbrace + 1; i < rb; i++) {
		int j, param = -1, decl = -1, g, kind, call, pre, local;
		char *callee;

		if (c->t[i].kind != CT_IDENT || tok_is(c, i - 1, ".") || tok_is(c, i - 1, "->"))
			continue;
		if (is_label(c, i)) {
			while (h.n)
				free(h.v[--h.n]);
			continue;
		}
		if (tok_is(c, i + 1, "(") && !is_keyword(c, i)) {
			track_lock(c, i, fn->lbrace, &h);
			callee = tok_dup(c, i);
			if (in(io_writes, callee, 0))	/* named "outb()", not its arguments */
				add_write(f, c, i, i + 1, h.n ? W_LOCKED : W_PLAIN,
					  h.n ? h.v[h.n - 1] : NULL)->io = 1;
			free(callee);
			if (h.n) {
				callee = tok_dup(c, i);
				f->locked_calls = realloc(f->locked_calls,
							  (f->nr_locked_calls + 1) * sizeof(char *));
				f->locked_calls[f->nr_locked_calls++] = callee;
			}
			continue;
		}
		j = tok_chain_end(c, i);
		pre = tok_is(c, i - 1, "++") || tok_is(c, i - 1, "--");
		g = is_global(data, c, i);
		local = g < 0 && declared_in(c, fn, i, &param, &decl);
		if ((g < 0 && !local) || decl == i)
			continue;	/* an enum, a macro, a function; a declaration */
		if (!pre && !tok_is_assign(c, j)) {
			/* &g passed to a call: a write, unless the call is atomic */
			if (g < 0 || !tok_is(c, i - 1, "&"))
				continue;
			call = tok_enclosing_call(c, i, fn->lbrace);
			if (call < 0)
				continue;	/* p = &g[i]: an alias; writes through p are p's */
			callee = tok_dup(c, call);
			kind = in(atomic_prefixes, callee, 1) ? W_ATOMIC : h.n ? W_LOCKED : W_PLAIN;
			if (!in(lookups, callee, 0))
				add_write(f, c, i, j, kind, h.n ? h.v[h.n - 1] : NULL);
			free(callee);
			continue;
		}
		if (local && j == i + 1 && !tok_is(c, i - 1, "*"))
			continue;	/* the local itself */
		if (local && ((param >= 0 && is_file_param(c, fn, param)) || allocated_in(c, fn, i)))
			kind = W_OWN;
		else
			kind = h.n ? W_LOCKED : W_PLAIN;
		add_write(f, c, tok_is(c, i - 1, "*") ? i - 1 : i, j, kind, h.n ? h.v[h.n - 1] : NULL);
	}
	while (h.n)
		free(h.v[--h.n]);
}
