// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/audit.h"
#include "campaign/patch.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

/* Calls that make a device reachable from user space. */
static const char *const registrations[] = {
	"misc_register", "cdev_add", "cdev_device_add", "register_chrdev", "__register_chrdev",
	"tty_register_driver", "tty_register_device", "usb_register_dev", "video_register_device",
	"input_register_handler", "input_register_device", "hwrng_register",
	"devm_hwrng_register", "watchdog_register_device", "devm_watchdog_register_device",
	"devm_rtc_register_device", "__devm_rtc_register_device", "register_filesystem",
	"snd_register_device", "register_sound_special", "register_sound_mixer",
	"register_sound_dsp", "parport_register_driver", "ipmi_smi_watcher_register", NULL
};

/* Open() bodies that do nothing else are "empty". */
static const char *const trivial_open[] = {
	"nonseekable_open", "stream_open", "simple_open", "generic_file_open", NULL
};

static int in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

static int find_global(const struct audit *a, const struct csrc *c, int i)
{
	int k;

	for (k = 0; k < a->nr_g; k++)
		if (tok_is(c, i, a->g[k].name))
			return k;
	return -1;
}

/* Is the use of a global at token i a write?  g = x, g.f = x, g[i]++, &g. */
static int is_write(const struct csrc *c, int i, int lb, int init_only)
{
	int j = tok_chain_end(c, i), call;

	if (tok_is(c, i - 1, "++") || tok_is(c, i - 1, "--"))
		return 1;
	if (tok_is_assign(c, j))
		return 1;
	if (!tok_is(c, i - 1, "&"))
		return 0;
	if (!init_only)
		return 1;
	call = tok_enclosing_call(c, i, lb);	/* mutex_init(&g), memset(&g, ...) */
	if (call < 0)
		return 0;
	{
		char *name = tok_dup(c, call);
		int yes = strcasestr(name, "init") || strstr(name, "memset") ||
			  strstr(name, "memcpy") || strstr(name, "set_bit");

		free(name);
		return yes;
	}
}

static void add_use(struct afunc *f, int g, int write, int init, int line)
{
	int k;

	for (k = 0; k < f->nr_u; k++)
		if (f->u[k].g == g) {
			if (write && !f->u[k].write) {
				f->u[k].write = 1;
				f->u[k].line = line;
			}
			f->u[k].init |= init;
			return;
		}
	f->u = realloc(f->u, (f->nr_u + 1) * sizeof(*f->u));
	f->u[f->nr_u++] = (struct ause){ g, write, line, init };
}

static void add_call(struct afunc *f, const char *name)
{
	int k;

	for (k = 0; k < f->nr_calls; k++)
		if (!strcmp(f->calls[k], name))
			return;
	f->calls = realloc(f->calls, (f->nr_calls + 1) * sizeof(*f->calls));
	f->calls[f->nr_calls++] = strdup(name);
}

/* Names a function's parameters and declarations shadow. */
static int shadowed(const struct csrc *c, const struct cfunc *fn, int i)
{
	int k, rb = c->t[fn->lbrace].match;

	for (k = fn->lparen + 1; k < rb; k++) {
		if (k == i || c->t[k].kind != CT_IDENT || c->t[k].len != c->t[i].len ||
		    memcmp(c->text + c->t[k].off, c->text + c->t[i].off, c->t[k].len))
			continue;
		/* "type name," "type name)" "type name;" "type name =" at a declaration */
		if ((k < fn->lbrace && (tok_is(c, k + 1, ",") || tok_is(c, k + 1, ")"))) ||
		    (k > fn->lbrace && c->t[k - 1].kind == CT_IDENT && !is_keyword(c, k - 1) &&
		     (tok_is(c, k + 1, ";") || tok_is(c, k + 1, "=") || tok_is(c, k + 1, ","))))
			return 1;
	}
	return 0;
}

static int is_empty_open(const struct csrc *c, const struct cfunc *fn)
{
	int rb = c->t[fn->lbrace].match, i = fn->lbrace + 1, e;

	for (; i < rb; i = e + 1) {
		e = stmt_end(c, i, rb);
		if (!tok_is(c, i, "return"))
			return 0;
		if (e == i + 1 || (e == i + 2 && c->t[i + 1].kind != CT_IDENT) ||
		    (e == i + 3 && tok_is(c, i + 1, "-")))
			continue;	/* return; return 0; return -ENODEV; */
		if (c->t[i + 1].kind == CT_IDENT && tok_is(c, i + 2, "(")) {
			char *callee = tok_dup(c, i + 1);
			int ok = in_list(trivial_open, callee);

			free(callee);
			if (ok && c->t[i + 2].match == e - 1)
				continue;
		}
		return 0;
	}
	return 1;
}

