/*
 * Correlated branches: a condition tested twice takes the same way both
 * times.  The kernel_locked() pattern is balanced, and its schedule()
 * runs without the BKL, so it makes no chain, neither in the function
 * nor in a caller that holds the BKL.  A flag set with the lock is
 * correlated the same way.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int kernel_locked(void);
extern void schedule(void);
extern int check(int n);

void release_and_sleep(void)
{
	int bkl = kernel_locked();

	if (bkl)
		unlock_kernel();
	schedule();
	if (bkl)
		lock_kernel();
}

int holder(int n)
{
	lock_kernel();
	release_and_sleep();
	unlock_kernel();
	return 0;
}

int flagged(int n)
{
	int locked = 0;

	if (check(n)) {
		lock_kernel();
		locked = 1;
	}
	check(n + 1);
	if (locked)
		unlock_kernel();
	return 0;
}

int same_test(int n)
{
	if (n > 3)
		lock_kernel();
	check(n);
	if (n > 3)
		unlock_kernel();
	return 0;
}

/*
 * check-name: correlated branches, the kernel_locked() pattern
 * check-command: imbalance
 * check-output-start
 * check-output-end
 * check-command: chains
 * check-output-start
 * check-output-end
 * check-command: chains --json
 * check-output-start
 * []
 * check-output-end
 * check-command: sites
 * check-output-start
 * correlated.c:21: warning: unlock_kernel() in 'release_and_sleep'
 * correlated.c:24: warning: lock_kernel() in 'release_and_sleep'
 * correlated.c:29: warning: lock_kernel() in 'holder'
 * correlated.c:31: warning: unlock_kernel() in 'holder'
 * correlated.c:40: warning: lock_kernel() in 'flagged'
 * correlated.c:45: warning: unlock_kernel() in 'flagged'
 * correlated.c:52: warning: lock_kernel() in 'same_test'
 * correlated.c:55: warning: unlock_kernel() in 'same_test'
 * check-output-end
 */
