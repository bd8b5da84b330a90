/*
 * sparse's context annotations count too: a call to an out-of-line helper
 * annotated __acquires(kernel_lock) takes the BKL for its caller (no site:
 * the site is in the helper), __acquire()/__release() statements adjust
 * the count (lib/test_bkl.c unbalances on purpose that way), and
 * __must_hold() says the caller holds it.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
#define __must_hold(x) __attribute__((context(x, 1, 1)))
#define __acquire(x) __context__(x, 1)
#define __release(x) __context__(x, -1)
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern void foo_lock(void) __acquires(kernel_lock);
extern void msleep(unsigned int msecs);

int uses_helper(int n)
{
	foo_lock();
	if (n)
		return -1;
	unlock_kernel();
	return 0;
}

void unbalanced_on_purpose(void)
{
	__acquire(kernel_lock);
	unlock_kernel();
	__acquire(kernel_lock);
	unlock_kernel();
	lock_kernel();
	unlock_kernel();
}

static void needs_bkl(void) __must_hold(kernel_lock)
{
	msleep(1);
	unlock_kernel();
	lock_kernel();
}

/*
 * check-name: __acquires helpers, __acquire() statements, __must_hold
 * check-command: imbalance
 * check-output-start
 * annotations.c:22: warning: return with the BKL held in 'uses_helper' (return-held)
 * check-output-end
 * check-command: chains
 * check-output-start
 * annotations.c:39: warning: 'needs_bkl' may sleep with the BKL held (sleep):
 *   needs_bkl  annotations.c:39
 *     msleep
 * check-output-end
 */