struct gctx {
	const struct audit *a;
	const struct cfunc *fn;
};

/* A file-scope variable that is state (not a lock), not shadowed here. */
static int state_global(void *data, const struct csrc *c, int i)
{
	const struct gctx *x = data;
	int g = find_global(x->a, c, i);

	if (g < 0 || shadowed(c, x->fn, i) || audit_sync_type(x->a->g[g].type))
		return -1;
	return g;
}

static void scan_function(struct audit *a, const struct csrc *c, const struct cfunc *fn,
			  const char *file)
{
	struct afunc *f;
	int i, rb = c->t[fn->lbrace].match;

	a->f = realloc(a->f, (a->nr_f + 1) * sizeof(*a->f));
	f = &a->f[a->nr_f++];
	memset(f, 0, sizeof(*f));
	f->name = strdup(fn->name);
	f->file = strdup(file);
	f->line = fn->line;
	f->lines = c->t[rb].line - fn->line + 1;
	for (i = fn->lbrace + 1; i < rb; i++) {
		int g;

		if (c->t[i].kind != CT_IDENT || tok_is(c, i - 1, ".") || tok_is(c, i - 1, "->"))
			continue;
		if (tok_is(c, i + 1, "(") && !is_keyword(c, i)) {
			char *name = tok_dup(c, i);

			add_call(f, name);
			free(name);
		}
		g = find_global(a, c, i);
		if (g >= 0 && !shadowed(c, fn, i))
			add_use(f, g, is_write(c, i, fn->lbrace, 0), is_write(c, i, fn->lbrace, 1),
				c->t[i].line);
	}
	f->empty = is_empty_open(c, fn);
	audit_scan_writes(f, c, fn, state_global, &(struct gctx){ a, fn });
}

/* An if whose branch leaves the function: error handling, not initialization. */
static int error_branch(const struct csrc *c, int i, int rb)
{
	int e = stmt_end(c, i, rb), k;

	for (k = i; k <= e; k++)
		if (tok_is(c, k, "return") || tok_is(c, k, "goto"))
			return 1;
	return 0;
}

/* After a registration at token k of fn: what initializes state open()/ioctl() read? */
static void check_order(struct audit *a, const struct csrc *c, const struct cfunc *fn,
			const char *file, int k, const char *readers)
{
	int i, rb = c->t[fn->lbrace].match, g;
	char *reg = tok_dup(c, k);

	for (i = c->t[k + 1].match + 1; i < rb; i++) {
		struct afinding fd = { 0 };
		const struct afunc *callee;

		if (tok_is(c, i, "if") && error_branch(c, i, rb)) {
			i = stmt_end(c, i, rb);	/* "if (err) { ...; return err; }" */
			continue;
		}
		if (tok_is(c, i, "return") || (c->t[i].kind == CT_IDENT && tok_is(c, i + 1, ":") &&
					       (tok_is(c, i - 1, ";") || tok_is(c, i - 1, "}"))))
			break;	/* the success path ends; error unwinding follows */
		if (c->t[i].kind != CT_IDENT || tok_is(c, i - 1, ".") || tok_is(c, i - 1, "->"))
			continue;
		g = find_global(a, c, i);
		if (g >= 0 && readers[g] && is_write(c, i, fn->lbrace, 1) && !shadowed(c, fn, i)) {
			fd.var = strdup(a->g[g].name);
			fd.how = strdup("set here");
		} else if (tok_is(c, i + 1, "(")) {
			char *name = tok_dup(c, i);
			int u;

			callee = audit_func(a, name);
			free(name);
			for (u = 0; callee && u < callee->nr_u && !fd.var; u++)
				if (callee->u[u].init && readers[callee->u[u].g]) {
					struct strbuf how = STRBUF_INIT;

					strbuf_addf(&how, "set in %s()", callee->name);
					fd.var = strdup(a->g[callee->u[u].g].name);
					fd.how = how.buf;
				}
		}
		if (!fd.var)
			continue;
		fd.function = strdup(fn->name);
		fd.file = strdup(file);
		fd.reg_call = strdup(reg);
		fd.reg_line = c->t[k].line;
		fd.init_line = c->t[i].line;
		a->rbi = realloc(a->rbi, (a->nr_rbi + 1) * sizeof(*a->rbi));
		a->rbi[a->nr_rbi++] = fd;
	}
	free(reg);
}

/*
 * The file operations user space reaches once open() succeeded: functions
 * named in ".read = f", ".unlocked_ioctl = f" and the like.
 */
