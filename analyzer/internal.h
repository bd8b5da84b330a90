/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BKL_ANALYZER_INTERNAL_H
#define BKL_ANALYZER_INTERNAL_H

/*
 * What the analyzer's passes share inside one translation unit.  The
 * driver (analyzer.c) runs, per function: ast.c (inline call sites,
 * struct members of indirect calls, function-pointer stores), then
 * linearizes it, then paths.c (the path-sensitive walk of the IR), whose
 * summary check_sites.c, check_imbalance.c and facts.c turn into rows of
 * a struct tu; store.c writes those in one transaction.  resolve.c and
 * chains.c are the global pass over the whole DB.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sqlite3.h>
#include "analyzer/sparse.h"

/* A growable array: ARR_PUSH(a.items, a.nr, a.alloc) returns the new slot. */
#define ARR_PUSH(arr, nr, alloc)					\
	((nr) >= (alloc) ?						\
	 ((alloc) = (alloc) ? 2 * (alloc) : 16,				\
	  (arr) = xrealloc_arr((arr), (alloc), sizeof(*(arr)))) : 0,	\
	 memset(&(arr)[(nr)], 0, sizeof(*(arr))), &(arr)[(nr)++])
void *xrealloc_arr(void *p, size_t nr, size_t size);

/* Stable copies of names: sparse's show_ident() reuses its buffers. */
const char *intern(const char *s, size_t len);
const char *ident_str(const struct ident *id);

/*
 * A table slot's hash for an address (an interned name, a symbol: keys
 * compared by address) and a small int.  Mixed to the low bits (murmur3's
 * finalizer): the tables mask with size - 1, and an address times an odd
 * constant keeps the address's alignment zeros there, which used every
 * other slot.
 */
