/*
 * The BKL nests: lock_kernel() inside lock_kernel() only deepens it.
 * Taken twice and released once, a function returns with it held, even
 * when no path of it balances (it is not a lock helper: its unlock says
 * it meant to balance), and after a partial release on an error path.
 * The depth is capped: a loop that takes it on every turn ends, and
 * straight code nested deeper than the cap is not misread.
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int step(int n);

int twice_once(int n)
{
	lock_kernel();
	step(1);
	lock_kernel();
	step(2);
	unlock_kernel();
	return 0;
}

int twice_twice(int n)
{
	lock_kernel();
	lock_kernel();
	step(n);
	unlock_kernel();
	unlock_kernel();
	return 0;
}

int once_twice(int n)
{
	lock_kernel();
	step(n);
	unlock_kernel();
	unlock_kernel();
	return 0;
}

int partial_error(int n)
{
	lock_kernel();
	lock_kernel();
	if (step(n)) {
		unlock_kernel();
		return -1;
	}
	step(2);
	unlock_kernel();
	unlock_kernel();
	return 1;
}

int deep_ok(int n)
{
	lock_kernel();
	lock_kernel();
	lock_kernel();
	lock_kernel();
	lock_kernel();
	step(n);
	unlock_kernel();
	unlock_kernel();
	unlock_kernel();
	unlock_kernel();
	unlock_kernel();
	return 0;
}

int loop_deepens(int n)
{
	while (step(n)) {
		lock_kernel();
		lock_kernel();
		unlock_kernel();
	}
	return 0;
}

/* every path takes it once more than it releases, never nested: a helper */
void take_bkl(int n)
{
	lock_kernel();
	if (step(n)) {
		unlock_kernel();
		lock_kernel();
	}
}

/*
 * check-name: depth: nested takes and partial releases
 * check-command: imbalance
 * check-output-start
 * depth.c:22: warning: return with the BKL held in 'twice_once' (return-held)
 * depth.c:40: warning: unlock_kernel() without the BKL held in 'once_twice' (unlock-unheld)
 * depth.c:50: warning: return with the BKL held in 'partial_error' (return-held)
 * depth.c:81: warning: return with the BKL held in 'loop_deepens' (return-held)
 * check-output-end
 */