static void mark_fops(struct audit *a, const struct csrc *c)
{
	static const char *const members[] = {
		"read", "write", "read_iter", "write_iter", "poll", "unlocked_ioctl",
		"compat_ioctl", "ioctl", "mmap", "fasync", "flush", "llseek", NULL
	};
	const char *const *m;
	int i;

	for (i = 0; i + 3 < c->nr; i++) {
		struct afunc *f;
		char *name;

		if (!tok_is(c, i, ".") || !tok_is(c, i + 2, "=") || c->t[i + 3].kind != CT_IDENT)
			continue;
		for (m = members; *m && !tok_is(c, i + 1, *m); m++)
			;
		if (!*m)
			continue;
		name = tok_dup(c, i + 3);
		f = (struct afunc *)audit_func(a, name);
		free(name);
		if (f)
			f->is_fop = 1;
	}
}

static void mark_readers(const struct audit *a, const struct afunc *f, char *readers, int depth)
{
	int k;

	for (k = 0; k < f->nr_u; k++)
		readers[f->u[k].g] = 1;
	for (k = 0; depth && k < f->nr_calls; k++) {
		const struct afunc *callee = audit_func(a, f->calls[k]);

		if (callee && callee != f)
			mark_readers(a, callee, readers, depth - 1);
	}
}

static void find_registrations(struct audit *a, struct csrc *src, int nr_src, char *const *files,
			       const char *readers)
{
	int s, n, i, k;

	for (s = 0; s < nr_src; s++) {
		struct cfunc *fns;

		n = csrc_functions(&src[s], &fns);
		for (i = 0; i < n; i++) {
			const struct csrc *c = &src[s];
			int rb = c->t[fns[i].lbrace].match;

			for (k = fns[i].lbrace + 1; k < rb; k++) {
				char *name;
				struct strbuf sb = STRBUF_INIT;

				if (c->t[k].kind != CT_IDENT || !tok_is(c, k + 1, "(") ||
				    tok_is(c, k - 1, ".") || tok_is(c, k - 1, "->"))
					continue;
				name = tok_dup(c, k);
				if (in_list(registrations, name)) {
					strbuf_addf(&sb, "%s() in %s() at %s:%d", name, fns[i].name,
						    files[s], c->t[k].line);
					a->regs = realloc(a->regs, (a->nr_regs + 1) * sizeof(*a->regs));
					a->regs[a->nr_regs++] = sb.buf;
					check_order(a, c, &fns[i], files[s], k, readers);
				}
				free(name);
			}
		}
		cfuncs_release(fns, n);
	}
}

static int analyze_at(struct campaign *c, const struct cdriver *d, const char *root,
		      struct audit *a);

/*
 * The driver's own code, without the campaign's patches (its push-down
 * would hide an empty open() behind lock_kernel() and a single exit): the
 * pristine tree with the series but patches/drivers/<driver>/ applied.
 */
int audit_analyze(struct campaign *c, const struct cdriver *d, const char *root, struct audit *a)
{
	struct strbuf scratch = STRBUF_INIT, skip = STRBUF_INIT, base = STRBUF_INIT;
	int ret;

	if (root)
		return analyze_at(c, d, root, a);
	strbuf_addf(&skip, "drivers/%s/", d->id);
	if (!d->nr_files || campaign_base(c, d->files, d->nr_files, skip.buf, &scratch)) {
		ret = analyze_at(c, d, c->tree, a);	/* no pristine tree: the tree as is */
	} else {
		strbuf_addf(&base, "%s/a", scratch.buf);
		ret = analyze_at(c, d, base.buf, a);
		campaign_scratch_remove(scratch.buf);
	}
	strbuf_release(&scratch);
	strbuf_release(&skip);
	strbuf_release(&base);
	return ret;
}

static int analyze_at(struct campaign *c, const struct cdriver *d, const char *root,
		      struct audit *a)
{
	struct csrc *src = calloc(d->nr_files + 1, sizeof(*src));
	struct strbuf path = STRBUF_INIT;
	char *readers;
	int s, i, k, ret = 0;

