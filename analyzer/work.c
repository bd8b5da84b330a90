// SPDX-License-Identifier: GPL-2.0
/*
 * Work items, threads and workqueues, from a function's expanded AST
 * (ast.c's walk calls in here): which function a work item runs, which
 * thread a task pointer holds, which workqueue a work is queued on, and
 * which of them a wait names.  The global pass (deadlock.c) ties a wait
 * to the handlers it waits for.
 *
 * An object is named by where it lives: "struct foo+48" (byte 48 of some
 * struct foo: INIT_WORK(&x->w, fn) with x a struct foo *) or "var w+0"
 * (a global or static variable: DECLARE_WORK(w, fn)).  A delayed_work,
 * rcu_work or kthread_delayed_work begins with its work_struct (or
 * kthread_work), so `&x->dw` and `&x->dw.work` name the same object.
 * A task or workqueue pointer is named by where the pointer is stored
 * (x->thread, x->wq, system_wq).  A pointer passed to an inline function,
 * or held in a local initialized from it, is followed to what it was
 * initialized with; a pointer whose origin is unknown names the struct
 * it points to.  Work and its container reached only through a
 * parameter of their own type (flush_work(work)) name nothing.
 */
#include <stdio.h>
#include "analyzer/internal.h"

enum { W_WORK_ARG, W_WQ_ARG, W_THREAD_ARG };

struct wcall {
	const char *name;
	const char *kind;	/* the work_facts kind it makes */
	int arg;		/* 1-based: the object */
	int wq;			/* queue: the workqueue argument; -1: system_wq */
	int what;		/* W_*: how the object argument names it */
};

static const struct wcall wcalls[] = {
	{ "flush_work", "wait-work", 1, 0, W_WORK_ARG },
	{ "__flush_work", "wait-work", 1, 0, W_WORK_ARG },
	{ "cancel_work_sync", "wait-work", 1, 0, W_WORK_ARG },
	{ "flush_delayed_work", "wait-work", 1, 0, W_WORK_ARG },
	{ "cancel_delayed_work_sync", "wait-work", 1, 0, W_WORK_ARG },
	{ "flush_rcu_work", "wait-work", 1, 0, W_WORK_ARG },
	{ "kthread_flush_work", "wait-work", 1, 0, W_WORK_ARG },
	{ "kthread_cancel_work_sync", "wait-work", 1, 0, W_WORK_ARG },
	{ "kthread_cancel_delayed_work_sync", "wait-work", 1, 0, W_WORK_ARG },
	{ "flush_workqueue", "wait-wq", 1, 0, W_WQ_ARG },
	{ "__flush_workqueue", "wait-wq", 1, 0, W_WQ_ARG },
	{ "drain_workqueue", "wait-wq", 1, 0, W_WQ_ARG },
	{ "destroy_workqueue", "wait-wq", 1, 0, W_WQ_ARG },
	{ "flush_scheduled_work", "wait-wq", 0, 0, W_WQ_ARG },
	{ "kthread_stop", "wait-thread", 1, 0, W_THREAD_ARG },
	{ "queue_work_on", "queue", 3, 2, W_WORK_ARG },
	{ "queue_delayed_work_on", "queue", 3, 2, W_WORK_ARG },
	{ "mod_delayed_work_on", "queue", 3, 2, W_WORK_ARG },
	{ "queue_work", "queue", 2, 1, W_WORK_ARG },
	{ "queue_delayed_work", "queue", 2, 1, W_WORK_ARG },
	{ "mod_delayed_work", "queue", 2, 1, W_WORK_ARG },
	{ "queue_rcu_work", "queue", 2, 1, W_WORK_ARG },
	{ "schedule_work", "queue", 1, -1, W_WORK_ARG },
	{ "schedule_delayed_work", "queue", 1, -1, W_WORK_ARG },
	{ "schedule_work_on", "queue", 2, -1, W_WORK_ARG },
	{ "schedule_delayed_work_on", "queue", 2, -1, W_WORK_ARG },
};

/* functions whose first argument is the function a new thread runs */
static const char *const thread_creators[] = {
	"kthread_create_on_node", "kthread_create_on_cpu", "kthread_create", "kthread_run",
	NULL
};

