/*
 * sparse's context annotations as evidence of how a function is entered:
 * __must_hold() and __releases() say its callers hold the lock, though
 * they are in files not analyzed (a function that is not static has no
 * callers we can count).  Such a function that drops the BKL and returns
 * on a path without taking it back breaks every caller: return-released.
 * The static helper it calls to drop the lock is entered held through it.
 * Without the annotation, a non-static function is not known to be
 * entered held: its return-released does not stand (plain_drop).
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
#define __must_hold(x) __attribute__((context(x, 1, 1)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int step(int n);

static void drop_it(void)
{
	unlock_kernel();
}

int wait_for_it(int n) __must_hold(kernel_lock)
{
	drop_it();
	if (step(n))
		return -4;
	lock_kernel();
	return 0;
}

int plain_drop(int n)
{
	unlock_kernel();
	if (step(n))
		return -4;
	lock_kernel();
	return 0;
}

/*
 * check-name: __must_hold says a non-static function is entered held
 * check-command: imbalance
 * check-output-start
 * annotation-evidence.c:27: warning: return with the BKL released in 'wait_for_it' (return-released)
 * annotation-evidence.c:34: warning: unlock_kernel() without the BKL held in 'plain_drop' (unlock-unheld)
 * check-output-end
 */