	memset(a, 0, sizeof(*a));
	for (s = 0; s < d->nr_files && !ret; s++) {
		struct cglobal *g;
		int n;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", root, d->files[s]);
		if (csrc_read(&src[s], path.buf)) {
			ret = -1;
			break;
		}
		n = csrc_globals(&src[s], &g);
		a->g = realloc(a->g, (a->nr_g + n) * sizeof(*a->g));
		a->g_file = realloc(a->g_file, (a->nr_g + n) * sizeof(*a->g_file));
		for (i = 0; i < n; i++) {
			if (g[i].is_const) {
				free(g[i].name);
				free(g[i].type);
				continue;
			}
			a->g_file[a->nr_g] = strdup(d->files[s]);
			a->g[a->nr_g++] = g[i];
		}
		free(g);
	}
	for (i = 0; i < s && !ret; i++) {
		struct cfunc *fns;
		int n = csrc_functions(&src[i], &fns);

		for (k = 0; k < n; k++)
			scan_function(a, &src[i], &fns[k], d->files[i]);
		cfuncs_release(fns, n);
		mark_fops(a, &src[i]);
	}
	readers = calloc(a->nr_g + 1, 1);
	for (i = 0; !ret && i < d->nr_e; i++) {
		struct afunc *f = (struct afunc *)audit_func(a, d->e[i].function);

		if (f)
			f->is_entry = 1;
	}
	for (i = 0; !ret && i < a->nr_f; i++)
		if (a->f[i].is_entry || a->f[i].is_fop)
			mark_readers(a, &a->f[i], readers, 1);
	if (!ret)
		find_registrations(a, src, s, d->files, readers);
	free(readers);
	for (i = 0; i < s; i++)
		csrc_release(&src[i]);
	free(src);
	strbuf_release(&path);
	if (ret)
		audit_release(a);
	return ret;
}

const struct afunc *audit_func(const struct audit *a, const char *name)
{
	int i;

	for (i = 0; i < a->nr_f; i++)
		if (!strcmp(a->f[i].name, name))
			return &a->f[i];
	return NULL;
}

void audit_release(struct audit *a)
{
	int i, k;

	for (i = 0; i < a->nr_f; i++) {
		for (k = 0; k < a->f[i].nr_calls; k++)
			free(a->f[i].calls[k]);
		free(a->f[i].calls);
		free(a->f[i].u);
		for (k = 0; k < a->f[i].nr_w; k++) {
			free(a->f[i].w[k].what);
			free(a->f[i].w[k].lock);
		}
		free(a->f[i].w);
		for (k = 0; k < a->f[i].nr_locked_calls; k++)
			free(a->f[i].locked_calls[k]);
		free(a->f[i].locked_calls);
		free(a->f[i].name);
		free(a->f[i].file);
	}
	for (i = 0; i < a->nr_rbi; i++) {
		free(a->rbi[i].function);
		free(a->rbi[i].file);
		free(a->rbi[i].reg_call);
		free(a->rbi[i].var);
		free(a->rbi[i].how);
	}
	for (i = 0; i < a->nr_regs; i++)
		free(a->regs[i]);
	for (i = 0; i < a->nr_g; i++)
		free(a->g_file[i]);
	cglobals_release(a->g, a->nr_g);
	free(a->g_file);
	free(a->f);
	free(a->rbi);
	free(a->regs);
	memset(a, 0, sizeof(*a));
}

int audit_effort(const struct cdriver *d, const struct audit *a, struct strbuf *why)
{
	int i, k, empty = 1, lines = 0, nr_g = 0;
	struct strbuf names = STRBUF_INIT;

	for (i = 0; i < a->nr_f; i++) {
		const struct afunc *f = &a->f[i];

		if (!f->is_entry)
			continue;
		empty &= f->empty;
		lines += f->lines;
		for (k = 0; k < f->nr_u; k++, nr_g++)
			if (nr_g < 3)
				strbuf_addf(&names, "%s%s", nr_g ? ", " : "", a->g[f->u[k].g].name);
	}
	if (d->wait || d->imbalances) {
		strbuf_addf(why, "%s%s%s: audit with care", d->wait ? "a wait chain under the BKL" : "",
			    d->wait && d->imbalances ? " and " : "",
			    d->imbalances ? "a BKL imbalance" : "");
		k = 4;
	} else if (a->nr_rbi) {
		strbuf_addf(why, "registers its device (%s()) before initializing '%s': fix the order",
			    a->rbi[0].reg_call, a->rbi[0].var);
		k = 3;
	} else if (empty && d->nr_e) {
		strbuf_addstr(why, "open() is empty: cycle the lock or drop it");
		k = 0;
	} else if (!nr_g) {
		strbuf_addstr(why, "open() touches no file-scope state: likely drop the lock");
		k = 1;
	} else {
		strbuf_addf(why, "open() touches %d file-scope variable%s (%s%s): check what serializes them",
			    nr_g, nr_g == 1 ? "" : "s", names.buf, nr_g > 3 ? ", ..." : "");
		k = 2;
	}
	if (d->sleep)
		strbuf_addf(why, "; %d sleep chain%s", d->sleep, d->sleep == 1 ? "" : "s");
	strbuf_release(&names);
	/* rank: the class first, then how much code there is to read */
	return k * 100000 + (lines < 99999 ? lines : 99999);
}