/* the types a work or thread is reached through when nothing else is known */
static const char *const own_types[] = {
	"work_struct", "delayed_work", "rcu_work", "kthread_work", "kthread_delayed_work",
	"task_struct", "workqueue_struct", NULL
};

#define MAX_DEPTH	8
#define MAX_LOCALS	64

/* per function: locals assigned a new thread (t = kthread_run(fn, ...)) */
static struct {
	struct symbol *sym;
	const char *fn;
	int fn_static;
} locals[MAX_LOCALS];
static int nr_locals, nr_created;
static const char *created_fn;		/* the last thread function seen */
static int created_static;

struct obj {
	const char *root;	/* "struct foo" or "var w" */
	int is_static;		/* a static variable: its file's */
	long long off;
};

static struct symbol *strip(struct symbol *t)
{
	while (t && t->type == SYM_NODE)
		t = t->ctype.base_type;
	return t;
}

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

static struct expression *strip_casts(struct expression *e)
{
	while (e && (e->type == EXPR_CAST || e->type == EXPR_FORCE_CAST ||
		     e->type == EXPR_IMPLIED_CAST))
		e = e->cast_expression;
	return e;
}

/* The struct a pointer-typed expression points to, as an object root. */
static int type_root(struct expression *e, struct obj *o)
{
	struct symbol *t;
	char buf[160];

	if (!e || !e->ctype || e->ctype == &lazy_ptr_ctype)
		return -1;
	t = strip(e->ctype);
	if (!t || t->type != SYM_PTR)
		return -1;
	t = strip(t->ctype.base_type);
	if (!t || t->type != SYM_STRUCT || !t->ident || in_list(own_types, ident_str(t->ident)))
		return -1;
	snprintf(buf, sizeof(buf), "struct %s", ident_str(t->ident));
	o->root = intern(buf, strlen(buf));
	o->is_static = 0;
	o->off = 0;
	return 0;
}

static int is_local(struct symbol *s)
{
	return s && !(s->ctype.modifiers & (MOD_TOPLEVEL | MOD_STATIC));
}

/* The object an address expression points to. */
static int resolve_addr(struct expression *e, struct obj *o, int depth)
{
	struct expression *x = strip_casts(e);
	char buf[160];

	if (!x || depth > MAX_DEPTH)
		return -1;
	switch (x->type) {
	case EXPR_BINOP:
		if (x->op != '+' || !x->right || x->right->type != EXPR_VALUE)
			break;
		if (resolve_addr(x->left, o, depth + 1))
			break;
		o->off += x->right->value;
		return 0;
	case EXPR_SYMBOL:
		if (!x->symbol || !x->symbol->ident || is_local(x->symbol))
			break;
		snprintf(buf, sizeof(buf), "var %s", ident_str(x->symbol->ident));
		o->root = intern(buf, strlen(buf));
		o->is_static = !!(x->symbol->ctype.modifiers & MOD_STATIC);
		o->off = 0;
		return 0;
	case EXPR_PREOP:
		if (x->op == '&') {
			struct expression *y = strip_casts(x->unop);

			if (y && y->type == EXPR_PREOP && y->op == '*')
				return resolve_addr(y->unop, o, depth + 1);
			break;
		}
		/* a pointer loaded from a local: what the local was set to */
		if (x->op == '*' && x->unop && x->unop->type == EXPR_SYMBOL &&
		    is_local(x->unop->symbol) && x->unop->symbol->initializer &&
		    !resolve_addr(x->unop->symbol->initializer, o, depth + 1))
			return 0;
		break;
	default:
		break;
	}
	if (!type_root(x, o))
		return 0;
	return x != e ? type_root(e, o) : -1;
}

/* Where the pointer an expression's value was loaded from is stored. */
static int resolve_loc(struct expression *e, struct obj *o, int depth)
{
	struct expression *x = strip_casts(e);
	struct symbol *s;

	if (!x || depth > MAX_DEPTH || x->type != EXPR_PREOP || x->op != '*')
		return -1;
	s = x->unop && x->unop->type == EXPR_SYMBOL ? x->unop->symbol : NULL;
	if (s && is_local(s))
		return s->initializer ? resolve_loc(s->initializer, o, depth + 1) : -1;
	return resolve_addr(x->unop, o, depth + 1);
}

/* The function an expression names (fn, &fn, a cast of it). */
static struct symbol *fn_symbol(struct expression *e)
{
	struct symbol *t;

