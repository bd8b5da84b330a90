/*
 * Sites inside inline helpers are where the helper is called, in the
 * caller: that is where the BKL is taken.  The helper's own body is not a
 * site (it has none of its own once inlined), and the imbalance analysis
 * sees through it.  An inline function whose address is taken is also
 * emitted out of line: its own body is then a site as well.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int do_read(int n);

struct foo {
	int locked;
};

static inline void foo_lock(struct foo *f)
{
	lock_kernel();
	f->locked = 1;
}

static inline void foo_unlock(struct foo *f)
{
	f->locked = 0;
	unlock_kernel();
}

/* an inline helper calling another one */
static inline int foo_read_locked(struct foo *f, int n)
{
	int ret;

	foo_lock(f);
	ret = do_read(n);
	foo_unlock(f);
	return ret;
}

int foo_read(struct foo *f, int n)
{
	int ret;

	foo_lock(f);
	ret = do_read(n);
	if (ret < 0)
		return ret;
	foo_unlock(f);
	return foo_read_locked(f, n);
}

struct foo_ops {
	int (*read)(struct foo *, int);
};

static inline int foo_read_all(struct foo *f, int n)
{
	int ret;

	lock_kernel();
	ret = do_read(n);
	unlock_kernel();
	return ret;
}

static const struct foo_ops ops = { .read = foo_read_all };

int foo_read_twice(struct foo *f, int n)
{
	return foo_read_all(f, n) + ops.read(f, n);
}

/*
 * check-name: sites through inline helpers
 * check-command: sites
 * check-output-start
 * inline.c:45: warning: lock_kernel() in 'foo_read'
 * inline.c:49: warning: unlock_kernel() in 'foo_read'
 * inline.c:50: warning: lock_kernel() in 'foo_read'
 * inline.c:50: warning: unlock_kernel() in 'foo_read'
 * inline.c:61: warning: lock_kernel() in 'foo_read_all'
 * inline.c:63: warning: unlock_kernel() in 'foo_read_all'
 * inline.c:71: warning: lock_kernel() in 'foo_read_twice'
 * inline.c:71: warning: unlock_kernel() in 'foo_read_twice'
 * check-output-end
 * check-command: imbalance
 * check-output-start
 * inline.c:48: warning: return with the BKL held in 'foo_read' (return-held)
 * check-output-end
 */