static inline size_t ptr_hash(const void *p, int n)
{
	unsigned long long h = (unsigned long long)(uintptr_t)p ^ ((unsigned long long)n << 48);

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* ---- the profiles (analyzer/profiles/) ---- */
enum prim_class {
	PRIM_LOCK, PRIM_UNLOCK, PRIM_LOCKED,	/* the lock itself */
	PRIM_TRYLOCK,				/* takes it when it returns nonzero */
	PRIM_DROP, PRIM_RETAKE,			/* released whatever its depth, retaken */
	PRIM_SLEEP, PRIM_WAIT,			/* chain terminals */
	PRIM_REGISTER,				/* FUNC registers a table */
	PRIM_REGISTER_STORE,			/* STRUCT.MEMBER = table registers it */
	PRIM_RESTRICT,				/* STRUCT calls in FUNC: registered tables */
	PRIM_DISPATCH,				/* KIND tables are reached from FUNC only */
	PRIM_ATOMIC,				/* never sleeps: chains stop there */
	PRIM_MACRO,				/* a function-like macro kept a call */
	PRIM_NR
};

struct prim_rule {
	enum prim_class cls;
	const char *name;	/* function name or glob (exact for restrict, dispatch) */
	const char *st, *member; /* REGISTER(_STORE): STRUCT.MEMBER holding the table;
				   RESTRICT, DISPATCH: the STRUCT called through */
	const char *kind;	/* REGISTER*, DISPATCH: chrdev, misc, ... */
	int arg;		/* 1-based: the gfp argument, or the registered table;
				   MACRO: the class of the rule it stands for */
	int line;
	int glob;		/* name is a glob (*?[): fnmatch, not strcmp */
	unsigned sizes;		/* SLEEP: an allocation's size arguments (bit N: N) */
};

#define PRIM_MAX_HEADERS	4

struct primitives {
	struct prim_rule *rules;
	int nr, alloc;
	unsigned long long gfp_reclaim;	/* the gfp bit that allows sleeping */
	const char *gfp_macro;		/* its name in the tree's headers, or NULL */
	const char *gfp_headers[PRIM_MAX_HEADERS];	/* tree-relative, in order */
	int nr_gfp_headers;
	int rel_lo, rel_hi;		/* kernel releases, VERSION * 1000 + PATCHLEVEL */
	const char *default_lock;	/* the kernel profile's lock profile */
	const char *context;		/* the lock's sparse context (kernel_lock) */
	const char *describe;		/* "the BKL", as messages name it */
	const char *lock_profile, *kernel_profile;	/* names, or the one file */
	const char *lock;		/* files.lock: lock_profile, "bkl" for a file */
	const char *source;		/* for messages */
	struct prim_index *index;	/* prim_match.c's, made by primitives_load() */
};

/*
 * path: one file with every rule (--primitives).  Else the built-in
 * profiles: kernel (NULL: "6.x"), then lock (NULL: the kernel profile's
 * default-lock).  -1 after error().
 */
int primitives_load(struct primitives *p, const char *path, const char *lock,
		    const char *kernel);
void primitives_release(struct primitives *p);
/* The first rule of class cls matching name (interned: answers are cached). */
const struct prim_rule *prim_match(const struct primitives *p, enum prim_class cls,
				   const char *name);
/* prim_match()'s index of p's rules, made once they are all read */
void prim_match_prepare(struct primitives *p);
/* prim_match()'s index and cached answers about p, freed */
void prim_match_release(struct primitives *p);
const char *prim_unlock_name(const struct primitives *p);
int profile_describe(const char *lock, const char **describe, const char **unlock);
/* The built-in kernel profile nearest a release; *exact: within its releases. */
const char *profile_kernel_for(int version, int patchlevel, int *exact);
struct strbuf;
/* The built-in profiles' names ending in suffix (".lock"), ", "-separated. */
void profiles_list(const char *suffix, struct strbuf *out);

/* ---- tree.c: the kernel tree a run analyzes ---- */
struct tree_info {
	char *root;			/* NULL: none found */
	int version, patchlevel, sublevel;
	char release[32];		/* "2.6.27" */
};
/* From the .c files and -I directories of a sparse command line. */
void tree_find(int argc, char **argv, struct tree_info *t);
/*
 * The value of the profile's gfp macro in the tree's headers: 0 (value,
 * header set), or -1 when it is not found or not a constant we read.
 */
int tree_gfp_bit(const struct tree_info *t, const struct primitives *p,
		 unsigned long long *value, const char **header);
void tree_release(struct tree_info *t);

/* ---- profile.c: the profiles of a run, told and kept in meta ---- */
struct analyzer_opts;
/* Load p for a run on tree t; said gets what the profile line tells. */
int profiles_choose(struct primitives *p, const struct analyzer_opts *o,
		    const struct tree_info *t, struct strbuf *said);
int profiles_store(sqlite3 *db, const struct primitives *p, const struct analyzer_opts *o,
		   const struct tree_info *t);
/* One lock's global pass: its profile, the kernel's the analysis stored. */
int profiles_from_db(sqlite3 *db, const struct analyzer_opts *o, const char *lock,
		     struct primitives *p);
/* How messages name a lock of the DB ("the BKL") and its unlock. */
void profiles_names(sqlite3 *db, const char *lock, char *name, size_t nsize,
		    char *unlock, size_t usize);

/* ---- one translation unit's facts ---- */
enum held { HELD_NO = 1, HELD_CALLER = 2, HELD_YES = 4 };	/* masks */
enum call_kind { CALL_DIRECT, CALL_MEMBER, CALL_POINTER };

struct fact_fn {
	const char *name, *file;
	int line, is_static, is_inline, coarse;
	int ctx_in, ctx_out;		/* its context annotation; -1: none */
	int partial;			/* sparse dropped some of its code (diag.c) */
};

struct fact_call {
	int fn;				/* index in tu->fns */
	int line;
	enum call_kind kind;
	const char *callee;		/* CALL_DIRECT */
	int callee_static;
	const char *st, *member;	/* CALL_MEMBER */
	const char *tbl;		/* CALL_MEMBER through this table variable */
	int tbl_static;
	struct symbol *obj;		/* ... through this static pointer's pointee */
	long long obj_off;		/* at this offset in it (objects.c) */
	const char *guard;		/* runs for these values of a parameter (guards.c) */
	const char *args;		/* direct, or through a table: constant arguments,
				   parameters passed on (guards.c) */
	int held;			/* enum held mask over all paths */
	int inlined;			/* an inline function, as the user called it */
	const char *inline_path;	/* made in an inlined body: inlined.c */
	int seq;
	int has_gfp;
	long long gfp;
};

struct fact_store {
	const char *st, *member, *value;
	int is_table, value_static;	/* value: a function, or a table variable */
	const char *tbl;		/* the variable whose member it is, if known */
	int tbl_static;
	const char *function;		/* NULL in a static initializer */
	const char *file;
	int line;
};

struct fact_reg {
	const char *kind;		/* chrdev, misc, ... */
	const char *via;		/* register_chrdev, or "cdev.ops" for a store */
	const char *st, *member;	/* the table is in this member of tbl */
	const char *tbl;		/* the variable passed, NULL: a pointer */
	int tbl_static;
	const char *function, *file;
	int line;
};

struct fact_row {			/* sites and imbalances */
	const char *file, *function, *kind, *callee;
	/* imbalances that stand only if the function is entered with the
	   lock held ("held") or not ("unheld"); NULL: either way */
	const char *entry;
	int line;
};

/* Work items, threads, workqueues and the waits that name them (work.c) */
struct fact_work {
	const char *kind;		/* work, thread, queue, wait-work, wait-wq, wait-thread */
	const char *object;		/* "struct foo+48", "var w+0" */
	int object_static;		/* a static variable's: its file's */
	const char *handler;		/* work, thread: the function it runs */
	int handler_static;
	const char *wq;			/* queue: the workqueue it is queued on */
	int wq_static;
	const char *via;		/* the call or macro */
	const char *function;		/* NULL: a variable's initializer */
	const char *file;
	int line;
};

/* A store into the object a static pointer points to (objects.c) */
struct fact_obj {
	struct symbol *obj;
	long long off;
	struct symbol *tbl;		/* the table stored there; NULL: something else */
};

struct tu {
	const char *path;		/* as given on the command line */
	int main_stream;
	struct fact_fn *fns;
	int nr_fns, alloc_fns;
	struct fact_call *calls;
	int nr_calls, alloc_calls;
	struct fact_store *stores;
	int nr_stores, alloc_stores;
	struct fact_reg *regs;
	int nr_regs, alloc_regs;
	struct fact_obj *objs;		/* stores into static pointers' pointees */
	int nr_objs, alloc_objs;
	struct fact_work *works;
	int nr_works, alloc_works;
	struct fact_row *sites;
	int nr_sites, alloc_sites;
	struct fact_row *imbs;
	int nr_imbs, alloc_imbs;
	int unresolved;			/* calls through pointers that are not struct members */
	const char *partial;		/* sparse's first message that dropped code, or NULL */
	const struct primitives *prims;
	/*
	 * The functions walked so far that take the lock on every path
	 * (+1) or release it on every path (-1): a call of one later in the
	 * file changes the caller's depth as lock_kernel() would (a static
	 * helper is defined before its callers).
	 */
	struct tu_helper {
		const char *name;
		int delta;
	} *helpers;
	int nr_helpers, alloc_helpers;
};

/* ---- diag.c: sparse's messages for the file (its stderr, out) ---- */
/* tu->partial and the functions that lost code to them */
void diag_partial(struct tu *tu, struct symbol_list *list, const char *out);
/* 1 if the file stored for path and lock is partial (a warning unless quiet) */
int diag_said(sqlite3 *db, const char *path, const char *lock, int quiet);

/* ---- ast.c: before linearizing a function ---- */
#define INLINE_DEPTH	8		/* inlines named in an inline path, at most */
struct inl_frame {
	struct symbol *fn;		/* an inline whose body ast.c is in */
	struct position at;		/* where it was called, in its caller's source */
};
struct inl_call {			/* a call in an inlined body (inlined.c) */
	int line;			/* the function's line it was moved to */
	struct symbol *fntype;		/* its IR call's first fntype */
	const char *path;		/* calls.inline_path */
	int used;
};
struct ast_info {
	int *ret_lines;			/* lines of the function's own return statements */
	int nr_ret, alloc_ret;
	struct inl_frame frames[INLINE_DEPTH];
	int nr_frames;			/* may exceed INLINE_DEPTH */
	struct inl_call *inl;
	int nr_inl, alloc_inl;
};
/* Inline call sites, the member map, stores in code, return lines. */
void ast_prepare(struct tu *tu, struct symbol *fn, struct ast_info *ai);
/* Stores in a variable's initializer (a file-scope or static table). */
void ast_initializer(struct tu *tu, struct symbol *var, const char *function);
/* struct tag of a member-call's fntype (insn->fntypes' first), or NULL. */
const char *ast_member_struct(struct symbol *member);
void ast_reset(void);
/* The line of the return statement a path leaves by, at ret from bb. */
int ast_ret_line(struct ast_info *ai, struct basic_block *bb, struct instruction *from,
		 struct instruction *ret);

/* ---- inlined.c: calls in inlined bodies (ast.c records, facts.c asks) ---- */
void inlined_reset(struct ast_info *ai);
void inlined_push(struct ast_info *ai, struct symbol *fn, struct position at);
void inlined_pop(struct ast_info *ai);
/* call, at its own position, in the bodies pushed, moved to line site */
void inlined_call(struct ast_info *ai, struct expression *call, int site);
/* an OP_CALL's inline path ("fsleep delay.h:60;..."), or NULL: its own */
const char *inlined_path(struct ast_info *ai, struct instruction *insn);

/* ---- paths.c: the path-sensitive walk of one function ---- */
struct call_info {
	struct instruction *insn;
	const struct prim_rule *prim;	/* lock/unlock/locked/sleep/wait rule */
	int held;			/* enum held mask */
	int unheld_unlock;		/* an unlock reached without the BKL: UNHELD_* */
	int helper;			/* a call of a tu_helper: its delta */
};

/* unless the function is entered with the lock held; whatever its entry */
enum { UNHELD_ENTRY = 1, UNHELD_SURE = 2 };

struct exit_info {
	int line;
	int delta;			/* depth at exit - expected (annotations) */
	int partial;			/* on a path that released it partly (nested) */
};

struct fn_summary {
	struct symbol *sym;
	const char *name, *file;
	int line, is_inline;
	struct call_info *calls;
	int nr_calls, alloc_calls;
	struct exit_info *exits;
	int nr_exits, alloc_exits;
	int coarse;			/* the path budget ran out: merged states */
	/* sparse's context annotation on the lock (__acquires: 0, 1); -1: none */
	int ctx_in, ctx_out;
	int effect;			/* fn_lock_effect(), once the walk is done */
};

int paths_walk(struct tu *tu, struct entrypoint *ep, struct ast_info *ai,
	       struct fn_summary *s);
void fn_summary_release(struct fn_summary *s);

/* ---- the checks and facts over a summary ---- */
void check_sites(struct tu *tu, struct fn_summary *s);
void check_imbalance(struct tu *tu, struct fn_summary *s);
/* +1: s takes the lock on every path, -1: releases it on every path; else 0 */
int fn_lock_effect(const struct fn_summary *s);
/* The depth change of a call of a helper walked before in this file (tu_helper). */
int tu_helper_delta(const struct tu *tu, const char *name);
void facts_function(struct tu *tu, struct fn_summary *s, struct entrypoint *ep,
		    struct ast_info *ai);
void facts_store_registrations(struct tu *tu);

/* work.c: work items, threads, workqueues (ast.c's walk calls in) */
void work_function(void);
int work_mark(void);
void work_call(struct tu *tu, struct expression *e, const char *function);
/* st, base: the struct and address of a member stored into (ast.c), or NULL */
void work_assign(struct tu *tu, struct expression *e, int mark, const char *function,
		 const char *st, struct expression *base);
void work_decl(struct symbol *sym, int mark);
void work_initializer(struct tu *tu, struct symbol *var);

/* objects.c: member calls through a file's static pointers */
/* the variable a value is the address of (&foo_fops), not a function */
struct symbol *arg_variable(pseudo_t p);
struct symbol *call_object(struct instruction *call, long long *off);
void objects_function(struct tu *tu, struct entrypoint *ep);
void objects_resolve(struct tu *tu);

/* guards.c: constant arguments, and the switch arms and ifs that test them */
struct guard_arm {
	long long begin, end;		/* begin > end: every other value */
	struct basic_block *target;
};
struct guard_test {			/* a switch or an if on a parameter */
	struct basic_block *bb;
	int param;			/* 1-based */
	int nr;
	int weak;			/* the arm any value may take, or -1 */
	unsigned long long mask;	/* a bit test: arm 0 has a bit of it set */
	struct guard_arm *arm;
};
#define GUARD_FEAS	4
struct guards {
	struct guard_test *test;
	int nr, alloc;
	unsigned char **reach;		/* per test, per arm: the blocks it reaches */
	int alloc_reach;
	size_t bytes;			/* of one arm's bitmap */
	int feas_param[GUARD_FEAS];	/* parameters tested against 0 ... */
	unsigned char *feas[GUARD_FEAS][2]; /* ... the blocks that run when 0, when not */
	int nr_feas;
};
void guards_prepare(struct guards *gd, struct entrypoint *ep);
const char *guard_of(const struct guards *gd, struct basic_block *bb);
const char *const_args(struct instruction *call);
/* feasible.c: the blocks that run when a parameter is 0, or not */
int sym_nonzero(struct symbol *sym);
int feasible_blocks(struct entrypoint *ep, int param, int nz, int nr_bbs,
		    unsigned char *reach, size_t bytes);
/* Position of an instruction as the user wrote it: file and line. */
const char *pos_file(struct position pos);

/* ---- limits.c: the child that analyzes one file ---- */
#define EXIT_SPARSE_ERROR	10	/* the file is not analyzed: its stderr says why */
/* In the child: time (s, 0 none) and memory (MiB, 0 none) limits, #include depth, stack. */
void limits_child(const char *file, int timeout, long max_mem_mib);

/* ---- store.c ---- */
struct file_info {
	const char *path, *hash, *flags;
	const char *lock;		/* files.lock: the lock profile's name */
	const char **deps;		/* headers sparse read */
	int nr_deps, alloc_deps;
};
/* In one transaction; header hashes come from the headers table's stamps. */
int store_tu(sqlite3 *db, const struct file_info *fi, const struct tu *tu);
int store_failed(sqlite3 *db, const struct file_info *fi, const char *err);
/* FNV-1a of a file's content as 16 hex digits into hex[17]; -1 if unreadable. */
int hash_file(const char *path, char hex[17]);

#endif