	e = strip_casts(e);
	while (e && e->type == EXPR_PREOP && (e->op == '&' || e->op == '*'))
		e = strip_casts(e->unop);
	if (!e || e->type != EXPR_SYMBOL || !e->symbol || !e->symbol->ident)
		return NULL;
	t = strip(e->symbol);
	return t && t->type == SYM_FN ? e->symbol : NULL;
}

static struct expression *nth(struct expression_list *args, int n)
{
	struct expression *x;
	int i = 0;

	FOR_EACH_PTR(args, x) {
		if (++i == n)
			return x;
	} END_FOR_EACH_PTR(x);
	return NULL;
}

static void add(struct tu *tu, const char *kind, const struct obj *o, const char *via,
		const char *function, struct position pos)
{
	struct fact_work *w = ARR_PUSH(tu->works, tu->nr_works, tu->alloc_works);
	char buf[200];

	snprintf(buf, sizeof(buf), "%s+%lld", o->root, o->off);
	w->kind = kind;
	w->object = intern(buf, strlen(buf));
	w->object_static = o->is_static;
	w->via = via;
	w->function = function;
	w->file = pos_file(pos);
	w->line = pos.line;
}

static void add_handler(struct tu *tu, const char *kind, const struct obj *o,
			struct symbol *fn, const char *via, const char *function,
			struct position pos)
{
	add(tu, kind, o, via, function, pos);
	tu->works[tu->nr_works - 1].handler = ident_str(fn->ident);
	tu->works[tu->nr_works - 1].handler_static = !!(fn->ctype.modifiers & MOD_STATIC);
}

void work_function(void)
{
	nr_locals = 0;
	created_fn = NULL;
}

int work_mark(void)
{
	return nr_created;
}

/* A call: a wait, a queueing, a thread created. */
void work_call(struct tu *tu, struct expression *e, const char *function)
{
	struct symbol *f = fn_symbol(e->fn);
	const char *name;
	struct obj o, q;
	char buf[200];
	size_t i;

	if (!f)
		return;
	name = ident_str(f->ident);
	if (in_list(thread_creators, name)) {
		struct symbol *t = fn_symbol(nth(e->args, 1));

		if (t) {
			created_fn = ident_str(t->ident);
			created_static = !!(t->ctype.modifiers & MOD_STATIC);
			nr_created++;
		}
		return;
	}
	for (i = 0; i < sizeof(wcalls) / sizeof(wcalls[0]); i++) {
		const struct wcall *c = &wcalls[i];
		struct expression *a;
		int ret;

		if (strcmp(c->name, name))
			continue;
		if (!c->arg) {		/* flush_scheduled_work() */
			o = (struct obj){ intern("var system_wq", 13), 0, 0 };
			add(tu, c->kind, &o, ident_str(f->ident), function, e->pos);
			return;
		}
		a = nth(e->args, c->arg);
		ret = c->what == W_WORK_ARG ? resolve_addr(a, &o, 0) : resolve_loc(a, &o, 0);
		if (ret)
			return;
		if (strcmp(c->kind, "queue")) {
			add(tu, c->kind, &o, ident_str(f->ident), function, e->pos);
			return;
		}
		if (c->wq < 0)
			q = (struct obj){ intern("var system_wq", 13), 0, 0 };
		else if (resolve_loc(nth(e->args, c->wq), &q, 0))
			return;
		add(tu, "queue", &o, ident_str(f->ident), function, e->pos);
		snprintf(buf, sizeof(buf), "%s+%lld", q.root, q.off);
		tu->works[tu->nr_works - 1].wq = intern(buf, strlen(buf));
		tu->works[tu->nr_works - 1].wq_static = q.is_static;
		return;
	}
}

/* The thread function a value holds: a local set from kthread_run(). */
static const char *local_thread(struct expression *e, int *is_static)
{
	struct expression *x = strip_casts(e);
	int i;

	if (!x || x->type != EXPR_PREOP || x->op != '*' || !x->unop ||
	    x->unop->type != EXPR_SYMBOL)
		return NULL;
	for (i = 0; i < nr_locals; i++)
		if (locals[i].sym == x->unop->symbol) {
			*is_static = locals[i].fn_static;
			return locals[i].fn;
		}
	return NULL;
}

