/*
 * The BKL is recursive: depth counts.  Two locks and two unlocks
 * balance; two locks and one unlock on a path leak one level.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int step(int n);

int nested_ok(int n)
{
	lock_kernel();
	step(1);
	lock_kernel();
	step(2);
	unlock_kernel();
	step(3);
	unlock_kernel();
	return 0;
}

int nested_leak(int n)
{
	lock_kernel();
	lock_kernel();
	if (step(n)) {
		unlock_kernel();
		return -1;
	}
	unlock_kernel();
	unlock_kernel();
	return 0;
}

/* takes it on every path: a lock helper, not a leak */
void take_bkl(int n)
{
	lock_kernel();
	if (n)
		step(n);
}

/*
 * check-name: nesting: the depth counts
 * check-command: imbalance
 * check-output-start
 * nesting.c:29: warning: return with the BKL held in 'nested_leak' (return-held)
 * check-output-end
 */
