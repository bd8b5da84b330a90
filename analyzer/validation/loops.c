/*
 * Loops are walked a bounded number of times.  Lock and unlock inside
 * the body balance.  Locking in the body and unlocking once after the
 * loop leaks on paths of two iterations and unlocks a BKL never taken on
 * the path of none.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int more(int n);
extern void work(int n);

int loop_ok(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		lock_kernel();
		work(i);
		unlock_kernel();
	}
	return 0;
}

int loop_break(int n)
{
	while (more(n)) {
		lock_kernel();
		if (n > 4) {
			unlock_kernel();
			break;
		}
		work(n);
		unlock_kernel();
	}
	return 0;
}

int loop_bad(int n)
{
	while (more(n))
		lock_kernel();
	unlock_kernel();
	return 0;
}

/*
 * check-name: loops, bounded
 * check-command: imbalance
 * check-output-start
 * loops.c:44: warning: unlock_kernel() without the BKL held in 'loop_bad' (unlock-unheld)
 * loops.c:45: warning: return with the BKL held in 'loop_bad' (return-held)
 * check-output-end
 */