static void remember_local(struct symbol *s, const char *fn, int fn_static)
{
	int i;

	for (i = 0; i < nr_locals; i++)
		if (locals[i].sym == s)
			break;
	if (i == MAX_LOCALS)
		return;
	if (i == nr_locals)
		nr_locals++;
	locals[i].sym = s;
	locals[i].fn = fn;
	locals[i].fn_static = fn_static;
}

static void thread_store(struct tu *tu, struct expression *left, const char *fn, int fn_static,
			 const char *function, struct position pos)
{
	struct expression *x = strip_casts(left);
	struct fact_work *w;
	struct obj o;

	if (!x || x->type != EXPR_PREOP || x->op != '*' || !x->unop)
		return;
	if (x->unop->type == EXPR_SYMBOL && is_local(x->unop->symbol)) {
		remember_local(x->unop->symbol, fn, fn_static);
		return;
	}
	if (resolve_addr(x->unop, &o, 0))
		return;
	add(tu, "thread", &o, "kthread_create", function, pos);
	w = &tu->works[tu->nr_works - 1];
	w->handler = fn;
	w->handler_static = fn_static;
}

/*
 * An assignment, after its operands were walked (mark: work_mark()
 * before): `W->func = fn` of a work_struct or kthread_work (INIT_WORK,
 * INIT_DELAYED_WORK, kthread_init_work), or a thread stored.
 */
void work_assign(struct tu *tu, struct expression *e, int mark, const char *function,
		 const char *st, struct expression *base)
{
	struct expression *l = e->left;
	struct symbol *m = l ? l->ctype : NULL, *fn;
	const char *tfn;
	int tstatic = 0;
	struct obj o;

	if (e->op != '=' || !l)
		return;
	if (nr_created != mark && created_fn) {
		thread_store(tu, l, created_fn, created_static, function, e->pos);
		return;
	}
	if ((tfn = local_thread(e->right, &tstatic))) {
		thread_store(tu, l, tfn, tstatic, function, e->pos);
		return;
	}
	if (!st || !base || !m || !m->ident || strcmp(ident_str(m->ident), "func") ||
	    (strcmp(st, "work_struct") && strcmp(st, "kthread_work")))
		return;
	fn = fn_symbol(e->right);
	if (!fn || resolve_addr(base, &o, 0))
		return;
	add_handler(tu, "work", &o, fn, "INIT_WORK", function, e->pos);
}

/* DECLARE_WORK(w, fn) and its kind: `.func = fn` in a variable's initializer. */
static void walk_init(struct tu *tu, struct symbol *var, struct symbol *agg, struct expression *e,
		      long long off)
{
	struct expression *x;
	struct symbol *m;

	if (!e)
		return;
	if (e->type == EXPR_INITIALIZER) {
		FOR_EACH_PTR(e->expr_list, x) {
			walk_init(tu, var, agg, x, off);
		} END_FOR_EACH_PTR(x);
		return;
	}
	if (e->type != EXPR_POS)
		return;
	m = e->ctype;
	x = e->init_expr;
	if (x && (x->type == EXPR_INITIALIZER || x->type == EXPR_POS)) {
		walk_init(tu, var, strip(m), x, off + e->init_offset);
		return;
	}
	if (agg && agg->ident && m && m->ident && !strcmp(ident_str(m->ident), "func") &&
	    (!strcmp(ident_str(agg->ident), "work_struct") ||
	     !strcmp(ident_str(agg->ident), "kthread_work"))) {
		struct symbol *fn = fn_symbol(x);
		struct obj o = { NULL, !!(var->ctype.modifiers & MOD_STATIC), off };
		char buf[160];

		if (!fn)
			return;
		snprintf(buf, sizeof(buf), "var %s", ident_str(var->ident));
		o.root = intern(buf, strlen(buf));
		add_handler(tu, "work", &o, fn, "DECLARE_WORK", NULL, e->pos);
	}
}

void work_initializer(struct tu *tu, struct symbol *var)
{
	struct symbol *t = strip(var);

	if (!var->ident || !var->initializer || !t || t->type != SYM_STRUCT || is_local(var))
		return;
	walk_init(tu, var, t, var->initializer, 0);
}

/* A local declared with an initializer that created a thread. */
void work_decl(struct symbol *sym, int mark)
{
	if (nr_created != mark && created_fn && is_local(sym))
		remember_local(sym, created_fn, created_static);
}
